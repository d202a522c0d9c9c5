import {
  errorText,
  isMobileDevice,
  isUserRejection,
  openWalletApp,
  WALLET_CONNECT_ID,
  walletConnectOf,
  walletConnectLink,
  walletLinkTabs,
  walletLinkTarget,
  type RouteOf,
  type Wallet,
  type WalletConnectConnector,
  type WalletConnectState,
} from '@sigil/core'
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react'
import { useMessages, useModal, useOnce } from '../../context.js'
import { QrCode } from '../../qr.js'
import { Icons, RemoteImage, WALLET_CONNECT_LOGO } from '../../ui.js'
import { useCopy } from '../../copy.js'
import { WalletNotInstalledView } from './Connecting.js'
import { useInstallLink } from './GetWallet.js'

type Tab = 'mobile' | 'desktop' | 'web'
type Route = RouteOf<'ConnectingWalletConnect'> | RouteOf<'ConnectingWalletConnectBasic'>

const IDLE: WalletConnectState = { pairing: 'idle', relay: 'idle' }

function useConnectorState(connector: WalletConnectConnector | undefined): WalletConnectState {
  return useSyncExternalStore(
    useCallback((onChange: () => void) => connector?.subscribeState(onChange) ?? (() => undefined), [connector]),
    () => connector?.getState() ?? IDLE,
  )
}

/**
 * ConnectingWalletConnect: a pairing through the relay, shown as a QR code (with the wallet's
 * logo) and a copyable link; tabs for the wallet's desktop and web apps where it has those links;
 * on a phone, the wallet app opens at once with the pairing URI (its deep link, or the wc: URI
 * itself for any wallet), 'Open and continue in the wallet app' opens it again and the QR code
 * waits behind 'Copy link / other device'. A new URI replaces one about to expire. Coming back to
 * the page with the relay's socket gone reconnects it, so an approval given meanwhile arrives.
 * Relay trouble (lost, reconnecting) and a refused sign-in token ('Session Expired') show with a
 * way to retry. ConnectingWalletConnectBasic is the same without the wallet's other tabs.
 */
export function ConnectingWalletConnectView({ route }: { route: Route }) {
  const { client, directory, shake } = useModal()
  const ui = useMessages()
  const m = ui.ui.walletConnect
  const basic = route.view === 'ConnectingWalletConnectBasic'
  const wallet: Wallet | undefined = route.data?.wallet
  const connector = useMemo(() => walletConnectOf(client), [client])
  const state = useConnectorState(connector)
  const directoryWallet = wallet && wallet.id !== WALLET_CONNECT_ID ? wallet : undefined
  const name = directoryWallet?.name ?? connector?.info.name ?? ui.ui.wallet
  const logo = directoryWallet ? directory.walletImage(directoryWallet) : (connector?.info.imageUrl ?? WALLET_CONNECT_LOGO)
  const mobile = isMobileDevice(client)
  const tabs = basic ? (['mobile'] as Tab[]) : walletLinkTabs(directoryWallet)
  const [tab, setTab] = useState<Tab>('mobile')
  const [failure, setFailure] = useState<{ text: string; rejected: boolean } | undefined>()
  const { copied, copy: copyText } = useCopy()
  const [showQr, setShowQr] = useState(false)
  const installLink = useInstallLink()
  const getIt = directoryWallet ? installLink(directoryWallet) : undefined
  const attempt = useRef(0)
  const appOpened = useRef(false)

  const run = useCallback(() => {
    if (!connector) return
    const id = ++attempt.current
    appOpened.current = false
    setFailure(undefined)
    client.connect(connector.info.id, directoryWallet ? { wallet: directoryWallet } : {}).then(
      () => undefined,
      (error: unknown) => {
        if (id !== attempt.current || (error as { code?: unknown }).code === 'CANCELLED') return
        setFailure({ text: errorText(error), rejected: isUserRejection(error) })
        shake()
      },
    )
  }, [client, connector, directoryWallet, shake])

  // One pairing per visit to the view; leaving it stops waiting for the wallet.
  useOnce(run)
  // (A replayed effect, as in StrictMode, mounts again at once: only a real unmount cancels.)
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
      queueMicrotask(() => {
        if (mounted.current) return
        attempt.current++
        connector?.cancel()
      })
    }
  }, [connector])

  // On a phone the wallet app opens by itself once per attempt, with the attempt's first URI.
  const appLink =
    mobile && tab === 'mobile' && state.uri ? (directoryWallet ? walletConnectLink(directoryWallet.mobile_link, state.uri) : state.uri) : undefined
  const autoOpen = directoryWallet && appLink && state.pairing === 'ready' ? appLink : undefined
  useEffect(() => {
    if (!autoOpen || appOpened.current) return
    appOpened.current = true
    openWalletApp(autoOpen)
  }, [autoOpen])

  // Back from the wallet app: a phone may have closed the relay's socket meanwhile.
  useEffect(() => {
    if (!connector) return
    const onVisible = () => {
      const { pairing, relay } = connector.getState()
      if (document.visibilityState === 'visible' && pairing === 'ready' && relay !== 'connected') void connector.retryRelay().catch(() => undefined)
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => document.removeEventListener('visibilitychange', onVisible)
  }, [connector])

  const copy = useCallback(async () => {
    if (!state.uri) return
    if (!(await copyText(state.uri))) setFailure({ text: m.copyFailed, rejected: false })
  }, [state.uri, m, copyText])

  // The tabs: one Tab stop, the arrow keys move between them (as seen: reversed right to left).
  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    if (!step) return
    event.preventDefault()
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl'
    const next = (tabs.indexOf(tab) + (rtl ? -step : step) + tabs.length) % tabs.length
    setTab(tabs[next] as Tab)
    event.currentTarget.querySelectorAll<HTMLButtonElement>('[role=tab]')[next]?.focus()
  }

  if (!connector) return <WalletNotInstalledView route={route} />

  const sessionExpired = state.error?.code === 'SESSION_EXPIRED'
  const relayTrouble = !sessionExpired && state.pairing === 'ready' && (state.relay === 'reconnecting' || state.relay === 'disconnected')
  const link = (kind: Tab) =>
    state.uri && directoryWallet
      ? walletConnectLink(
          kind === 'mobile' ? directoryWallet.mobile_link : kind === 'desktop' ? directoryWallet.desktop_link : directoryWallet.webapp_link,
          state.uri,
        )
      : undefined

  if (sessionExpired) {
    return (
      <div className="connecting" data-status="session-expired">
        <div role="alert">
          <p className="headline">{ui.errors.sessionExpired}</p>
          <p className="sub">{m.sessionExpiredHint}</p>
        </div>
        <button type="button" className="btn" onClick={run}>
          {m.reconnect}
        </button>
      </div>
    )
  }

  const ready = state.pairing === 'ready' && state.uri
  // A phone with a way into a wallet app: the app first, the QR code for another device on demand.
  const phoneFirst = mobile && tab === 'mobile' && (!directoryWallet || walletConnectLink(directoryWallet.mobile_link, 'wc:') !== undefined) && !showQr
  const appButton =
    appLink && ready ? (
      <a className="btn block" href={appLink} target={walletLinkTarget(appLink)} rel="noreferrer noopener" data-testid="wc-deep-link">
        {m.openInApp}
      </a>
    ) : null
  const body = phoneFirst ? (
    <>
      <div className="wrap">
        <span className={failure ? 'ring err' : 'ring'} aria-hidden="true" />
        <RemoteImage src={logo} name={name} className="lg" />
      </div>
      <p className="headline">{ui.ui.connecting.continueIn(name)}</p>
      <p className="sub">{state.pairing === 'expired' ? m.expired : ui.ui.connecting.acceptRequest}</p>
      {appButton ?? (
        <button type="button" className="btn block" disabled aria-busy="true">
          {m.openInApp}
        </button>
      )}
    </>
  ) : tab === 'mobile' ? (
    <>
      {appButton}
      {ready && state.uri ? (
        <QrCode text={state.uri} label={m.qr} testId="wc-qr" logo={{ src: logo, name }} />
      ) : (
        <div className="wc-qr" role="status" aria-busy="true" data-testid="wc-qr-loading">
          <span className="sub">{state.pairing === 'expired' ? m.expired : failure ? '' : m.generating}</span>
        </div>
      )}
      <p className="sub">{directoryWallet ? m.scan(name) : m.scanAny}</p>
      {ready && state.uri ? (
        // The QR code's link as text: read, selected or copied without a camera.
        <input className="wc-uri" readOnly value={state.uri} aria-label={m.link} spellCheck={false} onFocus={(e) => e.target.select()} data-testid="wc-uri" />
      ) : null}
    </>
  ) : (
    <>
      <div className="wrap">
        <RemoteImage src={logo} name={name} className="lg" />
      </div>
      <p className="headline">{m.approveIn(name)}</p>
      {link(tab) ? (
        <a className="btn" href={link(tab)} target={tab === 'web' ? '_blank' : undefined} rel="noreferrer noopener" data-testid={`wc-${tab}-link`}>
          {tab === 'desktop' ? m.openDesktop(name) : m.openWeb(name)} <Icons.external />
        </a>
      ) : (
        <p className="sub">{m.generating}</p>
      )}
    </>
  )

  return (
    <div className="connecting" data-testid="wc-view" data-status={failure ? 'error' : state.pairing} data-relay={state.relay}>
      {tabs.length > 1 ? (
        <div className="tabs" role="tablist" aria-label={m.tabsLabel} style={{ width: '100%' }} onKeyDown={onTabKey}>
          {tabs.map((t) => (
            <button key={t} type="button" role="tab" className="tab" aria-selected={tab === t} tabIndex={tab === t ? 0 : -1} onClick={() => setTab(t)}>
              {m.tabs[t]}
            </button>
          ))}
        </div>
      ) : null}
      {body}
      {relayTrouble ? (
        <div className="wc-relay" role="status">
          <span className="sub err">{state.relay === 'reconnecting' ? m.reconnecting : m.relayLost}</span>
          <button type="button" className="btn secondary" onClick={() => void connector.retryRelay().catch(() => undefined)}>
            {m.retry}
          </button>
        </div>
      ) : null}
      {failure ? (
        <div>
          <p className="headline">{failure.rejected ? ui.ui.connecting.declined : ui.ui.connecting.failed}</p>
          <p className="sub err" role="alert">
            {failure.text}
          </p>
        </div>
      ) : null}
      {failure || state.pairing === 'error' ? (
        <button type="button" className="btn secondary" onClick={run}>
          {m.newCode}
        </button>
      ) : ready && phoneFirst ? (
        <button type="button" className="btn secondary" onClick={() => setShowQr(true)}>
          <Icons.copy /> {m.otherDevice}
        </button>
      ) : ready ? (
        <button type="button" className="btn secondary" onClick={() => void copy()}>
          {copied ? <Icons.check /> : <Icons.copy />} {copied ? m.linkCopied : m.copyLink}
        </button>
      ) : null}
      {getIt ? (
        <p className="newcomer">
          {ui.ui.getWallet.dontHave(name)}
          <a className="link" href={getIt} target="_blank" rel="noreferrer noopener">
            {ui.ui.getWallet.getIt}
          </a>
        </p>
      ) : null}
    </div>
  )
}
