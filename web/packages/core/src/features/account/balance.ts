import { resetBalances, setAccountProps } from '../../account.js'
import type { BlockchainClient, FungiblePrice } from './blockchain.js'
import { providerOf } from '../../connection.js'
import type { SigilContext } from '../../context.js'
import { ErrorMessages } from '../../errors.js'
import { isUnsupportedNetwork } from '../../networks.js'
import { formatUnits } from '../../format.js'
import { showError } from '../../notification.js'
import { NATIVE_BALANCE_CACHE_MS } from '../../storage.js'
import { updateChain, type BalanceStatus } from '../../store.js'
import type { CaipNetwork, ChainNamespace, TokenBalance, WalletAsset } from '../../types.js'

/** Balances are reused this long before the server is asked again (spec section 9: 30 s). */
export { NATIVE_BALANCE_CACHE_MS as BALANCE_CACHE_MS } from '../../storage.js'
/** After a failed fetch, no new one for this long (spec sections 4 and 8: 'Token Balance Unavailable'). */
export const BALANCE_RETRY_LOCK_MS = 30_000

/** The chain's own currency: the one entry without a token contract address. */
export function nativeBalanceOf(balances: readonly TokenBalance[]): TokenBalance | undefined {
  return balances.find((b) => !b.address)
}

/** What the token list shows: entries whose decimals is the string '0' are left out (spec section 5). */
export function listedTokens(balances: readonly TokenBalance[]): TokenBalance[] {
  return balances.filter((b) => b.quantity.decimals !== '0')
}

/** Fiat value of a balance (price × quantity), or undefined without a price (testnets, unpriced tokens). */
export function tokenFiatValue(token: TokenBalance): number | undefined {
  if (!(token.price > 0)) return undefined
  const quantity = Number(token.quantity.numeric)
  return Number.isFinite(quantity) ? quantity * token.price : undefined
}

/** Sum of the priced balances, or undefined when none has a price. */
export function totalFiatValue(tokens: readonly TokenBalance[]): number | undefined {
  let total: number | undefined
  for (const token of tokens) {
    const value = tokenFiatValue(token)
    if (value !== undefined) total = (total ?? 0) + value
  }
  return total
}

/**
 * Assets a wallet listed (ERC-7811) as balance entries: the native one always, tokens only when
 * non-zero (as the server lists them), priced from `prices` by symbol where one is known.
 */
export function walletAssetBalances(assets: readonly WalletAsset[], network: CaipNetwork, prices: readonly FungiblePrice[]): TokenBalance[] {
  const bySymbol = new Map(prices.map((p) => [p.symbol.toUpperCase(), p]))
  return listedAssets(assets).map((a) => {
    const numeric = formatUnits(a.balance, a.decimals)
    const known = bySymbol.get(a.symbol.toUpperCase())
    const price = known?.price ?? 0
    return {
      name: a.name,
      symbol: a.symbol,
      chainId: network.caipNetworkId,
      ...(a.address ? { address: a.address } : {}),
      price,
      value: price * Number(numeric),
      quantity: { decimals: String(a.decimals), numeric },
      iconUrl: known?.iconUrl ?? '',
    }
  })
}

/** The wallet's assets worth listing: the native one always, tokens when non-zero. */
const listedAssets = (assets: readonly WalletAsset[]) => assets.filter((a) => !a.address || a.balance > 0n)

/** The server prices at most this many tokens per call. */
const MAX_PRICED = 100

export interface RefreshBalanceOptions {
  /** Ask the server to skip its cache too (forceUpdate=true): after a send, or an explicit refresh. */
  force?: boolean
}

export interface BalanceController {
  /**
   * Fetches the namespace's balances (from the wallet where it lists its assets, else from the
   * Sigil server) into its account state: `balance` and `balanceSymbol` from the native entry,
   * `tokenBalance` from the listed tokens. Reuses an answer younger than 30 s unless forced;
   * after a failure, does nothing for that chain and account for 30 s.
   */
  refresh(namespace: ChainNamespace, options?: RefreshBalanceOptions): Promise<void>
  /** Empties the namespace's balances (its account or network changed): status 'idle'. */
  reset(namespace: ChainNamespace): void
  /** Forgets remembered answers and retry locks (on disconnect: a new connection reads again). */
  clear(): void
}

function setBalanceStatus(ctx: SigilContext, namespace: ChainNamespace, balanceStatus: BalanceStatus): void {
  updateChain(ctx.store, namespace, () => ({ balanceStatus }))
}

export function createBalanceController(ctx: SigilContext, api: () => Promise<BlockchainClient>): BalanceController {
  const { store } = ctx
  /** Answers by CAIP-10 account, kept in memory only: balances change too often to store. */
  const cache = new Map<string, { at: number; balances: TokenBalance[] }>()
  /** One fetch per account at a time; a forced refresh does not settle for an unforced one. */
  const inFlight = new Map<string, { force: boolean; promise: Promise<void> }>()
  /**
   * Until when fetching is locked after a failure, by CAIP-10 account (spec section 4: 30 s):
   * another chain or account reads at once, and a new connection starts without locks.
   */
  const lockedUntil = new Map<string, number>()

  /** The namespace's account and network, if they are still those the fetch was for. */
  const isCurrent = (namespace: ChainNamespace, address: string, network: CaipNetwork) => {
    const chain = store.getState().chains[namespace]
    return chain?.account.address === address && chain.network.caipNetwork?.caipNetworkId === network.caipNetworkId
  }

  const apply = (namespace: ChainNamespace, network: CaipNetwork, address: string, balances: readonly TokenBalance[]) => {
    const native = nativeBalanceOf(balances)
    setAccountProps(store, namespace, {
      balance: native?.quantity.numeric,
      balanceSymbol: native?.symbol,
      tokenBalance: listedTokens(balances),
    })
    setBalanceStatus(ctx, namespace, 'ready')
    if (native) ctx.storage.setNativeBalance(`${network.caipNetworkId}:${address}`, { balance: native.quantity.numeric, symbol: native.symbol })
  }

  /**
   * Spec section 7: a wallet that offers asset discovery (its adapter's getAssets) is asked
   * first, and the server prices what it lists (best effort; never on a testnet). Resolves to
   * undefined when the wallet cannot say; is undefined at once without that ability.
   */
  const fromWallet = (namespace: ChainNamespace, network: CaipNetwork, address: string, client: BlockchainClient) => {
    const adapter = ctx.adapters[namespace]
    const provider = providerOf(ctx, namespace)
    if (!adapter?.getAssets || provider === undefined) return undefined
    return adapter
      .getAssets(provider, address, network)
      .catch(() => undefined)
      .then(async (assets) => {
        if (!assets) return undefined
        const ids = listedAssets(assets)
          .slice(0, MAX_PRICED)
          .map((a) => `${network.caipNetworkId}:${a.address ?? 'native'}`)
        const prices = network.testnet ? [] : await client.getPrices(ids, { currency: 'usd' }).catch((): FungiblePrice[] => [])
        return walletAssetBalances(assets, network, prices)
      })
  }

  const fetchInto = async (namespace: ChainNamespace, network: CaipNetwork, address: string, key: string, force: boolean) => {
    setBalanceStatus(ctx, namespace, 'loading')
    try {
      const client = await api()
      const walletAnswer = fromWallet(namespace, network, address, client)
      const balances =
        (walletAnswer && (await walletAnswer)) ?? (await client.getBalances(address, { chainId: network.caipNetworkId, currency: 'usd', forceUpdate: force }))
      lockedUntil.delete(key)
      cache.set(key, { at: Date.now(), balances })
      // An answer for an account or network that changed meanwhile is kept for later, not shown.
      if (isCurrent(namespace, address, network)) apply(namespace, network, address, balances)
    } catch {
      lockedUntil.set(key, Date.now() + BALANCE_RETRY_LOCK_MS)
      if (!isCurrent(namespace, address, network)) return
      // Earlier balances stay on screen; the failure is said once, and the list says it too.
      setBalanceStatus(ctx, namespace, 'failed')
      showError(store, ErrorMessages.tokenBalanceUnavailable)
    }
  }

  return {
    async refresh(namespace, options = {}) {
      const force = options.force === true
      const chain = store.getState().chains[namespace]
      const address = chain?.account.address
      const network = chain?.network.caipNetwork
      if (!address || !network) return
      // Spec section 7: data calls are skipped (empty result) on an unsupported network.
      if (isUnsupportedNetwork(network)) {
        setAccountProps(store, namespace, { balance: undefined, balanceSymbol: undefined, tokenBalance: [] })
        setBalanceStatus(ctx, namespace, 'ready')
        return
      }
      const key = `${network.caipNetworkId}:${address.toLowerCase()}`
      const hit = cache.get(key)
      if (!force && hit && Date.now() - hit.at < NATIVE_BALANCE_CACHE_MS) return apply(namespace, network, address, hit.balances)
      const running = inFlight.get(key)
      if (running && (running.force || !force)) return running.promise
      if (Date.now() < (lockedUntil.get(key) ?? 0)) {
        setBalanceStatus(ctx, namespace, 'failed')
        return
      }
      const promise = fetchInto(namespace, network, address, key, force).finally(() => {
        if (inFlight.get(key)?.promise === promise) inFlight.delete(key)
      })
      inFlight.set(key, { force, promise })
      return promise
    },
    reset: (namespace) => resetBalances(store, namespace),
    clear() {
      cache.clear()
      lockedUntil.clear()
    },
  }
}
