/*
 * The account-name feature's actions (spec sections 2, 4, 5 and 7; issue 25): suggestions for a
 * label with whether the name is taken, and a registration: the account signs
 * `{"name","attributes","timestamp"}` (personal_sign) and the server stores the name for the
 * chain's coin type (ENSIP-11: 60 on Ethereum, else 0x80000000 | chain id), after which the
 * Account view shows it. Offered to any connected EVM account that can sign, unless the host
 * turned `features.names` off. Loaded with the name views, never with the host page.
 */
import { perClient } from '../../api/per-client.js'
import { activeAccount, setAccountProps } from '../../account.js'
import type { SigilClient } from '../../client.js'
import { errorText, NotConnectedError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { names as englishNames } from '../../messages/names.js'
import { pushView, replaceView } from '../../router.js'
import type { ViewParams } from '../../store.js'
import { createProfileClient, type NameSuggestion } from './api.js'
import { NamesError } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('names', englishNames)

/** Spec section 5: letters, digits and hyphens, at least 4 characters. */
export const NAME_LABEL = /^[a-zA-Z0-9-]{4,}$/
/** How long typing pauses before suggestions are asked. */
export const SUGGEST_DELAY_MS = 500

/** Why `label` cannot be a name, or undefined when it can. */
export const nameRefusal = (label: string): string | undefined => (NAME_LABEL.test(label) ? undefined : texts.invalidName)

/** ENSIP-11's coin type of an EVM chain: 60 on Ethereum, else 0x80000000 | chain id; chain ids of 2^31 and above have none ('Invalid chainId'). */
export function coinTypeOf(chainId: number): number {
  if (!Number.isSafeInteger(chainId) || chainId < 1 || chainId >= 0x80000000) throw new NamesError(texts.invalidChainId, 'INVALID_CHAIN_ID')
  return chainId === 1 ? 60 : (0x80000000 | chainId) >>> 0
}

/** The Sigil server's name API, one per modal. */
export const profileApi = perClient(createProfileClient)

export type SuggestNamesReturnType = NameSuggestion[]

/** The full name for `label` with whether it is taken, then free ones like it (the server's configured zone). */
export function suggestNames(client: SigilClient, label: string): Promise<SuggestNamesReturnType> {
  const refused = nameRefusal(label)
  if (refused) return Promise.reject(new NamesError(refused, 'INVALID_NAME'))
  return profileApi(client).suggestions(label.toLowerCase())
}

/** What a registration signs for: the active EVM account, its chain's coin type. */
function registrant(client: SigilClient) {
  const state = client.store.getState()
  if (state.activeNamespace !== 'eip155') throw new NamesError(texts.notSupported, 'NOT_SUPPORTED')
  const address = activeAccount(state).address
  if (!address) throw new NotConnectedError()
  const chainId = Number(state.activeCaipNetwork.caipNetworkId.split(':')[1])
  return { address, coinType: coinTypeOf(chainId) }
}

export type RegisterNameReturnType = string

/**
 * Registers `name` (full, zone included) for the active account: the wallet signs the message,
 * the server stores it; then the Account view's name is it, and RegisterAccountNameSuccess shows.
 * A refusal stays on RegisterAccountName, its reason said there (spec section 4).
 */
export async function registerName(client: SigilClient, name: string): Promise<RegisterNameReturnType> {
  try {
    const { address, coinType } = registrant(client)
    const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
    const signature = await client.signMessage(message)
    const registered = await profileApi(client).register({ coinType, address, message, signature })
    const account = client.store.getState().chains.eip155?.account
    setAccountProps(client.store, 'eip155', { profileName: registered.name })
    client.context.storage.setIdentity(address, { name: registered.name, avatar: account?.profileImage ?? null })
    replaceView(client.store, 'RegisterAccountNameSuccess', { name: registered.name })
    return registered.name
  } catch (e) {
    replaceView(client.store, 'RegisterAccountName', { label: name.split('.')[0] ?? '', error: errorText(e) })
    throw e
  }
}

/** Shows RegisterAccountName (the Account view's 'Choose a name'). */
export function openRegisterName(client: SigilClient, data: ViewParams['RegisterAccountName'] = {}): void {
  pushView(client.store, 'RegisterAccountName', data)
}
