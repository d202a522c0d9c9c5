import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions, tokenBalance } from '../../test-utils/index.js'
import type { SigilOptions } from '../../options.js'
import { currentRoute } from '../../router.js'
import { apiClientOptions, calledUrl, fakeFetch } from '../../test-utils/index.js'
import { createOnrampClient, type OnrampOptions } from './api.js'
import { canBuy } from './available.js'
import { OnrampError } from './errors.js'
import {
  amountRefusal,
  finishOnramp,
  leaveOnramp,
  loadOnrampOptions,
  ONRAMP_POLL_MS,
  openOnramp,
  paymentLimit,
  providersOn,
  purchasesOn,
  quoteOnramp,
  startOnramp,
  watchOnramp,
  type OnrampForm,
} from './onramp.js'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const HASH = `0x${'cd'.repeat(32)}`

const OPTIONS: OnrampOptions = {
  country: 'US',
  providers: [
    { name: 'sandbox', label: 'Sigil sandbox', feeRange: '1-2%', url: undefined, supportedChains: ['eip155'] },
    { name: 'meld', label: 'Meld.io', feeRange: '1-2%', url: 'https://meld.io', supportedChains: ['eip155', 'solana'] },
  ],
  paymentCurrencies: [
    {
      id: 'USD',
      payment_method_limits: [
        { id: 'card', min: '10.00', max: '7500.00' },
        { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
      ],
    },
  ],
  purchaseCurrencies: [
    { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '0xa0b8' }] },
    { id: 'ETH', name: 'Ether', symbol: 'ETH', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '' }] },
    { id: 'MATIC', name: 'Polygon', symbol: 'POL', networks: [{ name: 'polygon', display_name: 'Polygon', chain_id: '137', contract_address: '' }] },
  ],
  sample: false,
}

const QUOTE = {
  provider: 'sandbox',
  quoteId: 'q1',
  paymentTotal: { amount: '100.00', currency: 'USD' },
  paymentSubtotal: { amount: '98.50', currency: 'USD' },
  purchaseAmount: { amount: '0.0394', currency: 'ETH' },
  coinbaseFee: { amount: '1.50', currency: 'USD' },
  networkFee: { amount: '0.00', currency: 'USD' },
}

/** The server's onramp endpoints and a history page; `session` says what the session status answers. */
function onrampServer(init: { session?: () => unknown; history?: () => unknown } = {}) {
  const calls: { url: URL; body?: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      calls.push({ url, ...(req?.body ? { body: JSON.parse(String(req.body)) } : {}) })
      if (url.pathname === '/v1/onramp/options') return json({ ...OPTIONS, providers: OPTIONS.providers.map((p) => ({ ...p, url: p.url ?? null })) })
      if (url.pathname === '/v1/onramp/quote') return json(QUOTE)
      if (url.pathname === '/v1/generators/onrampurl') return json({ url: 'http://127.0.0.1:9/onramp/sandbox/s1', sessionId: 's1' })
      if (url.pathname === '/v1/onramp/sessions/s1')
        return json(init.session?.() ?? { sessionId: 's1', provider: 'sandbox', status: 'pending', network: 'eip155:1', address: '0x1' })
      if (url.pathname.endsWith('/history')) return json(init.history?.() ?? { data: [], next: null })
      if (url.pathname.startsWith('/v1/account/')) return json({ balances: [] })
      return json({ error: { code: 'NOT_FOUND', message: 'no such route' } }, 404)
    }),
  )
  return { calls, asked: (path: string) => calls.filter((c) => c.url.pathname === path) }
}

async function connected(overrides: Partial<SigilOptions> = {}) {
  const wallet = fakeConnector()
  const client = createSigil(testOptions(overrides), {
    adapters: [fakeAdapter().adapter],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi([tokenBalance({ numeric: '1.5' })]),
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  return client
}

const network = (id: string, namespace: 'eip155' | 'solana' = 'eip155') => ({ caipNetworkId: id, chainNamespace: namespace }) as never

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('onramp API client (spec section 7 shapes)', () => {
  it('reads the options, and asks for the host’s country', async () => {
    const fetch = fakeFetch(200, { ...OPTIONS, sample: true })
    const api = createOnrampClient(apiClientOptions(fetch))
    const options = await api.options('DE')
    expect(options.sample).toBe(true)
    expect(options.purchaseCurrencies[1]?.networks[0]?.contract_address).toBe('')
    const url = calledUrl(fetch)
    expect(url.pathname).toBe('/v1/onramp/options')
    expect(url.searchParams.get('country')).toBe('DE')
    expect(url.searchParams.get('projectId')).toBe('p1')
  })

  it('an answer of another shape is the server’s failure, not a crash', async () => {
    const api = createOnrampClient(apiClientOptions(fakeFetch(200, { providers: 'none' })))
    await expect(api.options()).rejects.toMatchObject({ name: 'OnrampError', code: 'SERVER' })
  })

  it('a refusal keeps the server’s words', async () => {
    const api = createOnrampClient(
      apiClientOptions(fakeFetch(400, { error: { code: 'INVALID_PARAMETER', message: 'Amount must be between 10.00 and 7500.00 USD for card' } })),
    )
    const quote = api.quote({ provider: 'sandbox', purchaseCurrency: 'ETH', paymentCurrency: 'USD', amount: '5', network: 'eip155:1', paymentMethod: 'card' })
    await expect(quote).rejects.toThrow('Amount must be between 10.00 and 7500.00 USD for card')
    await expect(quote).rejects.toMatchObject({ code: 'REFUSED', status: 400 })
  })

  it('asks for the provider’s page for one address, in the generator’s body', async () => {
    const fetch = fakeFetch(200, { url: 'https://pay.example/buy?sessionToken=t', sessionId: 's9' })
    const api = createOnrampClient(apiClientOptions(fetch))
    const minted = await api.sessionUrl({
      provider: 'coinbase',
      purchaseCurrency: 'USDC',
      paymentCurrency: 'USD',
      amount: '50',
      network: 'eip155:8453',
      paymentMethod: 'card',
      address: '0xabc',
      redirectUrl: 'https://host.example/',
    })
    expect(minted).toEqual({ url: 'https://pay.example/buy?sessionToken=t', sessionId: 's9' })
    const [, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toMatchObject({
      provider: 'coinbase',
      destinationWallets: [{ address: '0xabc', blockchains: ['eip155:8453'], assets: ['USDC'] }],
      defaultNetwork: 'eip155:8453',
      presetFiatAmount: 50,
      fiatCurrency: 'USD',
      redirectUrl: 'https://host.example/',
    })
  })

  it('refuses a page that is not http(s)', async () => {
    const api = createOnrampClient(apiClientOptions(fakeFetch(200, { url: 'javascript:alert(1)', sessionId: 's' })))
    await expect(
      api.sessionUrl({
        provider: 'x',
        purchaseCurrency: 'ETH',
        paymentCurrency: 'USD',
        amount: '50',
        network: 'eip155:1',
        paymentMethod: 'card',
        address: '0x1',
      }),
    ).rejects.toBeInstanceOf(OnrampError)
  })
})

describe('onramp choices', () => {
  it('lists what is on sale on the active network, its own coin first', () => {
    expect(purchasesOn(OPTIONS, network('eip155:1')).map((p) => p.currency.id)).toEqual(['ETH', 'USDC'])
    expect(purchasesOn(OPTIONS, network('eip155:137')).map((p) => p.currency.symbol)).toEqual(['POL'])
    expect(purchasesOn(OPTIONS, network('eip155:10'))).toEqual([])
  })

  it('offers only the providers selling on the network’s family', () => {
    expect(providersOn(OPTIONS, network('eip155:1')).map((p) => p.name)).toEqual(['sandbox', 'meld'])
    expect(providersOn(OPTIONS, network('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana')).map((p) => p.name)).toEqual(['meld'])
  })

  it('checks the amount against the payment method’s limits', () => {
    const card = paymentLimit(OPTIONS, 'USD', 'card')
    expect(card).toEqual({ id: 'card', min: '10.00', max: '7500.00' })
    expect(amountRefusal('100', 'USD', card, 'card')).toBeUndefined()
    expect(amountRefusal('10', 'USD', card, 'card')).toBeUndefined()
    expect(amountRefusal('9.99', 'USD', card, 'card')).toBe('The least you can pay by card is 10.00 USD')
    expect(amountRefusal('7500.01', 'USD', card, 'card')).toBe('The most you can pay by card is 7500.00 USD')
    expect(amountRefusal('20000', 'USD', paymentLimit(OPTIONS, 'USD', 'ach_bank_account'), 'bank transfer')).toBeUndefined()
    for (const bad of ['abc', '0', '1.234', '-5', '1e3']) expect(amountRefusal(bad, 'USD', card, 'card')).toBe('Enter an amount, such as 100 or 49.99')
  })
})

describe('onramp actions', () => {
  it('offers Buy on EVM and Solana networks when the host left onramp on', async () => {
    onrampServer()
    expect(canBuy(await connected())).toBe(true)
    expect(canBuy(await connected({ features: { onramp: false } }))).toBe(false)
  })

  it('asks the options once per modal, with the host’s country', async () => {
    const server = onrampServer()
    const client = await connected({ country: 'fr' })
    await loadOnrampOptions(client)
    await loadOnrampOptions(client)
    const asked = server.asked('/v1/onramp/options')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.url.searchParams.get('country')).toBe('FR')
  })

  it('quotes for the form, then starts the purchase in the window opened on the click', async () => {
    const server = onrampServer()
    const client = await connected()
    openOnramp(client)
    const options = await loadOnrampOptions(client)
    const [purchase] = purchasesOn(options, client.store.getState().activeCaipNetwork)
    if (!purchase) throw new Error('nothing on sale')
    const form: OnrampForm = { purchase, paymentCurrency: 'USD', amount: '100', paymentMethod: 'card' }
    const quote = await quoteOnramp(client, 'sandbox', form)
    expect(quote.purchaseAmount).toEqual({ amount: '0.0394', currency: 'ETH' })
    expect(server.asked('/v1/onramp/quote')[0]?.body).toMatchObject({
      provider: 'sandbox',
      purchaseCurrency: purchase.currency.id,
      amount: '100',
      paymentMethod: 'card',
    })

    const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn(), opener: {} as object | null }
    const progress = await startOnramp(client, { provider: 'sandbox', label: 'Sigil sandbox', form, quote, popup: popup as unknown as Window })
    expect(popup.location.href).toBe('http://127.0.0.1:9/onramp/sandbox/s1')
    // The provider's page gets no handle on the host page.
    expect(popup.opener).toBeNull()
    const minted = server.asked('/v1/generators/onrampurl')[0]?.body as { destinationWallets: { address: string }[] }
    expect(minted.destinationWallets[0]?.address).toBe(client.store.getState().chains.eip155?.account.address)
    expect(currentRoute(client.store.getState())).toEqual({ view: 'OnRampProgress', data: progress })
    expect(progress).toMatchObject({ sessionId: 's1', opened: true, paid: { amount: '100', currency: 'USD' }, buying: { amount: '0.0394', currency: 'ETH' } })
    // The form keeps its values below the progress view.
    const history = client.store.getState().router.history
    expect(history[history.length - 2]).toEqual({
      view: 'OnRamp',
      data: { paymentCurrency: 'USD', amount: '100', asset: purchase.currency.id, paymentMethod: 'card' },
    })
  })

  it('a blocked window leaves the provider’s page as a link', async () => {
    onrampServer()
    const client = await connected()
    const options = await loadOnrampOptions(client)
    const [purchase] = purchasesOn(options, client.store.getState().activeCaipNetwork)
    if (!purchase) throw new Error('nothing on sale')
    const progress = await startOnramp(client, {
      provider: 'sandbox',
      label: 'Sigil sandbox',
      form: { purchase, paymentCurrency: 'USD', amount: '50', paymentMethod: 'card' },
      popup: null,
    })
    expect(progress.opened).toBe(false)
    expect(progress.url).toBe('http://127.0.0.1:9/onramp/sandbox/s1')
  })

  it('follows the purchase until the provider says it is done', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    let status = 'pending'
    onrampServer({
      session: () => ({ sessionId: 's1', provider: 'sandbox', status, txHash: status === 'completed' ? HASH : null, network: 'eip155:1', address: '0x1' }),
    })
    const client = await connected()
    const progress = {
      sessionId: 's1',
      provider: 'sandbox',
      label: 'Sigil sandbox',
      url: 'http://x/',
      opened: true,
      paid: { amount: '100', currency: 'USD' },
      buying: { amount: '0.0394', currency: 'ETH' },
      network: 'eip155:1',
      since: Date.now(),
    }
    const watched = watchOnramp(client, progress, new AbortController().signal)
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS)
    status = 'completed'
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS)
    const session = await watched
    expect(session).toMatchObject({ status: 'completed', txHash: HASH })
  })

  it('ends a purchase whose provider has no status when the coins arrive in the history', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const since = Date.now()
    let arrived = false
    onrampServer({
      history: () => ({
        data: arrived
          ? [
              {
                id: 'i1',
                metadata: {
                  minedAt: new Date(since + 5000).toISOString(),
                  chain: 'eip155:1',
                  status: 'confirmed',
                  operationType: 'receive',
                  sentFrom: '0x9',
                  sentTo: '0x1',
                  hash: HASH,
                },
                transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.0394' } }],
              },
            ]
          : [],
        next: null,
      }),
      session: () => ({ sessionId: 's1', provider: 'meld', status: 'pending', network: 'eip155:1', address: '0x1' }),
    })
    const client = await connected()
    const progress = {
      sessionId: 's1',
      provider: 'meld',
      label: 'Meld.io',
      url: 'http://x/',
      opened: true,
      paid: { amount: '100', currency: 'USD' },
      buying: { amount: '0.0394', currency: 'ETH' },
      network: 'eip155:1',
      since,
    }
    const watched = watchOnramp(client, progress, new AbortController().signal)
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS)
    arrived = true
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS)
    expect(await watched).toMatchObject({ status: 'completed', txHash: HASH })
  })

  it('coins arriving do not end a purchase the server follows: an earlier one of the same amount is not this one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const since = Date.now()
    let status = 'pending'
    const server = onrampServer({
      session: () => ({ sessionId: 's1', provider: 'sandbox', status, network: 'eip155:1', address: '0x1' }),
      history: () => ({
        data: [
          {
            id: 'i0',
            metadata: {
              minedAt: new Date(since).toISOString(),
              chain: 'eip155:1',
              status: 'confirmed',
              operationType: 'receive',
              sentFrom: '0x9',
              sentTo: '0x1',
              hash: HASH,
            },
            transfers: [{ fungible_info: { name: 'Ether', symbol: 'ETH' }, direction: 'in', quantity: { numeric: '0.0394' } }],
          },
        ],
        next: null,
      }),
    })
    const client = await connected()
    const progress = {
      sessionId: 's1',
      provider: 'sandbox',
      label: 'S',
      url: 'http://x/',
      opened: true,
      paid: { amount: '100', currency: 'USD' },
      buying: { amount: '0.0394', currency: 'ETH' },
      network: 'eip155:1',
      since,
    }
    let ended: unknown
    const watched = watchOnramp(client, progress, new AbortController().signal).then((s) => {
      ended = s
      return s
    })
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS * 3)
    expect(ended).toBeUndefined()
    expect(server.calls.filter((c) => c.url.pathname.endsWith('/history'))).toHaveLength(0)
    status = 'failed'
    await vi.advanceTimersByTimeAsync(ONRAMP_POLL_MS)
    expect(await watched).toMatchObject({ status: 'failed' })
  })

  it('stops following when asked', async () => {
    onrampServer()
    const client = await connected()
    const stop = new AbortController()
    const progress = {
      sessionId: 's1',
      provider: 'sandbox',
      label: 'S',
      url: 'http://x/',
      opened: true,
      paid: { amount: '1', currency: 'USD' },
      buying: { amount: '', currency: 'ETH' },
      network: 'eip155:1',
      since: 0,
    }
    const watched = watchOnramp(client, progress, stop.signal)
    stop.abort(new Error('left'))
    await expect(watched).rejects.toThrow('left')
  })

  it('says how it ended on the progress view, then leaves to the view below the form', async () => {
    onrampServer()
    const client = await connected()
    client.open({ view: 'Account' })
    openOnramp(client)
    const progress = {
      sessionId: 's1',
      provider: 'sandbox',
      label: 'S',
      url: 'http://x/',
      opened: true,
      paid: { amount: '1', currency: 'USD' },
      buying: { amount: '0.1', currency: 'ETH' },
      network: 'eip155:1',
      since: 0,
    }
    client.push('OnRampProgress', progress)
    finishOnramp(client, progress, {
      sessionId: 's1',
      provider: 'sandbox',
      status: 'completed',
      txHash: HASH,
      network: 'eip155:1',
      address: '0x1',
      purchaseAmount: { amount: '0.1', currency: 'ETH' },
    })
    expect(currentRoute(client.store.getState())).toMatchObject({ view: 'OnRampProgress', data: { status: 'completed', txHash: HASH } })
    leaveOnramp(client)
    expect(currentRoute(client.store.getState()).view).toBe('Account')
  })
})
