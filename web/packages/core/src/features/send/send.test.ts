import { describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions, tokenBalance } from '../../test-utils/index.js'
import { parseAmount } from './send.js'

const SOL_ADDRESS = 'So11111111111111111111111111111111111111112'
const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const RECEIVER = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'

function setup(withSend = true) {
  const wallet = fakeConnector({ id: 'sol', wallets: { solana: { accounts: [SOL_ADDRESS], chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' } } })
  const { adapter } = fakeAdapter('solana')
  const sendTransfer = vi.fn(async () => 'sig123')
  const solana = { ...adapter, isAddress: (a: string) => a.length >= 32 && !a.startsWith('0x'), ...(withSend ? { sendTransfer } : {}) }
  const api = fakeBlockchainApi([
    tokenBalance({ name: 'Solana', symbol: 'SOL', chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', numeric: '10', decimals: '9' }),
    tokenBalance({ name: 'USD Coin', symbol: 'USDC', address: MINT, chainId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', numeric: '5', decimals: '6' }),
  ])
  const client = createSigil(testOptions(), {
    adapters: [solana],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: api,
    restore: false,
    storage: new MemoryStorage(),
  })
  return { client, sendTransfer, api, solana }
}

async function connected(withSend = true) {
  const s = setup(withSend)
  await s.client.connect('sol')
  await vi.waitFor(() => expect(s.client.store.getState().chains.solana?.account.tokenBalance).toHaveLength(2))
  return s
}

describe('send (spec sections 4 and 5)', () => {
  it('parses decimal amounts into the smallest unit', () => {
    expect(parseAmount('1.5', 9)).toBe(1_500_000_000n)
    expect(parseAmount('.25', 6)).toBe(250_000n)
    expect(parseAmount('25', 0)).toBe(25n)
    for (const bad of ['', '0', '0.0', '-1', '1e3', '1.2345678', 'abc', '1.2.3']) expect(parseAmount(bad, 6)).toBeUndefined()
  })

  it('needs an amount and a receiver, then a token, with the spec texts', async () => {
    const { client, sendTransfer } = await connected()
    await expect(client.send({ to: '', amount: '1', token: 'native' })).rejects.toMatchObject({ message: 'An amount and receiver address are required' })
    await expect(client.send({ to: RECEIVER, amount: ' ', token: 'native' })).rejects.toMatchObject({ code: 'AMOUNT_AND_RECEIVER_REQUIRED' })
    await expect(client.send({ to: RECEIVER, amount: '1', token: undefined })).rejects.toMatchObject({ message: 'A token is required' })
    await expect(client.send({ to: RECEIVER, amount: '1', token: 'NotHeld111111111111111111111111111' })).rejects.toMatchObject({ code: 'TOKEN_REQUIRED' })
    expect(sendTransfer).not.toHaveBeenCalled()
  })

  it('says what is wrong before the wallet is asked: a receiver of another family, an amount the token cannot hold, more than the balance', async () => {
    const { client, sendTransfer } = await connected()
    // An EVM address on Solana: the family's address rule refuses it.
    await expect(client.send({ to: '0x1111111111111111111111111111111111111111', amount: '1', token: 'native' })).rejects.toMatchObject({
      code: 'INVALID_RECEIVER',
      message: 'This is not a valid address on Solana',
    })
    await expect(client.send({ to: RECEIVER, amount: '1.0000001', token: MINT })).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
      message: 'Enter an amount above 0 with at most 6 decimals',
    })
    await expect(client.send({ to: RECEIVER, amount: '0', token: MINT })).rejects.toMatchObject({ code: 'INVALID_AMOUNT' })
    // 5 USDC held: 5.000001 is refused with the balance; 10 SOL held: 10.5 is refused.
    await expect(client.send({ to: RECEIVER, amount: '5.000001', token: MINT })).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient funds: the balance is 5.000 USDC',
    })
    await expect(client.send({ to: RECEIVER, amount: '10.5', token: 'native' })).rejects.toMatchObject({
      message: 'Insufficient funds: the balance is 10.000 SOL',
    })
    // The whole token balance is fine.
    await client.send({ to: RECEIVER, amount: '5', token: MINT })
    expect(sendTransfer).toHaveBeenCalledTimes(1)
  })

  it("keeps the adapter's fee back from the native balance, for the native currency and for tokens", async () => {
    const { client, sendTransfer, solana } = await connected()
    const transferFee = vi.fn(async () => ({ fee: 5000n }) as { fee: bigint })
    Object.assign(solana, { transferFee })
    // All 10 SOL leaves nothing for the fee.
    await expect(client.send({ to: RECEIVER, amount: '10', token: 'native' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient funds for the network fee (about 0.000005 SOL)',
    })
    expect(transferFee).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ to: RECEIVER, amount: 10_000_000_000n }))
    await client.send({ to: RECEIVER, amount: '9.999995', token: 'native' })
    // A token send needs the fee in SOL too: a fee above the 10 SOL refuses it.
    transferFee.mockResolvedValueOnce({ fee: 11_000_000_000n })
    await expect(client.send({ to: RECEIVER, amount: '1', token: MINT })).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' })
    // A fee the adapter cannot tell leaves the check to the chain.
    transferFee.mockRejectedValueOnce(new Error('no fee market'))
    await client.send({ to: RECEIVER, amount: '1', token: MINT })
    expect(sendTransfer).toHaveBeenCalledTimes(2)
  })

  it("a chain's refusal becomes the spec's transaction error, never its raw dump", async () => {
    const { client, sendTransfer } = await connected()
    const dump = `Transaction simulation failed: FailedTransactionMetadata { err: InstructionError(0, Custom(1)), meta: TransactionMetadata { logs: ["Program 11111111111111111111111111111111 invoke [1]", "Transfer: insufficient lamports 1000, need 1500000000"] ${'x'.repeat(2000)} } }`
    sendTransfer.mockRejectedValueOnce(Object.assign(new Error(dump), { code: -32002 }))
    const refused = await client.send({ to: RECEIVER, amount: '1.5', token: 'native' }).catch((e: unknown) => e)
    expect(refused).toMatchObject({ name: 'TransactionError', code: 'INSUFFICIENT_FUNDS' })
    expect((refused as Error).message).toBe('Insufficient funds: the amount and the network fee are more than the account holds.')
    // The wallet's own refusal stays what it is.
    sendTransfer.mockRejectedValueOnce(Object.assign(new Error('denied'), { code: 4001 }))
    await expect(client.send({ to: RECEIVER, amount: '1', token: 'native' })).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
  })

  it('sends the native currency or a token through the adapter, then reads balances past the cache', async () => {
    const { client, sendTransfer, api } = await connected()
    const network = client.store.getState().activeCaipNetwork
    expect(await client.send({ to: RECEIVER, amount: '1.5', token: 'native' })).toBe('sig123')
    expect(sendTransfer).toHaveBeenLastCalledWith(expect.anything(), {
      from: SOL_ADDRESS,
      to: RECEIVER,
      amount: 1_500_000_000n,
      network,
      onSubmitted: expect.any(Function),
    })
    await client.send({ to: RECEIVER, amount: '2', token: MINT })
    expect(sendTransfer).toHaveBeenLastCalledWith(expect.anything(), {
      from: SOL_ADDRESS,
      to: RECEIVER,
      amount: 2_000_000n,
      token: { address: MINT, decimals: 6 },
      network,
      onSubmitted: expect.any(Function),
    })
    expect(api.getBalances).toHaveBeenLastCalledWith(SOL_ADDRESS, expect.objectContaining({ forceUpdate: true }))
  })

  it('lists the send as pending in Activity once the wallet has sent it, before the adapter resolves (its receipt)', async () => {
    const { client, sendTransfer } = await connected()
    let pendingWhenSubmitted: unknown
    sendTransfer.mockImplementationOnce((async (_provider: unknown, transfer: { onSubmitted?: (hash: string) => void }) => {
      transfer.onSubmitted?.('sig-early')
      pendingWhenSubmitted = client.store.getState().activity?.pending.map((p) => [p.hash, p.amount, p.direction])
      return 'sig-early'
    }) as never)
    await client.send({ to: RECEIVER, amount: '1.5', token: 'native' })
    expect(pendingWhenSubmitted).toEqual([['sig-early', '1.5', 'out']])
    expect(client.store.getState().activity?.pending).toHaveLength(1)
  })

  it("is 'Unsupported chain' where the namespace's adapter cannot send", async () => {
    const { client } = await connected(false)
    await expect(client.send({ to: RECEIVER, amount: '1', token: 'native' })).rejects.toMatchObject({ message: 'Unsupported chain' })
  })
})
