/*
 * The modal's language (in the modal chunk, not the host page's first script): the `locale`
 * option or the browser's languages, negotiated against the shipped locales; each locale's words
 * loaded as a chunk of their own, with the host's `messages` overrides over them; the store's
 * `locale` set once they are in, which re-renders the modal and the connect button in it.
 */
import {
  browserLanguages,
  directionOf,
  formatAmount,
  formatDateTime,
  formatDecimal,
  formatMoney,
  loadMessages,
  messagesFor,
  negotiateLocale,
  setActiveMessages,
  type Locale,
} from '@sigil/core/i18n'
import type { Messages } from '@sigil/core/messages'
import type { AppKit } from '../appkit.js'

export interface Locales {
  /** The catalogue of a locale whose words have loaded (English's always). */
  messagesOf(locale: string | undefined): Messages
  /** Negotiates `requested`, loads its words and makes it the modal's language; the last call wins. */
  setLocale(requested: string | readonly string[]): Promise<void>
}

export function createLocales(appKit: AppKit): Locales {
  const { store, options } = appKit.client
  // English (with the host's English overrides) needs no chunk: it is there from the start.
  const english = messagesFor('en', undefined, options.messages)
  const loaded = new Map<string, Messages>([['en', english]])
  let wanted: Locale | undefined
  return {
    messagesOf: (locale) => (locale && loaded.get(locale)) || english,
    async setLocale(requested) {
      const locale = negotiateLocale(requested)
      wanted = locale
      let messages = loaded.get(locale)
      if (!messages) {
        messages = await loadMessages(locale, options.messages)
        loaded.set(locale, messages)
      }
      if (wanted !== locale) return
      // The errors the features throw (a swap's, a send's) in the same words.
      setActiveMessages(messages)
      store.setState({
        locale: { tag: locale, dir: directionOf(locale), connectButton: messages.connectButton, decimal: formatDecimal('0.5', locale).replace(/\d/g, '') },
      })
    },
  }
}

/** The locale the modal starts in: the host's `locale` option, else the browser's languages. */
export function initialLocale(appKit: AppKit): string | readonly string[] {
  return appKit.client.options.locale ?? browserLanguages()
}

/** The views' number and date writing for the modal's locale (see `useFormat`). */
export interface Format {
  locale: string
  dir: 'ltr' | 'rtl'
  /** A token quantity: floored to 3 decimals, the locale's decimal sign ('1,5' in German). */
  amount(value: string | number | undefined): string
  /** A decimal text as it is (no rounding), the locale's decimal sign. */
  decimal(text: string): string
  /** A fiat value: 2 decimals rounded half up, the currency's sign where the locale puts it. */
  money(value: number | string, currency: string): string
  dateTime(date: Date | string | number): string
  /**
   * Text kept left to right inside a sentence of a right-to-left locale (an address, hash or
   * amount passed to a message function): wrapped in Unicode's isolate marks there, as it is
   * elsewhere. Where a view renders such text as an element of its own it uses <Ltr> instead.
   */
  ltr(text: string): string
}

export function formatFor(locale: string, dir: 'ltr' | 'rtl'): Format {
  return {
    locale,
    dir,
    amount: (value) => formatAmount(value, locale),
    decimal: (text) => formatDecimal(text, locale),
    money: (value, currency) => formatMoney(value, currency, locale),
    dateTime: (date) => formatDateTime(date, locale),
    ltr: (text) => (dir === 'rtl' ? `\u2066${text}\u2069` : text),
  }
}
