import { useAppKitAccount, useDisconnect } from '@sigil/react'
import { useConnect, useConnectors, useEmailLogin, useSocialLogin, useWalletConnectUri, useWalletList } from '@sigil/react/headless'
import { useState, type FormEvent } from 'react'
import { config } from './config.js'
import { Field } from './Field.js'
import { Inbox } from './Inbox.js'

/**
 * `?headless=on`: the page's own wallet UI on `@sigil/react/headless`, with no modal (the page
 * never loads it): its buttons for the page's wallets, the directory's wallets (search, more),
 * the WalletConnect URI, and the embedded wallet's email and social steps. Loaded after the
 * page, as a chunk of its own.
 */
export function HeadlessPage() {
  const account = useAppKitAccount()
  const { disconnect } = useDisconnect()
  return (
    <main>
      <header className="bar">
        <strong className="brand">Sigil demo · headless</strong>
      </header>
      <section className="card" aria-labelledby="headless-account">
        <h1 id="headless-account">Account</h1>
        <dl>
          <Field label="Status" value={account.status ?? 'disconnected'} testId="status" />
          <Field label="Address" value={account.address ?? '—'} testId="address" />
          <Field label="Wallet" value={account.connectedWalletInfo?.name ?? '—'} testId="wallet" />
        </dl>
        <div className="row-actions">
          <button type="button" onClick={() => void disconnect()} disabled={!account.isConnected}>
            Disconnect
          </button>
        </div>
      </section>
      {account.isConnected ? null : (
        <>
          <PageWallets />
          {config.email ? <EmailLogin /> : null}
          <SocialLogin />
          <DirectoryWallets />
        </>
      )}
      {config.mailUrl && config.email ? <Inbox url={config.mailUrl} /> : null}
    </main>
  )
}

/** The page's wallets (injected, announced, WalletConnect), one button each. */
function PageWallets() {
  const { connectors } = useConnectors()
  const { connect, isPending, error } = useConnect()
  const wc = useWalletConnectUri()
  return (
    <section className="card" aria-labelledby="headless-wallets">
      <h1 id="headless-wallets">Wallets in this page</h1>
      <div className="row-actions" data-testid="headless-connectors">
        {connectors.map((c) => (
          <button key={c.id} type="button" onClick={() => void connect({ connector: c })} disabled={isPending} data-connector={c.id}>
            {c.name}
          </button>
        ))}
      </div>
      {wc.uri ? (
        <div className="stack">
          WalletConnect URI (scan or paste it in a wallet)
          <textarea readOnly rows={3} value={wc.uri} data-testid="headless-wc-uri" />
          <button type="button" onClick={wc.cancel}>
            Cancel
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="note" role="alert" data-testid="headless-connect-error">
          {error.message}
        </p>
      ) : null}
    </section>
  )
}

/** The embedded wallet's email login: the address, then the device link or the code. */
function EmailLogin() {
  const login = useEmailLogin()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const submit = (event: FormEvent, step: () => Promise<void>) => {
    event.preventDefault()
    void step()
  }
  return (
    <section className="card" aria-labelledby="headless-email">
      <h1 id="headless-email">Email</h1>
      <p className="note" data-testid="headless-email-step">
        {login.step}
      </p>
      {login.step === 'email' ? (
        <form className="row-actions" onSubmit={(e) => submit(e, () => login.submitEmail(email))}>
          <input type="email" aria-label="Email" value={email} onChange={(e) => setEmail(e.target.value)} disabled={!login.available} />
          <button type="submit" disabled={!login.available || login.isPending}>
            Send
          </button>
        </form>
      ) : null}
      {login.step === 'verify-device' ? <p>Open the link in the mail sent to {login.email} to approve this device.</p> : null}
      {login.step === 'verify-otp' ? (
        <form className="row-actions" onSubmit={(e) => submit(e, () => login.verifyOtp(code))}>
          <input inputMode="numeric" aria-label="Code" value={code} onChange={(e) => setCode(e.target.value)} />
          <button type="submit" disabled={login.isPending}>
            Verify
          </button>
          <button type="button" onClick={() => void login.resend()} disabled={login.isPending}>
            Resend
          </button>
        </form>
      ) : null}
      {login.error ? (
        <p className="note" role="alert" data-testid="headless-email-error">
          {login.error.message}
        </p>
      ) : null}
    </section>
  )
}

/** The social logins the host turned on. */
function SocialLogin() {
  const social = useSocialLogin()
  if (!social.providers.length) return null
  return (
    <section className="card" aria-labelledby="headless-social">
      <h1 id="headless-social">Social</h1>
      <div className="row-actions">
        {social.providers.map((p) => (
          <button key={p} type="button" onClick={() => void social.login(p)} disabled={!social.available || social.isPending}>
            {p}
          </button>
        ))}
      </div>
      {social.status?.url ? <p className="note">Open {social.status.url} in the Farcaster app.</p> : null}
      {social.error ? (
        <p className="note" role="alert">
          {social.error.message}
        </p>
      ) : null}
    </section>
  )
}

/** Every directory wallet: search, 40 a page; one not installed here connects through WalletConnect. */
function DirectoryWallets() {
  const [search, setSearch] = useState('')
  const list = useWalletList({ search })
  const { connect } = useConnect()
  return (
    <section className="card" aria-labelledby="headless-directory">
      <h1 id="headless-directory">All wallets</h1>
      <input type="search" aria-label="Search wallets" value={search} onChange={(e) => setSearch(e.target.value)} />
      <p className="note" data-testid="headless-wallet-count">
        {list.isLoading ? 'Loading…' : `${list.wallets.length} of ${list.count}`}
      </p>
      <div className="row-actions" data-testid="headless-wallet-list">
        {list.wallets.map((w) => (
          <button key={w.id} type="button" onClick={() => void connect({ wallet: w })} data-wallet={w.id}>
            {w.imageUrl ? <img src={w.imageUrl} alt="" width={16} height={16} /> : null} {w.name}
            {w.connector ? ' (installed)' : ''}
          </button>
        ))}
      </div>
      {list.error ? (
        <button type="button" onClick={list.retry}>
          Try again
        </button>
      ) : null}
      {list.hasMore ? (
        <button type="button" onClick={list.loadMore} disabled={list.isLoading}>
          More
        </button>
      ) : null}
    </section>
  )
}
