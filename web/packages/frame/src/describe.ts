/*
 * What a request asks the user to sign, in words, for the approval view: the message text of
 * personal_sign, the domain, type and fields of typed data, the value, recipient and call data
 * of a transaction.
 */
import { decodeBase58 } from '@sigil/core/base58'
import { messages } from '@sigil/core/messages'

const m = messages.ui.frame

export interface Description {
  title: string
  lines: string[]
  /** The content signed, shown as is (a message, typed-data fields). */
  body?: string
}

function hexToText(hex: string): string {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(hex)) return hex
  const bytes = new Uint8Array((hex.length - 2) / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 + i * 2, 4 + i * 2), 16)
  return bytesToText(bytes, hex)
}

/** Solana messages travel base58-encoded: the user reads the text they stand for. */
function base58ToText(text: string): string {
  const bytes = decodeBase58(text)
  if (!bytes) return text
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

/** Wei (hex or decimal) as ether, up to 6 decimals. */
export function formatEther(value: unknown): string {
  let wei: bigint
  try {
    wei = typeof value === 'string' || typeof value === 'number' ? BigInt(value) : 0n
  } catch {
    wei = 0n
  }
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

export function describe(method: string, params: unknown, chainId: string): Description {
  const list = Array.isArray(params) ? params : []
  const network = m.network(chainId)
  switch (method) {
    case 'personal_sign': {
      const [message, address] = list as [string?, string?]
      return { title: m.signMessage, lines: [network, ...(address ? [m.fromAccount(address)] : [])], body: hexToText(String(message ?? '')) }
    }
    case 'eth_signTypedData_v4': {
      const [address, data] = list as [string?, unknown?]
      let typed: { domain?: { name?: string }; primaryType?: string; message?: unknown } = {}
      try {
        typed = typeof data === 'string' ? JSON.parse(data) : ((data as typeof typed) ?? {})
      } catch {
        typed = {}
      }
      return {
        title: m.signTypedData(typed.primaryType ?? '?', typed.domain?.name ?? '?'),
        lines: [network, ...(address ? [m.fromAccount(address)] : [])],
        body: flatten(typed.message ?? {}).join('\n'),
      }
    }
    case 'eth_sendTransaction': {
      const [tx] = list as [{ to?: string; value?: string; data?: string; from?: string }?]
      const value = formatEther(tx?.value ?? '0x0')
      const data = tx?.data && tx.data !== '0x' ? (tx.data.length - 2) / 2 : 0
      return {
        title: tx?.to ? m.sendTransaction(value, tx.to) : m.deployContract(value),
        lines: [network, ...(tx?.from ? [m.fromAccount(tx.from)] : []), ...(data ? [m.contractData(data)] : [])],
      }
    }
    case 'solana_signMessage':
      return { title: m.solanaMessage, lines: [network], body: base58ToText(String((params as { message?: string })?.message ?? '')) }
    case 'solana_signTransaction':
      return { title: m.solanaTransaction, lines: [network] }
    default:
      return { title: m.otherRequest(method), lines: [network], body: JSON.stringify(params, null, 2) }
  }
}
