import { afterEach, describe, expect, it } from 'vitest'
import { LoginBlockedError } from './features/login/errors.js'
import { payAmountRefusal } from './features/pay/pay.js'
import { swapErrorText } from './features/swap/errors.js'
import {
  directionOf,
  formatAmount,
  setActiveMessages,
  formatDecimal,
  formatMoney,
  LOCALES,
  loadTranslation,
  messagesFor,
  negotiateLocale,
  type Locale,
} from './i18n.js'
import { en } from './messages/index.js'
import { plural, type Translation } from './messages/translation.js'

/** The parts a locale translates (translation.ts's `Translation`). */
const PARTS = ['accountType', 'calls', 'connectButton', 'featureErrors', 'login', 'names', 'onramp', 'pay', 'send', 'swap', 'ui'] as const
const english: Translation = Object.fromEntries(PARTS.map((part) => [part, en[part]])) as Translation

type Leaf = { path: string; value: unknown }

/** Every text (string or text function) of a catalogue part, by its dotted path. */
function leaves(node: unknown, path = ''): Leaf[] {
  if (typeof node === 'string' || typeof node === 'function') return [{ path, value: node }]
  if (typeof node !== 'object' || node === null) return [{ path, value: node }]
  return Object.entries(node).flatMap(([key, value]) => leaves(value, path ? `${path}.${key}` : key))
}

/**
 * What a text function answers to sentinel arguments ('§0', '§1'…), and the sentinels it must
 * show; a function that cannot take text for an argument (it does arithmetic on a count) is
 * called with distinct numbers instead.
 */
function callWithSentinels(fn: (...args: unknown[]) => unknown): { text: unknown; sentinels: string[] } {
  const arity = fn.length
  const words = Array.from({ length: arity }, (_, i) => `§${i}`)
  try {
    return { text: fn(...words), sentinels: words }
  } catch {
    const numbers = Array.from({ length: arity }, (_, i) => 7001 + i)
    return { text: fn(...numbers), sentinels: numbers.map(String) }
  }
}

describe('locale files', () => {
  const englishLeaves = leaves(english)

  it('English itself shows every argument of its text functions', () => {
    for (const { path, value } of englishLeaves) {
      if (typeof value !== 'function') continue
      const { text, sentinels } = callWithSentinels(value as (...args: unknown[]) => unknown)
      expect(typeof text, path).toBe('string')
      for (const s of sentinels) expect(text, `${path} shows ${s}`).toContain(s)
    }
  })

  it('ships at least English and twelve others, Arabic and Hebrew right to left', () => {
    expect(LOCALES[0]).toBe('en')
    expect(LOCALES.length).toBeGreaterThanOrEqual(13)
    expect(new Set(LOCALES).size).toBe(LOCALES.length)
    for (const l of LOCALES) expect(directionOf(l)).toBe(l === 'ar' || l === 'he' ? 'rtl' : 'ltr')
  })

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale}: every key of English, no other, texts where English has texts, the same placeholders`, async () => {
      const translation = await loadTranslation(locale)
      expect(translation).toBeDefined()
      const theirs = new Map(leaves(translation).map((l) => [l.path, l.value]))
      const missing = englishLeaves.filter((l) => !theirs.has(l.path)).map((l) => l.path)
      expect(missing, `${locale} lacks`).toEqual([])
      const ours = new Set(englishLeaves.map((l) => l.path))
      expect(
        [...theirs.keys()].filter((p) => !ours.has(p)),
        `${locale} has keys English has not`,
      ).toEqual([])
      for (const { path, value } of englishLeaves) {
        const their = theirs.get(path)
        if (typeof value === 'string') {
          expect(typeof their, `${locale} ${path}`).toBe('string')
          expect((their as string).trim(), `${locale} ${path} is empty`).not.toBe('')
          continue
        }
        expect(typeof their, `${locale} ${path}`).toBe('function')
        const ourCall = callWithSentinels(value as (...args: unknown[]) => unknown)
        const fn = their as (...args: unknown[]) => unknown
        // The same arguments as English: the sentinels English shows, the locale shows too.
        const text = fn(...ourCall.sentinels.map((s) => (/^\d+$/.test(s) ? Number(s) : s)))
        expect(typeof text, `${locale} ${path}`).toBe('string')
        for (const s of ourCall.sentinels) expect(text, `${locale} ${path} shows ${s}`).toContain(s)
      }
    })
  }
})

describe('negotiateLocale', () => {
  const shipped = (tag: string) => (LOCALES as readonly string[]).includes(tag)

  it('takes an exact tag, whatever its case', () => {
    expect(negotiateLocale(['de'])).toBe('de')
    expect(negotiateLocale('EN')).toBe('en')
    if (shipped('pt-BR')) expect(negotiateLocale(['pt-br'])).toBe('pt-BR')
  })

  it('takes the same language for a region or variant that does not ship', () => {
    expect(negotiateLocale(['de-AT'])).toBe('de')
    expect(negotiateLocale(['fr-CA', 'en'])).toBe('fr')
    if (shipped('pt-BR')) expect(negotiateLocale(['pt-PT'])).toBe('pt-BR')
    expect(negotiateLocale(['en-GB', 'de'])).toBe('en')
  })

  it('tells Traditional from Simplified Chinese', () => {
    expect(negotiateLocale(['zh'])).toBe('zh-CN')
    expect(negotiateLocale(['zh-SG'])).toBe('zh-CN')
    expect(negotiateLocale(['zh-Hans-HK'])).toBe('zh-CN')
    if (shipped('zh-TW')) {
      expect(negotiateLocale(['zh-HK'])).toBe('zh-TW')
      expect(negotiateLocale(['zh-Hant'])).toBe('zh-TW')
    }
  })

  it('goes down the visitor list, and falls back to English', () => {
    expect(negotiateLocale(['xx', 'nl-NL', 'ja-JP'])).toBe('ja')
    expect(negotiateLocale(['nl', 'sv'])).toBe('en')
    expect(negotiateLocale([])).toBe('en')
    expect(negotiateLocale(undefined)).toBe('en')
    expect(negotiateLocale(['not a tag!', '*'])).toBe('en')
  })
})

describe('host overrides', () => {
  it('replace one text of one locale, the rest staying the translation', async () => {
    const de = await loadTranslation('de')
    const messages = messagesFor('de', de, {
      de: { ui: { connectWallet: 'Mit Wallet anmelden', email: { codeSentTo: (email) => `Code an ${email}` } } },
      fr: { ui: { connectWallet: 'non' } },
    })
    expect(messages.ui.connectWallet).toBe('Mit Wallet anmelden')
    expect(messages.ui.email.codeSentTo('a@b.c')).toBe('Code an a@b.c')
    // Untouched: the German translation, and English's developer texts.
    expect(messages.ui.back).toBe(de?.ui.back)
    expect(messages.ui.email.resend).toBe(de?.ui.email.resend)
    expect(messages.errors).toBe(en.errors)
    expect(messages.rpc).toBe(en.rpc)
  })

  it('English overrides work without a chunk, and leave the catalogue itself alone', () => {
    const messages = messagesFor('en', undefined, { en: { connectButton: { label: 'Sign in' } } })
    expect(messages.connectButton).toEqual({ label: 'Sign in', loading: en.connectButton.loading })
    expect(en.connectButton.label).toBe('Connect Wallet')
    expect(messagesFor('en', undefined, undefined)).toEqual(en)
  })
})

describe('Intl formatting', () => {
  it('writes amounts with the locale’s decimal sign, Latin digits, the spec’s flooring', () => {
    expect(formatAmount('1234.56789', 'en')).toBe('1234.567')
    expect(formatAmount('1234.56789', 'de')).toBe('1234,567')
    expect(formatAmount('0.0009', 'fr')).toBe('0,000')
    expect(formatAmount('-2.5', 'de')).toBe('-2,500')
    // 18-decimal precision survives: Intl is given text, not a float.
    expect(formatDecimal('123456789.123456789012345678', 'de')).toBe('123456789,123456789012345678')
    // Arabic and Hebrew: Latin digits (see i18n.ts), not Intl's default Arabic-Indic ones for 'ar'.
    expect(formatAmount('1.5', 'ar')).toBe('1.500')
    expect(formatAmount('1.5', 'he')).toBe('1.500')
    // Where Intl's own default is Arabic-Indic digits (ar-EG: ١٫٥), still Latin.
    expect(new Intl.NumberFormat('ar-EG').format(1.5)).not.toBe('1.5')
    expect(formatAmount('1.5', 'ar-EG')).toBe('1.500')
  })

  it('writes money with 2 decimals rounded half up and the currency where the locale puts it', () => {
    expect(formatMoney(12.345, 'USD', 'en')).toBe('$12.35')
    expect(formatMoney(1.005, 'USD', 'en')).toBe('$1.01')
    expect(formatMoney(1234.5, 'EUR', 'de').replace(/\s/g, ' ')).toBe('1234,50 €')
    expect(formatMoney('7', 'JPY', 'ja')).toMatch(/^[¥￥]7\.00$/)
  })

  it('picks plural forms by the locale’s rules', () => {
    const forms = { one: '# минута', few: '# минуты', many: '# минут', other: '# минуты' }
    expect(plural('ru', 21, forms)).toBe('21 минута')
    expect(plural('ru', 22, forms)).toBe('22 минуты')
    expect(plural('ru', 25, forms)).toBe('25 минут')
    expect(plural('en', 2, { one: '# call', other: '# calls' })).toBe('2 calls')
  })

  it('the English catalogue is unchanged by merging', () => {
    const locale: Locale = 'en'
    expect(messagesFor(locale, undefined).ui.activity.time.min(2)).toBe('2 mins')
  })
})

describe('the features’ errors', () => {
  afterEach(() => setActiveMessages(undefined))

  it('are thrown in the active locale’s words (with its host overrides), English before one is set', async () => {
    expect(swapErrorText('NO_ROUTE', { from: 'ETH', to: 'SGL' })).toBe('No route from ETH to SGL on this network.')
    expect(new LoginBlockedError('google').message).toBe('Your browser blocked the login window')
    const de = await loadTranslation('de')
    setActiveMessages(messagesFor('de', de, { de: { login: { blocked: 'Popup blockiert' } } }))
    expect(swapErrorText('NO_ROUTE', { from: 'ETH', to: 'SGL' })).toBe(de?.swap.noRoute('ETH', 'SGL'))
    expect(swapErrorText('NO_ROUTE', { from: 'ETH', to: 'SGL' })).not.toBe('No route from ETH to SGL on this network.')
    expect(new LoginBlockedError('google').message).toBe('Popup blockiert')
    expect(payAmountRefusal('x', 18)).toBe(de?.pay.invalidAmount(18))
    setActiveMessages(undefined)
    expect(payAmountRefusal('x', 18)).toBe(en.pay.invalidAmount(18))
    expect(new LoginBlockedError('google').message).toBe('Your browser blocked the login window')
  })
})
