/*
 * Building sign-in messages (CAIP-122 / EIP-4361 text). Loaded on demand by serverSiwx and
 * localSiwx. How a namespace states its accounts (the chain's name, the address's canonical
 * form) comes from its chain adapter, through the message input.
 */
import type { SIWXMessage, SIWXMessageData, SIWXMessageInput } from './types.js'

/** RFC 3339 in UTC without fractional seconds, e.g. 2026-11-22T00:30:00Z. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/**
 * The exact message text for `data` (the format the Sigil server parses). `accountLabel` names
 * the chain ('Ethereum'); the CAIP-2 namespace stands in without one.
 */
export function formatSiwxMessage(data: SIWXMessageData, accountLabel?: string): string {
  const [namespace = '', reference = ''] = data.chainId.split(':')
  let text = `${data.domain} wants you to sign in with your ${accountLabel ?? namespace} account:\n${data.accountAddress}\n\n`
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
export function toSiwxMessage(data: SIWXMessageData, accountLabel?: string): SIWXMessage {
  const text = formatSiwxMessage(data, accountLabel)
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
  const data: SIWXMessageData = {
    domain: options.domain ?? location?.host ?? '',
    accountAddress: input.accountAddress,
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
  return toSiwxMessage(data, input.accountLabel)
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
