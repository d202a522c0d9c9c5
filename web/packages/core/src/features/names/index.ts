/*
 * `@sigil/core/names`: the account-name feature (register a name served by the Sigil server and
 * resolvable by any ENS client through its gateway). Loaded with the name views, never with the
 * host page.
 */
export { canRegisterName } from './available.js'
export {
  coinTypeOf,
  NAME_LABEL,
  nameRefusal,
  openRegisterName,
  profileApi,
  registerName,
  SUGGEST_DELAY_MS,
  suggestNames,
  type RegisterNameReturnType,
  type SuggestNamesReturnType,
} from './names.js'
export {
  createProfileClient,
  type NameRecord,
  type NameSuggestion,
  type ProfileClient,
  type ProfileClientOptions,
  type RegisterNameParams,
} from './api.js'
export { NamesError, type NamesErrorCode } from './errors.js'
