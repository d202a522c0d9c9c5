/*
 * The modal's one QR code: SVG squares from the text (no markup from strings), drawn by
 * qrcode-generator. With a logo (a WalletConnect pairing), the middle is left clear for it, on a
 * white card the wallet's camera reads; without (the Farcaster channel), a plain code.
 */
import qrcode from 'qrcode-generator'
import { useMemo } from 'react'
import { RemoteImage } from './ui.js'

/** The dark modules of `text`'s QR code as one SVG path, less a centred square of `hole` (a share of the side). */
function qrPath(text: string, ecc: 'M' | 'Q', hole: number): { d: string; n: number } {
  const qr = qrcode(0, ecc)
  qr.addData(text)
  qr.make()
  const n = qr.getModuleCount()
  const size = Math.floor(n * hole)
  const from = Math.floor((n - size) / 2)
  const inHole = (r: number, c: number) => r >= from && r < from + size && c >= from && c < from + size
  let d = ''
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c) && !inHole(r, c)) d += `M${c} ${r}h1v1h-1z`
  return { d, n }
}

export function QrCode({ text, label, testId, logo }: { text: string; label: string; testId: string; logo?: { src: string | undefined; name: string } }) {
  // Higher error correction where the logo covers part of the code.
  const withLogo = logo !== undefined
  const { d, n } = useMemo(() => qrPath(text, withLogo ? 'Q' : 'M', withLogo ? 0.28 : 0), [text, withLogo])
  const box = `-2 -2 ${n + 4} ${n + 4}`
  if (!logo) {
    return (
      <div className="qr">
        <svg viewBox={box} role="img" aria-label={label} shapeRendering="crispEdges" data-testid={testId}>
          <path d={d} fill="#000" />
        </svg>
      </div>
    )
  }
  return (
    <div className="wc-qr" role="img" aria-label={label} data-testid={testId} data-uri={text}>
      <svg viewBox={box} width="100%" height="100%" shapeRendering="crispEdges" aria-hidden="true">
        <rect x={-2} y={-2} width={n + 4} height={n + 4} fill="#fff" />
        <path d={d} fill="#141414" />
      </svg>
      <span className="wc-logo">
        <RemoteImage src={logo.src} name={logo.name} />
      </span>
    </div>
  )
}
