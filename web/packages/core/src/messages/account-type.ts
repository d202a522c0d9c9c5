/** The Account view's account-type switch (the embedded wallet's smart account or EOA): loaded with the modal's views. */
export const accountType = {
  /** The switch's name, for assistive technology. */
  label: 'Account type',
  switched: (type: string) => `Switched to ${type}`,
  unavailable: 'The embedded wallet cannot switch its account type here',
}
