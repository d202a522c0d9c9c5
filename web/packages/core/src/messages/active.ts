/*
 * The visitor's words for the texts the features throw (a swap's 'No route', a send's
 * 'Insufficient funds'…): the modal sets the active catalogue when its locale's words have
 * loaded (react/src/modal/i18n.ts), and each feature reads its part through `localized`, at the
 * moment it throws. Nothing here loads a locale: until one is set, or outside a browser, the
 * texts are English. One per page, as the visitor is.
 */
import type { Translation } from './translation.js'

let active: Partial<Translation> | undefined

/** Makes `messages` (a whole catalogue, or undefined for English) the words the features throw. */
export function setActiveMessages(messages: Partial<Translation> | undefined): void {
  active = messages
}

/** `part` of the active catalogue, read when a text is taken (so a later switch shows); English's until one is set. */
export function localized<K extends keyof Translation>(part: K, english: Translation[K]): Translation[K] {
  return new Proxy(english as object, { get: (_, key) => Reflect.get((active?.[part] ?? english) as object, key) }) as Translation[K]
}
