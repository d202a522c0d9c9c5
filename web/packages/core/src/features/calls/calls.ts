/*
 * EIP-5792 for host apps (version 2.0.0): `sendCalls`, `getCallsStatus` and `getCapabilities`
 * on the connected eip155 account, through the family's calls capability (adapter-evm's
 * calls.ts holds the wire). A wallet that sends atomic batches gets `wallet_sendCalls` and the
 * host its id; otherwise, unless the host requires atomicity, Sigil sends the calls one by one
 * (`eth_sendTransaction`, each once the one before is on chain) under one id of its own, and
 * answers `getCallsStatus` for it in the EIP-5792 shape from the transactions' receipts. Sigil's
 * ids live as long as the page (kept in sessionStorage too, so a reload still answers them).
 */
import type { CallsReceipt, CallsStatus, FamilyCalls, HostCall, WalletCapabilities } from '../../adapter.js'
import { providerOf } from '../../connection.js'
import type { SigilContext } from '../../context.js'
import { errorCode, InvalidParamsRpcError, NotConnectedError, UnsupportedChainError, type SigilError, type UserRejectedRequestError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { calls as englishCalls } from '../../messages/calls.js'
import type { ChainNamespace } from '../../types.js'
import {
  AtomicityNotSupportedError,
  callsError,
  DuplicateIdError,
  UnknownBundleIdError,
  UnsupportedChainIdError,
  UnsupportedNonOptionalCapabilityError,
  type AtomicReadyWalletRejectedUpgradeError,
  type BundleTooLargeError,
} from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('calls', englishCalls)

/** EIP-5792 is the eip155 family's standard. */
const NAMESPACE: ChainNamespace = 'eip155'
/** The EIP-5792 version Sigil speaks and answers in. */
export const CALLS_VERSION = '2.0.0'

/** A chain id as hosts give it: a number (wagmi's) or EIP-5792's hex. */
export type CallsChainId = number | `0x${string}`

/** A capability the host asks for; the request fails (5700) when it cannot be had unless it is marked `optional: true`. */
export type RequestedCapability = { optional?: boolean } & Record<string, unknown>

export interface SendCallsParameters {
  /** The calls, in order: a contract, hex call data and the native value sent with it (smallest unit). */
  calls: readonly HostCall[]
  /** The chain to send them on; the connected network's by default. */
  chainId?: CallsChainId
  /** Whether the calls must all land or none (one atomic batch); default false: one by one is fine. */
  atomicRequired?: boolean
  /** EIP-5792 capabilities for the wallet (paymasterService, …). */
  capabilities?: Record<string, RequestedCapability>
  /** The host's own id for the bundle; one of Sigil's (0x and 32 random bytes) by default when Sigil sends them. */
  id?: string
}

/** The bundle's id (for getCallsStatus), and what the wallet said of the capabilities. */
export interface SendCallsReturnType {
  id: string
  capabilities?: Record<string, unknown>
}

export type SendCallsErrorType =
  | NotConnectedError
  | UnsupportedChainError
  | InvalidParamsRpcError
  | UserRejectedRequestError
  | AtomicityNotSupportedError
  | UnsupportedNonOptionalCapabilityError
  | UnsupportedChainIdError
  | DuplicateIdError
  | BundleTooLargeError
  | AtomicReadyWalletRejectedUpgradeError
  | SigilError

export interface GetCallsStatusParameters {
  id: string
}
export type GetCallsStatusReturnType = CallsStatus
export type GetCallsStatusErrorType = NotConnectedError | UnsupportedChainError | UnknownBundleIdError | SigilError

export interface GetCapabilitiesParameters {
  /** The account; the connected one by default. */
  address?: string
  /** The chains to ask about; every chain the wallet knows by default. */
  chainIds?: readonly CallsChainId[]
}
/** By hex chain id ('0x0': every chain), by capability; `{}` when the wallet cannot say. */
export type GetCapabilitiesReturnType = WalletCapabilities
export type GetCapabilitiesErrorType = NotConnectedError | UnsupportedChainError | SigilError

/** A bundle Sigil sends one call after the other: its chain, how many calls, the hashes sent so far. */
interface Bundle {
  chainId: string
  count: number
  hashes: string[]
  /** A call failed (refused, reverted): the rest were not sent. */
  failed: boolean
  /** Still sending in this page; a bundle read back after a reload is not. */
  running: boolean
}

/** Sigil's bundles of each modal, by id. */
const bundles = new WeakMap<SigilContext, Map<string, Bundle>>()
const SESSION_PREFIX = '@sigil/calls/'

function session(): Storage | undefined {
  try {
    return (globalThis as { sessionStorage?: Storage }).sessionStorage
  } catch {
    return undefined
  }
}

function ownBundles(ctx: SigilContext): Map<string, Bundle> {
  const map = bundles.get(ctx) ?? new Map<string, Bundle>()
  bundles.set(ctx, map)
  return map
}

/** A bundle Sigil sent in this page, or before a reload of it. */
function findBundle(ctx: SigilContext, id: string): Bundle | undefined {
  const own = ownBundles(ctx).get(id)
  if (own) return own
  try {
    const stored = JSON.parse(session()?.getItem(SESSION_PREFIX + id) ?? 'null') as Omit<Bundle, 'running'> | null
    if (!stored || typeof stored.chainId !== 'string' || !Array.isArray(stored.hashes)) return undefined
    return { chainId: stored.chainId, count: Number(stored.count), hashes: stored.hashes.map(String), failed: stored.failed === true, running: false }
  } catch {
    return undefined
  }
}

function keepBundle(ctx: SigilContext, id: string, bundle: Bundle): void {
  ownBundles(ctx).set(id, bundle)
  try {
    const { running: _, ...stored } = bundle
    session()?.setItem(SESSION_PREFIX + id, JSON.stringify(stored))
  } catch {
    // Quota or privacy mode: the bundle is still known for as long as the page lives.
  }
}

/** EIP-5792's form of a chain id: lower-case hex. */
export function chainIdHex(chainId: number | string): string {
  return `0x${BigInt(chainId).toString(16)}`
}

/** A new bundle id: 0x and 32 random bytes. */
function newBundleId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`
}

/** The connected eip155 account, its network, provider and the family's calls. */
async function connected(ctx: SigilContext) {
  const chain = ctx.store.getState().chains[NAMESPACE]
  const from = chain?.account.address
  const network = chain?.network.caipNetwork
  const provider = providerOf(ctx, NAMESPACE)
  if (!from || !network || provider === undefined) throw new NotConnectedError()
  const capability = ctx.adapters[NAMESPACE]?.calls
  if (!capability) throw new UnsupportedChainError(NAMESPACE)
  const family: FamilyCalls = await capability.load()
  return { from, network, provider, family }
}

/** Whether a status is final: confirmed (200), refused off chain (4xx) or (partly) reverted (5xx, 6xx). */
export function isFinalCallsStatus(status: Pick<CallsStatus, 'status'> | undefined): boolean {
  return status !== undefined && status.status >= 200
}

/**
 * Sends the calls from the connected eip155 account (EIP-5792 `wallet_sendCalls` semantics):
 * through the wallet when it says it sends atomic batches on the chain (`atomic` `supported` or
 * `ready`), else one by one under an id of Sigil's, unless `atomicRequired` (5760). Resolves once
 * the wallet accepted the bundle (or, one by one, the first call).
 */
export async function sendCalls(ctx: SigilContext, params: SendCallsParameters): Promise<SendCallsReturnType> {
  const { calls, atomicRequired = false, capabilities } = params
  if (!Array.isArray(calls) || calls.length === 0 || calls.some((c) => typeof c?.to !== 'string')) throw new InvalidParamsRpcError(texts.noCalls)
  const { from, network, provider, family } = await connected(ctx)
  const chainId = chainIdHex(params.chainId ?? network.id)
  if (params.id !== undefined && findBundle(ctx, params.id)) throw new DuplicateIdError(params.id)
  if (!family.capabilities || !family.sendBundle || !family.sendCall) throw new UnsupportedChainError(NAMESPACE)

  // A wallet that cannot answer has no capabilities (EIP-5792's fallback).
  const walletCapabilities = await family.capabilities(provider, from, [chainId]).catch((): WalletCapabilities => ({}))
  const own: Record<string, unknown> = { ...walletCapabilities['0x0'], ...(walletCapabilities[chainId] ?? walletCapabilities[String(Number(chainId))]) }
  const status = (own.atomic as { status?: string } | undefined)?.status
  const atomic = status === 'supported' || status === 'ready' || (own.atomicBatch as { supported?: boolean } | undefined)?.supported === true
  const required = Object.entries(capabilities ?? {})
    .filter(([, c]) => c?.optional !== true)
    .map(([name]) => name)

  if (atomic) {
    const lacking = required.find((name) => !(name in own) || (own[name] as { supported?: boolean } | undefined)?.supported === false)
    if (lacking !== undefined) throw new UnsupportedNonOptionalCapabilityError(lacking)
    try {
      return await family.sendBundle(provider, {
        from,
        chainId,
        calls,
        atomicRequired,
        ...(params.id !== undefined ? { id: params.id } : {}),
        ...(capabilities ? { capabilities } : {}),
      })
    } catch (error) {
      throw callsError(error, { chainId, ...(params.id !== undefined ? { id: params.id } : {}), ...(required[0] ? { capability: required[0] } : {}) })
    }
  }
  if (atomicRequired) throw new AtomicityNotSupportedError()
  // Sending one by one, Sigil honours no capability: a required one cannot be had.
  if (required[0] !== undefined) throw new UnsupportedNonOptionalCapabilityError(required[0])
  // eth_sendTransaction goes on the wallet's chain: the connected one.
  if (chainId !== chainIdHex(network.id)) throw new UnsupportedChainIdError(chainId)
  const id = params.id ?? newBundleId()
  await sendOneByOne(ctx, id, { family, provider, from, calls, chainId })
  return { id }
}

/**
 * Sends the calls one after the other, each once the one before is on chain, keeping each hash
 * under `id`; resolves once the wallet accepted the first, rejects when it did not. The rest
 * goes on after it resolves; a failure there ends the bundle (getCallsStatus says 500 or 600).
 */
function sendOneByOne(
  ctx: SigilContext,
  id: string,
  { family, provider, from, calls, chainId }: { family: FamilyCalls; provider: unknown; from: string; calls: readonly HostCall[]; chainId: string },
): Promise<void> {
  const sendCall = family.sendCall as NonNullable<FamilyCalls['sendCall']>
  const bundle: Bundle = { chainId, count: calls.length, hashes: [], failed: false, running: true }
  return new Promise((accepted, refused) => {
    const onSubmitted = (hash: string) => {
      bundle.hashes.push(hash)
      keepBundle(ctx, id, bundle)
      if (bundle.hashes.length === 1) accepted()
    }
    const run = async () => {
      for (const call of calls) await sendCall(provider, from, call, { onSubmitted })
    }
    run().then(
      () => {
        bundle.running = false
        keepBundle(ctx, id, bundle)
      },
      (error: unknown) => {
        bundle.running = false
        bundle.failed = true
        // Before the first was accepted the bundle never existed: the host hears why.
        if (bundle.hashes.length === 0) refused(callsError(error))
        else keepBundle(ctx, id, bundle)
      },
    )
  })
}

/** Methods a wallet answers with when it has no wallet_getCallsStatus: the id cannot be one of its own. */
const NO_STATUS_METHOD = new Set([-32601, 4200])

/**
 * A bundle's status (EIP-5792 `wallet_getCallsStatus`): for one of Sigil's ids, from its
 * transactions' receipts (100 pending, 200 confirmed, 500 reverted, 600 partly reverted;
 * `atomic: false`); for the wallet's, the wallet's answer. An id neither knows: 5730.
 */
export async function getCallsStatus(ctx: SigilContext, { id }: GetCallsStatusParameters): Promise<GetCallsStatusReturnType> {
  const { provider, family } = await connected(ctx)
  const bundle = findBundle(ctx, id)
  if (!bundle) {
    if (!family.bundleStatus) throw new UnknownBundleIdError(id)
    try {
      return await family.bundleStatus(provider, id)
    } catch (error) {
      const code = errorCode(error)
      if (code !== undefined && NO_STATUS_METHOD.has(code)) throw new UnknownBundleIdError(id, error)
      throw callsError(error, { id })
    }
  }
  const read = family.receipt
  const receipts = read ? (await Promise.all(bundle.hashes.map((hash) => read(provider, hash).catch(() => undefined)))).filter((r) => r !== undefined) : []
  return { version: CALLS_VERSION, id, chainId: bundle.chainId, status: statusOf(bundle, receipts), atomic: false, receipts }
}

/** EIP-5792's status code of a bundle Sigil sends one by one, from the receipts the chain has. */
function statusOf(bundle: Bundle, receipts: readonly CallsReceipt[]): number {
  const succeeded = receipts.filter((r) => r.status === '0x1').length
  const reverted = receipts.length > succeeded
  // Calls that will never be sent: one failed, or the page sending them is gone.
  const ended = bundle.failed || (!bundle.running && bundle.hashes.length < bundle.count)
  if (reverted || ended) return succeeded > 0 ? 600 : 500
  return succeeded === bundle.count ? 200 : 100
}

/**
 * What the wallet can do (EIP-5792 `wallet_getCapabilities`) for the connected account (or
 * `address`) on `chainIds`; `{}` when it cannot say.
 */
export async function getCapabilities(ctx: SigilContext, params: GetCapabilitiesParameters = {}): Promise<GetCapabilitiesReturnType> {
  const { from, provider, family } = await connected(ctx)
  if (!family.capabilities) return {}
  return family.capabilities(provider, params.address ?? from, params.chainIds?.map(chainIdHex)).catch(() => ({}))
}
