/*
 * What the views ask of the modal beyond the store: which abilities the active family's adapter
 * has, the device, the connectors in the page. Views call these (and actions), never the
 * client's context.
 */
import type { ChainAdapter } from './adapter.js'
import type { SigilClient } from './client.js'
import { isWalletConnectConnector, WALLET_CONNECT_ID, type WalletConnectConnector } from './connectors/walletconnect.js'
import { openingView } from './modal.js'
import type { SigilState, View } from './store.js'
import type { ChainNamespace } from './types.js'

/** An ability of a family's adapter a view may offer or not. */
export type FamilyAbility = Exclude<keyof ChainAdapter, 'namespace' | 'attach' | 'connectors' | 'session' | 'calls' | 'wrapProvider' | 'sendsWith'>

/** Whether `namespace`'s family (the active one by default) has `ability`. */
export function familyCan(client: SigilClient, ability: FamilyAbility, namespace: ChainNamespace = client.store.getState().activeNamespace): boolean {
  return typeof client.context.adapters[namespace]?.[ability] === 'function'
}

/** Whether the Account view offers a send on `namespace`: the host left the feature on and the family can send. */
export function canSend(client: SigilClient, namespace: ChainNamespace = client.store.getState().activeNamespace): boolean {
  const provider = client.store.getState().providers[namespace]?.provider
  return client.options.features.send && familyCan(client, 'sendTransfer', namespace) && client.context.adapters[namespace]?.sendsWith?.(provider) !== false
}

/**
 * The address as `namespace`'s family writes it for people (EIP-55 for EVM; base58 and bech32
 * as the wallet gave them): the adapter's form, else the address as it is.
 */
export async function displayAddress(
  client: SigilClient,
  address: string,
  namespace: ChainNamespace = client.store.getState().activeNamespace,
): Promise<string> {
  const format = client.context.adapters[namespace]?.displayAddress
  return format ? format(address) : address
}

/** Whether the modal runs on a phone or tablet. */
export function isMobileDevice(client: SigilClient): boolean {
  return client.context.isMobile()
}

/** The WalletConnect connector, when the page has it (the host left WalletConnect on). */
export function walletConnectOf(client: SigilClient): WalletConnectConnector | undefined {
  const found = client.context.connectors.get(WALLET_CONNECT_ID)
  return isWalletConnectConnector(found) ? found : undefined
}

/** The view open() shows when none is asked for, in `state` (the UI pre-renders it). */
export function openingViewOf(client: SigilClient, state: SigilState): View {
  return openingView(client.context, state)
}
