import { formatBalance } from '@sigil/core'
import { lazy, Suspense, useState } from 'react'
import { ConnectButton, useAppKit, useAppKitAccount, useAppKitNetwork, useAppKitSiwx, useAppKitState, useAppKitTheme, useDisconnect } from '@sigil/react'
import { BitcoinCard } from './BitcoinCard.js'
import { config, families } from './config.js'
import { FamiliesCard } from './FamiliesCard.js'
import { Field } from './Field.js'
import { Inbox } from './Inbox.js'
import { ProviderCard } from './ProviderCard.js'
import { SolanaCard } from './SolanaCard.js'
import { WagmiCard } from './WagmiCard.js'

// The calls card (EIP-5792 hooks) loads after the page, as a host's feature page would: its
// hooks are not part of what the page needs before the modal opens.
const CallsCard = lazy(() => import('./CallsCard.js').then((m) => ({ default: m.CallsCard })))

/** The modal's state line, a component of its own: opening the modal renders this line again, not the whole page. */
function ModalStateField() {
  const state = useAppKitState()
  return <Field label="Modal" value={state.open ? 'open' : 'closed'} testId="modal-state" />
}

export function App({ themeKey }: { themeKey: string }) {
  const { open } = useAppKit()
  const account = useAppKitAccount()
  const network = useAppKitNetwork()
  const { disconnect } = useDisconnect()
  const { themeMode, setThemeMode } = useAppKitTheme()
  const siwx = useAppKitSiwx()
  const session = siwx.session
  // The last mined transaction: the provider card reads the balances again after it.
  const [lastReceipt, setLastReceipt] = useState<string>()

  const toggleTheme = () => {
    const next = themeMode === 'dark' ? 'light' : 'dark'
    setThemeMode(next)
    localStorage.setItem(themeKey, next)
    document.documentElement.dataset.theme = next
  }

  return (
    <main>
      <header className="bar">
        <strong className="brand">Sigil demo</strong>
        <div className="actions">
          <button
            type="button"
            className="ghost theme-toggle"
            onClick={toggleTheme}
            aria-label={`Switch to ${themeMode === 'dark' ? 'light' : 'dark'} theme`}
            data-testid="theme-toggle"
          >
            <span aria-hidden="true">{themeMode === 'dark' ? '☀' : '☾'}</span>
            <span className="theme-label">{themeMode === 'dark' ? 'Light' : 'Dark'}</span>
          </button>
          <ConnectButton />
        </div>
      </header>
      <section className="card">
        <h1>Account</h1>
        <dl>
          <Field label="Status" value={account.status} testId="status" />
          <Field label="Address" value={account.address ?? '—'} testId="address" />
          {/* From the Sigil server's balance API; the modal's Account view lists the tokens too. */}
          <Field label="Balance" value={account.balance !== undefined ? formatBalance(account.balance, account.balanceSymbol) : '—'} testId="balance" />
          <Field label="Network" value={`${network.caipNetwork.name} (${network.caipNetworkId})`} testId="network" />
          <Field label="Wallet" value={account.connectedWalletInfo?.name ?? '—'} testId="wallet" />
          <ModalStateField />
        </dl>
        <div className="row-actions">
          <button type="button" onClick={() => void open()}>
            Open modal
          </button>
          <button type="button" onClick={() => void open({ view: 'Networks' })}>
            Switch network
          </button>
          <button type="button" onClick={() => void disconnect()} disabled={!account.isConnected}>
            Disconnect
          </button>
        </div>
      </section>
      {config.siwx !== 'off' ? (
        <section className="card" aria-labelledby="siwx-heading">
          <h1 id="siwx-heading">Sign-in</h1>
          <dl>
            <Field label="Sign-in" value={siwx.status} testId="siwx-status" />
            <Field label="Signed in as" value={session?.data.accountAddress ?? '—'} testId="siwx-address" />
            <Field label="Chain" value={session?.data.chainId ?? '—'} testId="siwx-chain" />
            <Field label="Session" value={session?.id ?? '—'} testId="siwx-session-id" />
            <Field label="Expires" value={session?.expiresAt ?? '—'} testId="siwx-expires" />
          </dl>
          <p className="note">
            {config.siwx === 'required' ? 'Sign-in is required: ' : 'Sign-in is optional: '}
            the session above is read back from the server (<code>GET /auth/v1/session</code>).
          </p>
          <div className="row-actions">
            <button type="button" onClick={() => void siwx.signOut()} disabled={siwx.status !== 'signed-in'} data-testid="siwx-sign-out">
              Sign out
            </button>
          </div>
        </section>
      ) : null}
      {config.mailUrl && config.email ? <Inbox url={config.mailUrl} /> : null}
      {families.length > 1 || families[0] !== 'eip155' ? <FamiliesCard families={families} /> : null}
      {families.includes('solana') ? <SolanaCard /> : null}
      {families.includes('bip122') ? <BitcoinCard /> : null}
      <WagmiCard onReceipt={setLastReceipt} />
      <ProviderCard refreshKey={lastReceipt} />
      <Suspense fallback={null}>
        <CallsCard />
      </Suspense>
      <p className="note">
        Directory API <code>{config.apiUrl}</code> · dev chain RPC <code>{config.devRpcUrl}</code>
      </p>
    </main>
  )
}

export function ConfigError({ message }: { message: string }) {
  return (
    <main>
      <section className="card" role="alert">
        <h1>Sigil demo is not configured</h1>
        <p>{message}</p>
        <p>
          Set <code>VITE_SIGIL_PROJECT_ID</code> (from <code>sigil project add</code>) and, if needed, <code>VITE_SIGIL_API_URL</code> and{' '}
          <code>VITE_SIGIL_DEV_RPC_URL</code>, or run <code>make demo</code>.
        </p>
      </section>
    </main>
  )
}
