/*
 * `@sigil/core/session`: what a family's session code (its adapter's session capability, loaded
 * with a transport) reads a session with. Never loaded with the page.
 */
import { parseCaipAddress } from './caip.js'
import type { ConnectionAccount } from './connectors/types.js'
import type { ChainNamespace } from './types.js'

export type { FamilyEvent, FamilySession, SessionBinding, SessionCapability } from './adapter.js'
export type { SessionNamespace, SessionTransport } from './connectors/transport.js'

/**
 * The CAIP-10 accounts of `namespace` among `accounts`, parsed; malformed ones and those of
 * other namespaces are skipped.
 */
export function namespaceAccounts(accounts: readonly string[], namespace: ChainNamespace): { chainId: string; address: string }[] {
  return accounts.flatMap((caip) => {
    try {
      const parsed = parseCaipAddress(caip)
      return parsed.chainNamespace === namespace ? [{ chainId: parsed.chainId, address: parsed.address }] : []
    } catch {
      return []
    }
  })
}

/** Addresses from an accountsChanged event: plain addresses or CAIP-10 ones. */
export function eventAddresses(data: unknown): string[] {
  if (!Array.isArray(data)) return []
  return data.filter((a): a is string => typeof a === 'string').map((a) => (a.includes(':') ? (a.split(':')[2] ?? '') : a))
}

/**
 * The accounts to connect with: per namespace, those on the first of the host's networks the
 * session has accounts on (all of the namespace's when it has none of them), in the family's order.
 */
export function orderAccounts(
  accounts: readonly ConnectionAccount[],
  networks: readonly { id: number | string; chainNamespace: ChainNamespace }[],
): ConnectionAccount[] {
  const out: ConnectionAccount[] = []
  for (const namespace of new Set(accounts.map((a) => a.namespace))) {
    const own = accounts.filter((a) => a.namespace === namespace)
    const preferred = networks
      .filter((n) => n.chainNamespace === namespace)
      .map((n) => String(n.id))
      .find((id) => own.some((a) => String(a.chainId) === id))
    out.push(...(preferred === undefined ? own : own.filter((a) => String(a.chainId) === preferred)))
  }
  return out
}
