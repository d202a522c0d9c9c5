import { currentRoute, hideNotification, type RouteEntry, type SigilState } from '@sigil/core'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react'
import type { AppKit } from '../appkit.js'
import { ModalContext, useModal, useStore, type ModalContextValue } from './context.js'
import type { Directory } from './directory.js'
import { TIMINGS } from './styles.js'
import { Icons } from './ui.js'
import { AccountView } from './views/Account.js'
import { AllWalletsView } from './views/AllWallets.js'
import { ConnectView } from './views/Connect.js'
import { ConnectingExternalView, WalletNotInstalledView } from './views/Connecting.js'
import { NetworksView, UnsupportedChainView } from './views/Networks.js'
import { SIWXSignMessageView } from './views/SIWXSignMessage.js'

const FOCUSABLE = 'button:not([disabled]),[href],input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])'
const NOTIFICATION_HIDE_MS = 3000

const selectModal = (s: SigilState) => s.modal
const selectHistory = (s: SigilState) => s.router.history
const selectThemeMode = (s: SigilState) => s.themeMode
const selectThemeVariables = (s: SigilState) => s.themeVariables
const selectNotification = (s: SigilState) => s.notification
const selectSiwxStatus = (s: SigilState) => s.siwx.status

/** Header text per view. */
export function titleOf(route: RouteEntry): string {
  switch (route.view) {
    case 'Connect':
      return 'Connect Wallet'
    case 'AllWallets':
      return 'All Wallets'
    case 'ConnectingExternal':
    case 'ConnectingWalletConnect':
      return route.data?.wallet?.name ?? route.data?.connector?.name ?? 'Connecting'
    case 'Account':
      return 'Account'
    case 'Networks':
      return 'Choose Network'
    case 'UnsupportedChain':
      return 'Switch Network'
    case 'SIWXSignMessage':
      return 'Sign in with your wallet'
    default:
      return route.view.replace(/([a-z])([A-Z])/g, '$1 $2')
  }
}

function View({ route }: { route: RouteEntry }) {
  switch (route.view) {
    case 'Connect':
      return <ConnectView />
    case 'AllWallets':
      return <AllWalletsView />
    case 'ConnectingExternal':
      return <ConnectingExternalView route={route} />
    case 'ConnectingWalletConnect':
    case 'ConnectingWalletConnectBasic':
      return <WalletNotInstalledView route={route} />
    case 'Account':
      return <AccountView />
    case 'Networks':
      return <NetworksView />
    case 'UnsupportedChain':
      return <UnsupportedChainView />
    case 'SIWXSignMessage':
      return <SIWXSignMessageView />
    default:
      return (
        <div className="state">
          <p className="sub">This view arrives in a later release.</p>
        </div>
      )
  }
}

/** The element focused in the page, looking through shadow roots. */
function deepActiveElement(): Element | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}

/** Root of the modal tree: theme, open state and focus restoration. */
export function ModalRoot({ appKit, directory, shadow }: { appKit: AppKit; directory: Directory; shadow: ShadowRoot }) {
  const [shakeCount, setShakeCount] = useState(0)
  const value = useMemo<ModalContextValue>(() => ({ appKit, client: appKit.client, directory, shake: () => setShakeCount((n) => n + 1) }), [appKit, directory])
  return (
    <ModalContext.Provider value={value}>
      <ModalFrame shadow={shadow} shakeCount={shakeCount} />
    </ModalContext.Provider>
  )
}

function ModalFrame({ shadow, shakeCount }: { shadow: ShadowRoot; shakeCount: number }) {
  const modal = useStore(selectModal)
  const themeMode = useStore(selectThemeMode)
  const themeVariables = useStore(selectThemeVariables)
  const restoreTo = useRef<Element | null>(null)

  // Remember what had focus when the modal opened; give it back on close.
  if (modal.open && restoreTo.current === null && typeof document !== 'undefined') {
    const active = deepActiveElement()
    restoreTo.current = active && !shadow.host.contains(active) && active !== shadow.host ? active : document.body
  }
  useEffect(() => {
    if (modal.open) return
    const target = restoreTo.current
    restoreTo.current = null
    if (target instanceof HTMLElement && target.isConnected && target !== document.body) target.focus({ preventScroll: true })
  }, [modal.open])

  const style = useMemo(() => {
    const vars: Record<string, string> = {}
    for (const [key, v] of Object.entries(themeVariables)) if (v !== undefined) vars[`--${key}`] = String(v)
    return vars as CSSProperties
  }, [themeVariables])

  if (!modal.open) return null
  return (
    <div className="root" data-theme={themeMode} style={style}>
      <Dialog shadow={shadow} shakeCount={shakeCount} />
    </div>
  )
}

function Dialog({ shadow, shakeCount }: { shadow: ShadowRoot; shakeCount: number }) {
  const { client } = useModal()
  const history = useStore(selectHistory)
  const notification = useStore(selectNotification)
  // Re-render when a session arrives (closing may become allowed).
  useStore(selectSiwxStatus)
  const route = currentRoute({ router: { history } } as SigilState)
  const title = titleOf(route)
  const cardRef = useRef<HTMLDivElement>(null)
  const innerRef = useRef<HTMLDivElement>(null)
  const [height, setHeight] = useState<number>()
  const [shaking, setShaking] = useState(false)

  const close = useCallback(() => void client.close(), [client])
  const canGoBack = history.length > 1 && route.view !== 'UnsupportedChain' && route.view !== 'SIWXSignMessage'
  const canClose = client.canClose()

  // Shake for 500 ms when a view reports an error.
  useEffect(() => {
    if (shakeCount === 0) return
    setShaking(true)
    const timer = setTimeout(() => setShaking(false), TIMINGS.shake)
    return () => clearTimeout(timer)
  }, [shakeCount])

  // The card's height follows its content with a 150 ms transition.
  useLayoutEffect(() => {
    const inner = innerRef.current
    if (!inner || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => setHeight(inner.offsetHeight))
    observer.observe(inner)
    return () => observer.disconnect()
  }, [])

  // Focus moves into the dialog on open, and back onto it when the focused control disappears.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route (view) is what may have removed the focused control
  useEffect(() => {
    const card = cardRef.current
    if (!card) return
    const active = shadow.activeElement
    if (!active || !card.contains(active)) card.focus({ preventScroll: true })
  }, [shadow, route])

  // Escape closes (unless blocked); Tab cycles inside the dialog.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const card = cardRef.current
      if (!card) return
      if (event.key === 'Escape') {
        event.preventDefault()
        event.stopPropagation()
        client.close()
        return
      }
      if (event.key !== 'Tab') return
      const focusables = [...card.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.closest('[inert]') && el.getAttribute('aria-hidden') !== 'true')
      const first = focusables[0]
      const last = focusables[focusables.length - 1]
      if (!first || !last) {
        event.preventDefault()
        card.focus()
        return
      }
      const active = shadow.activeElement
      const inside = active !== null && card.contains(active)
      if (event.shiftKey && (!inside || active === first || active === card)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault()
        first.focus()
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => document.removeEventListener('keydown', onKey, true)
  }, [client, shadow])

  // Banners go away by themselves, except 'loading' ones.
  useEffect(() => {
    if (!notification.open || notification.variant === 'loading') return
    const timer = setTimeout(() => hideNotification(client.store), NOTIFICATION_HIDE_MS)
    return () => clearTimeout(timer)
  }, [client, notification])

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape and the Close button are the accessible ways
    <div
      className="overlay"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && canClose) close()
      }}
    >
      <div ref={cardRef} className={shaking ? 'card shake' : 'card'} role="dialog" aria-modal="true" aria-label={title} tabIndex={-1} data-view={route.view}>
        {notification.open ? (
          <div className="toast" role={notification.variant === 'error' ? 'alert' : 'status'} data-variant={notification.variant}>
            {notification.message}
          </div>
        ) : null}
        <div className="header">
          {canGoBack ? (
            <button type="button" className="icon-btn" aria-label="Back" onClick={() => client.goBack()}>
              <Icons.back />
            </button>
          ) : (
            <span />
          )}
          <h2 className="title" key={title}>
            {title}
          </h2>
          {canClose ? (
            <button type="button" className="icon-btn" aria-label="Close" onClick={close}>
              <Icons.close />
            </button>
          ) : (
            <span />
          )}
        </div>
        <div className="sizer" style={height === undefined ? undefined : { height }}>
          <div ref={innerRef} className="body">
            <div className="view" key={`${history.length}:${route.view}`}>
              <View route={route} />
            </div>
          </div>
        </div>
      </div>
    </div>
  )
}
