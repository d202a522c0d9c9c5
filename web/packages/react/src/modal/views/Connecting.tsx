import { isUserRejection, toSigilError, type RouteEntry } from '@sigil/core'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useModal } from '../context.js'
import { Icons, RemoteImage } from '../ui.js'

type Status = 'waiting' | 'rejected' | 'error' | 'success'

/** Connecting with a wallet present in the page: waiting, rejected or failed (with retry), success. */
export function ConnectingExternalView({ route }: { route: RouteEntry }) {
  const { client, directory, shake } = useModal()
  const connector = route.data?.connector
  const wallet = route.data?.wallet
  const name = wallet?.name ?? connector?.name ?? 'Wallet'
  const image = connector?.imageUrl ?? (wallet ? directory.walletImage(wallet) : undefined)
  const [status, setStatus] = useState<Status>('waiting')
  const [message, setMessage] = useState('')
  const attempt = useRef(0)

  const run = useCallback(() => {
    if (!connector) return
    const id = ++attempt.current
    setStatus('waiting')
    setMessage('')
    client.connect(connector.id, wallet ? { wallet } : {}).then(
      () => {
        if (id === attempt.current) setStatus('success')
      },
      (error: unknown) => {
        if (id !== attempt.current) return
        const mapped = toSigilError(error)
        setStatus(isUserRejection(error) ? 'rejected' : 'error')
        setMessage(mapped.message)
        shake()
      },
    )
  }, [client, connector, wallet, shake])

  // One request per visit to the view (refs survive StrictMode's effect replay).
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    run()
  }, [run])

  if (!connector) {
    return (
      <div className="state" role="alert">
        <p className="sub err">{name} is not available in this browser.</p>
      </div>
    )
  }
  const ring = status === 'waiting' ? 'ring' : status === 'success' ? 'ring ok' : 'ring err'
  return (
    <div className="connecting" data-status={status}>
      <div className="wrap">
        <span className={ring} aria-hidden="true" />
        <RemoteImage src={image} name={name} className="lg" />
      </div>
      <div aria-live="polite">
        {status === 'waiting' ? (
          <>
            <p className="headline">Continue in {name}</p>
            <p className="sub">Accept the connection request in the wallet</p>
          </>
        ) : status === 'success' ? (
          <p className="headline">Connected</p>
        ) : (
          <>
            <p className="headline">{status === 'rejected' ? 'Connection declined' : 'Connection failed'}</p>
            <p className="sub err" role="alert">
              {message}
            </p>
          </>
        )}
      </div>
      {status === 'waiting' || status === 'rejected' || status === 'error' ? (
        <button type="button" className="btn secondary" onClick={run}>
          Try again
        </button>
      ) : null}
    </div>
  )
}

/** A directory wallet the page has no connector for. Wallet-connect sessions arrive in a later issue. */
export function WalletNotInstalledView({ route }: { route: RouteEntry }) {
  const { directory } = useModal()
  const wallet = route.data?.wallet
  const name = wallet?.name ?? 'Wallet'
  const links = [
    { label: 'Get the extension', href: wallet?.chrome_store },
    { label: 'Website', href: wallet?.homepage },
  ].filter((l): l is { label: string; href: string } => typeof l.href === 'string' && /^https:\/\//.test(l.href))
  return (
    <div className="connecting">
      <div className="wrap">
        <RemoteImage src={wallet ? directory.walletImage(wallet) : undefined} name={name} className="lg" />
      </div>
      <p className="headline">{name} is not installed</p>
      <p className="sub">Install its browser extension and reload this page. Connecting a mobile wallet by QR code comes in a later release.</p>
      <div style={{ display: 'flex', gap: 8 }}>
        {links.map((l) => (
          <a key={l.label} className="btn secondary" href={l.href} target="_blank" rel="noreferrer noopener">
            {l.label} <Icons.external />
          </a>
        ))}
      </div>
    </div>
  )
}
