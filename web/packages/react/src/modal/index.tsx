/*
 * The modal chunk: loaded with import() on first open (or when the page is idle), never by the
 * host page's entry. It renders into a shadow root on a <sigil-modal> element under <body>.
 */
import { createRoot } from 'react-dom/client'
import { flushSync } from 'react-dom'
import { startTransition } from 'react'
import type { AppKit, ModalHandle } from '../appkit.js'
import { createDirectory } from './directory.js'
import { createLocales, initialLocale } from './i18n.js'
import { ModalRoot } from './Modal.js'
import { MODAL_CSS } from './styles.js'
import { preloadViews } from './views.js'

export const HOST_TAG = 'sigil-modal'

function addStyles(shadow: ShadowRoot): void {
  // A constructed sheet is parsed once; a <style> element is the fallback (older engines, tests).
  try {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(MODAL_CSS)
    shadow.adoptedStyleSheets = [sheet]
    return
  } catch {
    const style = document.createElement('style')
    style.textContent = MODAL_CSS
    shadow.appendChild(style)
  }
}

export function mountModal(appKit: AppKit): ModalHandle {
  const host = document.createElement(HOST_TAG)
  const shadow = host.attachShadow({ mode: 'open' })
  addStyles(shadow)
  const container = document.createElement('div')
  shadow.appendChild(container)
  document.body.appendChild(host)
  const directory = createDirectory(appKit.client.options)
  // The visitor's locale: its words load (a chunk of their own) while the page is idle, ahead of the first open.
  const locales = createLocales(appKit)
  void locales.setLocale(initialLocale(appKit)).catch(() => undefined)
  // The views likely first: the wallet list (with its email and social parts when on), and the account once connected.
  const preload = () => preloadViews(['Connect', 'Account'], appKit.client.options)
  void preload().catch(() => undefined)
  const root = createRoot(container)
  // Synchronous first render: when the modal is already open, it shows in this task.
  flushSync(() => root.render(<ModalRoot appKit={appKit} directory={directory} locales={locales} shadow={shadow} />))
  let prerendering = false
  let unmounted = false
  // Once the wallet list is cached, the Connect view is rendered ahead, hidden, at idle priority.
  const prerender = () => {
    if (prerendering || unmounted) return
    prerendering = true
    // A transition: the hidden dialog is rendered in slices the page's own work can interrupt.
    startTransition(() => root.render(<ModalRoot appKit={appKit} directory={directory} locales={locales} shadow={shadow} prerender />))
  }
  return {
    // The Connect view is rendered as soon as the wallet list is cached and its code is loaded (a
    // hidden view runs no effects, so it could not load a chunk it lacked). The icons preload
    // meanwhile: a slow one holds nothing back, it shows once it has loaded.
    async prefetchWallets() {
      const viewsLoaded = preload()
      await Promise.all([directory.prefetch(() => void viewsLoaded.then(prerender, () => undefined)), viewsLoaded])
    },
    setLocale: (locale) => locales.setLocale(locale),
    unmount() {
      unmounted = true
      root.unmount()
      host.remove()
    },
  }
}
