/**
 * A Wallet Standard Solana wallet for tests, injected into every page with `addInitScript`.
 *
 * It holds one real ed25519 key (WebCrypto in the page signs with it), registers itself with
 * the Wallet Standard ('wallet-standard:register-wallet', and again on 'wallet-standard:app-ready'),
 * and offers standard:connect (silent connect only once the site was authorised, remembered in
 * localStorage), standard:disconnect, standard:events, solana:signMessage,
 * solana:signTransaction and solana:signAndSendTransaction (signs the wire transaction's
 * message and sends it to the dev Solana runtime over JSON-RPC).
 *
 * Tests steer it through `window.__solanaWallet` (see SolanaWalletControl).
 */
import { createHash, createPrivateKey, sign as nodeSign } from 'node:crypto'

export interface SolanaWalletConfig {
  name: string
  /** JSON-RPC endpoint signAndSendTransaction sends to (the dev Solana runtime). */
  rpcUrl: string
  /** The key as JWK parts (base64url). */
  d: string
  x: string
  /** Base58 address of the key. */
  address: string
  chains: string[]
}

export interface SolanaWalletControl {
  rejectNext(): void
  /** Every feature call, in order. */
  log: { method: string; outcome: 'ok' | 'error'; detail?: string }[]
  state(): { connected: boolean; address: string }
  /** Signatures of transactions it sent (base58). */
  sent: string[]
}

export const SOLANA_WALLET_NAME = 'Sigil Solana Test Wallet'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

/** Base58 of bytes (for the test side; the page has its own copy). */
export function base58(bytes: Uint8Array): string {
  const digits: number[] = []
  for (const byte of bytes) {
    let carry = byte
    for (let i = 0; i < digits.length; i++) {
      carry += (digits[i] as number) << 8
      digits[i] = carry % 58
      carry = (carry / 58) | 0
    }
    while (carry) {
      digits.push(carry % 58)
      carry = (carry / 58) | 0
    }
  }
  let out = ''
  for (const byte of bytes) {
    if (byte !== 0) break
    out += '1'
  }
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i] as number]
  return out
}

/** A deterministic ed25519 key from a label: its JWK parts and base58 address. */
export function solanaKey(label: string): { d: string; x: string; address: string; sign(message: Uint8Array): Uint8Array } {
  const seed = createHash('sha256').update(label).digest()
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed])
  const key = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
  const jwk = key.export({ format: 'jwk' }) as { d: string; x: string }
  return {
    d: jwk.d,
    x: jwk.x,
    address: base58(Buffer.from(jwk.x, 'base64url')),
    // ed25519: node's crypto.sign takes no digest algorithm for it.
    sign: (message) => new Uint8Array(nodeSign(null, Buffer.from(message), key)),
  }
}

/** The script itself: it runs in the page and must not close over anything. */
export function installSolanaWallet(config: SolanaWalletConfig): void {
  const w = window as unknown as Record<string, unknown>
  if (w.__solanaWallet) return
  const STORAGE_KEY = '__sigilSolanaWallet'
  const REJECTED = Object.assign(new Error('User rejected the request.'), { code: 4001 })
  const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
  const fromB64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))
  const b58 = (bytes: Uint8Array) => {
    const digits: number[] = []
    for (const byte of bytes) {
      let carry = byte
      for (let i = 0; i < digits.length; i++) {
        carry += (digits[i] as number) << 8
        digits[i] = carry % 58
        carry = (carry / 58) | 0
      }
      while (carry) {
        digits.push(carry % 58)
        carry = (carry / 58) | 0
      }
    }
    let out = ''
    for (const byte of bytes) {
      if (byte !== 0) break
      out += '1'
    }
    for (let i = digits.length - 1; i >= 0; i--) out += ALPHA[digits[i] as number]
    return out
  }

  const publicKey = fromB64url(config.x)
  const keyPromise = crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', d: config.d, x: config.x, ext: true }, { name: 'Ed25519' }, false, ['sign'])
  const sign = async (message: Uint8Array) => new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, await keyPromise, message as BufferSource))

  const features = ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'] as const
  const account = { address: config.address, publicKey, chains: config.chains, features, label: config.name }
  let authorised = localStorage.getItem(STORAGE_KEY) === 'authorised'
  let rejectNext = false
  const log: SolanaWalletControl['log'] = []
  const sent: string[] = []
  const listeners = new Set<(p: { accounts?: unknown[] }) => void>()

  const approve = (method: string) => {
    if (rejectNext) {
      rejectNext = false
      log.push({ method, outcome: 'error', detail: 'rejected' })
      throw REJECTED
    }
    log.push({ method, outcome: 'ok' })
  }

  /** Signs the message part of a wire transaction in the slot of this key; returns the new wire bytes and the signature. */
  async function signWire(wire: Uint8Array): Promise<{ signed: Uint8Array; signature: Uint8Array }> {
    const count = wire[0] as number
    if (count >= 0x80) throw new Error('test wallet: too many signatures')
    const message = wire.subarray(1 + 64 * count)
    const versioned = ((message[0] as number) & 0x80) !== 0
    const header = versioned ? 1 : 0
    const required = message[header] as number
    const keysAt = header + 4
    let slot = -1
    for (let i = 0; i < required; i++) {
      const key = message.subarray(keysAt + 32 * i, keysAt + 32 * (i + 1))
      if (key.every((b, j) => b === publicKey[j])) slot = i
    }
    if (slot < 0) throw new Error('test wallet: the transaction does not need this account to sign')
    const signature = await sign(message)
    const signed = new Uint8Array(wire)
    signed.set(signature, 1 + 64 * slot)
    return { signed, signature: signed.subarray(1, 65) }
  }

  const wallet = {
    version: '1.0.0',
    name: config.name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiBmaWxsPSIjOTk0NWZmIi8+PC9zdmc+',
    chains: config.chains,
    get accounts() {
      return authorised ? [account] : []
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        async connect(input?: { silent?: boolean }) {
          if (input?.silent) return { accounts: authorised ? [account] : [] }
          approve('standard:connect')
          authorised = true
          localStorage.setItem(STORAGE_KEY, 'authorised')
          for (const l of [...listeners]) l({ accounts: [account] })
          return { accounts: [account] }
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        async disconnect() {
          log.push({ method: 'standard:disconnect', outcome: 'ok' })
          authorised = false
          localStorage.removeItem(STORAGE_KEY)
        },
      },
      'standard:events': {
        version: '1.0.0',
        on(_event: 'change', listener: (p: { accounts?: unknown[] }) => void) {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        async signMessage(...inputs: { account: { address: string }; message: Uint8Array }[]) {
          approve('solana:signMessage')
          return Promise.all(inputs.map(async ({ message }) => ({ signedMessage: message, signature: await sign(message) })))
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signTransaction(...inputs: { transaction: Uint8Array }[]) {
          approve('solana:signTransaction')
          return Promise.all(inputs.map(async ({ transaction }) => ({ signedTransaction: (await signWire(transaction)).signed })))
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(...inputs: { transaction: Uint8Array; chain: string }[]) {
          approve('solana:signAndSendTransaction')
          const out: { signature: Uint8Array }[] = []
          for (const { transaction } of inputs) {
            const { signed, signature } = await signWire(transaction)
            const res = await fetch(config.rpcUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [toB64(signed), { encoding: 'base64' }] }),
            })
            const answer = (await res.json()) as { result?: string; error?: { message: string } }
            if (answer.error) throw new Error(answer.error.message)
            sent.push(b58(signature))
            out.push({ signature: new Uint8Array(signature) })
          }
          return out
        },
      },
    },
  }

  const register = (api: { register(wallet: unknown): unknown }) => api.register(wallet)
  window.addEventListener('wallet-standard:app-ready', (event) => register((event as CustomEvent).detail))
  window.dispatchEvent(new CustomEvent('wallet-standard:register-wallet', { detail: register }))

  const control: SolanaWalletControl = {
    rejectNext: () => {
      rejectNext = true
    },
    log,
    sent,
    state: () => ({ connected: authorised, address: config.address }),
  }
  w.__solanaWallet = control
}
