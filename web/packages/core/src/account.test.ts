import { describe, expect, it } from 'vitest'
import { activeAccount, explorerUrl, resetAccount, setAccountAddress, setAccountProps } from './account.js'
import { setConnectionStatus } from './connection.js'
import { ethereum, sigilDev, solana, solanaDevnet } from './networks.js'
import { initialAccountState } from './store.js'
import { testContext } from './test-utils/index.js'

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('account state per namespace', () => {
  it('starts empty and disconnected, with every spec field', () => {
    const { ctx } = testContext()
    const account = ctx.store.getState().chains.eip155?.account
    expect(account).toEqual(initialAccountState())
    expect(Object.keys(initialAccountState()).sort()).toEqual(
      [
        'caipAddress',
        'address',
        'status',
        'balance',
        'balanceSymbol',
        'profileName',
        'profileImage',
        'addressExplorerUrl',
        'user',
        'tokenBalance',
        'smartAccountDeployed',
        'allAccounts',
        'addressLabels',
        'connectedWalletInfo',
        'preferredAccountTypes',
        'socialProvider',
        'farcasterUrl',
        'publicKey',
        'path',
      ].sort(),
    )
    expect(account?.status).toBe('disconnected')
  })

  it('setting the address derives caipAddress and the explorer link', () => {
    const { ctx } = testContext()
    expect(setAccountAddress(ctx.store, ethereum, ADDRESS)).toBe(`eip155:1:${ADDRESS}`)
    expect(activeAccount(ctx.store.getState())).toMatchObject({
      address: ADDRESS,
      caipAddress: `eip155:1:${ADDRESS}`,
      addressExplorerUrl: `https://etherscan.io/address/${ADDRESS}`,
    })
  })

  it("explorer links keep the explorer's query (a cluster), and there is none without an explorer", () => {
    const signature = '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
    expect(explorerUrl(ethereum, 'tx', `0x${'ab'.repeat(32)}`)).toBe(`https://etherscan.io/tx/0x${'ab'.repeat(32)}`)
    expect(explorerUrl(solanaDevnet, 'tx', signature)).toBe(`https://solscan.io/tx/${signature}?cluster=devnet`)
    expect(explorerUrl(solanaDevnet, 'address', 'So11111111111111111111111111111111111111112')).toBe(
      'https://solscan.io/address/So11111111111111111111111111111111111111112?cluster=devnet',
    )
    expect(explorerUrl(sigilDev(), 'tx', '0x1')).toBeUndefined()
  })

  it('namespaces are independent', () => {
    const { ctx } = testContext()
    setAccountAddress(ctx.store, ethereum, ADDRESS)
    setAccountProps(ctx.store, 'solana', { balance: '2' })
    expect(ctx.store.getState().chains.solana?.account.address).toBeUndefined()
    expect(ctx.store.getState().chains.eip155?.account.balance).toBeUndefined()
    expect(ctx.store.getState().chains.solana?.account.balance).toBe('2')
    void solana
  })

  it('reset clears every field and sets disconnected', () => {
    const { ctx } = testContext()
    setAccountAddress(ctx.store, ethereum, ADDRESS)
    setConnectionStatus(ctx, 'eip155', 'connected')
    setAccountProps(ctx.store, 'eip155', {
      balance: '1',
      balanceSymbol: 'ETH',
      profileName: 'x.eth',
      tokenBalance: [],
      allAccounts: [{ address: ADDRESS, type: 'eoa' }],
    })
    resetAccount(ctx.store, 'eip155')
    expect(ctx.store.getState().chains.eip155?.account).toEqual(initialAccountState())
  })

  it('connection status per namespace is mirrored in account.status and storage', () => {
    const { ctx, backend } = testContext()
    setConnectionStatus(ctx, 'eip155', 'connecting')
    expect(ctx.store.getState().chains.eip155?.connectionStatus).toBe('connecting')
    expect(ctx.store.getState().chains.eip155?.account.status).toBe('connecting')
    expect(ctx.store.getState().chains.solana?.connectionStatus).toBe('disconnected')
    expect(backend.getItem('@appkit/eip155:connection_status')).toBe('connecting')
  })
})
