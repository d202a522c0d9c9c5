import { errorText, isNetworkAllowed, networksOf, showError, type CaipNetwork, type SigilState } from '@sigil/core'
import { useState } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'

const selectState = (s: SigilState) => s

function NetworkList({ networks, onSwitched, label }: { networks: readonly CaipNetwork[]; onSwitched?: () => void; label?: string }) {
  const { client, directory, shake } = useModal()
  const m = useMessages().ui.networks
  const state = useStore(selectState)
  const active = state.activeCaipNetwork.caipNetworkId
  const [busy, setBusy] = useState<string>()

  const choose = async (network: CaipNetwork) => {
    if (network.caipNetworkId === active) return onSwitched?.()
    setBusy(network.caipNetworkId)
    try {
      await client.switchNetwork(network)
      onSwitched?.()
    } catch (error) {
      showError(client.store, errorText(error))
      shake()
    } finally {
      setBusy(undefined)
    }
  }

  return (
    <ul className="list" aria-label={label ?? m.list}>
      {networks.map((network) => {
        const isActive = network.caipNetworkId === active
        const connected = state.chains[network.chainNamespace]?.connectionStatus === 'connected'
        const allowed = !connected || isNetworkAllowed(state, network)
        return (
          <li key={network.caipNetworkId}>
            <button
              type="button"
              className="row"
              aria-current={isActive ? 'true' : undefined}
              aria-disabled={!allowed || undefined}
              aria-busy={busy === network.caipNetworkId || undefined}
              data-network={network.caipNetworkId}
              onClick={() => (allowed && !busy ? void choose(network) : undefined)}
            >
              <RemoteImage src={directory.networkImage(network)} name={network.name} className="round" />
              <span className="name">{network.name}</span>
              {busy === network.caipNetworkId ? <span className="tag">{m.switching}</span> : null}
              {isActive ? (
                <span className="net-check">
                  <Icons.check />
                </span>
              ) : null}
            </button>
          </li>
        )
      })}
    </ul>
  )
}

const selectNetworks = (s: SigilState) => s.networks

/**
 * Every configured network, grouped by chain family when there are several (EVM, Solana,
 * Bitcoin); the active one is marked. Switching goes back to the previous view; switching to
 * another family makes it the active one (spec section 4).
 */
export function NetworksView() {
  const { client } = useModal()
  const m = useMessages().ui.networks
  const networks = useStore(selectNetworks)
  const groups = new Map<string, CaipNetwork[]>()
  for (const network of networks) groups.set(network.chainNamespace, [...(groups.get(network.chainNamespace) ?? []), network])
  if (groups.size < 2) {
    return (
      <div className="scroll">
        <NetworkList networks={networks} onSwitched={() => client.goBack()} />
      </div>
    )
  }
  return (
    <div className="scroll">
      {[...groups].map(([namespace, list]) => {
        const family = m.families[namespace] ?? namespace
        return (
          <section key={namespace} data-family={namespace}>
            <h3 className="group-title">{family}</h3>
            <NetworkList networks={list} label={m.familyList(family)} onSwitched={() => client.goBack()} />
          </section>
        )
      })}
    </div>
  )
}

const selectNamespace = (s: SigilState) => s.activeNamespace

/** The wallet sits on a network the host does not support: switch to an allowed one, or disconnect. */
export function UnsupportedChainView() {
  const { client } = useModal()
  const ui = useMessages().ui
  const namespace = useStore(selectNamespace)
  const state = useStore(selectState)
  const networks = networksOf(state, namespace)
  return (
    <div>
      <p className="sub" style={{ textAlign: 'center', margin: '0 8px 12px' }}>
        {ui.networks.unsupported}
      </p>
      <div className="scroll" style={{ maxHeight: 320 }}>
        <NetworkList networks={networks} />
      </div>
      <button type="button" className="btn secondary block" style={{ marginTop: 12 }} onClick={() => void client.disconnect().catch(() => undefined)}>
        <Icons.power /> {ui.disconnect}
      </button>
    </div>
  )
}
