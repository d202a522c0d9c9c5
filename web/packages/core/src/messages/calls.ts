/**
 * The EIP-5792 calls feature's texts (a host app's sendCalls, getCallsStatus and
 * getCapabilities): the errors EIP-5792 defines, codes 5700 to 5760, in its words. Loaded with
 * the feature, never with the host page.
 */
export const calls = {
  unsupportedNonOptionalCapability: (name: string) => `The wallet does not support the capability "${name}", which was not marked as optional.`,
  unsupportedChainId: (chainId: string) => `The wallet does not support chain ${chainId} for these calls.`,
  duplicateId: (id: string) => `There is already a bundle submitted with the id ${id}.`,
  unknownBundleId: (id: string) => `The bundle id ${id} is unknown or has not been submitted.`,
  bundleTooLarge: 'The call bundle is too large for the wallet to process.',
  atomicReadyUpgradeRejected: 'The wallet can send the calls atomically after an upgrade, but the upgrade was rejected.',
  atomicityNotSupported: 'The wallet does not support atomic execution, and the calls require it.',
  noCalls: 'There are no calls to send.',
}
