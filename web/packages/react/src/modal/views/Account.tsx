import { formatBalance, shortenAddress, showError, showSuccess, type SigilState } from '@sigil/core'
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useModal, useStore } from '../context.js'
import { Icons, Identicon, RemoteImage } from '../ui.js'

const selectChain = (s: SigilState) => s.chains[s.activeNamespace]
const selectNetwork = (s: SigilState) => s.activeCaipNetwork

const TABS = [
  { id: 'tokens', label: 'Tokens', empty: 'Token balances arrive in a later release.' },
  { id: 'nfts', label: 'NFTs', empty: 'NFTs arrive in a later release.' },
  { id: 'activity', label: 'Activity', empty: 'Activity arrives in a later release.' },
] as const

/** The connected account: avatar, address (copy), balance, network (switch), tabs, disconnect. */
export function AccountView() {
  const { client, directory } = useModal()
  const chain = useStore(selectChain)
  const network = useStore(selectNetwork)
  const account = chain?.account
  const address = account?.address
  const [copied, setCopied] = useState(false)
  const [tab, setTab] = useState(0)
  const [disconnecting, setDisconnecting] = useState(false)
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([])
  const idBase = useId()

  useEffect(() => {
    if (address && account?.balance === undefined) void client.refreshBalance()
  }, [client, address]) // eslint-disable-line react-hooks/exhaustive-deps

  const copy = useCallback(async () => {
    if (!address) return
    try {
      await navigator.clipboard.writeText(address)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
      showSuccess(client.store, 'Address copied')
    } catch {
      showError(client.store, 'Could not copy the address')
    }
  }, [address, client])

  const disconnect = useCallback(async () => {
    setDisconnecting(true)
    try {
      await client.disconnect()
    } catch (error) {
      showError(client.store, error instanceof Error ? error.message : 'Failed to disconnect')
    } finally {
      setDisconnecting(false)
    }
  }, [client])

  const onTabKey = (event: KeyboardEvent) => {
    const delta = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!delta) return
    event.preventDefault()
    const next = (tab + delta + TABS.length) % TABS.length
    setTab(next)
    tabRefs.current[next]?.focus()
  }

  if (!address) {
    return (
      <div className="state">
        <p className="sub">No wallet connected.</p>
        <button type="button" className="btn" onClick={() => client.push('Connect')}>
          Connect Wallet
        </button>
      </div>
    )
  }
  const wallet = account?.connectedWalletInfo
  const current = TABS[tab] ?? TABS[0]
  return (
    <div data-testid="account-view">
      <div className="account">
        {account?.profileImage ? <RemoteImage src={account.profileImage} name={address} className="lg round" /> : <Identicon address={address} />}
        <div className="addr">
          <span title={address} data-testid="account-address">
            {account?.profileName ?? shortenAddress(address)}
          </span>
          <button type="button" className="icon-btn" aria-label={copied ? 'Address copied' : 'Copy address'} onClick={() => void copy()}>
            {copied ? <Icons.check /> : <Icons.copy />}
          </button>
        </div>
        <div className="balance" data-testid="account-balance">
          {account?.balance !== undefined ? formatBalance(account.balance, account.balanceSymbol) : '…'}
        </div>
        <div style={{ display: 'flex', gap: 8, marginTop: 6, flexWrap: 'wrap', justifyContent: 'center' }}>
          <button
            type="button"
            className="pill"
            aria-label={`${network.name}, switch network`}
            onClick={() => client.push('Networks')}
            disabled={!client.options.enableNetworkSwitch}
          >
            <RemoteImage src={directory.networkImage(network)} name={network.name} className="sm" />
            {network.name}
            <Icons.chevron />
          </button>
          {account?.addressExplorerUrl ? (
            <a className="pill" href={account.addressExplorerUrl} target="_blank" rel="noreferrer noopener" style={{ paddingLeft: 12 }}>
              Explorer <Icons.external />
            </a>
          ) : null}
        </div>
        {wallet ? <p className="sub" style={{ fontSize: 12 }}>Connected with {wallet.name}</p> : null}
      </div>
      <div className="tabs" role="tablist" aria-label="Account">
        {TABS.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              tabRefs.current[i] = el
            }}
            type="button"
            role="tab"
            id={`${idBase}-tab-${t.id}`}
            aria-selected={i === tab}
            aria-controls={`${idBase}-panel-${t.id}`}
            tabIndex={i === tab ? 0 : -1}
            className="tab"
            onClick={() => setTab(i)}
            onKeyDown={onTabKey}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="panel" role="tabpanel" id={`${idBase}-panel-${current.id}`} aria-labelledby={`${idBase}-tab-${current.id}`}>
        {current.empty}
      </div>
      <button type="button" className="btn secondary block" onClick={() => void disconnect()} disabled={disconnecting} style={{ marginTop: 8 }}>
        <Icons.power /> Disconnect
      </button>
    </div>
  )
}
