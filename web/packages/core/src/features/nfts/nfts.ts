/*
 * The NFTs feature's actions and selectors: the NFTs the active account holds on the active
 * chain, a page at a time from the Sigil server, and an NFT sent through the family's adapter
 * (`sendNft`): the receiver as a send's (an address, or a name resolved for the active network),
 * a whole amount up to what is held, the fee quoted and checked, then the transaction, a pending
 * Activity entry and the holdings asked for again. Loaded with the NFT views, never with the page.
 */
import { perClient } from '../../api/per-client.js'
import { activeCaipAccount, activeNetwork } from '../../active-account.js'

/** The network the active account is on (the list's chain). */
export { activeNetwork }
import type { NftTransfer, TransferFee } from '../../adapter.js'
import type { SigilClient } from '../../client.js'
import { providerOf } from '../../connection.js'
import { NotConnectedError, type SigilError, type UserRejectedRequestError } from '../../errors.js'
import { isUnsupportedNetwork } from '../../networks.js'
import { pushView, replaceView } from '../../router.js'
import type { RouteEntry, SigilState, SigilStore, ViewParams } from '../../store.js'
import {
  formatFee,
  InsufficientBalanceError,
  InvalidReceiverError,
  receiverOf,
  sendWithActivity,
  unitsOf,
  type NameNotResolvedError,
  type TransactionError,
} from '../send/send.js'
import { createNftClient } from './api.js'
import { InvalidNftAmountError, NftUnsupportedError } from './errors.js'
import { nftsOf, type Nft, type NftsState, type SentNft } from './state.js'

/** How long a sent NFT is kept off a listing that still shows it (the server indexes the chain behind it). */
export const SENT_NFT_TTL_MS = 10 * 60_000

const running = new WeakMap<SigilStore, Map<string, Promise<undefined>>>()

const nftApi = perClient(createNftClient)

/** The active account as CAIP-10 (`eip155:1:0x…`), the key of its list; undefined without an address. */
export const activeNftAccount = activeCaipAccount

/** Whether the active family has NFTs the modal lists and sends: its adapter can send them (EVM). */
export function nftsSupported(client: SigilClient): boolean {
  return typeof client.context.adapters[client.store.getState().activeNamespace]?.sendNft === 'function'
}

/** Whether the NFT view offers 'Send': the host left sending on, the family can send NFTs and the connected wallet can send. */
export function canSendNft(client: SigilClient): boolean {
  const state = client.store.getState()
  const provider = state.providers[state.activeNamespace]?.provider
  return client.options.features.send && nftsSupported(client) && client.context.adapters[state.activeNamespace]?.sendsWith?.(provider) !== false
}

/** The list's state for `account` (a fresh one while the store's is for another account or chain). */
export function nftsState(nfts: NftsState | undefined, account: string | undefined): NftsState {
  if (nfts && nfts.account === account) return nfts
  return { account, items: [], next: undefined, status: 'idle', sent: nfts?.sent ?? [] }
}

/** The listed NFT `id` of the active account, as the store has it now (its amount may have changed since a view took it). */
export function heldNft(state: SigilState, id: string): Nft | undefined {
  const nfts = state.nfts
  return nfts && nfts.account === activeNftAccount(state) ? nfts.items.find((n) => n.id === id) : undefined
}

const setNfts = (store: SigilStore, update: (nfts: NftsState) => Partial<NftsState>) =>
  store.setState((state) => {
    const nfts = nftsOf(state)
    return { nfts: { ...nfts, ...update(nfts) } }
  })

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** `incoming` as the account holds it after this session's sends: a send the listing does not show yet taken off. */
function afterSends(incoming: readonly Nft[], sent: readonly SentNft[], account: string): Nft[] {
  const out: Nft[] = []
  for (const nft of incoming) {
    const send = sent.find((s) => sameId(s.account, account) && sameId(s.id, nft.id) && s.held === nft.amount)
    if (!send) {
      out.push(nft)
      continue
    }
    const left = BigInt(send.held) - BigInt(send.amount)
    if (left > 0n) out.push({ ...nft, amount: left.toString() })
  }
  return out
}

/** Sends still to keep off listings: not expired, and not yet shown by the server (the id listed with another amount, or absent from a whole listing). */
function pendingSends(sent: readonly SentNft[], account: string, listed: readonly Nft[], complete: boolean, now = Date.now()): SentNft[] {
  return sent.filter((s) => {
    if (now - s.at > SENT_NFT_TTL_MS) return false
    if (!sameId(s.account, account)) return true
    const found = listed.find((n) => sameId(n.id, s.id))
    return found ? found.amount === s.held : !complete
  })
}

/** `incoming` after `existing`, each id once (the newer copy wins, in its first place). */
function mergeNfts(existing: readonly Nft[], incoming: readonly Nft[]): Nft[] {
  const byId = new Map<string, Nft>()
  for (const n of [...existing, ...incoming]) byId.set(n.id, n)
  return [...byId.values()]
}

export interface FetchNftsParameters {
  /** The page after those shown (scrolling to the end, or a retry after it failed). */
  next?: boolean
  /** Asks for the first page again and puts it in place of the list (after a send); a failure leaves the list as it was. */
  refresh?: boolean
}

/** Settles once the page is in the list, or its failure is in the state ('failed'). */
export type FetchNftsReturnType = undefined

/** A failed fetch is not thrown: the state says 'failed' and the tab offers to try again. */
export type FetchNftsErrorType = never

/**
 * Fetches the NFTs the active account holds on the active chain into `SigilState.nfts`: the
 * first page (50, newest first), or the next one by cursor; another account or chain starts a
 * new list and an answer for the old one is dropped. Only a family whose adapter can send NFTs
 * has them listed ('unsupported' otherwise). A failure is kept in the state: the first page's
 * leaves the list empty, a next page's keeps what is shown.
 */
export async function fetchNfts(client: SigilClient, params: FetchNftsParameters = {}): Promise<FetchNftsReturnType> {
  const { store } = client
  const state = store.getState()
  const account = activeNftAccount(state)
  const network = activeNetwork(state)
  if (!account) {
    setNfts(store, () => ({ account: undefined, items: [], next: undefined, status: 'idle' }))
    return
  }
  if (nftsOf(state).account !== account) setNfts(store, () => ({ account, items: [], next: undefined, status: 'idle' }))
  if (!nftsSupported(client) || isUnsupportedNetwork(network)) {
    setNfts(store, () => ({ items: [], next: null, status: 'unsupported' }))
    return
  }
  const nfts = nftsOf(store.getState())
  let cursor: string | undefined
  if (params.next) {
    if (typeof nfts.next !== 'string' || nfts.status === 'loading') return
    cursor = nfts.next
  } else if (!params.refresh && nfts.status !== 'idle' && !(nfts.status === 'failed' && nfts.items.length === 0)) {
    return
  }
  const key = `${account}|${cursor ?? ''}|${params.refresh ? 'refresh' : ''}`
  const inFlight = running.get(store) ?? new Map<string, Promise<undefined>>()
  running.set(store, inFlight)
  const already = inFlight.get(key)
  if (already) return already

  const chain = network.caipNetworkId
  const address = account.slice(chain.length + 1)
  const silent = params.refresh === true
  const run = (async (): Promise<undefined> => {
    if (!silent) setNfts(store, () => ({ status: 'loading' }))
    try {
      const page = await nftApi(client).getNfts(address, { chainId: chain, cursor })
      if (nftsOf(store.getState()).account !== account) return
      setNfts(store, (now) => {
        const listed = page.data.filter((n) => n.chain === chain)
        const sent = pendingSends(now.sent, account, listed, cursor === undefined && page.next === null)
        const incoming = afterSends(listed, sent, account)
        return { items: cursor ? mergeNfts(now.items, incoming) : mergeNfts([], incoming), next: page.next, status: 'ready', sent }
      })
    } catch {
      if (nftsOf(store.getState()).account !== account || silent) return
      setNfts(store, () => ({ status: 'failed' }))
    }
  })().finally(() => inFlight.delete(key))
  inFlight.set(key, run)
  return run
}

/** How many of `nft` `amount` asks for: a whole number from 1 to what is held (an ERC-721: 1, the amount left empty or 1); undefined otherwise. */
export function parseNftAmount(nft: Pick<Nft, 'standard' | 'amount'>, amount: string | undefined): bigint | undefined {
  const text = (amount ?? '').trim()
  if (nft.standard === 'erc721') return text === '' || text === '1' ? 1n : undefined
  if (!/^\d+$/.test(text) || !/^\d+$/.test(nft.amount)) return undefined
  const value = BigInt(text)
  return value >= 1n && value <= BigInt(nft.amount) ? value : undefined
}

/** What the NFT send form still lacks, in the order it is asked: its button says it (the send form's words). */
export type SendNftStep = 'invalidAmount' | 'addAddress' | 'resolving' | 'invalidAddress' | 'ready'

export interface SendNftStepParameters {
  nft: Pick<Nft, 'standard' | 'amount'>
  amount: string
  /** The receiver as typed. */
  to: string
  /** The receiver's address: `to` itself when it is one, the name's address once resolved; undefined otherwise. */
  receiver: string | undefined
  /** Whether a name is being resolved. */
  resolving?: boolean
}

/** The first thing the NFT send form lacks, or 'ready'. */
export function sendNftStep({ nft, amount, to, receiver, resolving }: SendNftStepParameters): SendNftStep {
  if (parseNftAmount(nft, amount) === undefined) return 'invalidAmount'
  if (!to.trim()) return 'addAddress'
  if (!receiver) return resolving ? 'resolving' : 'invalidAddress'
  return 'ready'
}

export interface SendNftParameters {
  /** The NFT, as the list gave it (its amount is what the account holds). */
  nft: Nft
  /** The receiver's address, or a name the network's family resolves (alice.eth). */
  to: string
  /** How many, for an ERC-1155: a whole number up to what is held. An ERC-721 sends 1. */
  amount?: string
  /** The fee quote the Preview showed (prepareSendNft's): the transaction keeps to its gas terms. */
  fee?: TransferFee
}

/** The transaction's id, once the chain has it. */
export type SendNftReturnType = string

export type SendNftErrorType =
  | NftUnsupportedError
  | NotConnectedError
  | InvalidReceiverError
  | NameNotResolvedError
  | InvalidNftAmountError
  | InsufficientBalanceError
  | UserRejectedRequestError
  | TransactionError
  | SigilError

/** What an NFT send will do once signed: the transfer (to the resolved address), the name it was given, and its fee. */
export interface PreparedNftSend {
  transfer: NftTransfer
  nft: Nft
  /** The receiver's name, when one was given and resolved to `transfer.to`. */
  name?: string
  /** The fee quote, when the adapter can tell it. */
  fee?: TransferFee
  /** The currency the fee is paid in. */
  feeCurrency: { symbol: string; decimals: number }
}

export type PrepareSendNftParameters = SendNftParameters
export type PrepareSendNftReturnType = PreparedNftSend
export type PrepareSendNftErrorType = Exclude<SendNftErrorType, UserRejectedRequestError | TransactionError>

/** What the active namespace sends NFTs with, or why it cannot. */
function nftSender(client: SigilClient) {
  const ctx = client.context
  const state = ctx.store.getState()
  const namespace = state.activeNamespace
  const chain = state.chains[namespace]
  const network = chain?.network.caipNetwork
  const adapter = ctx.adapters[namespace]
  if (!adapter?.sendNft) throw new NftUnsupportedError(network?.name ?? namespace)
  const from = chain?.account.address
  const provider = providerOf(ctx, namespace)
  if (!from || !network || provider === undefined) throw new NotConnectedError()
  return { adapter, from, network, provider, held: chain?.account.tokenBalance ?? [] }
}

/** Every check an NFT send makes before the wallet is asked, the receiver's name resolved, and the fee quoted. */
async function prepare(client: SigilClient, params: SendNftParameters) {
  const { adapter, from, network, provider, held } = nftSender(client)
  const { nft } = params
  if (nft.chain !== network.caipNetworkId || !/^\d+$/.test(nft.tokenId)) throw new NftUnsupportedError(network.name)
  const given = params.to.trim()
  if (!given) throw new InvalidReceiverError(network.name)
  const { to, name } = await receiverOf(client.context, given, network)
  const amount = parseNftAmount(nft, params.amount)
  if (amount === undefined) throw new InvalidNftAmountError(nft.standard === 'erc721' ? '1' : nft.amount)
  const transfer: NftTransfer = { from, to, contract: nft.contract, tokenId: BigInt(nft.tokenId), standard: nft.standard, amount, network }
  const fee = params.fee ?? (await adapter.nftTransferFee?.(provider, transfer).catch(() => undefined))
  // The fee is paid in the network's own currency: checked against its balance when the modal has one.
  const native = held.find((t) => !t.address)
  const decimals = native ? Number(native.quantity.decimals) : network.nativeCurrency.decimals
  const symbol = native?.symbol ?? network.nativeCurrency.symbol
  if (fee && native && fee.fee > (unitsOf(native.quantity.numeric, decimals) ?? 0n)) throw InsufficientBalanceError.fee(formatFee(fee.fee, decimals), symbol)
  if (fee?.gas) transfer.gas = fee.gas
  const prepared: PreparedNftSend = { transfer, nft, feeCurrency: { symbol, decimals } }
  if (name) prepared.name = name
  if (fee) prepared.fee = fee
  return { prepared, adapter, provider }
}

/** Checks an NFT send as `sendNft` would, resolves the receiver's name and quotes the fee, without asking the wallet: what the Preview shows. */
export async function prepareSendNft(client: SigilClient, params: PrepareSendNftParameters): Promise<PrepareSendNftReturnType> {
  return (await prepare(client, params)).prepared
}

/**
 * Sends an NFT from the active account through its family's adapter (`sendNft`): refused before
 * the wallet is asked when the receiver is neither an address of the network nor a name giving
 * it one, the amount is not a whole number from 1 to what is held, or the native balance does
 * not cover the fee. A chain's refusal becomes the spec's transaction error. Once the chain has
 * it: an Activity entry pending until indexed, the NFT off the list (or its amount less) until
 * the server shows it, and the holdings and balances asked for again. Resolves to the hash.
 */
export async function sendNft(client: SigilClient, params: SendNftParameters): Promise<SendNftReturnType> {
  const { prepared, adapter, provider } = await prepare(client, params)
  const { transfer, nft } = prepared
  const { store } = client
  const entry = { chain: transfer.network.caipNetworkId, from: transfer.from, to: transfer.to, amount: transfer.amount.toString(), symbol: nft.name }
  const hash = await sendWithActivity(store, entry, (onSubmitted) =>
    (adapter.sendNft as NonNullable<typeof adapter.sendNft>)(provider, { ...transfer, onSubmitted }),
  )
  const account = `${transfer.network.caipNetworkId}:${transfer.from}`
  const sent: SentNft = { id: nft.id, account, held: nft.amount, amount: transfer.amount.toString(), at: Date.now() }
  setNfts(store, (now) => ({
    sent: [sent, ...now.sent.filter((s) => !(sameId(s.id, sent.id) && sameId(s.account, account)))],
    items: now.account && sameId(now.account, account) ? afterSends(now.items, [sent], account) : now.items,
  }))
  // Gas was spent and the holdings moved: both are asked for again, without holding the sent state back.
  void client.refreshBalance(transfer.network.chainNamespace, { force: true }).catch(() => undefined)
  void fetchNfts(client, { refresh: true })
  return hash
}

/** The NFT send form's values, as the SendNft view's route keeps them. */
export type SendNftForm = ViewParams['SendNft']

/** Keeps the form's values in its route, then shows the Preview of them. */
export function previewSendNft(client: SigilClient, form: Required<SendNftForm>): void {
  replaceView(client.store, 'SendNft', form)
  pushView(client.store, 'SendNftPreview', form)
}

export interface ConfirmSendNftParameters extends SendNftParameters {
  /** The receiver's name the Preview showed, when it was given one. */
  name?: string
}

/**
 * The Preview's 'Send': sends (`sendNft`), then the NFT's views are done: the history goes back
 * to what was below the NFT, and the send feature's sent state shows on top.
 */
export async function confirmSendNft(client: SigilClient, params: ConfirmSendNftParameters): Promise<SendNftReturnType> {
  const { name, ...sendParams } = params
  const hash = await sendNft(client, sendParams)
  const amount = parseNftAmount(params.nft, params.amount) ?? 1n
  client.store.setState((s) => {
    const history = s.router.history
    const views = history.map((r) => r.view)
    const at = [views.lastIndexOf('NftItem'), views.lastIndexOf('SendNft')].find((i) => i >= 0) ?? history.length - 1
    const sent: RouteEntry = {
      view: 'WalletSendSent',
      data: { hash, amount: amount.toString(), symbol: params.nft.name, to: params.to, ...(name ? { name } : {}) },
    }
    return { router: { history: [...history.slice(0, at), sent] } }
  })
  return hash
}
