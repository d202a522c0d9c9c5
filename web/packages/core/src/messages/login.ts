/** The login feature's error texts (email, social and Farcaster logins to the embedded wallet); they load with its actions. */
export const login = {
  cancelled: 'The login was cancelled',
  blocked: 'Your browser blocked the login window',
  unavailable: 'Email and social login are not set up on this site.',
}
