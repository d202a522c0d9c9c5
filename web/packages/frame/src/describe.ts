/*
 * What a request asks the user to sign, in words, for the approval view: the message text of
 * personal_sign, the domain, type and fields of typed data, the value, recipient and call data
 * of a transaction. The network named is the one the signed content carries (typed data's
 * domain, a transaction's chain ID), since the host page chooses the one it sends alongside;
 * text-direction and zero-width characters are taken out of everything shown (issue 20, N11).
 * Networks are named by the frame itself when it knows them, else by the name the host page
 * gave (SYNC_DAPP_DATA), else by their CAIP-2 id.
 */
import { arbitrum, bitcoin, bitcoinTestnet, ethereum, polygon, sigilDev, solana, solanaDevnet, solanaTestnet } from '@sigil/core/networks'
import { getBase58Encoder } from '@solana/codecs-strings'
import { m } from './words.js'

/** An address line: its label and the address (the view shows it short, in full on hover and when copied). */
export interface AddressLine {
  label: string
  address: string
}

/** A line of the approval view: text, or a label and an address. */
export type Line = string | AddressLine

export interface Description {
  title: string
  lines: Line[]
  /** The content signed, shown as is (a message, typed-data fields). */
  body?: string
  /** What the user should know before approving: a chain other than the request's, hidden characters. */
  warnings?: string[]
}

/** The networks shown by name; any other shows as its CAIP-2 id. */
const NAMES = new Map<string, string>(
  [ethereum, arbitrum, polygon, solana, solanaDevnet, solanaTestnet, bitcoin, bitcoinTestnet, sigilDev()].map((n) => [n.caipNetworkId, n.name]),
)

/** The host page's names for its networks (CAIP-2 id to name), as SYNC_DAPP_DATA gave them. */
export type HostNames = ReadonlyMap<string, string>

const KNOWN = new Set([...NAMES.values()].map((name) => name.toLowerCase()))

/**
 * A network's name: the frame's own for the networks it knows; for another, the host page's
 * name (with the CAIP-2 id when the host gives it the name of one the frame knows, which it is
 * not); else the CAIP-2 id.
 */
export function networkName(caipNetworkId: string, hostNames: HostNames = new Map()): string {
  const own = NAMES.get(caipNetworkId)
  if (own) return own
  const named = hostNames.get(caipNetworkId)
  if (!named) return caipNetworkId
  return KNOWN.has(named.trim().toLowerCase()) ? `${named} (${caipNetworkId})` : named
}

/**
 * Characters that change how text reads without showing themselves: the bidi controls
 * (embeddings and overrides U+202A-U+202E, isolates U+2066-U+2069, the marks U+200E, U+200F and
 * U+061C) and the zero-width ones (U+200B-U+200D, U+2060, U+FEFF). A message can use them to
 * show one thing and sign another, so the approval view leaves them out.
 */
const HIDDEN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/g

/** `text` without bidi controls and zero-width characters; `hidden` when there were any. */
export function stripHidden(text: string): { text: string; hidden: boolean } {
  const shown = text.replace(HIDDEN, '')
  return { text: shown, hidden: shown.length !== text.length }
}

/** The description as shown: every text through `stripHidden`, and a warning when it took something out. */
function shownAs(description: Description): Description {
  let hidden = false
  const clean = (text: string) => {
    const stripped = stripHidden(text)
    hidden ||= stripped.hidden
    return stripped.text
  }
  const shown: Description = {
    title: clean(description.title),
    lines: description.lines.map((line) => (typeof line === 'string' ? clean(line) : { label: clean(line.label), address: clean(line.address) })),
  }
  if (description.body !== undefined) shown.body = clean(description.body)
  const warnings = (description.warnings ?? []).map(clean)
  if (hidden) warnings.push(m.hiddenCharacters)
  if (warnings.length) shown.warnings = warnings
  return shown
}

/** A request value as text (request data is JSON, but not always of the type expected). */
function asText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

/** An EVM chain ID (a number, or a decimal or hex string) in decimal; undefined for anything else. */
function chainIdOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined
  if (typeof value === 'string' && /^(\d+|0x[0-9a-fA-F]+)$/.test(value)) return BigInt(value).toString()
  return undefined
}

/**
 * The network line for content that may carry its own chain ID (`carried`): that chain when it
 * does, else the one the request came with (`requested`); and a warning when the two differ.
 */
function networkOf(carried: unknown, requested: string, hostNames: HostNames): { line: string; warning?: string } {
  if (carried === undefined || carried === null) return { line: m.network(networkName(requested, hostNames)) }
  const id = chainIdOf(carried)
  const signed = id === undefined ? asText(carried) : networkName(`eip155:${id}`, hostNames)
  if (id !== undefined && `eip155:${id}` === requested) return { line: m.network(signed) }
  return { line: m.network(signed), warning: m.chainMismatch(signed, networkName(requested, hostNames)) }
}

function hexToText(hex: string): string {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hex)) return hex
  const bytes = new Uint8Array((hex.length - 2) / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16)
  return bytesToText(bytes, hex)
}

/** Solana messages travel base58-encoded: the user reads the text they stand for. */
function base58ToText(text: string): string {
  let bytes: Uint8Array
  try {
    bytes = new Uint8Array(getBase58Encoder().encode(text))
  } catch {
    return text
  }
  return bytesToText(bytes, `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`)
}

/** UTF-8 text, or `m.binary(hex)` for bytes that are not text. */
function bytesToText(bytes: Uint8Array, hex: string): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: binary data shows as hex
    if (!/[\u0000-\u0008\u000e-\u001f]/.test(text)) return text
  } catch {
    // not UTF-8
  }
  return m.binary(hex)
}

/** Wei (hex or decimal) as a bigint; 0 for anything else. */
function weiOf(value: unknown): bigint {
  try {
    return typeof value === 'string' || typeof value === 'number' ? BigInt(value) : 0n
  } catch {
    return 0n
  }
}

/** Wei (hex or decimal) as ether, up to 6 decimals. */
export function formatEther(value: unknown): string {
  const wei = weiOf(value)
  // Never "0 ETH" for something: the smallest shown amount says it is less.
  if (wei > 0n && wei < 10n ** 12n) return '< 0.000001 ETH'
  const whole = wei / 10n ** 18n
  const fraction = (wei % 10n ** 18n).toString().padStart(18, '0').slice(0, 6).replace(/0+$/, '')
  return `${whole}${fraction ? `.${fraction}` : ''} ETH`
}

function flatten(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k))
  }
  return [`${prefix}: ${String(value)}`]
}

/**
 * The approval view's words for a request on `chainId` (the chain it came with, or the frame's
 * current one), with networks named as `networkName` does: each text without hidden characters
 * (see `stripHidden`).
 */
/** ERC-20 tokens the frame read from the chain (symbol and decimals), by lower-case address. */
export type Tokens = ReadonlyMap<string, { symbol: string; decimals: number }>

export function describe(method: string, params: unknown, chainId: string, hostNames: HostNames = new Map(), tokens: Tokens = new Map()): Description {
  return shownAs(describeRequest(method, params, chainId, hostNames, tokens))
}

/** The token contracts a batch's ERC-20 transfer and approve calls name (their amounts read better in the token's units). */
export function batchTokens(params: unknown): string[] {
  const batch = Array.isArray(params) ? params[0] : undefined
  const calls =
    batch && typeof batch === 'object' && Array.isArray((batch as { calls?: unknown }).calls)
      ? ((batch as { calls: unknown[] }).calls as { to?: unknown; data?: unknown }[])
      : []
  const named = calls.filter(
    (c) =>
      typeof c?.to === 'string' && typeof c.data === 'string' && addressAndAmount(c.data) && [TRANSFER, APPROVE].includes(c.data.slice(0, 10).toLowerCase()),
  )
  return [...new Set(named.map((c) => String(c.to).toLowerCase()))]
}

/** `amount` base units in the token's own units when it is known ("1.5 SGL"), else the base units. */
function tokenAmount(amount: bigint, token: { symbol: string; decimals: number } | undefined): string {
  if (!token) return m.tokenUnits(amount.toString())
  const scale = 10n ** BigInt(token.decimals)
  const fraction = (amount % scale).toString().padStart(token.decimals, '0').replace(/0+$/, '')
  return `${amount / scale}${fraction ? `.${fraction}` : ''} ${token.symbol}`
}

const from = (address: string): AddressLine => ({ label: m.from, address })

const MAX_UINT256 = (1n << 256n) - 1n
/** ERC-20 `transfer(address,uint256)` and `approve(address,uint256)`: their selectors. */
const TRANSFER = '0xa9059cbb'
const APPROVE = '0x095ea7b3'

/** The address and amount of a call's data that is `selector(address,uint256)` exactly. */
function addressAndAmount(data: string): { address: string; amount: bigint } | undefined {
  if (!/^0x[0-9a-fA-F]{136}$/.test(data) || !/^0{24}$/.test(data.slice(10, 34))) return undefined
  return { address: `0x${data.slice(34, 74)}`, amount: BigInt(`0x${data.slice(74)}`) }
}

/** The lines of one call of a batch (`n` counts from 1). */
function callLines(n: number, call: { to?: unknown; value?: unknown; data?: unknown }, tokens: Tokens): Line[] {
  const to = asText(call?.to ?? '?')
  const data = typeof call?.data === 'string' && call.data !== '0x' ? call.data : undefined
  const value = weiOf(call?.value) > 0n ? formatEther(call.value) : undefined
  const also = value && data ? [m.callAlsoSends(value)] : []
  if (!data) return [{ label: m.callValue(n, value ?? formatEther('0x0')), address: to }]
  const decoded = addressAndAmount(data)
  const selector = data.slice(0, 10).toLowerCase()
  const token = tokens.get(to.toLowerCase())
  if (decoded && selector === TRANSFER)
    return [{ label: m.callTransfer(n, tokenAmount(decoded.amount, token)), address: decoded.address }, { label: m.callToken, address: to }, ...also]
  if (decoded && selector === APPROVE) {
    const label = decoded.amount === MAX_UINT256 ? m.callApproveUnlimited(n) : m.callApprove(n, tokenAmount(decoded.amount, token))
    return [{ label, address: decoded.address }, { label: m.callToken, address: to }, ...also]
  }
  return [{ label: m.callData(n, (data.length - 2) / 2), address: to }, ...also]
}

/** wallet_sendCalls: the network the batch names, its sender, and each call in order. */
function describeCalls(batch: unknown, chainId: string, hostNames: HostNames, tokens: Tokens): Description {
  const request = (batch && typeof batch === 'object' ? batch : {}) as { calls?: unknown; chainId?: unknown; from?: unknown; atomicRequired?: unknown }
  const calls = Array.isArray(request.calls) ? (request.calls as { to?: unknown; value?: unknown; data?: unknown }[]) : []
  const { line, warning } = networkOf(request.chainId, chainId, hostNames)
  return {
    title: m.sendCalls(calls.length),
    lines: [
      line,
      ...(typeof request.from === 'string' ? [from(request.from)] : []),
      ...(request.atomicRequired === true ? [m.callsTogether] : []),
      ...calls.flatMap((call, i) => callLines(i + 1, call, tokens)),
    ],
    ...(warning ? { warnings: [warning] } : {}),
  }
}

function describeRequest(method: string, params: unknown, chainId: string, hostNames: HostNames, tokens: Tokens): Description {
  const list = Array.isArray(params) ? params : []
  const network = m.network(networkName(chainId, hostNames))
  switch (method) {
    case 'personal_sign': {
      const [message, address] = list as [string?, string?]
      return { title: m.signMessage, lines: [network, ...(address ? [from(address)] : [])], body: hexToText(String(message ?? '')) }
    }
    case 'eth_signTypedData_v4': {
      const [address, data] = list as [string?, unknown?]
      let typed: { domain?: { name?: unknown; chainId?: unknown; verifyingContract?: unknown }; primaryType?: unknown; message?: unknown } = {}
      try {
        typed = typeof data === 'string' ? JSON.parse(data) : ((data as typeof typed) ?? {})
      } catch {
        typed = {}
      }
      const domain = typed?.domain ?? {}
      const { line, warning } = networkOf(domain.chainId, chainId, hostNames)
      return {
        title: m.signTypedData(asText(typed?.primaryType ?? '?'), asText(domain.name ?? '?')),
        lines: [
          line,
          ...(domain.chainId != null ? [m.domainChainId(asText(domain.chainId))] : []),
          ...(domain.verifyingContract != null ? [{ label: m.verifyingContract, address: asText(domain.verifyingContract) }] : []),
          ...(address ? [from(address)] : []),
        ],
        body: flatten(typed?.message ?? {}).join('\n'),
        ...(warning ? { warnings: [warning] } : {}),
      }
    }
    case 'eth_sendTransaction': {
      const [tx] = list as [{ to?: string; value?: string; data?: string; from?: string; chainId?: unknown }?]
      const value = formatEther(tx?.value ?? '0x0')
      const data = tx?.data && tx.data !== '0x' ? (tx.data.length - 2) / 2 : 0
      const { line, warning } = networkOf(tx?.chainId, chainId, hostNames)
      return {
        title: tx?.to ? m.sendTransaction(value, tx.to) : m.deployContract(value),
        lines: [line, ...(tx?.from ? [from(tx.from)] : []), ...(data ? [m.contractData(data)] : [])],
        ...(warning ? { warnings: [warning] } : {}),
      }
    }
    case 'wallet_sendCalls':
      return describeCalls(list[0], chainId, hostNames, tokens)
    case 'solana_signMessage':
      return { title: m.solanaMessage, lines: [network], body: base58ToText(String((params as { message?: string })?.message ?? '')) }
    case 'solana_signTransaction':
      return { title: m.solanaTransaction, lines: [network] }
    default:
      return { title: m.otherRequest(method), lines: [network], body: JSON.stringify(params, null, 2) }
  }
}
