/*
 * `@sigil/core/account-type`: the preferred account type (spec sections 3 and 4): eoa,
 * smartAccount or payment per namespace; eip155 smartAccount by default, bip122 payment, the
 * others eoa. The embedded wallet switches the account it acts with in the frame
 * (SET_PREFERRED_ACCOUNT) where its chain offers a smart account; the address shown stays. The
 * choice is kept in state (`preferredAccountTypes`) and in storage. Loaded with the Account view.
 */
import { setAccountProps } from '../../account.js'
import type { SigilClient } from '../../client.js'
import { isAuthConnector } from '../../connectors/auth.js'
import type { SigilContext } from '../../context.js'
import { NotConnectedError, SigilError, toSigilError, type UserRejectedRequestError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { accountType as englishAccountType } from '../../messages/account-type.js'
import type { SigilState } from '../../store.js'
import type { AccountType, ChainNamespace } from '../../types.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('accountType', englishAccountType)

/** The account types a user may prefer. */
export type PreferredAccountType = Exclude<AccountType, 'ordinal'>

/** Where the preferred types are kept (spec section 3's browser storage, `@appkit/` as the other keys): a JSON object by namespace. */
export const PREFERRED_ACCOUNT_TYPES_KEY = '@appkit/preferred_account_types'

/** The preferred types kept in storage, by namespace; none when unreadable. */
export function storedAccountTypes(ctx: Pick<SigilContext, 'storage'>): Partial<Record<ChainNamespace, PreferredAccountType>> {
  try {
    const value = JSON.parse(ctx.storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}') as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<Record<ChainNamespace, PreferredAccountType>>) : {}
  } catch {
    return {}
  }
}

/** Each namespace's type until the user prefers another (spec section 4). */
export const DEFAULT_ACCOUNT_TYPES: Readonly<Record<ChainNamespace, PreferredAccountType>> = {
  eip155: 'smartAccount',
  solana: 'eoa',
  polkadot: 'eoa',
  bip122: 'payment',
  cosmos: 'eoa',
}

/** The connected embedded wallet cannot switch its account type (its frame lacks the request). */
export class AccountTypeUnavailableError extends SigilError<'ACCOUNT_TYPE_UNAVAILABLE'> {
  override name = 'AccountTypeUnavailableError'
  constructor(cause?: unknown) {
    super(texts.unavailable, 'ACCOUNT_TYPE_UNAVAILABLE', cause)
  }
}

export interface SetPreferredAccountTypeParameters {
  namespace: ChainNamespace
  type: PreferredAccountType
}

/** The type now in use (the embedded wallet's answer: EOA where its chain has no smart account), and the account's address (unchanged). */
export interface SetPreferredAccountTypeReturnType {
  type: PreferredAccountType
  address: string | undefined
}

export type SetPreferredAccountTypeErrorType = NotConnectedError | AccountTypeUnavailableError | UserRejectedRequestError | SigilError

/**
 * The account type shown for `namespace`: the one the user preferred, else the connected
 * account's own (as the wallet gave it), else the namespace's default.
 */
export function accountTypeOf(state: SigilState, namespace: ChainNamespace): PreferredAccountType {
  const account = state.chains[namespace]?.account
  const own = account?.allAccounts.find((a) => a.address === account.address)?.type
  const preferred = account?.preferredAccountTypes[namespace] ?? own
  return preferred && preferred !== 'ordinal' ? preferred : DEFAULT_ACCOUNT_TYPES[namespace]
}

/**
 * Whether the Account view offers the switch: the active namespace is connected through the
 * embedded wallet, on a network whose numeric id is among its smart-account networks.
 */
export function canSwitchAccountType(client: Pick<SigilClient, 'store' | 'context'>): boolean {
  const state = client.store.getState()
  const chain = state.chains[state.activeNamespace]
  const id = Number(chain?.network.caipNetwork?.id)
  return (
    isAuthConnector(client.context.connected.get(state.activeNamespace)) &&
    chain?.connectionStatus === 'connected' &&
    Number.isInteger(id) &&
    chain.network.smartAccountEnabledNetworks.includes(id)
  )
}

/**
 * Makes `type` the preferred account type of `namespace`: the embedded wallet switches the
 * account it acts with (the frame answers the type and address), then the choice is kept in
 * state and storage. Other wallets have the account they have: only the preference is kept.
 */
export async function setPreferredAccountType(
  ctx: SigilContext,
  { namespace, type }: SetPreferredAccountTypeParameters,
): Promise<SetPreferredAccountTypeReturnType> {
  const connector = ctx.connected.get(namespace)
  let chosen = type
  if (isAuthConnector(connector)) {
    let answer: Awaited<ReturnType<NonNullable<typeof connector.setPreferredAccountType>>>
    try {
      answer = await connector.setPreferredAccountType?.(type)
    } catch (error) {
      throw toSigilError(error)
    }
    if (!answer) throw new AccountTypeUnavailableError()
    const switched = answer
    const account = ctx.store.getState().chains[namespace]?.account
    if (!account?.address) throw new NotConnectedError()
    // The account the frame acts with now has the type; the address shown stays as it is.
    setAccountProps(ctx.store, namespace, {
      allAccounts: account.allAccounts.map((a) => (a.address.toLowerCase() === switched.address.toLowerCase() ? { ...a, type: switched.type } : a)),
    })
    // Where the chain has no smart account the frame keeps the EOA (the spec's fallback): that is what is kept.
    if (switched.type !== 'ordinal') chosen = switched.type
  }
  ctx.storage.setItem(PREFERRED_ACCOUNT_TYPES_KEY, JSON.stringify({ ...storedAccountTypes(ctx), [namespace]: chosen }))
  const account = ctx.store.getState().chains[namespace]?.account
  setAccountProps(ctx.store, namespace, { preferredAccountTypes: { ...account?.preferredAccountTypes, [namespace]: chosen } })
  return { type: chosen, address: account?.address }
}
