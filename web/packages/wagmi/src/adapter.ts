/*
 * A wagmi config that follows the Sigil connection, both ways: connecting, switching network or
 * disconnecting in the modal shows in wagmi's hooks, and wagmi's switchChain and disconnect go
 * through the modal. The adapter is also the eip155 chain adapter of the modal (it does what
 * @sigil/adapter-evm does), so a host passes it where it would pass `evmAdapter()`.
 */
import { ConfigurationError, ErrorMessages, type CaipNetwork, type ChainAdapter, type Eip1193Provider, type SigilClient } from '@sigil/core'
import { evmAdapter, type EvmAdapter } from '@sigil/adapter-evm'
import type { Chain, Transport } from 'viem'
import { createConfig, http, type Config, type Connector, type CreateConfigParameters } from 'wagmi'
import { connect } from 'wagmi/actions'
import { sigilRpcUrl, toWagmiChain } from './chains.js'
import { SIGIL_CONNECTOR_ID, sigilAccount, sigilConnector, type SigilBridge } from './connector.js'

export interface WagmiAdapterOptions {
  /** The host's networks (the same list it gives `createAppKit`); the eip155 ones become wagmi's chains. */
  networks: readonly CaipNetwork[]
  /** The project id (from `sigil project add`): wagmi reads the chains through the Sigil server's RPC proxy. */
  projectId: string
  /** The Sigil server; the page's own origin by default. */
  apiUrl?: string
  /** A transport per chain id, instead of the Sigil server's RPC proxy. */
  transports?: Record<number, Transport>
  /** How often wagmi polls (receipts, block numbers), in ms. */
  pollingInterval?: number
  /** Server-side rendering: wagmi's state is hydrated on the client (see wagmi's `ssr`). */
  ssr?: boolean
  /** Where wagmi keeps its state; wagmi's default (localStorage) when not given, none with null. */
  storage?: CreateConfigParameters['storage']
}

function pageOrigin(): string {
  const location = (globalThis as { location?: { origin?: string } }).location
  return location?.origin && location.origin !== 'null' ? location.origin : ''
}

export class WagmiAdapter implements ChainAdapter<Eip1193Provider> {
  readonly namespace = 'eip155' as const
  /** The eip155 networks, in the host's order. */
  readonly networks: CaipNetwork[]
  readonly wagmiChains: readonly [Chain, ...Chain[]]
  /** Give this to `<WagmiProvider config={…}>`. */
  readonly wagmiConfig: Config
  private readonly evm = evmAdapter()
  private readonly bridge: SigilBridge
  /** The modal it is attached to (a new createAppKit, e.g. on hot reload, replaces it). */
  private client: SigilClient | undefined
  private readonly waiting = new Set<(client: SigilClient) => void>()

  constructor(options: WagmiAdapterOptions) {
    this.networks = options.networks.filter((n) => n.chainNamespace === 'eip155')
    const chains = this.networks.map(toWagmiChain)
    if (!chains[0]) throw new ConfigurationError(ErrorMessages.invalidAppConfiguration, 'NO_NETWORKS')
    this.wagmiChains = chains as [Chain, ...Chain[]]
    const apiUrl = (options.apiUrl ?? pageOrigin()).replace(/\/+$/, '')
    const transports = Object.fromEntries(
      this.networks.map((network) => [Number(network.id), options.transports?.[Number(network.id)] ?? http(sigilRpcUrl(apiUrl, options.projectId, network))]),
    )
    this.bridge = {
      disconnecting: false,
      // After the modal's start-up restore, so wagmi's reconnect sees the restored connection.
      client: () => {
        const { client } = this
        if (client) return settled(client)
        return new Promise<SigilClient>((resolve) => this.waiting.add(resolve)).then(settled)
      },
    }
    this.wagmiConfig = createConfig({
      chains: this.wagmiChains,
      connectors: [sigilConnector(this.bridge)],
      transports,
      // Sigil finds the page's wallets; wagmi's own EIP-6963 connectors would compete with it.
      multiInjectedProviderDiscovery: false,
      ...(options.pollingInterval !== undefined ? { pollingInterval: options.pollingInterval } : {}),
      ...(options.ssr !== undefined ? { ssr: options.ssr } : {}),
      ...(options.storage !== undefined ? { storage: options.storage } : {}),
    })
  }

  /** The wagmi connector standing for the Sigil connection. */
  get connector(): Connector {
    return this.wagmiConfig.connectors.find((c) => c.id === SIGIL_CONNECTOR_ID) as Connector
  }

  // What the eip155 adapter does, and the family's capability groups (the page's injected
  // wallets; EVM over WalletConnect and the embedded wallet): @sigil/adapter-evm's.
  readonly isAddress: EvmAdapter['isAddress'] = this.evm.isAddress
  readonly switchNetwork: EvmAdapter['switchNetwork'] = this.evm.switchNetwork
  readonly signMessage: EvmAdapter['signMessage'] = this.evm.signMessage
  readonly getAssets: EvmAdapter['getAssets'] = this.evm.getAssets
  readonly sendTransfer: EvmAdapter['sendTransfer'] = this.evm.sendTransfer
  readonly transferFee: EvmAdapter['transferFee'] = this.evm.transferFee
  readonly sendNft: EvmAdapter['sendNft'] = this.evm.sendNft
  readonly nftTransferFee: EvmAdapter['nftTransferFee'] = this.evm.nftTransferFee
  readonly getIdentity: EvmAdapter['getIdentity'] = this.evm.getIdentity
  readonly resolveName: EvmAdapter['resolveName'] = this.evm.resolveName
  readonly displayAddress: EvmAdapter['displayAddress'] = this.evm.displayAddress
  readonly signInAccount: EvmAdapter['signInAccount'] = this.evm.signInAccount
  readonly connectors: EvmAdapter['connectors'] = this.evm.connectors
  readonly session: EvmAdapter['session'] = this.evm.session
  readonly calls: EvmAdapter['calls'] = this.evm.calls

  /** Keeps wagmi's state in step with the modal's eip155 connection; `createAppKit` calls it. */
  attach(client: SigilClient): () => void {
    this.client = client
    for (const resolve of this.waiting) resolve(client)
    this.waiting.clear()
    const config = this.wagmiConfig
    let connecting = false
    const sync = () => {
      const connector = this.connector
      const wagmi = config.state
      const current = wagmi.current ? wagmi.connections.get(wagmi.current) : undefined
      const ours = current?.connector.uid === connector.uid
      const chain = client.store.getState().chains.eip155
      const account = sigilAccount(client.store.getState())
      if (account) {
        // wagmi settles its own connect or reconnect first; this runs again when it has.
        if (wagmi.status === 'connecting' || wagmi.status === 'reconnecting' || connecting) return
        if (wagmi.status === 'disconnected') {
          connecting = true
          connect(config, { connector })
            .catch(() => undefined)
            .finally(() => {
              connecting = false
              sync()
            })
          return
        }
        if (!ours || !current) return
        if (current.accounts[0] !== account.accounts[0] || current.accounts.length !== account.accounts.length) {
          connector.emitter.emit('change', { accounts: account.accounts })
        }
        if (current.chainId !== account.chainId) connector.emitter.emit('change', { chainId: account.chainId })
      } else if (chain?.connectionStatus === 'disconnected' && ours && !this.bridge.disconnecting) {
        connector.emitter.emit('disconnect')
      }
    }
    const stopModal = client.store.subscribe(sync)
    const stopWagmi = config.subscribe((s) => `${s.status}:${s.current}`, sync)
    sync()
    return () => {
      stopModal()
      stopWagmi()
      if (this.client === client) this.client = undefined
    }
  }
}

/** Resolves with the client once its eip155 connection is not being restored any more. */
function settled(client: SigilClient): Promise<SigilClient> {
  const restoring = () => client.store.getState().chains.eip155?.connectionStatus === 'connecting'
  if (!restoring()) return Promise.resolve(client)
  return new Promise((resolve) => {
    const unsubscribe = client.store.subscribe(() => {
      if (restoring()) return
      unsubscribe()
      resolve(client)
    })
  })
}

/** `new WagmiAdapter(options)`, for hosts that prefer a factory. */
export function createWagmiAdapter(options: WagmiAdapterOptions): WagmiAdapter {
  return new WagmiAdapter(options)
}
