/*
 * Building sign-in messages (CAIP-122 / EIP-4361 text). Loaded on demand by serverSiwx and
 * localSiwx, so the keccak code for EIP-55 checksums stays out of the host page's first load.
 */
import { keccak_256 } from '@noble/hashes/sha3'
import type { SIWXMessage, SIWXMessageData, SIWXMessageInput } from './types.js'

/** The EIP-55 mixed-case form of an EVM address (input with or without 0x, any case). */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase()
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`Invalid EVM address: ${address}`)
  const hash = keccak_256(new TextEncoder().encode(hex))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1] as number
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    const c = hex[i] as string
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out
}

/** RFC 3339 in UTC without fractional seconds, e.g. 2026-11-22T00:30:00Z. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

const ACCOUNT_KIND: Record<string, string> = { eip155: 'Ethereum', solana: 'Solana' }

/** The exact message text for `data` (the format the Sigil server parses). */
export function formatSiwxMessage(data: SIWXMessageData): string {
  const [namespace = '', reference = ''] = data.chainId.split(':')
  const kind = ACCOUNT_KIND[namespace] ?? namespace
  let text = `${data.domain} wants you to sign in with your ${kind} account:\n${data.accountAddress}\n\n`
  if (data.statement) text += `${data.statement}\n`
  text += `\nURI: ${data.uri}\nVersion: ${data.version}\nChain ID: ${reference}\nNonce: ${data.nonce}`
  if (data.issuedAt) text += `\nIssued At: ${data.issuedAt}`
  if (data.expirationTime) text += `\nExpiration Time: ${data.expirationTime}`
  if (data.notBefore) text += `\nNot Before: ${data.notBefore}`
  if (data.requestId) text += `\nRequest ID: ${data.requestId}`
  if (data.resources?.length) text += `\nResources:${data.resources.map((r) => `\n- ${r}`).join('')}`
  return text
}

/** Attaches `toString()` (the message text) to message fields. */
export function toSiwxMessage(data: SIWXMessageData): SIWXMessage {
  const text = formatSiwxMessage(data)
  return { ...data, toString: () => text }
}

export interface BuildMessageOptions {
  nonce: string
  statement?: string | undefined
  /** Adds an Expiration Time this many minutes after issuance. */
  expirationMinutes?: number | undefined
  now?: Date
  /** Defaults to the page: `location.host` and `location.origin`. */
  domain?: string
  uri?: string
}

/** Message fields for an account: the page's domain and origin, version 1, issued now. */
export function buildMessage(input: SIWXMessageInput, options: BuildMessageOptions): SIWXMessage {
  const location = (globalThis as { location?: { host?: string; origin?: string } }).location
  const now = options.now ?? new Date()
  const namespace = input.chainId.split(':')[0]
  const data: SIWXMessageData = {
    domain: options.domain ?? location?.host ?? '',
    accountAddress: namespace === 'eip155' ? toChecksumAddress(input.accountAddress) : input.accountAddress,
    uri: options.uri ?? location?.origin ?? '',
    version: '1',
    chainId: input.chainId,
    nonce: options.nonce,
    issuedAt: rfc3339(now),
  }
  if (options.statement) data.statement = options.statement
  if (options.expirationMinutes !== undefined && options.expirationMinutes > 0) {
    data.expirationTime = rfc3339(new Date(now.getTime() + options.expirationMinutes * 60_000))
  }
  return toSiwxMessage(data)
}

/** Message fields without `toString` (what a session stores). */
export function plainData(message: SIWXMessageData): SIWXMessageData {
  const { toString: _drop, ...rest } = message as SIWXMessage
  return { ...rest }
}

/** A random alphanumeric nonce (for sessions kept without a server). */
export function randomNonce(length = 16): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  const bytes = new Uint8Array(length)
  globalThis.crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}
