/*
 * What a locale translates: the visitor-visible parts of the catalogue (./index.ts). A locale is
 * `locales/<tag>.ts`:
 *
 *   import type { Translation } from '../translation.js'
 *   const messages: Translation = { accountType: { … }, calls: { … }, … }
 *   export default messages
 *
 * and loads as its own chunk when the modal needs it. `rpc` and `errors` are not in it: they are
 * the developer-facing texts (the JSON-RPC codes and spec section 8's error catalogue, thrown to
 * the host app, which matches on them), so they stay English in every locale.
 *
 * A text function takes the same arguments as English's and must use every one of them (the
 * parity test calls each with sentinel arguments and looks for them in the answer). A text that
 * depends on a count picks its grammatical form with `plural` below.
 */
import type { Messages } from './index.js'

/** The parts of the catalogue a locale translates. */
export type Translation = Pick<
  Messages,
  'accountType' | 'calls' | 'connectButton' | 'featureErrors' | 'login' | 'names' | 'onramp' | 'pay' | 'send' | 'swap' | 'ui'
>

/** A translation's forms by CLDR plural category; `other` is always given. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

/**
 * The form of `forms` that `locale`'s plural rules choose for `n`, with every `#` replaced by `n`
 * (Latin digits). A missing category falls back to `other`. For example:
 *
 *   min: (n) => plural('ru', n, { one: '# минута', few: '# минуты', many: '# минут', other: '# минуты' })
 */
export function plural(locale: string, n: number, forms: PluralForms): string {
  const form = forms[new Intl.PluralRules(locale).select(n)] ?? forms.other
  return form.replaceAll('#', String(n))
}
