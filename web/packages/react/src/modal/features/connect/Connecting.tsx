import { errorText, isUserRejection, type RouteOf, type SigilState } from '@sigil/core'
import { useCallback, useRef, useState } from 'react'
import { useMessages, useModal, useOnce, useStore } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'
import type { ViewProps } from '../../registry.js'

type Status = 'waiting' | 'rejected' | 'error' | 'success'

const selectConnectors = (s: SigilState) => s.connectors

/** Connecting with a wallet present in the page: waiting, rejected or failed (with retry), success. */
export function ConnectingExternalView({ route }: ViewProps<'ConnectingExternal'>) {
  const { client, directory, shake } = useModal()
  const m = useMessages().ui
  const { connector, wallet, also = [] } = route.data
  const name = wallet?.name ?? connector.name
  const image = connector?.imageUrl ?? (wallet ? directory.walletImage(wallet) : undefined)
  const [status, setStatus] = useState<Status>('waiting')
  const [message, setMessage] = useState('')
  const attempt = useRef(0)
  const present = useStore(selectConnectors).some((c) => c.id === connector.id)

  const run = useCallback(() => {
    const id = ++attempt.current
    setStatus('waiting')
    setMessage('')
    // A wallet speaking several families connects them together: the others after the first,
    // each as far as it goes (a refusal there leaves the first connected).
    const connectAll = async () => {
      await client.connect(connector.id, { ...(wallet ? { wallet } : {}), ...(also.length ? { closeOnSuccess: false } : {}) })
      for (const other of also) await client.connect(other.id, { closeOnSuccess: false }).catch(() => undefined)
      if (also.length && client.store.getState().modal.open && client.canClose()) client.close()
    }
    connectAll().then(
      () => {
        if (id === attempt.current) setStatus('success')
      },
      (error: unknown) => {
        if (id !== attempt.current) return
        setStatus(isUserRejection(error) ? 'rejected' : 'error')
        setMessage(errorText(error))
        shake()
      },
    )
  }, [client, connector, wallet, also, shake])

  // One request per visit to the view.
  useOnce(run)

  if (!present) {
    return (
      <div className="state" role="alert">
        <p className="sub err">{m.connecting.notAvailable(name)}</p>
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
            <p className="headline">{m.connecting.continueIn(name)}</p>
            <p className="sub">{m.connecting.acceptRequest}</p>
          </>
        ) : status === 'success' ? (
          <p className="headline">{m.connecting.connected}</p>
        ) : (
          <>
            <p className="headline">{status === 'rejected' ? m.connecting.declined : m.connecting.failed}</p>
            <p className="sub err" role="alert">
              {message}
            </p>
          </>
        )}
      </div>
      {status === 'waiting' || status === 'rejected' || status === 'error' ? (
        <button type="button" className="btn secondary" onClick={run}>
          {m.tryAgain}
        </button>
      ) : null}
    </div>
  )
}

/** A directory wallet the page has no connector for, WalletConnect being off (`walletConnect: false`). */
export function WalletNotInstalledView({ route }: { route: RouteOf<'ConnectingWalletConnect'> | RouteOf<'ConnectingWalletConnectBasic'> }) {
  const { directory } = useModal()
  const m = useMessages().ui
  const wallet = route.data?.wallet
  const name = wallet?.name ?? m.wallet
  const links = [
    { label: m.connecting.getExtension, href: wallet?.chrome_store },
    { label: m.connecting.website, href: wallet?.homepage },
  ].filter((l): l is { label: string; href: string } => typeof l.href === 'string' && /^https:\/\//.test(l.href))
  return (
    <div className="connecting">
      <div className="wrap">
        <RemoteImage src={wallet ? directory.walletImage(wallet) : undefined} name={name} className="lg" />
      </div>
      <p className="headline">{m.connecting.notInstalled(name)}</p>
      <p className="sub">{m.connecting.installHint}</p>
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
