/*
 * The modal's languages: which locales ship, picking one for the visitor, loading its words (each
 * locale is a chunk of its own, imported on demand) and the host's overrides, and formatting
 * numbers and dates through Intl for it. Imported by the modal chunk and the embedded-wallet frame
 * page, never by the host page's first script.
 *
 * Numbers: the decimal separator is the locale's, the digits are Latin in every locale (as
 * wallets, explorers and the addresses beside them print them; CLDR's Latin-digit Arabic writes
 * 1.5, as Arabic-speaking exchanges do), and amounts are not grouped (as the English display never was). The spec's rounding stays: token quantities floored
 * to 3 decimals, fiat rounded half up to 2, done on decimal text before Intl formats it.
 */
import { floorDecimals, roundFiat } from './format.js'
import { en, type Messages } from './messages/index.js'
import type { Translation } from './messages/translation.js'

export { setActiveMessages } from './messages/active.js'

type Loader = () => Promise<{ default: Translation }>

/** One chunk per locale: the bundler splits each import() into its own file. A new locale is a line here. */
const LOADERS = {
  es: () => import('./messages/locales/es.js'),
  'pt-BR': () => import('./messages/locales/pt-BR.js'),
  fr: () => import('./messages/locales/fr.js'),
  de: () => import('./messages/locales/de.js'),
  ja: () => import('./messages/locales/ja.js'),
  ko: () => import('./messages/locales/ko.js'),
  'zh-CN': () => import('./messages/locales/zh-CN.js'),
  'zh-TW': () => import('./messages/locales/zh-TW.js'),
  ru: () => import('./messages/locales/ru.js'),
  tr: () => import('./messages/locales/tr.js'),
  ar: () => import('./messages/locales/ar.js'),
  he: () => import('./messages/locales/he.js'),
} satisfies Record<string, Loader>

/** A shipped locale's tag. */
export type Locale = 'en' | keyof typeof LOADERS

/** The locales Sigil ships, English first. */
export const LOCALES: readonly Locale[] = ['en', ...(Object.keys(LOADERS) as (keyof typeof LOADERS)[])]

/** Deeply optional: a host's override of any part of a translation. */
export type DeepPartial<T> = T extends (...args: never[]) => unknown ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T

/** The `messages` option: per locale tag (as shipped, e.g. 'de', 'pt-BR', 'en'), texts replacing the catalogue's. */
export type MessageOverrides = Partial<Record<string, DeepPartial<Translation>>>

/** The right-to-left languages among them. */
const RTL = new Set<string>(['ar', 'he'])

/** The writing direction of a shipped locale. */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL.has(locale) ? 'rtl' : 'ltr'
}

/** Whether `tag` is one of the shipped locales, spelled as shipped. */
export function isLocale(tag: unknown): tag is Locale {
  return typeof tag === 'string' && (LOCALES as readonly string[]).includes(tag)
}

/** One requested tag's best shipped locale, or undefined. */
function matchOne(requested: string): Locale | undefined {
  let locale: Intl.Locale
  try {
    locale = new Intl.Locale(requested).maximize()
  } catch {
    return undefined
  }
  const exact = LOCALES.find((l) => l.toLowerCase() === requested.toLowerCase())
  if (exact) return exact
  const { language, script } = locale
  // Chinese goes by script: Traditional (Taiwan, Hong Kong, Macau) or Simplified.
  if (language === 'zh') {
    // maximize() filled in the script: zh-HK and zh-TW are Hant, zh, zh-SG and zh-Hans-HK are Hans.
    const chinese = script === 'Hant' ? 'zh-TW' : 'zh-CN'
    return isLocale(chinese) ? chinese : undefined
  }
  return LOCALES.find((l) => new Intl.Locale(l).language === language)
}

/**
 * The shipped locale for a visitor who asks for `requested` (best first, as navigator.languages):
 * the first requested tag with a shipped match (exact, else the same language: 'de-AT' is 'de',
 * 'pt-PT' is 'pt-BR', 'zh-HK' is 'zh-TW'), else English.
 */
export function negotiateLocale(requested: readonly string[] | string | undefined): Locale {
  const list = typeof requested === 'string' ? [requested] : (requested ?? [])
  for (const tag of list) {
    const match = typeof tag === 'string' ? matchOne(tag.trim()) : undefined
    if (match) return match
  }
  return 'en'
}

/** The browser's languages, best first (none outside a browser). */
export function browserLanguages(): readonly string[] {
  const nav = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator
  return nav?.languages?.length ? nav.languages : nav?.language ? [nav.language] : []
}

/** A locale's translation (its chunk loaded on first use); undefined for English. */
export async function loadTranslation(locale: Locale): Promise<Translation | undefined> {
  return locale === 'en' ? undefined : (await LOADERS[locale]()).default
}

const isPlain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** `base` with every value `layer` gives in its place (objects merged key by key; texts and text functions replaced). */
function merge<T>(base: T, layer: unknown): T {
  if (!isPlain(base) || !isPlain(layer)) return (layer === undefined ? base : layer) as T
  const out: Record<string, unknown> = { ...base }
  for (const key of Object.keys(layer)) out[key] = merge(out[key], layer[key])
  return out as T
}

/** The catalogue for `locale`: English, with the locale's translation over it, and the host's overrides for it over both. */
export function messagesFor(locale: Locale, translation: Translation | undefined, overrides?: MessageOverrides): Messages {
  return merge(merge(en, translation), overrides?.[locale])
}

/** Loads `locale`'s words and returns its whole catalogue. */
export async function loadMessages(locale: Locale, overrides?: MessageOverrides): Promise<Messages> {
  return messagesFor(locale, await loadTranslation(locale), overrides)
}

const numberFormats = new Map<string, Intl.NumberFormat>()

function numberFormat(locale: string, fractionDigits: number, currency?: string): Intl.NumberFormat {
  const key = `${locale}|${fractionDigits}|${currency ?? ''}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      numberingSystem: 'latn',
      useGrouping: false,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      ...(currency ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
    })
    numberFormats.set(key, format)
  }
  return format
}

/**
 * A plain decimal text ('-1234.500') written for `locale`, digit for digit (no rounding: Intl is
 * given the text, not a float): '1234,500' in German.
 */
export function formatDecimal(text: string, locale: string): string {
  const fraction = /\.(\d*)$/.exec(text)?.[1]?.length ?? 0
  // Intl.NumberFormat formats a decimal string exactly (ES2023); typed as number in the ES2022 lib.
  return numberFormat(locale, fraction).format(text as unknown as number)
}

/** A token quantity as displayed: floored to 3 decimals (spec section 5), in `locale`'s writing. */
export function formatAmount(value: string | number | undefined, locale: string): string {
  return formatDecimal(floorDecimals(value ?? '0', 3), locale)
}

/** A fiat value: rounded half up to 2 decimals, with the currency's sign where `locale` puts it. */
export function formatMoney(value: number | string, currency: string, locale: string): string {
  return numberFormat(locale, 2, currency).format(roundFiat(value) as unknown as number)
}

/** A date and time, in `locale`'s words. */
export function formatDateTime(date: Date | string | number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', numberingSystem: 'latn' }).format(new Date(date))
}

/** 'n units ago' in `locale`'s words ('vor 2 Stunden', 'قبل ساعتين'); 'now' for n = 0. */
export function formatAgo(value: number, unit: Intl.RelativeTimeFormatUnit, locale: string): string {
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long', numberingSystem: 'latn' } as Intl.RelativeTimeFormatOptions).format(-value, unit)
}
