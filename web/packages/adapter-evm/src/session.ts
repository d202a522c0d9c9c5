/*
 * EVM over a chain-neutral session (WalletConnect, the embedded wallet's frame), loaded with the
 * transport: what a WalletConnect proposal asks for in eip155, the session's eip155 accounts, and
 * one EIP-1193 provider over any transport: wallet methods go to the wallet, reads to the chain
 * (WalletConnect: the Sigil server's RPC proxy), accounts and the chain are answered here.
 */
import type { Eip1193Listener, Eip1193Provider } from '@sigil/core'
import { eventAddresses, namespaceAccounts, type FamilyEvent, type FamilySession, type SessionTransport } from '@sigil/core/session'
import { parseChainId } from './provider.js'

/** Methods the dapp asks the wallet to allow; everything else an EVM provider is asked goes to the chain. */
export const EIP155_METHODS = [
  'eth_sendTransaction',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v4',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
] as const
export const EIP155_EVENTS = ['accountsChanged', 'chainChanged']

/** Methods only the wallet can answer, whatever the session lists. */
const WALLET_ONLY = new Set<string>(EIP155_METHODS)

const hex = (chainId: number) => `0x${chainId.toString(16)}`

/** An EIP-1193 provider over a session transport. */
export class SessionProvider implements Eip1193Provider {
  private listeners = new Map<string, Set<Eip1193Listener>>()
  private moves = new Set<(event: FamilyEvent) => void>()
  constructor(
    private transport: SessionTransport,
    public chainId: number,
  ) {}

  private accountsOnChains(): { chainId: number; address: string }[] {
    return namespaceAccounts(this.transport.namespace('eip155')?.accounts ?? [], 'eip155').map((a) => ({ chainId: Number(a.chainId), address: a.address }))
  }

  /** The session's accounts on `chainId` (the current chain by default). */
  accounts(chainId = this.chainId): string[] {
    return this.accountsOnChains()
      .filter((a) => a.chainId === chainId)
      .map((a) => a.address)
  }

  /** The chains the session has: those it lists and those of its accounts. */
  chains(): number[] {
    const listed = (this.transport.namespace('eip155')?.chains ?? []).map((c) => Number(c.split(':')[1]))
    return [...new Set([...this.accountsOnChains().map((a) => a.chainId), ...listed])].filter((c) => Number.isSafeInteger(c))
  }

  emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args)
  }

  on(event: string, listener: Eip1193Listener) {
    const set = this.listeners.get(event) ?? new Set()
    set.add(listener)
    this.listeners.set(event, set)
    return this
  }

  removeListener(event: string, listener: Eip1193Listener) {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  /** Hears the chains switched through this provider. Returns an unsubscribe. */
  subscribe(listener: (event: FamilyEvent) => void): () => void {
    this.moves.add(listener)
    return () => this.moves.delete(listener)
  }

  /** Moves to `chainId` and says so (EIP-1193's chainChanged); `always` says it even when it was there already. */
  private moveTo(chainId: number, always: boolean) {
    if (!always && chainId === this.chainId) return
    this.chainId = chainId
    this.emit('chainChanged', hex(chainId))
    for (const listener of [...this.moves]) listener({ chainId })
  }

  async request({ method, params }: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown> {
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return this.accounts()
      case 'eth_chainId':
        return hex(this.chainId)
      case 'net_version':
        return String(this.chainId)
      case 'wallet_switchEthereumChain': {
        const wanted = parseChainId((Array.isArray(params) ? (params[0] as { chainId?: unknown }) : undefined)?.chainId)
        // The transport moves itself (the frame); a chain the session has needs no wallet round trip.
        if (this.transport.switchChain) await this.transport.switchChain(`eip155:${wanted}`)
        else if (this.chains().includes(wanted)) {
          this.moveTo(wanted, false)
          return null
        } else await this.transport.request(`eip155:${this.chainId}`, method, params)
        this.moveTo(wanted, true)
        return null
      }
    }
    const chain = `eip155:${this.chainId}`
    const allowed = this.transport.namespace('eip155')?.methods ?? []
    if (WALLET_ONLY.has(method) || allowed.includes(method)) return this.transport.request(chain, method, params)
    return this.transport.read(chain, method, params)
  }
}

/** The eip155 family's part of a session. */
export const evmSession: FamilySession<Eip1193Provider> = {
  methods: EIP155_METHODS,
  events: EIP155_EVENTS,
  accounts: (transport) =>
    namespaceAccounts(transport.namespace('eip155')?.accounts ?? [], 'eip155').flatMap(({ chainId, address }) => {
      const id = Number(chainId)
      return Number.isSafeInteger(id) ? [{ namespace: 'eip155' as const, address, type: 'eoa' as const, chainId: id }] : []
    }),
  open(transport, { accounts }) {
    const provider = new SessionProvider(transport, Number(accounts[0]?.chainId ?? 1))
    return {
      provider,
      event(name, data, chainId) {
        // An event naming no chain is EVM's (WalletConnect's own events before namespaces).
        if (chainId && !chainId.startsWith('eip155:')) return undefined
        if (name === 'accountsChanged') {
          const addresses = eventAddresses(data)
          provider.emit('accountsChanged', addresses)
          return { accounts: addresses }
        }
        if (name !== 'chainChanged') return undefined
        try {
          const id = parseChainId(data)
          provider.chainId = id
          provider.emit('chainChanged', hex(id))
          return { chainId: id }
        } catch {
          // A malformed chain id from the wallet is ignored.
          return undefined
        }
      },
      update() {
        const addresses = provider.accounts()
        provider.emit('accountsChanged', addresses)
        return addresses
      },
      subscribe: (listener) => provider.subscribe(listener),
      end(reason) {
        if (reason) provider.emit('disconnect', reason)
        else provider.emit('accountsChanged', [])
      },
    }
  },
}
