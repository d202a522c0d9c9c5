/*
 * The frame's words in the visitor's locale: the frame page's URL names the modal's locale
 * (?locale=), and the modal's email login names it again (CONNECT_EMAIL), so a switch in the
 * modal reaches the frame and the emails it has the server send. English until the locale's
 * chunk has loaded. The developer texts (rpc, errors) stay English, as in the modal.
 */
import { directionOf, loadMessages, negotiateLocale, type Locale } from '@sigil/core/i18n'
import { en, type Messages } from '@sigil/core/messages'

type FrameWords = Messages['ui']['frame']

let current: Messages = en
let tag: Locale = 'en'

/** The frame view's texts, in the current locale (read when used, so a switch shows on the next render). */
export const m: FrameWords = new Proxy({} as FrameWords, { get: (_, key) => current.ui.frame[key as keyof FrameWords] })

/** The current locale's tag, which the wallet API's email requests carry. */
export function localeTag(): Locale {
  return tag
}

/**
 * Switches to the shipped locale `requested` negotiates to: the tag at once (for the next
 * request), the words once their chunk has loaded; the page's lang and dir follow.
 */
export async function setLocale(requested: string, doc: Document | undefined = globalThis.document): Promise<Locale> {
  const wanted = negotiateLocale(requested)
  tag = wanted
  const messages = await loadMessages(wanted)
  if (tag !== wanted) return tag
  current = messages
  if (doc) {
    doc.documentElement.lang = wanted
    doc.documentElement.dir = directionOf(wanted)
  }
  return wanted
}
