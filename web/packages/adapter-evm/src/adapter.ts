import { ErrorMessages, SigilError, toSigilError, type AdapterEvents, type ChainAdapter, type ConnectResult } from '@sigil/core'
import { createAssetDiscovery } from './assets.js'
import { createDiscovery, type DiscoveredWallet, type Discovery, type DiscoveryWindow } from './discovery.js'
import { parseChainId, utf8ToHex, type Eip1193Provider } from './provider.js'
import { switchEvmChain } from './switch-chain.js'

export interface EvmAdapterOptions {
  /** Where to look for `window.ethereum`; the global object by default. */
  window?: DiscoveryWindow
  /** How long reconnect waits for the stored wallet to announce itself. */
  reconnectTimeoutMs?: number
}

export interface EvmAdapter extends ChainAdapter {
  readonly namespace: 'eip155'
  /** The provider of the connected wallet, for hosts that want to send their own requests. */
  getProvider(): Eip1193Provider | undefined
}

const DEFAULT_RECONNECT_TIMEOUT_MS = 1000

function firstAccount(value: unknown): string | undefined {
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined
}

/**
 * Browser-extension EVM wallets: EIP-6963 discovery plus legacy `window.ethereum`, connect,
 * reconnect without prompting (eth_accounts), chain switching with add-on-4902 and
 * personal_sign. Balances come from the wallet when it offers ERC-7811 asset discovery
 * (getAssets), otherwise from the Sigil server (see @sigil/core).
 */
export function evmAdapter(options: EvmAdapterOptions = {}): EvmAdapter {
  let discovery: Discovery | undefined
  let events: AdapterEvents | undefined
  let active: { wallet: DiscoveredWallet; detach: () => void } | undefined
  const assets = createAssetDiscovery()

  const discover = () => (discovery ??= createDiscovery(options.window))

  /** Listens to the connected wallet only; events of other installed wallets are not ours. */
  const attach = (wallet: DiscoveredWallet) => {
    active?.detach()
    const { provider } = wallet
    const onAccounts = (accounts: unknown) => events?.accountChanged(firstAccount(accounts))
    const onChain = (chainId: unknown) => {
      try {
        events?.chainChanged(parseChainId(chainId))
      } catch {
        // A malformed chain id from the wallet is ignored rather than breaking the page.
      }
    }
    const onDisconnect = () => {
      detach()
      events?.disconnected()
    }
    const detach = () => {
      assets.clear()
      provider.removeListener?.('accountsChanged', onAccounts)
      provider.removeListener?.('chainChanged', onChain)
      provider.removeListener?.('disconnect', onDisconnect)
      if (active?.wallet === wallet) active = undefined
    }
    provider.on?.('accountsChanged', onAccounts)
    provider.on?.('chainChanged', onChain)
    provider.on?.('disconnect', onDisconnect)
    active = { wallet, detach }
  }

  const walletFor = (connectorId: string): DiscoveredWallet => {
    const wallet = discover().find(connectorId)
    if (!wallet) throw new SigilError(ErrorMessages.adapterNotFound, 'CONNECTOR_NOT_FOUND')
    return wallet
  }

  /** Waits for a connector that may announce itself after the page script ran. */
  const waitFor = (connectorId: string, timeoutMs: number): Promise<DiscoveredWallet | undefined> => {
    const found = discover().find(connectorId)
    if (found || timeoutMs <= 0) return Promise.resolve(found)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        unsubscribe()
        resolve(discover().find(connectorId))
      }, timeoutMs)
      const unsubscribe = discover().subscribe((wallets) => {
        const wallet = wallets.find((w) => w.connector.id === connectorId)
        if (!wallet) return
        clearTimeout(timer)
        unsubscribe()
        resolve(wallet)
      })
    })
  }

  const result = (wallet: DiscoveredWallet, address: string, chainId: number): ConnectResult => ({
    connectorId: wallet.connector.id,
    address,
    chainId,
    walletInfo: {
      name: wallet.connector.name,
      ...(wallet.connector.imageUrl ? { icon: wallet.connector.imageUrl } : {}),
      ...(wallet.connector.rdns ? { rdns: wallet.connector.rdns } : {}),
    },
  })

  const activeProvider = (): Eip1193Provider => {
    if (!active) throw new SigilError(ErrorMessages.connectionControllerClientNotSet, 'NOT_CONNECTED')
    return active.wallet.provider
  }

  return {
    namespace: 'eip155',

    setup(adapterEvents) {
      events = adapterEvents
      const d = discover()
      const report = (wallets: DiscoveredWallet[]) => adapterEvents.connectorsChanged(wallets.map((w) => w.connector))
      report(d.list())
      const unsubscribe = d.subscribe(report)
      return () => {
        unsubscribe()
        active?.detach()
        d.destroy()
        discovery = undefined
        events = undefined
      }
    },

    async connect(connectorId) {
      const wallet = walletFor(connectorId)
      try {
        const address = firstAccount(await wallet.provider.request({ method: 'eth_requestAccounts' }))
        if (!address) throw new SigilError(ErrorMessages.addressOrAuthConnectorNotFound, 'NO_ACCOUNTS')
        const chainId = parseChainId(await wallet.provider.request({ method: 'eth_chainId' }))
        attach(wallet)
        return result(wallet, address, chainId)
      } catch (error) {
        throw toSigilError(error)
      }
    },

    async reconnect(connectorId) {
      const wallet = await waitFor(connectorId, options.reconnectTimeoutMs ?? DEFAULT_RECONNECT_TIMEOUT_MS)
      if (!wallet) return undefined
      // eth_accounts never prompts: it lists accounts only if the site is still authorised.
      const address = firstAccount(await wallet.provider.request({ method: 'eth_accounts' }))
      if (!address) return undefined
      const chainId = parseChainId(await wallet.provider.request({ method: 'eth_chainId' }))
      attach(wallet)
      return result(wallet, address, chainId)
    },

    async disconnect() {
      const wallet = active?.wallet
      active?.detach()
      if (!wallet) return
      try {
        // Lets wallets that support it (EIP-2255) forget the site, so a reload won't reconnect.
        await wallet.provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
      } catch {
        // Most wallets lack this method; the local disconnect stands.
      }
    },

    async switchNetwork(network) {
      await switchEvmChain(activeProvider(), network)
    },

    async signMessage(message, address) {
      try {
        return String(await activeProvider().request({ method: 'personal_sign', params: [utf8ToHex(message), address] }))
      } catch (error) {
        throw toSigilError(error)
      }
    },

    async getAssets(address, network) {
      return active ? assets.getAssets(active.wallet.provider, address, network.id) : undefined
    },

    getProvider: () => active?.wallet.provider,
  }
}
