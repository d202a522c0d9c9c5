import { useCallback, useState } from 'react'

type ImageState = 'loading' | 'loaded' | 'error'

/**
 * An NFT's image, square: loaded lazily (loading="lazy"), its alt text the NFT's name, a
 * shimmer until it loads, and a picture glyph when there is none or it fails.
 */
export function NftImage({ src, alt }: { src: string | null; alt: string }) {
  const [state, setState] = useState<ImageState>(src ? 'loading' : 'error')
  const [shown, setShown] = useState(src)
  if (shown !== src) {
    setShown(src)
    setState(src ? 'loading' : 'error')
  }
  // An image done before React heard its load (in the cache) sends no event: read it when attached
  // (only a size says loaded: a lazy image not fetched yet may call itself complete).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new src is a new check of the same element
  const attached = useCallback(
    (img: HTMLImageElement | null) => {
      if (img?.complete && img.naturalWidth > 0) setState((now) => (now === 'loading' ? 'loaded' : now))
    },
    [src],
  )
  return (
    <span className="nft-art" data-state={state}>
      {src && state !== 'error' ? (
        <img
          ref={attached}
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          draggable={false}
          onLoad={() => setState('loaded')}
          onError={() => setState('error')}
        />
      ) : (
        <span className="nft-none" role="img" aria-label={alt}>
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
          >
            <rect x="3" y="3" width="18" height="18" rx="3" />
            <circle cx="9" cy="9" r="2" />
            <path d="M21 15l-5-5L5 21" />
          </svg>
        </span>
      )}
    </span>
  )
}
