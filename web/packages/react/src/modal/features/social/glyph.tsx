/*
 * A social provider's icon: its brand mark from simple-icons (CC0-1.0, generated into
 * brands.ts by scripts/icons.mjs), inline so it needs no request; a neutral key for a provider
 * the set does not name (a company's own OpenID Connect issuer).
 */
import { BRAND_ICONS } from './brands.js'

export function SocialGlyph({ provider }: { provider: string }) {
  const brand = Object.hasOwn(BRAND_ICONS, provider) ? BRAND_ICONS[provider] : undefined
  return (
    <span className="social-glyph" aria-hidden="true" data-icon={brand ? provider : 'generic'}>
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        {brand ? (
          <path d={brand.path} fill={brand.color} />
        ) : (
          <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="8" cy="12" r="4" />
            <path d="M12 12h9m-3 0v3m3-3v2" />
          </g>
        )}
      </svg>
    </span>
  )
}
