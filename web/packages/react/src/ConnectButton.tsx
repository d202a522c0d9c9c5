import { connectButtonMessages, formatBalance, shortenAddress } from '@sigil/core'
import { memo, useCallback, type CSSProperties, type ReactNode } from 'react'
import { useAppKit, useAppKitAccount, useAppKitSelector, useInstance } from './hooks.js'
import type { SigilState } from '@sigil/core'

export interface ConnectButtonProps {
  /** Text while disconnected. Default 'Connect Wallet' in the modal's locale. */
  label?: string
  /** Text while a connection is being made or restored. Default 'Connecting…'. */
  loadingLabel?: string
  /** Show the balance next to the address when connected (never on a screen 480 px wide or less). Default true. */
  balance?: boolean
  size?: 'md' | 'sm'
  className?: string
  style?: CSSProperties
}

const STYLE_ID = 'sigil-connect-button-style'
// Kept tiny and scoped to one class: the button lives in the host page, the modal in a shadow root.
// On a narrow screen (a phone) the connected button is the account alone: the balance is left out
// so that the button fits a header; a long name is cut with an ellipsis rather than widen the page.
const CSS = `.sigil-cb{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;gap:8px;height:40px;padding:0 16px;border-radius:999px;background:var(--sigil-accent,#3b6cf6);color:#fff;font:600 15px/1 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;cursor:pointer;white-space:nowrap;max-width:100%;min-width:0;transition:filter .12s}
.sigil-cb:hover{filter:brightness(1.08)}.sigil-cb:focus-visible{outline:2px solid var(--sigil-accent,#3b6cf6);outline-offset:2px}
.sigil-cb[data-size=sm]{height:32px;padding:0 12px;font-size:13px}.sigil-cb[aria-busy=true]{cursor:progress}
.sigil-cb[data-connected]{background:var(--sigil-cb-connected-bg,#f1f3f3);color:var(--sigil-cb-connected-fg,#141414);border:1px solid rgba(0,0,0,.08)}
.sigil-cb>span{overflow:hidden;text-overflow:ellipsis}.sigil-cb-bal{opacity:.7;font-weight:500}@media (max-width:480px){.sigil-cb-bal{display:none}}`

const selectLoading = (s: SigilState) => s.modal.loading
const selectWords = (s: SigilState) => s.locale?.connectButton
const selectDecimal = (s: SigilState) => s.locale?.decimal ?? '.'
/** The account's name (ENS for eip155), as the Account view shows it. */
const selectName = (s: SigilState) => s.chains[s.activeNamespace]?.account.profileName

/**
 * Opens the modal: 'Connect Wallet' when disconnected, the account (balance, and its name where
 * it has one, else the shortened address) when connected. Memoised: the host re-rendering (e.g. on the modal opening) does not re-render it.
 */
export const ConnectButton = memo(function ConnectButton({ label, loadingLabel, balance = true, size = 'md', className, style }: ConnectButtonProps) {
  const appKit = useInstance()
  const { open } = useAppKit()
  const account = useAppKitAccount()
  const loading = useAppKitSelector(selectLoading)
  const name = useAppKitSelector(selectName)
  // English until the modal chunk has loaded the visitor's locale (at idle, or on the first open).
  const words = useAppKitSelector(selectWords) ?? connectButtonMessages
  const decimal = useAppKitSelector(selectDecimal)
  const connecting = account.status === 'connecting'
  // Hovering or focusing the button is a strong hint: get the modal and wallet list ready.
  const warm = useCallback(() => void appKit.prefetch().catch(() => undefined), [appKit])
  const onClick = useCallback(() => void open().catch(() => undefined), [open])

  const busy = connecting || loading
  let content: ReactNode
  if (account.isConnected && account.address) {
    content = (
      <>
        {balance && account.balance !== undefined ? (
          <span className="sigil-cb-bal">{formatBalance(account.balance, account.balanceSymbol).replace(/^(-?\d+)\./, `$1${decimal}`)}</span>
        ) : null}
        <span title={account.address}>{name ?? shortenAddress(account.address)}</span>
      </>
    )
  } else content = connecting ? (loadingLabel ?? words.loading) : (label ?? words.label)

  // React puts the style in the document's head once, however many buttons there are; a server
  // render sends it with the page, so the button is styled before any script runs.
  return (
    <>
      <style href={STYLE_ID} precedence="sigil">
        {CSS}
      </style>
      <button
        type="button"
        className={className ? `sigil-cb ${className}` : 'sigil-cb'}
        style={style}
        data-size={size}
        data-connected={account.isConnected ? '' : undefined}
        aria-busy={busy}
        aria-haspopup="dialog"
        onClick={onClick}
        onPointerEnter={warm}
        onFocus={warm}
      >
        {content}
      </button>
    </>
  )
})
