import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { isImagePreloaded } from './directory.js'

/** `mirror`: a directional icon (back, chevron), turned around in a right-to-left locale by the modal's CSS. */
const svg = (path: ReactNode, size = 18, mirror = false) => (
  <svg
    className={mirror ? 'mirror' : undefined}
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    {path}
  </svg>
)

export const Icons = {
  close: () => svg(<path d="M6 6l12 12M18 6L6 18" />),
  more: () => svg(<path d="M5 12h.01M12 12h.01M19 12h.01" strokeWidth="3" />),
  back: () => svg(<path d="M15 18l-6-6 6-6" />, 18, true),
  chevron: () => svg(<path d="M9 18l6-6-6-6" />, 16, true),
  copy: () =>
    svg(
      <>
        <rect x="9" y="9" width="11" height="11" rx="2" />
        <path d="M5 15V5a2 2 0 0 1 2-2h10" />
      </>,
      16,
    ),
  check: () => svg(<path d="M5 12l5 5L20 7" />, 16),
  search: () =>
    svg(
      <>
        <circle cx="11" cy="11" r="7" />
        <path d="M20 20l-3.5-3.5" />
      </>,
      16,
    ),
  external: () =>
    svg(
      <>
        <path d="M14 4h6v6M20 4l-9 9" />
        <path d="M19 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1h5" />
      </>,
      16,
    ),
  grid: () =>
    svg(
      <>
        <rect x="4" y="4" width="6" height="6" rx="1" />
        <rect x="14" y="4" width="6" height="6" rx="1" />
        <rect x="4" y="14" width="6" height="6" rx="1" />
        <rect x="14" y="14" width="6" height="6" rx="1" />
      </>,
      22,
    ),
  power: () =>
    svg(
      <>
        <path d="M12 3v9" />
        <path d="M6.3 7.3a8 8 0 1 0 11.4 0" />
      </>,
      16,
    ),
  refresh: () =>
    svg(
      <>
        <path d="M20 11a8 8 0 0 0-14.9-3.5L4 9" />
        <path d="M4 4v5h5" />
        <path d="M4 13a8 8 0 0 0 14.9 3.5L20 15" />
        <path d="M20 20v-5h-5" />
      </>,
      16,
    ),
  alert: () =>
    svg(
      <>
        <circle cx="12" cy="12" r="9" />
        <path d="M12 8v5M12 16h.01" />
      </>,
      28,
    ),
}

/**
 * An address, hash or amount: read left to right whatever the locale's direction (an isolated
 * <bdi dir="ltr">), so the bidi algorithm cannot reorder its parts in a right-to-left page.
 */
export function Ltr({ children, title }: { children: ReactNode; title?: string | undefined }) {
  return (
    <bdi dir="ltr" title={title}>
      {children}
    </bdi>
  )
}

type ImageState = 'loading' | 'loaded' | 'error'

/** No image: the initial; a preloaded one: shown at once; else a placeholder until it loads. */
const initialState = (src: string | undefined): ImageState => (!src ? 'error' : isImagePreloaded(src) ? 'loaded' : 'loading')

/**
 * What an image element that is already done says: loaded (it has a size), broken, or, for an
 * image without a size of its own (an SVG with only a viewBox), what decoding it says.
 */
function settledState(img: HTMLImageElement, settle: (state: ImageState) => void): void {
  const src = img.getAttribute('src')
  if (!img.complete || !src) return
  if (img.naturalWidth > 0) settle('loaded')
  else if (typeof img.decode === 'function')
    img.decode().then(
      () => img.getAttribute('src') === src && settle('loaded'),
      () => img.getAttribute('src') === src && settle('error'),
    )
  else settle('error')
}

/** A list's search field: the magnifier and a text input named by `label`. */
export function SearchField({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="search">
      <Icons.search />
      <input
        type="search"
        aria-label={label}
        placeholder={label}
        value={value}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  )
}

/** An image with a shimmering placeholder until it loads, and the name's initial if it fails. */
export function RemoteImage({ src, name, className }: { src: string | undefined; name: string; className?: string }) {
  const [state, setState] = useState<ImageState>(() => initialState(src))
  const [shown, setShown] = useState(src)
  if (shown !== src) {
    // A different image: start over (render-time reset, no effect round trip).
    setShown(src)
    setState(initialState(src))
  }
  // An image done before its load listener heard it (a data: URI, one in the cache, a view
  // pre-rendered hidden and then shown) sends no load event: it is read when the element is
  // attached (again), for this src.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new src is a new check of the same element
  const attached = useCallback(
    (img: HTMLImageElement | null) => {
      if (img) settledState(img, (next) => setState((now) => (now === 'loading' ? next : now)))
    },
    [src],
  )
  return (
    <span className={className ? `img ${className}` : 'img'} data-state={state}>
      {src && state !== 'error' ? (
        <img ref={attached} src={src} alt="" decoding="async" draggable={false} onLoad={() => setState('loaded')} onError={() => setState('error')} />
      ) : null}
      {state === 'error' ? (
        <span className="fallback" aria-hidden="true">
          {name.slice(0, 1).toUpperCase()}
        </span>
      ) : null}
    </span>
  )
}

/** The avatar's gradient for an address: hues from its characters, whatever its format (hex, base58, bech32). */
export function identiconBackground(address: string): string {
  let h = 2166136261
  const hues: number[] = []
  for (let round = 0; round < 4; round++) {
    for (const c of `${round}${address.toLowerCase()}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619)
    hues.push((h >>> 0) % 360)
  }
  const [a, b, c, d] = hues
  return `radial-gradient(circle at 30% 30%, hsl(${a} 85% 70%), transparent 60%), radial-gradient(circle at 70% 70%, hsl(${b} 80% 55%), transparent 65%), linear-gradient(135deg, hsl(${c} 75% 50%), hsl(${d} 70% 40%))`
}

/** A deterministic gradient avatar from an address (no image request). */
export function Identicon({ address, size = 64 }: { address: string; size?: number }) {
  const background = useMemo(() => identiconBackground(address), [address])
  return <span className="avatar" style={{ display: 'block', width: size, height: size, background }} aria-hidden="true" />
}

/** A small WalletConnect logo (the blue "bridge" mark), for the WalletConnect option and its QR code (no network image). */
export const WALLET_CONNECT_LOGO =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="#3396ff"/><path d="M12.4 15.6c4.2-4.1 11-4.1 15.2 0l.5.5a.5.5 0 0 1 0 .7l-1.7 1.7a.3.3 0 0 1-.4 0l-.7-.7a7.4 7.4 0 0 0-10.6 0l-.7.7a.3.3 0 0 1-.4 0l-1.7-1.7a.5.5 0 0 1 0-.7zm18.7 3.5 1.5 1.5a.5.5 0 0 1 0 .7l-6.8 6.6a.5.5 0 0 1-.7 0l-4.8-4.7a.1.1 0 0 0-.2 0l-4.8 4.7a.5.5 0 0 1-.7 0l-6.8-6.6a.5.5 0 0 1 0-.7l1.5-1.5a.5.5 0 0 1 .7 0l4.8 4.7a.1.1 0 0 0 .2 0l4.8-4.7a.5.5 0 0 1 .7 0l4.8 4.7a.1.1 0 0 0 .2 0l4.8-4.7a.5.5 0 0 1 .8 0z" fill="#fff"/></svg>',
  )
