import { currentRoute, hideNotification, openingViewOf, type RouteEntry, type SigilClient, type SigilState } from '@sigil/core'
import { memo, startTransition, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import type { AppKit } from '../appkit.js'
import { useStoreSelector } from '../selector.js'
import { ModalContext, useMessages, useModal, useStore, type ModalContextValue } from './context.js'
import type { Directory } from './directory.js'
import type { Locales } from './i18n.js'
import { TIMINGS } from './styles.js'
import { Icons } from './ui.js'
import { titleOf, viewOf } from './views.js'

const FOCUSABLE = 'button:not([disabled]),[href],input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])'
const NOTIFICATION_HIDE_MS = 3000

const selectModal = (s: SigilState) => s.modal
const selectHistory = (s: SigilState) => s.router.history
const selectThemeMode = (s: SigilState) => s.themeMode
const selectThemeVariables = (s: SigilState) => s.themeVariables
const selectNotification = (s: SigilState) => s.notification
const selectSiwxStatus = (s: SigilState) => s.siwx.status
const selectLocale = (s: SigilState) => s.locale

/** The shown view, from the registry; a new route object for the same view and data renders nothing new. */
const View = memo(
  function View({ route }: { route: RouteEntry }) {
    const m = useMessages()
    const entry = viewOf(route)
    if (!entry) {
      return (
        <div className="state">
          <p className="sub">{m.ui.notYet}</p>
        </div>
      )
    }
    // A placeholder while its feature chunk loads (none once the chunk was preloaded).
    const Component = entry.component
    return <Component route={route} />
  },
  (a, b) => a.route.view === b.route.view && a.route.data === b.route.data,
)

/** The element focused in the page, looking through shadow roots. */
function deepActiveElement(): Element | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}

/** The history a closed modal is pre-rendered with: the Connect view, as open() shows it when disconnected. */
const CONNECT_HISTORY: RouteEntry[] = [{ view: 'Connect' }]

/** The store's history when it is just the Connect view (the one open() keeps), else the same content afresh. */
function connectHistory(history: RouteEntry[]): RouteEntry[] {
  const only = history.length === 1 ? history[0] : undefined
  return only?.view === 'Connect' && only.data === undefined ? history : CONNECT_HISTORY
}

/** Identifies the shown view: a new key is a new view (a new element, state afresh). */
const viewKeyOf = (history: RouteEntry[]) => `${history.length}:${currentRoute({ router: { history } } as SigilState).view}`

/** Runs `task` when the page is idle; returns a cancel. */
function onIdle(task: () => void): () => void {
  const w = globalThis as { requestIdleCallback?: (cb: () => void) => number; cancelIdleCallback?: (id: number) => void }
  if (typeof w.requestIdleCallback === 'function') {
    const id = w.requestIdleCallback(task)
    return () => w.cancelIdleCallback?.(id)
  }
  const timer = setTimeout(task, 200)
  return () => clearTimeout(timer)
}

/** Runs `task` once the next frame has been painted; returns a cancel. */
function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(task, 0)
    return () => clearTimeout(timer)
  }
  // A frame's callbacks run before its paint; a task queued from one runs after it.
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0)
  })
  return () => {
    cancelAnimationFrame(frame)
    clearTimeout(timer)
  }
}

/** Whether the next open() (no view asked for) would show the Connect view. */
function opensOnConnect(client: SigilClient): (state: SigilState) => boolean {
  return (state) => openingViewOf(client, state) === 'Connect'
}

/**
 * Root of the modal tree: theme, open state and focus restoration. With `prerender` (set once
 * the wallet list is cached), a closed modal that would open on the Connect view keeps that
 * view rendered ahead, styled and laid out but invisible (visibility hidden: not drawn, not
 * hit, not focusable, not in the accessibility tree), so opening only makes it visible.
 */
export function ModalRoot({
  appKit,
  directory,
  locales,
  shadow,
  prerender = false,
}: {
  appKit: AppKit
  directory: Directory
  locales: Locales
  shadow: ShadowRoot
  prerender?: boolean
}) {
  const [shakeCount, setShakeCount] = useState(0)
  // A new locale (its words loaded) is a new context value: every view renders again in it.
  const locale = useStoreSelector(appKit.client.store, selectLocale)
  const value = useMemo<ModalContextValue>(
    () => ({
      appKit,
      client: appKit.client,
      directory,
      messages: locales.messagesOf(locale?.tag),
      locale: locale?.tag ?? 'en',
      dir: locale?.dir ?? 'ltr',
      shake: () => setShakeCount((n) => n + 1),
    }),
    [appKit, directory, locales, locale],
  )
  return (
    <ModalContext.Provider value={value}>
      <ModalFrame shadow={shadow} shakeCount={shakeCount} prerender={prerender} />
    </ModalContext.Provider>
  )
}

function ModalFrame({ shadow, shakeCount, prerender }: { shadow: ShadowRoot; shakeCount: number; prerender: boolean }) {
  const { client, locale, dir } = useModal()
  const modal = useStore(selectModal)
  const selectOpensOnConnect = useMemo(() => opensOnConnect(client), [client])
  const connectNext = useStore(selectOpensOnConnect)
  const storeHistory = useStore(selectHistory)
  // Closed, the pre-rendered dialog shows what open() will: the Connect view alone.
  const history = modal.open ? storeHistory : connectHistory(storeHistory)
  // Each time the modal closes its tree goes (state starts afresh on the next open), as before.
  const [session, setSession] = useState(0)
  const [wasOpen, setWasOpen] = useState(modal.open)
  // The view the modal opened on (while closed, the pre-rendered one): it shows without animation.
  const [openedOn, setOpenedOn] = useState(() => viewKeyOf(history))
  if (wasOpen !== modal.open) {
    setWasOpen(modal.open)
    setOpenedOn(viewKeyOf(history))
    if (!modal.open) setSession((n) => n + 1)
  }
  // Closing drops the tree at once; the next one is pre-rendered once the page is idle again.
  const [armed, setArmed] = useState(session)
  useEffect(() => {
    if (modal.open || armed === session) return
    // A transition, as the first pre-render: rendered in slices the page's work can interrupt.
    return onIdle(() => startTransition(() => setArmed(session)))
  }, [modal.open, session, armed])
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

  // Not an <Activity> in hidden mode: its display none left the style, layout and effects of the
  // whole dialog to the click that opened it (about 5 ms in Chromium's trace of that click).
  const hiddenStyle = useMemo(() => ({ ...style, visibility: 'hidden' }) as CSSProperties, [style])

  const rendered = modal.open || (prerender && connectNext && armed === session)
  useVisualViewport(shadow, rendered, session)

  if (!rendered) return null
  return (
    <div key={session} className="root" data-theme={themeMode} style={modal.open ? style : hiddenStyle} lang={locale} dir={dir}>
      <Dialog shadow={shadow} shakeCount={shakeCount} history={history} openedOn={openedOn} open={modal.open} />
    </div>
  )
}

/** The card: header, the shown view and the dialog behaviour (focus, Tab trap, Escape, height). */
const Dialog = memo(function Dialog({
  shadow,
  shakeCount,
  history,
  openedOn,
  open,
}: {
  shadow: ShadowRoot
  shakeCount: number
  history: RouteEntry[]
  openedOn: string
  /** False while pre-rendered hidden: no focus, keys or banner timer until the modal opens. */
  open: boolean
}) {
  const { client } = useModal()
  const m = useMessages()
  const notification = useStore(selectNotification)
  // Re-render when a session arrives (closing may become allowed).
  useStore(selectSiwxStatus)
  const route = currentRoute({ router: { history } } as SigilState)
  const title = titleOf(route, m)
  const viewKey = viewKeyOf(history)
  // The view and title the modal opened with show as they are; the ones after animate in.
  const [opened, setOpened] = useState({ on: openedOn, title })
  if (opened.on !== openedOn) setOpened({ on: openedOn, title })
  const [navigated, setNavigated] = useState(false)
  if (!navigated && viewKey !== openedOn) setNavigated(true)
  // What the polite announcer says last: a view that replaced another (by its title), or a banner
  // that is not an error (errors are alerts of their own). It lives as long as the dialog, so
  // screen readers hear each change.
  const [said, setSaid] = useState({ view: '', notification, text: '' })
  const viewSaid = navigated ? `${viewKey}|${title}` : ''
  if (said.view !== viewSaid || said.notification !== notification) {
    const banner = said.notification !== notification && notification.open && notification.variant !== 'error' ? notification.message : undefined
    setSaid({ view: viewSaid, notification, text: banner ?? (said.view !== viewSaid && navigated ? title : said.text) })
  }
  const cardRef = useRef<HTMLDivElement>(null)
  const innerRef = useRef<HTMLDivElement>(null)
  const [height, setHeight] = useState<number>()
  const [shaking, setShaking] = useState(false)
  const titleId = useId()

  const close = useCallback(() => void client.close(), [client])
  const canGoBack = history.length > 1 && route.view !== 'UnsupportedChain' && route.view !== 'SIWXSignMessage' && route.view !== 'ConnectingSiwe'
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
  // On open, once the opened dialog has been painted: focus() forces a style pass of its own,
  // which the click that opened it would otherwise wait for before anything showed.
  const focusedSinceOpen = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route (view) is what may have removed the focused control
  useEffect(() => {
    const card = cardRef.current
    if (!card || !open) {
      focusedSinceOpen.current = false
      return
    }
    const focusIn = () => {
      focusedSinceOpen.current = true
      const active = shadow.activeElement
      if (!active || !card.contains(active)) card.focus({ preventScroll: true })
    }
    if (focusedSinceOpen.current) {
      focusIn()
      return
    }
    return afterPaint(focusIn)
  }, [shadow, route, open])

  // Escape closes (unless blocked); Tab cycles inside the dialog.
  useEffect(() => {
    if (!open) return
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
      // The embedded wallet's frame, while it is laid over the view (its approval), comes after the card's controls.
      const frame = document.querySelector<HTMLIFrameElement>('iframe[data-sigil-frame][tabindex="0"]') ?? undefined
      const lastControl = focusables[focusables.length - 1]
      const first = focusables[0] ?? frame
      const last = frame ?? lastControl
      if (!first || !last) {
        event.preventDefault()
        card.focus()
        return
      }
      const active = frame && document.activeElement === frame ? frame : shadow.activeElement
      const inside = active !== null && (card.contains(active) || active === frame)
      if (event.shiftKey && (!inside || active === first || active === card)) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && (!inside || active === last)) {
        event.preventDefault()
        first.focus()
      } else if (!event.shiftKey && frame && active === lastControl) {
        event.preventDefault()
        frame.focus()
      }
    }
    document.addEventListener('keydown', onKey, true)
    return () => document.removeEventListener('keydown', onKey, true)
  }, [client, shadow, open])

  // Banners go away by themselves, except 'loading' ones.
  useEffect(() => {
    if (!open || !notification.open || notification.variant === 'loading') return
    const timer = setTimeout(() => hideNotification(client.store), NOTIFICATION_HIDE_MS)
    return () => clearTimeout(timer)
  }, [client, notification, open])

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape and the Close button are the accessible ways
    <div
      className="overlay"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget && canClose) close()
      }}
    >
      <div
        ref={cardRef}
        className={shaking ? 'card shake' : 'card'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        data-view={route.view}
      >
        <div className="header">
          {canGoBack ? (
            <button type="button" className="icon-btn" aria-label={m.ui.back} onClick={() => client.goBack()}>
              <Icons.back />
            </button>
          ) : (
            <span />
          )}
          <Title key={title} id={titleId} text={title} enter={navigated || title !== opened.title} />
          {canClose ? (
            <button type="button" className="icon-btn" aria-label={m.ui.close} onClick={close}>
              <Icons.close />
            </button>
          ) : (
            <span />
          )}
        </div>
        <Toast notification={notification} />
        <div className="sizer" style={height === undefined ? undefined : { height }}>
          <div ref={innerRef} className="body">
            <ViewFrame key={viewKey} enter={navigated}>
              <View route={route} />
            </ViewFrame>
          </div>
        </div>
        {/* A view that replaces another is announced by its title (the first one names the dialog), and banners too. */}
        <p className="sr" role="status" data-testid="view-announcer">
          {said.text}
        </p>
      </div>
    </div>
  )
})

/**
 * Keeps the overlay on the part of the page the visitor sees (the visual viewport), whatever the
 * page's own width: a page wider than a phone's screen widens the layout viewport that fixed
 * boxes size to, and a bottom sheet sized to it is cut at one side. Also follows a pinch zoom and
 * an on-screen keyboard. Without the visualViewport API the overlay covers the layout viewport.
 *
 * The values go on the modal's root as custom properties the overlay inherits, set from the tree
 * around the dialog: they are in place while the dialog is pre-rendered hidden, so opening it
 * reads and writes nothing (reading the viewport between style writes laid the page out four
 * times on each open).
 */
function useVisualViewport(shadow: ShadowRoot, rendered: boolean, session: number) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new session is a new root element
  useLayoutEffect(() => {
    const root = rendered ? shadow.querySelector<HTMLElement>('.root') : null
    const viewport = typeof window === 'undefined' ? undefined : window.visualViewport
    if (!root || !viewport) return
    const follow = () => {
      // Every value read before any is written, and only a change written.
      const values = { '--vv-left': viewport.offsetLeft, '--vv-top': viewport.offsetTop, '--vv-width': viewport.width, '--vv-height': viewport.height }
      for (const [name, value] of Object.entries(values)) {
        if (root.style.getPropertyValue(name) !== `${value}px`) root.style.setProperty(name, `${value}px`)
      }
    }
    follow()
    viewport.addEventListener('resize', follow)
    viewport.addEventListener('scroll', follow)
    return () => {
      viewport.removeEventListener('resize', follow)
      viewport.removeEventListener('scroll', follow)
    }
  }, [shadow, rendered, session])
}

/** A view's box. It slides in when it replaces another view, not as the first view of an open (the card is just shown). */
function ViewFrame({ enter, children }: { enter: boolean; children: ReactNode }) {
  const [entering] = useState(enter)
  return <div className={entering ? 'view enter' : 'view'}>{children}</div>
}

/**
 * The banner: a line of its own between the header and the view, so it hides neither the title
 * nor the view. A hidden one fades out over the 150 ms in which the next one waits (the core
 * shows a new banner 150 ms after hiding the open one).
 */
function Toast({ notification }: { notification: SigilState['notification'] }) {
  const [shown, setShown] = useState(notification.open ? notification : undefined)
  if (notification.open && shown !== notification) setShown(notification)
  const closing = !notification.open && shown !== undefined
  useEffect(() => {
    if (!closing) return
    const timer = setTimeout(() => setShown(undefined), TIMINGS.viewTransition)
    return () => clearTimeout(timer)
  }, [closing])
  if (!shown) return null
  return (
    <div
      className="toast"
      role={shown.variant === 'error' ? 'alert' : undefined}
      data-variant={shown.variant}
      data-closing={closing || undefined}
      title={shown.message}
    >
      <span className="toast-text">{shown.message}</span>
    </div>
  )
}

/** The header title; it fades in when it changes, not with the modal. */
function Title({ id, text, enter }: { id: string; text: string; enter: boolean }) {
  const [entering] = useState(enter)
  return (
    <h2 id={id} className={entering ? 'title enter' : 'title'}>
      {text}
    </h2>
  )
}
