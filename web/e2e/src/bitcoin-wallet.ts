/**
 * A sats-connect-shaped Bitcoin wallet for tests: listed in `window.btc_providers`, answering
 * sats-connect's JSON-RPC `request(method, params)` (getInfo, getAccounts, wallet_getAccount,
 * signMessage, signPsbt, sendTransfer, wallet_renouncePermissions) and its `addListener`.
 *
 * Its keys are real secp256k1 keys held by the test process: the page asks the binding
 * `__sigilBitcoinSign` (context.exposeBinding) to sign, and the test process signs for real:
 * BIP-322 simple (P2WPKH witness over the BIP's virtual transactions), the legacy ECDSA message
 * signature (BIP-137) and PSBT inputs; a sendTransfer is a transaction the test process builds
 * from a mature UTXO of the payment address (10,000 sats of fee, the change back), signs and
 * broadcasts through the regtest node's Esplora route. The payment address is P2WPKH on regtest (bcrt1q…); the
 * ordinals address is the Taproot address of a second key (listed, never signing here).
 */
import { createHash } from 'node:crypto'
import * as ecc from '@bitcoinerlab/secp256k1'
import { initEccLib, networks, payments, Psbt, script, Transaction } from 'bitcoinjs-lib'
import bitcoinMessage from 'bitcoinjs-message'
import { ECPairFactory } from 'ecpair'
import { inject } from 'vitest'

initEccLib(ecc)
const ECPair = ECPairFactory(ecc)
const network = networks.regtest

export interface BitcoinWalletConfig {
  name: string
  providerId: string
  payment: { address: string; publicKey: string }
  ordinals: { address: string; publicKey: string }
}

export interface BitcoinWalletControl {
  rejectNext(): void
  log: { method: string; outcome: 'ok' | 'error' }[]
  state(): { connected: boolean }
}

export const BITCOIN_WALLET_NAME = 'Sigil Bitcoin Test Wallet'
export const BITCOIN_PROVIDER_ID = 'SigilTestBitcoinProvider'

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest()

function keyFrom(label: string) {
  return ECPair.fromPrivateKey(sha256(Buffer.from(label)), { network, compressed: true })
}

/** The wallet's keys from a label: payment (P2WPKH) and ordinals (P2TR). */
export function bitcoinKey(label: string) {
  const payment = keyFrom(label)
  const ordinals = keyFrom(`${label}/ordinals`)
  const p2wpkh = payments.p2wpkh({ pubkey: Buffer.from(payment.publicKey), network })
  const p2tr = payments.p2tr({ internalPubkey: Buffer.from(ordinals.publicKey.subarray(1, 33)), network })
  return {
    address: p2wpkh.address as string,
    publicKey: Buffer.from(payment.publicKey).toString('hex'),
    ordinalsAddress: p2tr.address as string,
    ordinalsPublicKey: Buffer.from(ordinals.publicKey).toString('hex'),
    payment,
    output: p2wpkh.output as Buffer,
  }
}

export function walletConfig(label: string): BitcoinWalletConfig {
  const key = bitcoinKey(label)
  return {
    name: BITCOIN_WALLET_NAME,
    providerId: BITCOIN_PROVIDER_ID,
    payment: { address: key.address, publicKey: key.publicKey },
    ordinals: { address: key.ordinalsAddress, publicKey: key.ordinalsPublicKey },
  }
}

/** BIP-322 "simple" signature of `message` by a P2WPKH key: the to_sign witness, base64. */
export function bip322Sign(label: string, message: string): string {
  const key = bitcoinKey(label)
  const tag = sha256(Buffer.from('BIP0322-signed-message'))
  const messageHash = sha256(Buffer.concat([tag, tag, Buffer.from(message, 'utf8')]))
  const toSpend = new Transaction()
  toSpend.version = 0
  toSpend.addInput(Buffer.alloc(32), 0xffffffff, 0, script.compile([script.OPS.OP_0 as number, messageHash]))
  toSpend.addOutput(key.output, 0)
  const toSign = new Transaction()
  toSign.version = 0
  toSign.addInput(toSpend.getHash(), 0, 0)
  toSign.addOutput(script.compile([script.OPS.OP_RETURN as number]), 0)
  const scriptCode = payments.p2pkh({ hash: key.output.subarray(2), network }).output as Buffer
  const sighash = toSign.hashForWitnessV0(0, scriptCode, 0, Transaction.SIGHASH_ALL)
  const signature = script.signature.encode(Buffer.from(key.payment.sign(sighash)), Transaction.SIGHASH_ALL)
  const items = [signature, Buffer.from(key.payment.publicKey)]
  const witness = Buffer.concat([Buffer.from([items.length]), ...items.flatMap((item) => [Buffer.from([item.length]), item])])
  return witness.toString('base64')
}

/** Legacy "Bitcoin Signed Message" (BIP-137, P2WPKH header), base64. */
export function ecdsaSign(label: string, message: string): string {
  const key = bitcoinKey(label)
  return bitcoinMessage.sign(message, Buffer.from(key.payment.privateKey as Uint8Array), true, { segwitType: 'p2wpkh' }).toString('base64')
}

/** The fee a test wallet's payment pays (sats). */
export const TEST_WALLET_FEE = 10_000

/** Pays `recipients` from a mature UTXO of the payment address, the change back to it; broadcast through Esplora; the txid. */
async function sendTransfer(label: string, recipients: { address: string; amount: number }[]): Promise<string> {
  const esplora = inject('e2e').bitcoin.esploraUrl
  const key = bitcoinKey(label)
  const total = recipients.reduce((n, r) => n + r.amount, 0)
  const utxos = (await (await fetch(`${esplora}/address/${key.address}/utxo`)).json()) as {
    txid: string
    vout: number
    value: number
    status: { confirmed: boolean; confirmations?: number }
  }[]
  const coin = utxos.find((u) => u.status.confirmed && (u.status.confirmations ?? 0) > 100 && u.value >= total + TEST_WALLET_FEE)
  if (!coin) throw new Error(`no mature UTXO of ${key.address} covers ${total} sats`)
  const psbt = new Psbt({ network }).addInput({ hash: coin.txid, index: coin.vout, witnessUtxo: { script: key.output, value: coin.value } })
  for (const r of recipients) psbt.addOutput({ address: r.address, value: r.amount })
  psbt.addOutput({ address: key.address, value: coin.value - total - TEST_WALLET_FEE })
  psbt.signInput(0, { publicKey: Buffer.from(key.payment.publicKey), sign: (hash: Buffer) => Buffer.from(key.payment.sign(hash)) })
  const hex = psbt.finalizeAllInputs().extractTransaction().toHex()
  const res = await fetch(`${esplora}/tx`, { method: 'POST', body: hex })
  const answer = await res.text()
  if (!res.ok) throw new Error(`broadcast refused: ${answer}`)
  return answer.trim()
}

/** Signs the PSBT inputs listed for the payment address (all inputs when none are listed). */
export function signPsbt(label: string, psbtBase64: string, signInputs: Record<string, number[]> | undefined): { psbt: string; hex?: string } {
  const key = bitcoinKey(label)
  const psbt = Psbt.fromBase64(psbtBase64, { network })
  const signer = { publicKey: Buffer.from(key.payment.publicKey), sign: (hash: Buffer) => Buffer.from(key.payment.sign(hash)) }
  const indexes = signInputs?.[key.address] ?? psbt.data.inputs.map((_, i) => i)
  for (const index of indexes) psbt.signInput(index, signer)
  return { psbt: psbt.toBase64() }
}

/** The in-page wallet: it must not close over anything. */
export function installBitcoinWallet(config: BitcoinWalletConfig): void {
  const w = window as unknown as Record<string, unknown>
  if (w.__bitcoinWallet) return
  const STORAGE_KEY = '__sigilBitcoinWallet'
  // The binding the test process exposes (it signs with the keys).
  const sign = (request: unknown) =>
    (w.__sigilBitcoinSign as (request: unknown) => Promise<{ signature?: string; psbt?: string; txid?: string; error?: string }>)(request)
  let authorised = localStorage.getItem(STORAGE_KEY) === 'authorised'
  let rejectNext = false
  const log: BitcoinWalletControl['log'] = []
  const listeners = new Map<string, Set<() => void>>()
  let counter = 0
  const ok = (result: unknown) => ({ jsonrpc: '2.0', id: `t${++counter}`, result })
  const err = (code: number, message: string) => ({ jsonrpc: '2.0', id: `t${++counter}`, error: { code, message } })
  const addresses = () => [
    { address: config.payment.address, publicKey: config.payment.publicKey, purpose: 'payment', addressType: 'p2wpkh' },
    { address: config.ordinals.address, publicKey: config.ordinals.publicKey.slice(2), purpose: 'ordinals', addressType: 'p2tr' },
  ]
  const approve = (method: string) => {
    if (rejectNext) {
      rejectNext = false
      log.push({ method, outcome: 'error' })
      return false
    }
    log.push({ method, outcome: 'ok' })
    return true
  }
  const provider = {
    async request(method: string, params: Record<string, unknown> | null) {
      switch (method) {
        case 'getInfo':
          return ok({
            version: '1.5.0',
            platform: 'web',
            methods: ['getAccounts', 'signMessage', 'signPsbt', 'sendTransfer', 'wallet_getAccount'],
            supports: [],
          })
        case 'getAccounts': {
          if (!approve(method)) return err(-32000, 'User rejected the request.')
          authorised = true
          localStorage.setItem(STORAGE_KEY, 'authorised')
          const purposes = (params?.purposes as string[] | undefined) ?? ['payment']
          return ok(addresses().filter((a) => purposes.includes(a.purpose)))
        }
        case 'wallet_getAccount':
          if (!authorised) return err(-32002, 'Access denied')
          return ok({ id: 'test', addresses: addresses(), walletType: 'software', network: { bitcoin: { name: 'Regtest' } } })
        case 'wallet_renouncePermissions':
          authorised = false
          localStorage.removeItem(STORAGE_KEY)
          log.push({ method, outcome: 'ok' })
          return ok(null)
        case 'signMessage':
        case 'signPsbt': {
          if (!authorised) return err(-32002, 'Access denied')
          if (!approve(method)) return err(-32000, 'User rejected the request.')
          const answer = await sign({ method, params })
          if (answer.error) return err(-32603, answer.error)
          return ok(method === 'signMessage' ? { signature: answer.signature, messageHash: '', address: params?.address, protocol: params?.protocol } : answer)
        }
        case 'sendTransfer': {
          if (!authorised) return err(-32002, 'Access denied')
          if (!approve(method)) return err(-32000, 'User rejected the request.')
          const answer = await sign({ method, params })
          if (answer.error) return err(-32603, answer.error)
          return ok({ txid: answer.txid })
        }
        default:
          return err(-32601, `Method not found: ${method}`)
      }
    },
    addListener(event: string, cb: () => void) {
      const set = listeners.get(event) ?? new Set()
      listeners.set(event, set)
      set.add(cb)
      return () => set.delete(cb)
    },
  }
  w[config.providerId] = provider
  const list = (w.btc_providers as unknown[] | undefined) ?? []
  list.push({
    id: config.providerId,
    name: config.name,
    icon: 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiBmaWxsPSIjZjc5MzFhIi8+PC9zdmc+',
    webUrl: 'https://example.invalid',
    methods: ['getAccounts', 'signMessage', 'signPsbt', 'sendTransfer', 'wallet_getAccount'],
  })
  w.btc_providers = list
  const control: BitcoinWalletControl = {
    rejectNext: () => {
      rejectNext = true
    },
    log,
    state: () => ({ connected: authorised }),
  }
  w.__bitcoinWallet = control
}

/** What the page's binding does: signs with the label's keys in the test process. */
export function bitcoinSigner(label: string) {
  return async (request: { method: string; params: Record<string, unknown> }) => {
    try {
      if (request.method === 'signMessage') {
        const message = String(request.params.message)
        const signature = request.params.protocol === 'ECDSA' ? ecdsaSign(label, message) : bip322Sign(label, message)
        return { signature }
      }
      if (request.method === 'sendTransfer') return { txid: await sendTransfer(label, request.params.recipients as { address: string; amount: number }[]) }
      return signPsbt(label, String(request.params.psbt), request.params.signInputs as Record<string, number[]> | undefined)
    } catch (error) {
      return { error: String((error as Error).message ?? error) }
    }
  }
}
