/** What the demo calls on the SGL token (ERC-20). */
export const erc20Abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'approve',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'spender', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [{ type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'owner', type: 'address' }],
    outputs: [{ type: 'uint256' }],
  },
] as const

/**
 * The EIP-712 message the demo signs: a greeting from the connected account, on the chain it is
 * on. The e2e tests import it to recover the signer.
 */
export function greetingTypedData(from: `0x${string}`, chainId: number) {
  return {
    domain: { name: 'Sigil demo', version: '1', chainId },
    types: {
      Greeting: [
        { name: 'text', type: 'string' },
        { name: 'from', type: 'address' },
      ],
    },
    primaryType: 'Greeting',
    message: { text: 'Hello from the Sigil demo', from },
  } as const
}

/** What the provider card's "Sign message" signs (personal_sign). */
export const DEMO_MESSAGE = 'Hello from the Sigil demo'
