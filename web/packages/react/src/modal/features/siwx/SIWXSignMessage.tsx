import type { SigilState } from '@sigil/core'
import { useCallback, useId } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { RemoteImage } from '../../ui.js'

const selectSiwx = (s: SigilState) => s.siwx
const selectChain = (s: SigilState) => s.chains[s.activeNamespace]
const selectConnectors = (s: SigilState) => s.connectors

/** Sign in with the wallet (spec section 4): site and wallet icons, title, statement, Cancel and Sign. */
export function SIWXSignMessageView() {
  const { client, shake } = useModal()
  const ui = useMessages().ui
  const m = ui.siwx
  const siwx = useStore(selectSiwx)
  const chain = useStore(selectChain)
  const connectors = useStore(selectConnectors)
  const headingId = useId()
  const errorId = useId()
  const metadata = client.options.metadata
  const appName = metadata?.name || m.thisApp
  const siteIcon = metadata?.icons?.[0]
  const connector = connectors.find((c) => c.id === chain?.connectorId)
  const walletName = chain?.account.connectedWalletInfo?.name ?? connector?.name ?? ui.wallet
  const walletIcon = chain?.account.connectedWalletInfo?.icon ?? connector?.imageUrl
  const statement = (client.options.siwx as { statement?: string } | undefined)?.statement
  const signing = siwx.status === 'signing'

  const sign = useCallback(() => {
    void client.siwx.sign().then(() => {
      if (client.store.getState().siwx.error) shake()
    })
  }, [client, shake])
  const cancel = useCallback(() => void client.siwx.cancel(), [client])

  return (
    <div className="connecting siwx" data-status={siwx.status}>
      <div className="siwx-icons" aria-hidden="true">
        <RemoteImage src={siteIcon} name={appName} className="lg" />
        <RemoteImage src={walletIcon} name={walletName} className="lg" />
      </div>
      <p className="headline" id={headingId}>
        {m.wantsToConnect(appName)}
      </p>
      <p className="sub">{statement ?? m.defaultStatement}</p>
      <p className="sub">{m.free}</p>
      <div aria-live="polite">
        {signing ? <p className="sub">{m.confirmIn(walletName)}</p> : null}
        {siwx.error && !signing ? (
          <p className="sub err" role="alert" id={errorId}>
            {siwx.error}
          </p>
        ) : null}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields; a fieldset would bring its own box and legend */}
      <div className="siwx-actions" role="group" aria-labelledby={headingId}>
        <button type="button" className="btn secondary" onClick={cancel} disabled={signing}>
          {m.cancel}
        </button>
        <button type="button" className="btn" onClick={sign} disabled={signing} aria-describedby={siwx.error ? errorId : undefined}>
          {signing ? m.signing : m.sign}
        </button>
      </div>
    </div>
  )
}
