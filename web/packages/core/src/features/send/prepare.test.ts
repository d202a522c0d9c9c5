import { describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
import { pushView } from '../../router.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions, tokenBalance } from '../../test-utils/index.js'
import {
  chooseSendToken,
  confirmSend,
  isName,
  maxSendAmount,
  openSendTokens,
  prepareSend,
  previewSend,
  resetSendForm,
  resolveReceiver,
  sendStep,
} from './send.js'

const FROM = '0x1111111111111111111111111111111111111111'
const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ETHER = 10n ** 18n
const GAS = { limit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }
const FEE = 21_000n * 2_000_000_000n

async function evm() {
  const wallet = fakeConnector({ wallets: { eip155: { accounts: [FROM], chainId: 1 } } })
  const { adapter } = fakeAdapter('eip155')
  const sendTransfer = vi.fn(async () => `0x${'ab'.repeat(32)}`)
  const transferFee = vi.fn(async () => ({ fee: FEE, gas: GAS }))
  const resolveName = vi.fn(async (name: string) => (name === 'alice.eth' ? ALICE : undefined))
  const isAddress = (a: string) => /^0x[0-9a-fA-F]{40}$/.test(a)
  const api = fakeBlockchainApi([
    tokenBalance({ numeric: '2', decimals: '18' }),
    tokenBalance({ name: 'Sigil', symbol: 'SGL', address: SGL, numeric: '100.5', decimals: '18' }),
    tokenBalance({ name: 'Tether', symbol: 'USDT', address: '0xusdt', numeric: '1000', decimals: '6' }),
  ])
  const client = createSigil(testOptions(), {
    adapters: [{ ...adapter, isAddress, sendTransfer, transferFee, resolveName }],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: api,
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  await vi.waitFor(() => expect(client.store.getState().chains.eip155?.account.tokenBalance).toHaveLength(3))
  return { client, sendTransfer, transferFee, resolveName }
}

describe('the send views’ actions', () => {
  it('tells names from addresses', () => {
    expect(isName('alice.eth')).toBe(true)
    expect(isName(' sub.alice.eth ')).toBe(true)
    for (const not of ['alice', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 'al ice.eth', '.eth', 'alice.', '']) expect(isName(not)).toBe(false)
  })

  it("says what the form lacks, in order, comparing amounts in the token's smallest unit", () => {
    const usdt = tokenBalance({ symbol: 'USDT', numeric: '1000', decimals: '6' })
    const base = { token: usdt, amount: '1', to: ALICE, receiver: ALICE }
    expect(sendStep({ ...base, token: undefined })).toBe('selectToken')
    expect(sendStep({ ...base, amount: ' ' })).toBe('addAmount')
    expect(sendStep({ ...base, amount: '0.0000001' })).toBe('invalidAmount')
    expect(sendStep({ ...base, amount: 'abc' })).toBe('invalidAmount')
    // 1000.000001 > 1000 exactly; a float would not always tell 18-decimal amounts apart.
    expect(sendStep({ ...base, amount: '1000.000001' })).toBe('insufficientFunds')
    expect(sendStep({ ...base, amount: '1000' })).toBe('ready')
    const eth = tokenBalance({ numeric: '1.000000000000000001', decimals: '18' })
    expect(sendStep({ ...base, token: eth, amount: '1.000000000000000002' })).toBe('insufficientFunds')
    expect(sendStep({ ...base, token: eth, amount: '1.000000000000000001' })).toBe('ready')
    expect(sendStep({ ...base, to: '' })).toBe('addAddress')
    expect(sendStep({ ...base, to: 'alice.eth', receiver: undefined, resolving: true })).toBe('resolving')
    expect(sendStep({ ...base, to: 'nobody.eth', receiver: undefined })).toBe('invalidAddress')
  })

  it('Max is the whole token balance, and the native balance less the quoted fee, never below 0', async () => {
    const { client, transferFee } = await evm()
    expect(await maxSendAmount(client, { token: SGL })).toBe(100_500_000_000_000_000_000n)
    expect(await maxSendAmount(client, { token: '0xusdt' })).toBe(1_000_000_000n)
    expect(await maxSendAmount(client, { token: 'native', to: ALICE })).toBe(2n * ETHER - FEE)
    expect(transferFee).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ to: ALICE, amount: 2n * ETHER }))
    transferFee.mockResolvedValueOnce({ fee: 3n * ETHER, gas: GAS })
    expect(await maxSendAmount(client, { token: 'native' })).toBe(0n)
  })

  it('resolves a name for the active network only, and sends to the address it gives', async () => {
    const { client, resolveName, sendTransfer } = await evm()
    expect(await resolveReceiver(client, { name: 'alice.eth' })).toBe(ALICE)
    expect(resolveName).toHaveBeenLastCalledWith('alice.eth', expect.objectContaining({ caipNetworkId: 'eip155:1' }), expect.anything())
    expect(await resolveReceiver(client, { name: 'nobody.eth' })).toBeUndefined()
    const prepared = await prepareSend(client, { to: 'alice.eth', amount: '1', token: 'native' })
    expect(prepared).toMatchObject({
      name: 'alice.eth',
      transfer: { to: ALICE, amount: ETHER, gas: GAS },
      fee: { fee: FEE },
      feeCurrency: { symbol: 'ETH', decimals: 18 },
    })
    await expect(prepareSend(client, { to: 'nobody.eth', amount: '1', token: 'native' })).rejects.toMatchObject({
      code: 'NAME_NOT_RESOLVED',
      message: 'nobody.eth has no address on Ethereum',
    })
    await expect(prepareSend(client, { to: 'alice', amount: '1', token: 'native' })).rejects.toMatchObject({ code: 'INVALID_RECEIVER' })
    // The Preview's quote is what the transaction keeps to: the fee is not asked again.
    await client.send({ to: 'alice.eth', amount: '1', token: SGL, fee: { fee: 7n, gas: { limit: 60_000n, gasPrice: 1n } } })
    expect(sendTransfer).toHaveBeenLastCalledWith(
      expect.anything(),
      expect.objectContaining({ to: ALICE, token: { address: SGL, decimals: 18 }, gas: { limit: 60_000n, gasPrice: 1n } }),
    )
  })

  it('refuses before signing what the balance and the fee do not cover', async () => {
    const { client, sendTransfer } = await evm()
    await expect(prepareSend(client, { to: ALICE, amount: '2', token: 'native' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient funds for the network fee (about 0.000042 ETH)',
    })
    await expect(prepareSend(client, { to: ALICE, amount: '1000.000001', token: '0xusdt' })).rejects.toMatchObject({
      message: 'Insufficient funds: the balance is 1000.000 USDT',
    })
    expect(sendTransfer).not.toHaveBeenCalled()
  })

  it('moves through the views: the form keeps its values under the token choice and the Preview; once sent, the sent state replaces them', async () => {
    const { client } = await evm()
    const history = () => client.store.getState().router.history
    client.store.setState({ router: { history: [{ view: 'Account' }] } })
    pushView(client.store, 'WalletSend', {})
    openSendTokens(client, { amount: '1', to: 'alice.eth' })
    expect(history().map((r) => r.view)).toEqual(['Account', 'WalletSend', 'WalletSendSelectToken'])
    chooseSendToken(client, { token: SGL })
    expect(history()).toEqual([{ view: 'Account' }, { view: 'WalletSend', data: { amount: '1', to: 'alice.eth', token: SGL } }])
    // Another namespace empties the form.
    resetSendForm(client)
    expect(history()).toEqual([{ view: 'Account' }, { view: 'WalletSend', data: {} }])
    previewSend(client, { token: SGL, amount: '1', to: 'alice.eth' })
    expect(history().map((r) => r.view)).toEqual(['Account', 'WalletSend', 'WalletSendPreview'])
    const hash = await confirmSend(client, { token: SGL, amount: '1', to: ALICE, name: 'alice.eth' })
    expect(history()).toEqual([{ view: 'Account' }, { view: 'WalletSendSent', data: { hash, amount: '1', symbol: 'SGL', to: ALICE, name: 'alice.eth' } }])
  })
})
