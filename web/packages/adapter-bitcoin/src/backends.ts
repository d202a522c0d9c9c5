/*
 * The ways a Bitcoin wallet is reached:
 *   - sats-connect (Xverse, Leather, Magic Eden, …): wallets listed in `window.btc_providers`,
 *     each a JSON-RPC `request(method, params)` object at a window path; spoken to through
 *     @sats-connect/core, loaded when first used.
 *   - Unisat's injected `window.unisat`.
 *   - Wallet Standard wallets with bitcoin: chains and the bitcoin:connect feature.
 */
import type { Connector } from '@sigil/core'
import type { Wallet } from '@wallet-standard/base'
import { addressType } from './address.js'
import type { BitcoinBackend } from './connector.js'
import { base64ToBytes, base64ToHex, bytesToBase64, hexToBase64, type AddressPurpose, type BitcoinAccount } from './provider.js'

/** A sats-connect provider as wallets list it in `window.btc_providers`. */
export interface SatsConnectProviderInfo {
  id: string
  name: string
  icon?: string
  webUrl?: string
  methods?: string[]
}

/** sats-connect's "user rejected" code; the modal's is 4001. */
const SATS_USER_REJECTION = -32000

/** Throws a sats-connect error answer as an error with the modal's codes. */
function fail(error: { code: number; message: string }): never {
  throw Object.assign(new Error(error.message), { code: error.code === SATS_USER_REJECTION ? 4001 : error.code })
}

interface SatsAddress {
  address: string
  publicKey?: string
  purpose: string
  addressType?: string
}

const fromSats = (list: readonly SatsAddress[]): BitcoinAccount[] =>
  list
    .filter((a) => a.purpose === 'payment' || a.purpose === 'ordinals')
    .map((a) => ({
      address: a.address,
      purpose: a.purpose as AddressPurpose,
      ...(a.publicKey ? { publicKey: a.publicKey } : {}),
      ...(a.addressType ? { addressType: a.addressType } : {}),
    }))

export function satsConnectBackend(provider: SatsConnectProviderInfo): BitcoinBackend {
  const lib = () => import('@sats-connect/core')
  // biome-ignore lint/suspicious/noExplicitAny: sats-connect's request is typed per method; the answers are checked here
  const call = async (method: string, params: unknown): Promise<any> => {
    const { request } = await lib()
    const answer = await (
      request as (m: string, p: unknown, id: string) => Promise<{ status: string; result?: unknown; error?: { code: number; message: string } }>
    )(method, params, provider.id)
    if (answer.status !== 'success') fail(answer.error ?? { code: -32603, message: 'The wallet gave no answer' })
    return answer.result
  }
  const info: Connector = {
    id: `sats-connect:${provider.id}`,
    name: provider.name,
    chain: 'bip122',
    namespaces: ['bip122'],
    type: 'ANNOUNCED',
    ...(provider.icon ? { imageUrl: provider.icon } : {}),
  }
  return {
    info,
    async connect() {
      const result = (await call('getAccounts', { purposes: ['payment', 'ordinals'] })) as SatsAddress[]
      return fromSats(result)
    },
    async accounts() {
      // Needs no prompt: answers only while the site holds the wallet's permission.
      const result = (await call('wallet_getAccount', null)) as { addresses?: SatsAddress[] }
      return fromSats(result.addresses ?? [])
    },
    async disconnect() {
      await call('wallet_renouncePermissions', null)
    },
    async signMessage(account, message, protocol) {
      const result = (await call('signMessage', { address: account.address, message, protocol: protocol === 'bip322' ? 'BIP322' : 'ECDSA' })) as {
        signature: string
      }
      return result.signature
    },
    async signPsbt({ psbt, signInputs, broadcast }) {
      const result = (await call('signPsbt', { psbt, signInputs: signInputs ?? {}, broadcast: broadcast ?? false })) as { psbt: string; txid?: string }
      return { psbt: result.psbt, ...(result.txid ? { txid: result.txid } : {}) }
    },
    // sats-connect's own payment request, where the wallet lists it (or lists no methods at all).
    ...(!provider.methods || provider.methods.includes('sendTransfer')
      ? {
          async sendTransfer({ to, amount }: { to: string; amount: bigint }) {
            const result = (await call('sendTransfer', { recipients: [{ address: to, amount: Number(amount) }] })) as { txid?: string }
            if (!result?.txid) throw new Error('the wallet returned no transaction id')
            return result.txid
          },
        }
      : {}),
    watch(onAccounts) {
      let stop: (() => void) | undefined
      let stopped = false
      void lib()
        .then(({ addListener }) => {
          if (stopped) return
          const refresh = () => {
            call('wallet_getAccount', null).then(
              (r: { addresses?: SatsAddress[] }) => onAccounts(fromSats(r.addresses ?? [])),
              () => onAccounts([]),
            )
          }
          const add = addListener as unknown as (info: { eventName: string; cb: () => void }, id: string) => () => void
          const offAccount = add({ eventName: 'accountChange', cb: refresh }, provider.id)
          const offDisconnect = add({ eventName: 'disconnect', cb: () => onAccounts([]) }, provider.id)
          stop = () => {
            offAccount()
            offDisconnect()
          }
        })
        // A wallet gone from the page meanwhile, or one without events: nothing to watch.
        .catch(() => undefined)
      return () => {
        stopped = true
        stop?.()
      }
    },
  }
}

/** The part of Unisat's injected API used here. */
export interface UnisatApi {
  requestAccounts(): Promise<string[]>
  getAccounts(): Promise<string[]>
  getPublicKey(): Promise<string>
  signMessage(message: string, type?: 'ecdsa' | 'bip322-simple'): Promise<string>
  signPsbt(psbtHex: string, options?: { autoFinalized?: boolean; toSignInputs?: { index: number; address?: string }[] }): Promise<string>
  pushPsbt?(psbtHex: string): Promise<string>
  sendBitcoin?(toAddress: string, satoshis: number): Promise<string>
  disconnect?(): Promise<void>
  on?(event: string, listener: (...args: unknown[]) => void): void
  removeListener?(event: string, listener: (...args: unknown[]) => void): void
}

export function unisatBackend(unisat: UnisatApi, icon?: string): BitcoinBackend {
  const withKey = async (addresses: string[]): Promise<BitcoinAccount[]> => {
    const [address] = addresses
    if (!address) return []
    const publicKey = await unisat.getPublicKey().catch(() => undefined)
    const type = addressType(address)
    // Unisat has one address for both payments and inscriptions.
    return [{ address, purpose: 'payment', ...(publicKey ? { publicKey } : {}), ...(type ? { addressType: type } : {}) }]
  }
  return {
    info: {
      id: 'unisat',
      name: 'Unisat Wallet',
      chain: 'bip122',
      namespaces: ['bip122'],
      type: 'INJECTED',
      rdns: 'io.unisat',
      ...(icon ? { imageUrl: icon } : {}),
    },
    connect: async () => withKey(await unisat.requestAccounts()),
    accounts: async () => withKey(await unisat.getAccounts()),
    disconnect: async () => unisat.disconnect?.(),
    signMessage: (_account, message, protocol) => unisat.signMessage(message, protocol === 'bip322' ? 'bip322-simple' : 'ecdsa'),
    async signPsbt({ psbt, signInputs, broadcast }) {
      const toSignInputs = signInputs ? Object.entries(signInputs).flatMap(([address, indexes]) => indexes.map((index) => ({ index, address }))) : undefined
      const signedHex = await unisat.signPsbt(base64ToHex(psbt), { autoFinalized: Boolean(broadcast), ...(toSignInputs ? { toSignInputs } : {}) })
      const txid = broadcast && unisat.pushPsbt ? await unisat.pushPsbt(signedHex) : undefined
      return { psbt: hexToBase64(signedHex), ...(txid ? { txid } : {}) }
    },
    ...(typeof unisat.sendBitcoin === 'function'
      ? { sendTransfer: ({ to, amount }: { to: string; amount: bigint }) => (unisat.sendBitcoin as NonNullable<UnisatApi['sendBitcoin']>)(to, Number(amount)) }
      : {}),
    watch(onAccounts) {
      const listener = (accounts: unknown) => {
        void withKey(Array.isArray(accounts) ? accounts.filter((a): a is string => typeof a === 'string') : []).then(onAccounts)
      }
      unisat.on?.('accountsChanged', listener)
      return () => unisat.removeListener?.('accountsChanged', listener)
    },
  }
}

interface StandardBitcoinAccount {
  address: string
  publicKey: Uint8Array
  chains: readonly string[]
  features: readonly string[]
}
type Features = Record<string, Record<string, (...args: never[]) => unknown> | undefined>

/** Wallet Standard wallets with a bitcoin: chain and bitcoin:connect. */
export function isBitcoinStandardWallet(wallet: Wallet): boolean {
  return Boolean((wallet.features as Features)['bitcoin:connect']) && wallet.chains.some((c) => c.startsWith('bitcoin:'))
}

export function walletStandardBitcoinBackend(wallet: Wallet): BitcoinBackend {
  const features = () => wallet.features as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>
  const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  const toAccounts = (list: readonly StandardBitcoinAccount[], purposes?: readonly string[]): BitcoinAccount[] =>
    list.map((a, i) => {
      const type = addressType(a.address)
      return {
        address: a.address,
        publicKey: hex(a.publicKey),
        purpose: (purposes?.[i] === 'ordinals' || (purposes === undefined && type === 'p2tr') ? 'ordinals' : 'payment') as AddressPurpose,
        ...(type ? { addressType: type } : {}),
      }
    })
  const accountOf = (address: string) => (wallet.accounts as readonly StandardBitcoinAccount[]).find((a) => a.address === address)
  return {
    info: {
      id: `wallet-standard:${wallet.name.toLowerCase().replace(/\s+/g, '-')}`,
      name: wallet.name,
      chain: 'bip122',
      namespaces: ['bip122'],
      type: 'ANNOUNCED',
      imageUrl: wallet.icon,
    },
    async connect() {
      const purposes = ['payment', 'ordinals']
      const out = (await features()['bitcoin:connect']?.connect?.({ purposes })) as { accounts: StandardBitcoinAccount[] }
      return toAccounts(out.accounts, out.accounts.length === purposes.length ? purposes : undefined)
    },
    accounts: async () => toAccounts(wallet.accounts as readonly StandardBitcoinAccount[]),
    async disconnect() {
      await features()['standard:disconnect']?.disconnect?.()
    },
    async signMessage(account, message, protocol) {
      const standard = accountOf(account.address)
      const sign = features()['bitcoin:signMessage']?.signMessage
      if (!sign) throw new Error(`${wallet.name} does not sign messages`)
      const [out] = (await sign({
        account: standard,
        message: new TextEncoder().encode(message),
        ...(protocol === 'ecdsa' ? { protocol: 'ecdsa' } : {}),
      })) as { signature: Uint8Array }[]
      if (!out) throw new Error('the wallet returned no signature')
      return bytesToBase64(out.signature)
    },
    async signPsbt({ psbt, signInputs }) {
      const inputsToSign = Object.entries(signInputs ?? {}).map(([address, signingIndexes]) => ({ account: accountOf(address), signingIndexes }))
      const sign = features()['bitcoin:signTransaction']?.signTransaction
      if (!sign) throw new Error(`${wallet.name} does not sign PSBTs`)
      const [out] = (await sign({ psbt: base64ToBytes(psbt), inputsToSign })) as { signedPsbt: Uint8Array }[]
      if (!out) throw new Error('the wallet returned no PSBT')
      return { psbt: bytesToBase64(out.signedPsbt) }
    },
    watch(onAccounts) {
      const on = (wallet.features as unknown as { 'standard:events'?: { on(e: 'change', l: (p: { accounts?: readonly unknown[] }) => void): () => void } })[
        'standard:events'
      ]
      return (
        on?.on('change', ({ accounts }) => {
          if (accounts) onAccounts(toAccounts(accounts as readonly StandardBitcoinAccount[]))
        }) ?? (() => {})
      )
    },
  }
}
