import type { Eip1193Provider } from '../eip1193.js'

export const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7'

type Handler = (params: unknown) => unknown

/** An in-memory EIP-1193 wallet: a few accounts, a chain, known chains, scripted overrides. */
export class FakeProvider implements Eip1193Provider {
  chainId = 1
  accounts: string[] = [ACCOUNT]
  /** Whether the site is authorised: eth_accounts answers only then. */
  authorised = false
  knownChains = new Set([1, 137, 42161])
  /** Per-method overrides: return a value or throw. */
  handlers = new Map<string, Handler>()
  readonly calls: { method: string; params?: unknown }[] = []
  private listeners = new Map<string, Set<(...args: unknown[]) => void>>()

  async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
    this.calls.push(params === undefined ? { method } : { method, params })
    const handler = this.handlers.get(method)
    if (handler) return handler(params)
    switch (method) {
      case 'eth_requestAccounts':
        this.authorised = true
        return this.accounts
      case 'eth_accounts':
        return this.authorised ? this.accounts : []
      case 'eth_chainId':
        return `0x${this.chainId.toString(16)}`
      case 'wallet_switchEthereumChain': {
        const id = parseInt((params as [{ chainId: string }])[0].chainId, 16)
        if (!this.knownChains.has(id)) throw Object.assign(new Error('Unrecognized chain ID'), { code: 4902 })
        this.setChain(id)
        return null
      }
      case 'wallet_addEthereumChain': {
        const id = parseInt((params as [{ chainId: string }])[0].chainId, 16)
        this.knownChains.add(id)
        return null
      }
      case 'personal_sign':
        return `0x${'ab'.repeat(65)}`
      case 'wallet_revokePermissions':
        this.authorised = false
        return null
      default:
        throw Object.assign(new Error(`Method ${method} not supported`), { code: 4200 })
    }
  }

  on(event: string, listener: (...args: unknown[]) => void) {
    let set = this.listeners.get(event)
    if (!set) {
      set = new Set()
      this.listeners.set(event, set)
    }
    set.add(listener)
    return this
  }

  removeListener(event: string, listener: (...args: unknown[]) => void) {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  listenerCount(event: string) {
    return this.listeners.get(event)?.size ?? 0
  }

  emit(event: string, ...args: unknown[]) {
    for (const l of this.listeners.get(event) ?? []) l(...args)
  }

  setChain(id: number) {
    this.chainId = id
    this.emit('chainChanged', `0x${id.toString(16)}`)
  }

  methods() {
    return this.calls.map((c) => c.method)
  }
}

let uuid = 0

/** Announces `provider` the EIP-6963 way, now and whenever the page asks again. */
export function announce(provider: Eip1193Provider, info: { name: string; rdns: string; icon?: string }) {
  const detail = Object.freeze({
    info: Object.freeze({ uuid: `uuid-${++uuid}`, name: info.name, rdns: info.rdns, icon: info.icon ?? 'data:image/svg+xml;base64,PHN2Zy8+' }),
    provider,
  })
  const send = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
  window.addEventListener('eip6963:requestProvider', send)
  send()
  return () => window.removeEventListener('eip6963:requestProvider', send)
}
