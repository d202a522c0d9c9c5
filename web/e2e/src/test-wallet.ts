/**
 * An EIP-6963 browser wallet for tests, injected into every page with `page.addInitScript`.
 *
 * It behaves like an extension wallet backed by anvil: it announces itself (on load and on
 * 'eip6963:requestProvider'), answers EIP-1193 requests by forwarding JSON-RPC to anvil over
 * fetch (anvil allows CORS) with anvil's first unlocked account (or the `accountIndex`th),
 * remembers that the site was authorised (localStorage) so a reload reconnects without a
 * prompt, knows chain 31337 at first (other chains must be added: wallet_switchEthereumChain
 * answers 4902 for unknown chains), and emits accountsChanged / chainChanged / disconnect.
 *
 * Tests steer it through `window.__testWallet` (see TestWalletControl).
 */

export interface TestWalletConfig {
  rpcUrl: string
  /** Chain the wallet starts on (a number). */
  chainId: number
  /** Which of anvil's unlocked accounts the wallet holds; 0 (the dev-chain deployer) by default. */
  accountIndex?: number
  name?: string
  rdns?: string
  uuid?: string
  /**
   * ERC-20s the wallet tracks. When given, the wallet offers asset discovery (EIP-5792
   * capability `assetDiscovery`, ERC-7811 wallet_getAssets) on its chains, reading the native
   * and these balances from anvil; without it, both methods are unknown to it, as in most wallets.
   */
  assets?: { address: string; symbol: string; name: string; decimals: number }[]
  /**
   * EIP-5792 atomic batches: wallet_getCapabilities says `atomic: supported` on its chains, and
   * wallet_sendCalls (one approval) sends the calls one after the other on anvil inside an
   * evm_snapshot, reverted as a whole when one of them reverts; wallet_getCallsStatus answers
   * 200 with the receipts, or 500. Without it, as in most wallets, none of them is known.
   */
  atomic?: boolean
}

export interface TestWalletRequestLog {
  method: string
  params?: unknown
  outcome: 'ok' | 'error'
  error?: { code: number; message: string }
}

/** What `window.__testWallet` offers a test (through page.evaluate). */
export interface TestWalletControl {
  /** The next request that needs the user's approval is rejected with 4001. */
  rejectNext(): void
  /** Requests that need approval wait until approvePending() / rejectPending(). */
  holdApprovals(on: boolean): void
  approvePending(): void
  rejectPending(): void
  pendingCount(): number
  /** Every request seen, in order. */
  log: TestWalletRequestLog[]
  /** Current state (account, chain, known chains, whether the site is authorised). */
  state(): { account: string | undefined; chainId: number; knownChains: number[]; connected: boolean }
  /** Emits an event as the wallet would (e.g. the user switched chain in the extension). */
  emit(event: string, ...args: unknown[]): void
}

export const TEST_WALLET_NAME = 'Sigil Test Wallet'
export const TEST_WALLET_RDNS = 'dev.sigil.testwallet'
export const USER_REJECTED = { code: 4001, message: 'User rejected the request.' }

/**
 * The script itself. It runs in the page, so it must not close over anything: everything it
 * needs comes in `config`.
 */
export function installTestWallet(config: TestWalletConfig): void {
  const w = window as unknown as Record<string, unknown>
  if (w.__testWallet) return
  const STORAGE_KEY = '__sigilTestWallet'
  const REJECTED = { code: 4001, message: 'User rejected the request.' }
  const NEEDS_APPROVAL = new Set([
    'eth_requestAccounts',
    'wallet_requestPermissions',
    'wallet_switchEthereumChain',
    'wallet_addEthereumChain',
    'personal_sign',
    'eth_sign',
    'eth_signTypedData_v4',
    'eth_sendTransaction',
    'wallet_sendCalls',
  ])

  interface Persisted {
    connected: boolean
    chainId: number
    knownChains: number[]
  }
  const load = (): Persisted => {
    try {
      const raw = localStorage.getItem(STORAGE_KEY)
      if (raw) return JSON.parse(raw) as Persisted
    } catch {
      // storage unavailable: start fresh
    }
    return { connected: false, chainId: config.chainId, knownChains: [config.chainId] }
  }
  let persisted = load()
  const save = () => {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(persisted))
    } catch {
      // ignore
    }
  }

  // A plain function rather than a class: this code is serialised into the page, so it must
  // not depend on any helper a TypeScript transform might emit.
  type RpcErr = Error & { code: number; data?: unknown }
  const rpcError = (code: number, message: string, data?: unknown): RpcErr => Object.assign(new Error(message), { code }, data === undefined ? {} : { data })
  const isRpcError = (e: unknown): e is RpcErr => e instanceof Error && typeof (e as RpcErr).code === 'number'

  const listeners = new Map<string, Set<(...args: unknown[]) => void>>()
  const emit = (event: string, ...args: unknown[]) => {
    for (const l of [...(listeners.get(event) ?? [])]) {
      try {
        l(...args)
      } catch (e) {
        console.error('[test wallet] listener failed', e)
      }
    }
  }

  let rpcId = 0
  const rpc = async (method: string, params: unknown[] = []): Promise<unknown> => {
    const res = await fetch(config.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
    })
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    if (body.error) throw rpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  let account: string | undefined
  const getAccount = async (): Promise<string> => {
    if (!account) {
      const accounts = (await rpc('eth_accounts')) as string[]
      account = accounts[config.accountIndex ?? 0]
      if (!account) throw rpcError(-32603, 'anvil has no unlocked account')
    }
    return account
  }

  const hex = (n: number) => `0x${n.toString(16)}`
  const parseChain = (v: unknown): number => {
    const n = typeof v === 'string' ? Number.parseInt(v, v.startsWith('0x') ? 16 : 10) : Number(v)
    if (!Number.isSafeInteger(n) || n <= 0) throw rpcError(-32602, 'Invalid chainId')
    return n
  }

  // ---- approval control -------------------------------------------------------------------
  let rejectNext = false
  let hold = false
  const pending: { resolve: () => void; reject: (e: unknown) => void }[] = []
  const log: TestWalletRequestLog[] = []
  /** wallet_sendCalls batches by id: their final status and receipts. */
  const batches = new Map<string, { status: number; receipts: { transactionHash: string; status: string }[] }>()

  const approve = async (): Promise<void> => {
    if (rejectNext) {
      rejectNext = false
      throw rpcError(REJECTED.code, REJECTED.message)
    }
    if (hold) {
      await new Promise<void>((resolve, reject) => pending.push({ resolve, reject }))
    }
  }

  const handle = async (method: string, params: unknown): Promise<unknown> => {
    const list = Array.isArray(params) ? params : []
    if (NEEDS_APPROVAL.has(method)) await approve()
    switch (method) {
      case 'eth_requestAccounts':
      case 'wallet_requestPermissions': {
        const a = await getAccount()
        const wasConnected = persisted.connected
        persisted = { ...persisted, connected: true }
        save()
        if (!wasConnected) setTimeout(() => emit('accountsChanged', [a]), 0)
        return method === 'eth_requestAccounts' ? [a] : [{ parentCapability: 'eth_accounts' }]
      }
      case 'eth_accounts':
        return persisted.connected ? [await getAccount()] : []
      case 'wallet_getPermissions':
        return persisted.connected ? [{ parentCapability: 'eth_accounts' }] : []
      case 'wallet_revokePermissions': {
        const was = persisted.connected
        persisted = { ...persisted, connected: false }
        save()
        if (was) setTimeout(() => emit('accountsChanged', []), 0)
        return null
      }
      case 'eth_chainId':
        return hex(persisted.chainId)
      case 'net_version':
        return String(persisted.chainId)
      case 'wallet_switchEthereumChain': {
        const id = parseChain((list[0] as { chainId?: unknown } | undefined)?.chainId)
        if (!persisted.knownChains.includes(id))
          throw rpcError(4902, `Unrecognized chain ID "${hex(id)}". Try adding the chain using wallet_addEthereumChain first.`)
        if (id !== persisted.chainId) {
          persisted = { ...persisted, chainId: id }
          save()
          setTimeout(() => emit('chainChanged', hex(id)), 0)
        }
        return null
      }
      case 'wallet_addEthereumChain': {
        const p = list[0] as { chainId?: unknown; rpcUrls?: unknown } | undefined
        const id = parseChain(p?.chainId)
        if (!Array.isArray(p?.rpcUrls) || p.rpcUrls.length === 0) throw rpcError(-32602, 'rpcUrls required')
        if (!persisted.knownChains.includes(id)) persisted = { ...persisted, knownChains: [...persisted.knownChains, id] }
        save()
        return null
      }
      case 'wallet_getCapabilities':
      case 'wallet_getAssets': {
        if (method === 'wallet_getCapabilities' && config.atomic) {
          if (!persisted.connected) throw rpcError(4100, 'The requested account and/or method has not been authorized by the user.')
          return { [hex(persisted.chainId)]: { atomic: { status: 'supported' }, ...(config.assets ? { assetDiscovery: { supported: true } } : {}) } }
        }
        if (!config.assets) throw rpcError(4200, `The wallet does not support ${method}`)
        if (!persisted.connected) throw rpcError(4100, 'The requested account and/or method has not been authorized by the user.')
        const chain = hex(persisted.chainId)
        if (method === 'wallet_getCapabilities') return { [chain]: { assetDiscovery: { supported: true } } }
        const account = (list[0] as { account?: string } | undefined)?.account ?? (await getAccount())
        const owner = account.toLowerCase().replace(/^0x/, '').padStart(64, '0')
        const native = {
          address: 'native',
          balance: await rpc('eth_getBalance', [account, 'latest']),
          type: 'native',
          metadata: { decimals: 18, name: 'Ether', symbol: 'ETH' },
        }
        const tokens = await Promise.all(
          config.assets.map(async (t) => ({
            address: t.address,
            balance: `0x${BigInt(String(await rpc('eth_call', [{ to: t.address, data: `0x70a08231${owner}` }, 'latest']))).toString(16)}`,
            type: 'erc20',
            metadata: { decimals: t.decimals, name: t.name, symbol: t.symbol },
          })),
        )
        return { [chain]: [native, ...tokens] }
      }
      case 'wallet_sendCalls': {
        if (!config.atomic) throw rpcError(4200, 'The wallet does not support wallet_sendCalls')
        if (!persisted.connected) throw rpcError(4100, 'The requested account and/or method has not been authorized by the user.')
        const request = list[0] as { from?: string; calls?: { to: string; data?: string; value?: string }[] }
        const from = request.from ?? (await getAccount())
        const snapshot = await rpc('evm_snapshot')
        const receipts: { transactionHash: string; status: string }[] = []
        for (const call of request.calls ?? []) {
          const hash = (await rpc('eth_sendTransaction', [{ from, ...call }])) as string
          let receipt: { status: string } | null = null
          while (!receipt) {
            receipt = (await rpc('eth_getTransactionReceipt', [hash])) as { status: string } | null
            if (!receipt) await new Promise((r) => setTimeout(r, 50))
          }
          receipts.push({ transactionHash: hash, status: receipt.status })
          if (receipt.status !== '0x1') break
        }
        const failed = receipts.some((r) => r.status !== '0x1')
        if (failed) await rpc('evm_revert', [snapshot])
        const id = `batch-${batches.size + 1}`
        batches.set(id, { status: failed ? 500 : 200, receipts: failed ? [] : receipts })
        return { id }
      }
      case 'wallet_getCallsStatus': {
        const batch = batches.get(String(list[0]))
        if (!batch) throw rpcError(5730, 'Unknown bundle id')
        return { version: '2.0.0', id: list[0], chainId: hex(persisted.chainId), atomic: true, ...batch }
      }
      case 'personal_sign':
      case 'eth_sign':
      case 'eth_signTypedData_v4':
      case 'eth_sendTransaction':
        if (!persisted.connected) throw rpcError(4100, 'The requested account and/or method has not been authorized by the user.')
        return rpc(method, list)
      default:
        return rpc(method, list)
    }
  }

  const provider = {
    isSigilTestWallet: true,
    async request(args: { method: string; params?: unknown }): Promise<unknown> {
      const { method, params } = args ?? ({} as { method: string })
      try {
        const result = await handle(method, params)
        log.push({ method, params, outcome: 'ok' })
        return result
      } catch (e) {
        const err = isRpcError(e) ? e : rpcError(-32603, e instanceof Error ? e.message : String(e))
        log.push({ method, params, outcome: 'error', error: { code: err.code, message: err.message } })
        throw err
      }
    },
    on(event: string, listener: (...args: unknown[]) => void) {
      let set = listeners.get(event)
      if (!set) {
        set = new Set()
        listeners.set(event, set)
      }
      set.add(listener)
      return provider
    },
    removeListener(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener)
      return provider
    },
  }

  const icon =
    'data:image/svg+xml,' +
    encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" rx="24" fill="#3b5bdb"/><path d="M28 34h40v28H28z" fill="#fff"/><circle cx="58" cy="48" r="5" fill="#3b5bdb"/></svg>',
    )
  const info = Object.freeze({
    uuid: config.uuid ?? crypto.randomUUID(),
    name: config.name ?? 'Sigil Test Wallet',
    icon,
    rdns: config.rdns ?? 'dev.sigil.testwallet',
  })
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))

  const control: TestWalletControl = {
    rejectNext() {
      rejectNext = true
    },
    holdApprovals(on) {
      hold = on
    },
    approvePending() {
      for (const p of pending.splice(0)) p.resolve()
    },
    rejectPending() {
      for (const p of pending.splice(0)) p.reject(rpcError(REJECTED.code, REJECTED.message))
    },
    pendingCount: () => pending.length,
    log,
    state: () => ({ account, chainId: persisted.chainId, knownChains: [...persisted.knownChains], connected: persisted.connected }),
    emit,
  }
  w.__testWallet = control
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}
