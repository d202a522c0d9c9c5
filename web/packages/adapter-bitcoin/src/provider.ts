import type { CaipNetwork } from '@sigil/core'

/** What an address is for: paying (BTC) or holding ordinals / runes. */
export type AddressPurpose = 'payment' | 'ordinals'

export interface BitcoinAccount {
  address: string
  /** Hex public key, when the wallet gives it. */
  publicKey?: string
  purpose: AddressPurpose
  /** 'p2wpkh', 'p2tr', 'p2sh', … as the wallet reports it. */
  addressType?: string
}

/** Message signature kinds: BIP-322 (simple) or the legacy ECDSA "Bitcoin Signed Message" (BIP-137). */
export type MessageProtocol = 'bip322' | 'ecdsa'

export interface SignPsbtParams {
  /** The PSBT, base64. */
  psbt: string
  /** Inputs to sign, by the address whose key signs them. All the wallet can sign when omitted. */
  signInputs?: Record<string, number[]>
  /** Broadcast once signed (the wallet finalises and sends it). */
  broadcast?: boolean
}

/**
 * What `useAppKitProvider('bip122')` gives while a Bitcoin wallet is connected, the same
 * whichever way the wallet was reached (sats-connect, Unisat, Wallet Standard).
 */
export interface BitcoinProvider {
  readonly walletName: string
  /** Payment first, then ordinals, as connected. */
  readonly accounts: readonly BitcoinAccount[]
  readonly network: CaipNetwork | undefined
  /** Signs `message` with `address`'s key; resolves to the base64 signature. BIP-322 by default. */
  signMessage(params: { address: string; message: string; protocol?: MessageProtocol }): Promise<string>
  /** Signs a PSBT; resolves to the signed PSBT (base64) and, when broadcast, its txid. */
  signPsbt(params: SignPsbtParams): Promise<{ psbt: string; txid?: string }>
  /** Pays `amount` satoshis to `to` through the wallet (it picks the inputs and the fee); resolves to the txid. Only where the wallet can. */
  sendTransfer?(params: { to: string; amount: bigint }): Promise<string>
  /** @internal Follows the modal's network (the adapter's switchNetwork). */
  useNetwork(network: CaipNetwork): void
}

const HEX = /^[0-9a-f]*$/i

export function hexToBase64(hex: string): string {
  if (!HEX.test(hex) || hex.length % 2) throw new Error('not hex')
  let binary = ''
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16))
  return btoa(binary)
}

export function base64ToHex(base64: string): string {
  return Array.from(atob(base64), (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('')
}

export function base64ToBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
}

export function bytesToBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
}
