/*
 * Links that hand a WalletConnect pairing URI to a wallet app: a native scheme
 * (`rainbow://wc?uri=…`) or a universal link (`https://metamask.app.link/wc?uri=…`), from the
 * directory's mobile_link, desktop_link or webapp_link.
 */

/** `{link}wc?uri={encoded uri}`, with the link made to end in `://` (a bare scheme) or `/`. Undefined for a link that is neither http(s) nor a scheme. */
export function walletConnectLink(link: string | null | undefined, uri: string): string | undefined {
  const trimmed = link?.trim()
  if (!trimmed) return undefined
  const encoded = encodeURIComponent(uri)
  if (/^https?:\/\//i.test(trimmed)) return `${trimmed.endsWith('/') ? trimmed : `${trimmed}/`}wc?uri=${encoded}`
  const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?(.*)$/i.exec(trimmed)
  if (!scheme || /^(javascript|data|vbscript|file)$/i.test(scheme[1] ?? '')) return undefined
  const rest = scheme[3] ?? ''
  const base = `${scheme[1]}://${rest}`
  return `${base.endsWith('/') ? base : `${base}/`}wc?uri=${encoded}`
}

/** Which of a wallet's links there are, in tab order: mobile (the QR code, and the deep link on a phone), desktop, web. */
export function walletLinkTabs(wallet: { mobile_link?: string | null; desktop_link?: string | null; webapp_link?: string | null } | undefined) {
  const tabs: ('mobile' | 'desktop' | 'web')[] = ['mobile']
  if (wallet?.desktop_link) tabs.push('desktop')
  if (wallet?.webapp_link) tabs.push('web')
  return tabs
}

/**
 * Where a wallet link opens on a phone: a wallet's own scheme in this tab (the system opens the
 * app and the page stays), a universal link in a new tab (the app when installed, else its site,
 * never in the page's place).
 */
export function walletLinkTarget(href: string): '_blank' | '_self' {
  return /^https?:\/\//i.test(href) ? '_blank' : '_self'
}

/** Hands a wallet link to the phone, in the tab `walletLinkTarget` says. */
export function openWalletApp(href: string, win: Pick<Window, 'open'> = window): void {
  const target = walletLinkTarget(href)
  if (target === '_blank') win.open(href, target, 'noreferrer')
  else win.open(href, target)
}
