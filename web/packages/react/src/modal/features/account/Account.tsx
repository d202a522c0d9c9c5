import {
  canSend as familyCanSend,
  errorText,
  shortenAddress,
  showError,
  showSuccess,
  tokenFiatValue,
  totalFiatValue,
  type BalanceStatus,
  type ChainNamespace,
  type SigilState,
  type TokenBalance,
} from '@sigil/core'
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react'
import { accountTypeOf, canSwitchAccountType, setPreferredAccountType, type PreferredAccountType } from '@sigil/core/account-type'
import { loginEmail } from '@sigil/core/login'
import { canRegisterName, openRegisterName } from '@sigil/core/names'
import { canBuy } from '@sigil/core/onramp'
import { canPay } from '@sigil/core/pay'
import { canSwap } from '@sigil/core/swap'
import type { Messages } from '@sigil/core/messages'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { providerLabel } from '../social/login-window.js'
import { Icons, Identicon, Ltr, RemoteImage } from '../../ui.js'
import { useCopy } from '../../copy.js'
import { loadable } from '../../loadable.js'
import { useDisplayAddress } from '../../display-address.js'
import type { ViewProps } from '../../registry.js'

/** The Activity tab's list: its own chunk, loaded the first time the tab shows. */
const Activity = loadable(() => import('../activity/activity.js').then((m) => m.ActivityList), <div className="state" aria-busy="true" />).Component
/** The NFTs tab's grid: the NFTs feature's chunk, loaded the first time the tab shows. */
const Nfts = loadable(() => import('../nfts/nfts.js').then((m) => m.NftList), <div className="state" aria-busy="true" />).Component

/** The test ids of the wallet features' buttons (kept from before the order option). */
const ACTION_IDS = { onramp: 'buy', swaps: 'swap', send: 'send', receive: 'receive' } as const

const selectChain = (s: SigilState) => s.chains[s.activeNamespace]
const selectNetwork = (s: SigilState) => s.activeCaipNetwork
const selectProviderType = (s: SigilState) => s.providers[s.activeNamespace]?.type
const selectNamespace = (s: SigilState) => s.activeNamespace

/** The account tabs (Activity when the host left `history` on); those with a placeholder have no content yet. */
const tabsOf = (m: Messages['ui']['account'], history: boolean): readonly { id: string; label: string; placeholder?: string }[] => [
  { id: 'tokens', label: m.tabs.tokens },
  { id: 'nfts', label: m.tabs.nfts },
  ...(history ? [{ id: 'activity', label: m.tabs.activity }] : []),
]

/** The tab each Account entry of the history last showed: coming back to it (from an NFT, a send) shows that tab again. */
const shownTabs = new WeakMap<object, string>()

/** The connected account: avatar, address (copy), balance, network (switch), tabs, disconnect. */
export function AccountView({ route }: ViewProps<'Account'>) {
  const { client, directory } = useModal()
  const ui = useMessages().ui
  const payLabel = useMessages().pay.open
  const m = ui.account
  const tabs = tabsOf(m, client.options.features.history)
  const chain = useStore(selectChain)
  const network = useStore(selectNetwork)
  const providerType = useStore(selectProviderType)
  const account = chain?.account
  const address = useDisplayAddress(chain?.account.address)
  const { copied, copy: copyText } = useCopy()
  const [tab, setTabIndex] = useState(() =>
    Math.max(
      0,
      tabs.findIndex((t) => t.id === shownTabs.get(route)),
    ),
  )
  const setTab = (i: number) => {
    setTabIndex(i)
    const id = tabs[i]?.id
    if (id) shownTabs.set(route, id)
  }
  const [disconnecting, setDisconnecting] = useState(false)
  const namespace = useStore(selectNamespace)
  // Sending is offered where the namespace's adapter can send (and the host left the feature on).
  const canSend = familyCanSend(client, namespace)
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([])
  const idBase = useId()

  // Showing the account asks for its balances: answered from the 30 s cache when fresh, and
  // not at all during the 30 s after a failure (the controller decides).
  // biome-ignore lint/correctness/useExhaustiveDependencies: another network means other balances: refresh on a switch too
  useEffect(() => {
    if (address) void client.refreshBalance()
  }, [client, address, network.caipNetworkId])

  const copy = useCallback(async () => {
    if (!address) return
    if (await copyText(address)) showSuccess(client.store, m.addressCopied)
    else showError(client.store, m.copyFailed)
  }, [address, client, m, copyText])

  const disconnect = useCallback(async () => {
    setDisconnecting(true)
    try {
      await client.disconnect()
    } catch (error) {
      showError(client.store, errorText(error))
    } finally {
      setDisconnecting(false)
    }
  }, [client])

  const format = useFormat()
  // The tabs run right to left in a right-to-left locale: the arrow keys follow what is seen.
  const forward = format.dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight'
  const backward = format.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft'
  const onTabKey = (event: KeyboardEvent) => {
    const delta = event.key === forward ? 1 : event.key === backward ? -1 : 0
    if (!delta) return
    event.preventDefault()
    const next = (tab + delta + tabs.length) % tabs.length
    setTab(next)
    tabRefs.current[next]?.focus()
  }

  if (!address) {
    return (
      <div className="state">
        <p className="sub" data-testid="no-wallet">
          {m.noFamilyWallet(ui.networks.families[namespace] ?? namespace)}
        </p>
        <button type="button" className="btn" onClick={() => client.push('Connect')}>
          {ui.connectWallet}
        </button>
      </div>
    )
  }
  const wallet = account?.connectedWalletInfo
  const current = tabs[tab] ?? (tabs[0] as (typeof tabs)[number])
  const fiatTotal = totalFiatValue(account?.tokenBalance ?? [])
  return (
    <div data-testid="account-view">
      <div className="account">
        {account?.profileImage ? <RemoteImage src={account.profileImage} name={address} className="lg round" /> : <Identicon address={address} />}
        <div className="addr">
          <span title={address} data-testid="account-address">
            <Ltr>{account?.profileName ?? shortenAddress(address)}</Ltr>
          </span>
          <button type="button" className="icon-btn" aria-label={copied ? m.addressCopied : m.copyAddress} onClick={() => void copy()}>
            {copied ? <Icons.check /> : <Icons.copy />}
          </button>
        </div>
        {!account?.profileName && canRegisterName(client) ? (
          <button type="button" className="send-max" onClick={() => openRegisterName(client)} data-testid="account-choose-name">
            {ui.names.choose}
          </button>
        ) : null}
        <div className="balance" data-testid="account-balance">
          {account?.balance !== undefined ? (
            <Ltr>{`${format.amount(account.balance)}${account.balanceSymbol ? ` ${account.balanceSymbol}` : ''}`}</Ltr>
          ) : isPending(chain?.balanceStatus) ? (
            '…'
          ) : (
            '—'
          )}
        </div>
        {fiatTotal !== undefined ? (
          <div className="fiat" data-testid="account-fiat">
            <Ltr>{format.money(fiatTotal, 'USD')}</Ltr>
          </div>
        ) : null}
        <div style={{ display: 'flex', gap: 8, marginTop: 6, flexWrap: 'wrap', justifyContent: 'center' }}>
          <button
            type="button"
            className="pill"
            aria-label={m.switchNetwork(network.name)}
            onClick={() => client.push('Networks')}
            disabled={!client.options.enableNetworkSwitch}
          >
            <RemoteImage src={directory.networkImage(network)} name={network.name} className="sm" />
            {network.name}
            <Icons.chevron />
          </button>
          {account?.addressExplorerUrl ? (
            <a className="pill" href={account.addressExplorerUrl} target="_blank" rel="noreferrer noopener" style={{ paddingInlineStart: 12 }}>
              {m.explorer} <Icons.external />
            </a>
          ) : null}
        </div>
        {wallet && providerType !== 'AUTH' ? (
          <p className="sub" style={{ fontSize: 12 }}>
            {m.connectedWith(wallet.name)}
          </p>
        ) : null}
        {providerType === 'AUTH' ? (
          <EmbeddedAccount
            namespace={namespace}
            type={account?.allAccounts?.find((a) => a.address === account?.address)?.type}
            socialProvider={account?.socialProvider}
            userName={account?.user?.username}
          />
        ) : null}
        <div className="account-actions">
          {client.options.features.walletFeaturesOrder.map((feature) => {
            const [shown, label, open] =
              feature === 'onramp'
                ? [canBuy(client), ui.onramp.open, () => client.push('OnRamp', {})]
                : feature === 'swaps'
                  ? [canSwap(client), ui.swap.open, () => client.push('Swap', {})]
                  : feature === 'send'
                    ? [canSend, m.send.open, () => client.push('WalletSend', {})]
                    : [client.options.features.receive, ui.receive.open, () => client.push('WalletReceive')]
            return shown ? (
              <button key={feature} type="button" className="btn secondary" onClick={open} data-testid={`account-${ACTION_IDS[feature]}`}>
                {label}
              </button>
            ) : null
          })}
          {/* The spec's pay entry (issue 27): after the wallet features, while the host turned `pay` on. */}
          {canPay(client) ? (
            <button type="button" className="btn secondary" onClick={() => client.push('PayWithExchange', {})} data-testid="account-pay">
              {payLabel}
            </button>
          ) : null}
        </div>
      </div>
      <div className="tabs" role="tablist" aria-label={m.tabsLabel}>
        {tabs.map((t, i) => (
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
      <div
        className={
          current.id === 'tokens' ? 'panel tokens' : current.id === 'activity' ? 'panel activity-panel' : current.id === 'nfts' ? 'panel nfts-panel' : 'panel'
        }
        role="tabpanel"
        id={`${idBase}-panel-${current.id}`}
        aria-labelledby={`${idBase}-tab-${current.id}`}
        aria-busy={current.id === 'tokens' && chain?.balanceStatus === 'loading'}
      >
        {current.id === 'tokens' ? (
          <TokenList
            tokens={account?.tokenBalance ?? []}
            status={chain?.balanceStatus ?? 'idle'}
            onRefresh={() => void client.refreshBalance(undefined, { force: true })}
          />
        ) : current.id === 'activity' ? (
          <Activity />
        ) : current.id === 'nfts' ? (
          <Nfts />
        ) : (
          current.placeholder
        )}
      </div>
      <button type="button" className="btn secondary block" onClick={() => void disconnect()} disabled={disconnecting} style={{ marginTop: 8 }}>
        <Icons.power /> {ui.disconnect}
      </button>
    </div>
  )
}

/**
 * The embedded wallet's account: its type (a switch where the network offers a smart account),
 * the social login or the email it belongs to, and a way to change that email.
 */
function EmbeddedAccount({
  namespace,
  type,
  socialProvider,
  userName,
}: {
  namespace: ChainNamespace
  type: string | undefined
  socialProvider: string | undefined
  userName: string | undefined
}) {
  const { client } = useModal()
  const ui = useMessages().ui
  const format = useFormat()
  const email = loginEmail(client)
  const switchable = useStore(() => canSwitchAccountType(client))
  return (
    <div className="sub" style={{ fontSize: 12, display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', justifyContent: 'center' }}>
      {switchable ? (
        <AccountTypeSwitch namespace={namespace} />
      ) : type ? (
        <span className="tag acct-type" data-testid="account-type">
          {ui.account.accountTypes[type as keyof typeof ui.account.accountTypes] ?? type}
        </span>
      ) : null}
      {socialProvider ? (
        <span data-testid="account-social" data-provider={socialProvider}>
          {ui.social.signedInWith(providerLabel(ui, socialProvider), socialName(ui, userName, email))}
        </span>
      ) : email ? (
        <span data-testid="account-email">{ui.email.signedInAs(format.ltr(email))}</span>
      ) : null}
      <button type="button" className="pill" onClick={() => client.push('UpdateEmail')} data-testid="edit-email">
        {ui.email.editEmail}
      </button>
      <button type="button" className="pill" onClick={() => client.push('ExportKey')} data-testid="export-key-button">
        {ui.email.exportKey}
      </button>
    </div>
  )
}

/** The types the switch offers, in its order. */
const SWITCH_TYPES: readonly PreferredAccountType[] = ['smartAccount', 'eoa']

/** Smart account or EOA: the embedded wallet acts with the one chosen (the frame switches); the address shown stays. */
function AccountTypeSwitch({ namespace }: { namespace: ChainNamespace }) {
  const { client } = useModal()
  const { ui, accountType: m } = useMessages()
  const type = useStore((s) => accountTypeOf(s, namespace))
  const [busy, setBusy] = useState(false)
  const choose = async (next: PreferredAccountType) => {
    if (next === type || busy) return
    setBusy(true)
    try {
      await setPreferredAccountType(client.context, { namespace, type: next })
      showSuccess(client.store, m.switched(ui.account.accountTypes[next]))
    } catch (error) {
      showError(client.store, errorText(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <fieldset aria-label={m.label} className="acct-switch" data-testid="account-type-switch" aria-busy={busy}>
      {SWITCH_TYPES.map((t) => (
        <button
          key={t}
          type="button"
          className="pill"
          aria-pressed={t === type}
          disabled={busy}
          onClick={() => void choose(t)}
          data-testid={`account-type-${t}`}
        >
          {ui.account.accountTypes[t]}
        </button>
      ))}
    </fieldset>
  )
}

/**
 * Whom a social login signed in, said once: the email, with the provider's username only when
 * the email does not already say it (a username that is the email or its local part).
 */
function socialName(ui: Messages['ui'], userName: string | undefined, email: string | undefined): string | undefined {
  if (!email) return userName
  if (!userName || userName === email || email.startsWith(`${userName}@`)) return email
  return ui.social.nameAndEmail(userName, email)
}

const isPending = (status: BalanceStatus | undefined) => status === undefined || status === 'idle' || status === 'loading'

/** The Tokens tab: one row per balance, the failure text, or an empty state; and a refresh. */
function TokenList({ tokens, status, onRefresh }: { tokens: readonly TokenBalance[]; status: BalanceStatus; onRefresh: () => void }) {
  const { ui, errors } = useMessages()
  const m = ui.account
  let note: string | undefined
  if (status === 'failed') note = errors.tokenBalanceUnavailable
  else if (tokens.length === 0) note = isPending(status) ? m.loadingBalances : m.noTokens
  return (
    <>
      <div className="tokens-head">
        {note ? (
          <p className={status === 'failed' ? 'sub err' : 'sub'} data-testid="tokens-note">
            {note}
          </p>
        ) : (
          <span />
        )}
        <button type="button" className="icon-btn refresh" aria-label={m.refreshBalances} aria-busy={status === 'loading'} onClick={onRefresh}>
          <Icons.refresh />
        </button>
      </div>
      {tokens.length ? (
        <ul className="list" aria-label={m.tokenBalances}>
          {tokens.map((token) => (
            <TokenRow key={`${token.chainId}:${token.address ?? 'native'}`} token={token} />
          ))}
        </ul>
      ) : null}
    </>
  )
}

/** Icon, name and symbol; quantity floored to 3 decimals and, when priced, its fiat value. */
function TokenRow({ token }: { token: TokenBalance }) {
  const value = tokenFiatValue(token)
  const format = useFormat()
  return (
    <li className="token" data-testid="token-row" data-symbol={token.symbol}>
      <RemoteImage src={token.iconUrl || undefined} name={token.symbol} className="sm" />
      <span className="meta">
        <span className="name">{token.name}</span>
        <span className="symbol">{token.symbol}</span>
      </span>
      <span className="amount">
        <span className="quantity" data-testid="token-quantity">
          <Ltr>{format.amount(token.quantity.numeric)}</Ltr>
        </span>
        {value !== undefined ? (
          <span className="value">
            <Ltr>{format.money(value, 'USD')}</Ltr>
          </span>
        ) : null}
      </span>
    </li>
  )
}
