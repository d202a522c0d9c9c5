/*
 * The English message catalogue: every text a visitor can see, the error catalogue of spec
 * section 8 included. Views and controllers take their words from here, so another locale is
 * another object of type `Messages`, with no view touched. It is kept in parts so that the view
 * texts load with the modal, and a feature's texts with the feature, rather than with the host page.
 */
import { accountType } from './account-type.js'
import { calls } from './calls.js'
import { connectButton, errors, rpc } from './core.js'
import { featureErrors } from './features.js'
import { login } from './login.js'
import { names } from './names.js'
import { onramp } from './onramp.js'
import { pay } from './pay.js'
import { send } from './send.js'
import { swap } from './swap.js'
import { ui } from './ui.js'

/** The catalogue's shape: what a locale provides. */
export interface Messages {
  rpc: Readonly<Record<number, string>>
  errors: typeof errors
  featureErrors: typeof featureErrors
  calls: typeof calls
  accountType: typeof accountType
  connectButton: typeof connectButton
  login: typeof login
  names: typeof names
  onramp: typeof onramp
  pay: typeof pay
  send: typeof send
  swap: typeof swap
  ui: typeof ui
}

export type { PluralForms, Translation } from './translation.js'
export { plural } from './translation.js'

export const en: Messages = { rpc, errors, featureErrors, calls, accountType, connectButton, login, names, onramp, pay, send, swap, ui }

/** The catalogue in use. */
export const messages: Messages = en
