/**
 * The tests' own view of the chain: plain JSON-RPC to anvil from Node, so expected balances come
 * from the chain itself rather than from numbers written into a test.
 */

/** What `devchain/deploy.mjs` wrote (the parts the tests use). */
export interface DevchainDeployment {
  chainId: string
  deployer: string
  /** SGL, USDC and USDT; `noReturn` marks USDT, whose transfer/approve return no bool (as on mainnet). */
  tokens: { address: string; symbol: string; name: string; decimals: number; noReturn?: boolean }[]
  ens?: { names: { name: string; address: string; avatar: string | null }[] }
  /** The Farcaster-style ID registry: each fid's custody address (fid 1 is anvil's account 1). */
  farcaster?: { idRegistry: string; fids: { fid: number; custody: string; username: string }[] }
  /** Badges #1 and #2 (ERC-721) and 5 of item 1 (ERC-1155) are held by anvil's account 1. */
  nfts?: { erc721: { address: string; name: string; symbol: string; baseUri: string }; erc1155: { address: string; uri: string } }
}

export async function rpc<T = unknown>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')

/** anvil's unlocked accounts, in order (0 is the dev-chain deployer and the test wallet's). */
/** anvil's unlocked accounts (ten by default): the tests use the first two. */
export async function accounts(rpcUrl: string): Promise<[string, string, ...string[]]> {
  const [first, second, ...rest] = await rpc<string[]>(rpcUrl, 'eth_accounts')
  if (first === undefined || second === undefined) throw new Error('anvil lists fewer than 2 accounts')
  return [first, second, ...rest]
}

export async function nativeBalance(rpcUrl: string, owner: string): Promise<bigint> {
  return BigInt(await rpc<string>(rpcUrl, 'eth_getBalance', [owner, 'latest']))
}

/** The native balance as the modal shows it: '9999.998 ETH'. */
export async function nativeBalanceText(rpcUrl: string, owner: string): Promise<string> {
  return `${floor3(await nativeBalance(rpcUrl, owner), 18)} ETH`
}

/** ERC-20 balanceOf(owner). */
export async function tokenBalance(rpcUrl: string, token: string, owner: string): Promise<bigint> {
  return BigInt(await rpc<string>(rpcUrl, 'eth_call', [{ to: token, data: `0x70a08231${word(owner)}` }, 'latest']))
}

/** ERC-20 transfer(to, amount) sent from an unlocked anvil account; resolves once mined. */
export async function transferToken(rpcUrl: string, token: string, from: string, to: string, amount: bigint): Promise<void> {
  const hash = await rpc<string>(rpcUrl, 'eth_sendTransaction', [{ from, to: token, data: `0xa9059cbb${word(to)}${word(amount.toString(16))}` }])
  for (let i = 0; i < 100; i++) {
    const receipt = await rpc<{ status: string } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash])
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`transfer ${hash} reverted`)
      return
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`transfer ${hash} was not mined`)
}

/** An integer amount of base units as the modal shows it: whole units floored to 3 decimals. */
export function floor3(amount: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals)
  const whole = amount / unit
  const thousandths = ((amount % unit) * 1000n) / unit
  return `${whole}.${thousandths.toString().padStart(3, '0')}`
}
