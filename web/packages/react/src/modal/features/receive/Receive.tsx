import { showError, showSuccess, type SigilState } from '@sigil/core'
import { compatibleNetworks, receiveAddress } from '@sigil/core/receive'
import { useCallback, useId, useMemo } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { useDisplayAddress } from '../../display-address.js'
import { QrCode } from '../../qr.js'
import { Icons, RemoteImage } from '../../ui.js'
import { useCopy } from '../../copy.js'

const selectNetwork = (s: SigilState) => s.activeCaipNetwork
const selectNetworks = (s: SigilState) => s.networks

/**
 * Receive: the active account's plain address as a QR code (what every wallet scans) and as
 * text (the QR code's alternative, for reading and for screen readers), a copy button, the
 * network with its icon, the warning that only its assets belong here, and the host's other
 * networks of the same family, where the same address receives too.
 */
export function ReceiveView() {
  const { client, directory } = useModal()
  const ui = useMessages().ui
  const m = ui.receive
  const address = useStore(receiveAddress)
  const network = useStore(selectNetwork)
  const networks = useStore(selectNetworks)
  const compatible = useMemo(() => compatibleNetworks(networks, network), [networks, network])
  const shown = useDisplayAddress(address)
  const { copied, copy: copyText } = useCopy()
  const compatibleId = useId()

  const copy = useCallback(async () => {
    if (!shown) return
    if (await copyText(shown)) showSuccess(client.store, m.copied)
    else showError(client.store, m.copyFailed)
  }, [client, m, shown, copyText])

  if (!shown) {
    return (
      <div className="state">
        <p className="sub">{m.noAccount}</p>
        <button type="button" className="btn" onClick={() => client.push('Connect')}>
          {ui.connectWallet}
        </button>
      </div>
    )
  }
  return (
    <div className="receive" data-testid="receive-view">
      <div className="receive-net" data-testid="receive-network">
        <RemoteImage src={directory.networkImage(network)} name={network.name} className="sm" />
        <span>{network.name}</span>
      </div>
      <QrCode text={shown} label={m.qr(network.name)} testId="receive-qr" />
      <p className="sub">{m.caption}</p>
      <p className="receive-addr" data-testid="receive-address">
        <span className="sr">{m.address}: </span>
        <bdi dir="ltr">{shown}</bdi>
      </p>
      <button type="button" className="btn secondary" onClick={() => void copy()} data-testid="receive-copy">
        {copied ? <Icons.check /> : <Icons.copy />}
        {copied ? m.copied : m.copy}
      </button>
      <p className="receive-note" data-testid="receive-note">
        <Info />
        <span>{m.onlyNetwork(network.name)}</span>
      </p>
      {compatible.length ? (
        <div className="receive-compat">
          <p className="sub" id={compatibleId}>
            {m.compatible}
          </p>
          <ul className="receive-nets" aria-labelledby={compatibleId} data-testid="receive-compatible">
            {compatible.map((n) => (
              <li key={n.caipNetworkId}>
                <RemoteImage src={directory.networkImage(n)} name={n.name} className="sm" />
                <span>{n.name}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}

/** The warning's mark: a small circled i. */
const Info = () => (
  <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true" focusable="false">
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </svg>
)
