import { isMobileDevice, walletConnectOf, type Connector, type ResolvedOptions, type SigilState, type Wallet } from '@sigil/core'
import { buildConnectList, enabledConnectMethods, type ConnectListItem } from '@sigil/core/wallet-list'
import { Fragment, useEffect, useMemo, useState } from 'react'
import { useMessages, useModal, useStore, useWalletPage, whenOpen } from '../../context.js'
import { loadable } from '../../loadable.js'
import { Icons, RemoteImage, WALLET_CONNECT_LOGO } from '../../ui.js'
import { LoadingRows, useFamilyWallets } from './family-wallets.js'

// Loaded only when the host turned email or socials on.
const emailSocial = () => import('./EmailSocial.js')
const emailSignIn = loadable(() => emailSocial().then((m) => m.EmailSignIn))
const socialSignIn = loadable(() => emailSocial().then((m) => m.SocialSignIn))
const EmailSignIn = emailSignIn.Component
const SocialSignIn = socialSignIn.Component

/**
 * Loads the parts of the Connect view the host turned on (email, socials), so that a view
 * rendered ahead, hidden (no effects run there), has them in its first render.
 */
export function preloadConnectView(options: ResolvedOptions): Promise<unknown> {
  const methods = enabledConnectMethods(options.features)
  return Promise.all([methods.includes('email') ? emailSignIn.preload() : undefined, methods.includes('social') ? socialSignIn.preload() : undefined])
}

/** Remembers that the visitor ticked the legal checkbox (`features.legalCheckbox`). */
export const LEGAL_ACCEPTED_KEY = '@appkit/legal_checkbox_accepted'

const selectConnectors = (s: SigilState) => s.connectors
const selectRecent = (s: SigilState) => s.recentWallets

/** A directory-shaped record for a page connector, so it can be remembered as a recent wallet. */
export function walletForConnector(connector: Connector, directoryWallets: readonly Wallet[]): Wallet {
  const rdns = connector.rdns?.toLowerCase()
  const known = directoryWallets.find((w) => (connector.explorerId && w.id === connector.explorerId) || (rdns && w.rdns?.toLowerCase() === rdns))
  if (known) return known
  return {
    id: connector.explorerId ?? connector.id,
    name: connector.name,
    image_id: '',
    ...(connector.imageUrl ? { image_url: connector.imageUrl } : {}),
    ...(connector.rdns ? { rdns: connector.rdns } : {}),
  }
}

/** A connector's image; WalletConnect's logo is the modal's own. */
function connectorImage(connector: Connector): string | undefined {
  return connector.imageUrl ?? (connector.type === 'WALLET_CONNECT' ? WALLET_CONNECT_LOGO : undefined)
}

function itemKey(item: ConnectListItem): string {
  return item.kind === 'connector' ? `c:${item.connector.id}` : `w:${item.wallet.id}`
}

function tagOf(item: ConnectListItem, m: { recent: string; installed: string; qrCode: string }, mobile: boolean): { text: string; tone: string } | undefined {
  if (item.kind === 'wallet' && item.section === 'recent') return { text: m.recent, tone: 'accent' }
  // WalletConnect is reached by a QR code on a computer, not found in the page: it is not
  // 'installed'. On a phone it opens a wallet app there: no QR code to speak of.
  if (item.kind === 'connector' && item.connector.type === 'WALLET_CONNECT') return mobile ? undefined : { text: m.qrCode, tone: 'plain' }
  if (item.kind === 'connector' || item.connector) return { text: m.installed, tone: 'ok' }
  return undefined
}

/** The first view: email and social (when enabled, in the configured order), then the wallet list. */
export function ConnectView() {
  const { client, directory } = useModal()
  const ui = useMessages().ui
  const m = ui.connect
  const { features, featuredWalletIds, excludeWalletIds } = client.options
  const connectors = useStore(selectConnectors)
  const recent = useStore(selectRecent)
  const firstParams = useMemo(() => directory.pageParams(1), [directory])
  const featuredParams = useMemo(() => directory.featuredParams(), [directory])
  const first = useWalletPage(firstParams)
  const featured = useWalletPage(featuredParams)

  // The families listed: the page's, or the one the visitor connects further. Only connectors of
  // those; one wallet reached several ways (one connector per chain family) is listed once,
  // with the families it speaks; the recommended wallets are each family's first in turn.
  const { namespaces, wallets: recommended, loading: familiesLoading } = useFamilyWallets()
  const groups = useMemo(() => {
    const byName = new Map<string, Connector[]>()
    for (const c of connectors) {
      if (!c.namespaces.some((ns) => namespaces.has(ns))) continue
      const key = c.name.trim().toLowerCase()
      byName.set(key, [...(byName.get(key) ?? []), c])
    }
    return new Map([...byName.values()].map((list) => [(list[0] as Connector).id, list]))
  }, [connectors, namespaces])
  const familiesOf = (id: string) => [...new Set((groups.get(id) ?? []).flatMap((c) => c.namespaces.filter((ns) => namespaces.has(ns))))]
  const items = useMemo(
    () =>
      buildConnectList({
        order: features.connectorTypeOrder,
        connectors: [...groups.values()].map((list) => list[0] as Connector),
        recent,
        featured: featured?.page?.data ?? [],
        recommended,
        featuredWalletIds,
        excludeWalletIds,
        namespaces,
        pageConnectors: connectors,
      }),
    [features.connectorTypeOrder, groups, recent, featured, recommended, featuredWalletIds, excludeWalletIds, namespaces, connectors],
  )
  const methods = enabledConnectMethods(features)
  const mobile = isMobileDevice(client)
  // The wallet list behind one button, when email or socials show above it.
  const collapse = (features.collapseWallets || !features.emailShowWallets) && methods.some((method) => method !== 'wallet')
  const [walletsShown, setWalletsShown] = useState(false)
  // The connect controls stay disabled until the visitor agrees to the terms; the tick is remembered.
  const { termsConditionsUrl: terms, privacyPolicyUrl: privacy } = client.options
  const legal = features.legalCheckbox && Boolean(terms || privacy)
  const [agreed, setAgreed] = useState(() => !legal || client.storage.getItem(LEGAL_ACCEPTED_KEY) === 'true')
  const agree = (checked: boolean) => {
    setAgreed(checked)
    client.storage.setItem(LEGAL_ACCEPTED_KEY, String(checked))
  }
  const directoryWallets = useMemo(() => [...recommended, ...(first?.page?.data ?? [])], [recommended, first])

  // WalletConnect's SDK loads when the modal is idle after opening (not while this view is
  // pre-rendered for a modal still closed), and its client starts on hover or focus of a row
  // that leads to a QR code, so the code shows soon after the click.
  const walletConnect = walletConnectOf(client)
  useEffect(() => {
    if (!walletConnect) return
    const idle = (globalThis as { requestIdleCallback?: (cb: () => void) => number }).requestIdleCallback
    const start = () => void walletConnect.preload()
    return whenOpen(client.store, () => {
      if (typeof idle === 'function') idle(start)
      else setTimeout(start, 200)
    })
  }, [client, walletConnect])
  const warmUp = (item: ConnectListItem) => {
    const viaQr = item.kind === 'connector' ? item.connector.type === 'WALLET_CONNECT' : !item.connector
    if (viaQr && walletConnect) void walletConnect.preload(true)
  }
  const select = (item: ConnectListItem) => {
    const also = (connector: Connector) => (groups.get(connector.id) ?? []).slice(1)
    if (item.kind === 'connector' && item.connector.type === 'WALLET_CONNECT') {
      client.push('ConnectingWalletConnect', { wallet: walletForConnector(item.connector, []) })
    } else if (item.kind === 'connector') {
      client.push('ConnectingExternal', {
        connector: item.connector,
        wallet: walletForConnector(item.connector, directoryWallets),
        also: also(item.connector),
      })
    } else if (item.connector) {
      client.push('ConnectingExternal', { wallet: item.wallet, connector: item.connector, also: also(item.connector) })
    } else {
      client.selectWallet(item.wallet)
    }
  }

  const walletSection = (
    <div>
      <ul className="list" aria-label={m.wallets}>
        {items.map((item) => {
          const name = item.kind === 'connector' ? item.connector.name : item.wallet.name
          const image = item.kind === 'connector' ? connectorImage(item.connector) : directory.walletImage(item.wallet)
          const tag = tagOf(item, m, mobile)
          const connector = item.connector
          const families = connector && namespaces.size > 1 ? familiesOf(connector.id) : []
          return (
            <li key={itemKey(item)}>
              <button
                type="button"
                className="row"
                data-section={item.section}
                data-families={families.join(' ') || undefined}
                onClick={() => select(item)}
                onPointerEnter={() => warmUp(item)}
                onFocus={() => warmUp(item)}
              >
                <RemoteImage src={image} name={name} />
                {/* The families on a line of their own under the name: they never push it out. */}
                <span className="meta">
                  <span className="name">{name}</span>
                  {families.length ? <span className="families">{families.map((ns) => ui.networks.families[ns] ?? ns).join(' · ')}</span> : null}
                </span>
                {tag ? <span className={`tag ${tag.tone}`}>{tag.text}</span> : null}
              </button>
            </li>
          )
        })}
        {familiesLoading ? <LoadingRows /> : null}
        {features.allWallets ? (
          <li>
            <button type="button" className="row" data-section="all" onClick={() => client.push('AllWallets')}>
              <span className="img" style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', color: 'var(--c-fg2)' }}>
                <Icons.grid />
              </span>
              <span className="name">{m.allWallets}</span>
              {first?.page ? (
                <span className="tag">
                  {first.page.count}
                  <span className="sr">{m.walletsCount}</span>
                </span>
              ) : null}
            </button>
          </li>
        ) : null}
      </ul>
      {first?.error && !first.page ? (
        <p className="sub" role="status" style={{ marginTop: 8, textAlign: 'center' }}>
          {m.directoryUnreachable}
        </p>
      ) : null}
      <p className="newcomer">
        {m.newToWallets}
        <button type="button" className="link" onClick={() => client.push('GetWallet')}>
          {m.getWallet}
        </button>
      </p>
    </div>
  )

  const socials = Array.isArray(features.socials) ? features.socials : []
  const walletsButton = (
    <button type="button" className="btn secondary" data-testid="connect-show-wallets" onClick={() => setWalletsShown(true)}>
      {m.continueWithWallet}
    </button>
  )
  const sections = methods.map((method) => ({
    method,
    node:
      method === 'wallet' ? (
        collapse && !walletsShown ? (
          walletsButton
        ) : (
          walletSection
        )
      ) : method === 'email' ? (
        <EmailSignIn />
      ) : (
        <SocialSignIn providers={socials} />
      ),
  }))
  const legalLink = (href: string, text: string) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {text}
    </a>
  )

  return (
    <div className="scroll" data-testid="connect-view">
      {legal ? (
        <label className="legal" data-testid="connect-legal">
          <input type="checkbox" checked={agreed} onChange={(e) => agree(e.currentTarget.checked)} />
          <span>
            {m.legal.agree} {terms ? legalLink(terms, m.legal.terms) : null}
            {terms && privacy ? ` ${m.legal.and} ` : null}
            {privacy ? legalLink(privacy, m.legal.privacy) : null}
          </span>
        </label>
      ) : null}
      {/* A disabled fieldset disables every control in it: the wallet rows, the email field, the socials. */}
      <fieldset className="gate" disabled={!agreed} data-testid="connect-controls">
        {sections.map((section, i) => (
          <Fragment key={section.method}>
            {i > 0 ? <div className="divider">{ui.or}</div> : null}
            {section.node}
          </Fragment>
        ))}
      </fieldset>
    </div>
  )
}
