'use client'

import { ConnectButton, useAppKitAccount, useAppKitNetwork } from '@sigil/react'

/** The connect button and the account, as the hooks see it (rendered on the server, then live). */
export function Wallet() {
  const account = useAppKitAccount()
  const { caipNetwork } = useAppKitNetwork()
  return (
    <section style={{ display: 'grid', gap: 16, justifyItems: 'start' }}>
      <ConnectButton />
      <dl style={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', gap: '4px 12px', margin: 0, width: '100%' }}>
        <dt>Status</dt>
        <dd data-testid="status">{account.status}</dd>
        <dt>Address</dt>
        <dd data-testid="address" style={{ overflowWrap: 'anywhere' }}>
          {account.address ?? 'none'}
        </dd>
        <dt>Network</dt>
        <dd data-testid="network">{caipNetwork.name}</dd>
      </dl>
    </section>
  )
}
