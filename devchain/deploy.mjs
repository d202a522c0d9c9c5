// SPDX-License-Identifier: Apache-2.0
// Deploys Sigil's dev-chain contracts to a running anvil (or any node with an unlocked
// account) and writes their addresses as JSON.
//
// Usage: node devchain/deploy.mjs --rpc http://127.0.0.1:PORT [--out FILE.json] [--metadata-base URL]
//          [--names-gateway URL] [--names-signer-key HEX]
//
// Deploys, from the node's first unlocked account (anvil account 0):
//   - SGL  "Sigil"            18 decimals, 1,000,000 supply
//   - USDC "USD Coin (test)"   6 decimals, 1,000,000 supply
//   - a SGL/USDC SigilPair holding 10,000 SGL and 25,000 USDC (1 SGL = 2.50 USDC)
//   - a ContractWallet (EIP-1271) owned by account 0
//   - an ENS-style NameRegistry and NameResolver: alice.eth (account 1, with an avatar) and
//     bob.eth (account 2) resolve both ways; account 3's reverse record claims alice.eth,
//     which does not point back to it, so it must not be shown as account 3's name
//   - a Farcaster-style ID registry: fid 1 held by account 1, fid 2 by account 2
//   - USDT "Tether USD (test)" 6 decimals, 1,000,000 supply, a NoReturnToken: like mainnet USDT,
//     transfer/transferFrom/approve return no bool and approve refuses non-zero -> non-zero
//   - NFTs: a SigilBadge (ERC-721 "Sigil Badge" SBG, badges #1 and #2 to account 1) and a
//     SigilItems (ERC-1155, 5 of item 1 to account 1); their metadata URIs are under
//     --metadata-base (default ipfs://sigil-dev): <base>/badge/<id> and <base>/items/{id}.json
//   - Uniswap V2: UniswapV2Factory, WETH9 and UniswapV2Router02, and three pools seeded by
//     account 0 through the router: ETH/SGL (10 ETH : 10,000 SGL), ETH/USDT (10 ETH : 25,000
//     USDT) and SGL/USDT (10,000 SGL : 25,000 USDT), so 1 ETH = 1,000 SGL = 2,500 USDT and
//     1 SGL = 2.50 USDT as on the SGL/USDC pair. Their addresses go in `uniswapV2`, from which
//     the server takes the dev chain's swap source (--dev-deployment).
//     Uniswap V2 is GPL-3.0: a TEST/DEV FIXTURE ONLY. Its compiled artifacts come from the npm
//     packages @uniswap/v2-core@1.0.1 and @uniswap/v2-periphery@1.1.0-beta.0, devDependencies of
//     devchain/ read from node_modules when deploying; they are never copied into Sigil's
//     sources and never shipped.
//   - account names (issue 25): an OffchainResolver (ENSIP-10 + ERC-3668) whose gateway is the
//     Sigil server's /v1/profile/gateway (--names-gateway, default DEFAULT_NAMES_GATEWAY) and
//     whose signer is the address of --names-signer-key (default DEV_NAMES_SIGNER_KEY, the key
//     `sigil serve` is given as SIGIL_NAMES_SIGNER_KEY by make demo and the e2e setup), set as
//     the resolver of the zone sigil.id (id, then sigil.id, owned by account 0 in the
//     NameRegistry), of addr.reverse and of 80007a69.reverse (the dev chain's ENSIP-19 reverse
//     namespace); and a UniversalResolver over the NameRegistry for viem's getEnsAddress and
//     getEnsName. Their addresses go in `names`.
//   - smart accounts (issue 26): eth-infinitism's Simple7702Account (account-abstraction v0.8,
//     MIT), deployed from the compiled artifact its npm package @account-abstraction/contracts
//     ships: the one implementation an embedded wallet delegates to with EIP-7702. Its address
//     goes in `smartAccount.implementation`.
// and sends 1,000 SGL and 1,000 USDT to accounts 1..3. New contracts are deployed last, so the addresses of
// the earlier ones stay the same on a fresh anvil. Builds the contracts first if build/ is missing.
// The JSON goes to stdout (and to --out); progress goes to stderr.
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPublicClient, createWalletClient, http, parseUnits, getAddress, namehash, labelhash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { build, isBuilt, loadArtifact } from './build.mjs';

export const SGL = { symbol: 'SGL', name: 'Sigil', decimals: 18, supply: '1000000' };
export const USDC = { symbol: 'USDC', name: 'USD Coin (test)', decimals: 6, supply: '1000000' };
export const PAIR_SEED = { SGL: '10000', USDC: '25000' }; // 1 SGL = 2.50 USDC
export const GIFT_SGL = '1000'; // to accounts 1..3
export const USDT = { symbol: 'USDT', name: 'Tether USD (test)', decimals: 6, supply: '1000000' };
export const GIFT_USDT = '1000'; // to accounts 1..3
export const DEFAULT_METADATA_BASE = 'ipfs://sigil-dev';
export const BADGES_TO_ACCOUNT_1 = 2; // ids 1 and 2
export const ITEM = { id: 1, amount: 5 }; // to account 1
// Account names: the zone, the server's gateway, and the gateway's signer key. DEV ONLY: this
// key is public (keccak256 of a sentence), is not one of anvil's accounts, and must never sign
// for a real chain; a real deployment gives `sigil serve` its own --names-signer-key.
export const NAMES_ZONE = 'sigil.id';
export const DEFAULT_NAMES_GATEWAY = 'http://127.0.0.1:8080/v1/profile/gateway/{sender}/{data}.json';
export const DEV_NAMES_SIGNER_KEY = '0x3cd2e9b3a2fcc4dd50078cb0011b92ee4b4075d95e83f586e3f2288cb3dd7858';
// Uniswap V2 pools seeded by account 0: 1 ETH = 1,000 SGL = 2,500 USDT; 1 SGL = 2.50 USDT.
export const UNISWAP_POOLS = [
  { tokens: ['ETH', 'SGL'], amounts: ['10', '10000'] },
  { tokens: ['ETH', 'USDT'], amounts: ['10', '25000'] },
  { tokens: ['SGL', 'USDT'], amounts: ['10000', '25000'] },
];
// Far in the future (2100-01-01): the seeding transactions never expire.
const NO_DEADLINE = 4102444800n;

const here = dirname(fileURLToPath(import.meta.url));

/**
 * A compiled artifact ({abi, bytecode}) from an npm package in devchain/node_modules: Uniswap
 * V2's (GPL-3.0 test fixture: read there, never copied) and Simple7702Account's. `file` is e.g.
 * '@uniswap/v2-core/build/UniswapV2Factory.json'.
 */
export function loadPackageArtifact(file) {
  const path = join(here, 'node_modules', file);
  let art;
  try {
    art = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read ${path} (run npm ci in devchain/): ${err.message}`);
  }
  const raw = art.bytecode ?? art.evm?.bytecode?.object;
  if (!art.abi || !raw) throw new Error(`${path} has no abi or bytecode`);
  return { abi: art.abi, bytecode: raw.startsWith('0x') ? raw : `0x${raw}` };
}

/** The NFT metadata URIs under `base`: the badge's baseURI and the items' `{id}` template. */
export function metadataUris(base = DEFAULT_METADATA_BASE) {
  const root = base.replace(/\/+$/, '');
  return { badgeBaseUri: `${root}/badge/`, itemsUri: `${root}/items/{id}.json` };
}
// A tiny SVG avatar as a data URL: works offline, in the browser and in tests.
export const ALICE_AVATAR =
  'data:image/svg+xml;base64,' +
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4" fill="#6f42c1"/></svg>').toString('base64');

function log(msg) {
  process.stderr.write(`[devchain] ${msg}\n`);
}

function parseArgs(argv) {
  const args = { rpc: undefined, out: undefined, metadataBase: undefined, namesGateway: undefined, namesSignerKey: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const take = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--rpc') args.rpc = take();
    else if (a.startsWith('--rpc=')) args.rpc = a.slice(6);
    else if (a === '--out') args.out = take();
    else if (a.startsWith('--out=')) args.out = a.slice(6);
    else if (a === '--metadata-base') args.metadataBase = take();
    else if (a.startsWith('--metadata-base=')) args.metadataBase = a.slice(16);
    else if (a === '--names-gateway') args.namesGateway = take();
    else if (a.startsWith('--names-gateway=')) args.namesGateway = a.slice(16);
    else if (a === '--names-signer-key') args.namesSignerKey = take();
    else if (a.startsWith('--names-signer-key=')) args.namesSignerKey = a.slice(19);
    else if (a === '-h' || a === '--help') args.help = true;
    else throw new Error(`unknown argument: ${a}`);
  }
  return args;
}

export async function deploy({
  rpcUrl,
  metadataBase = DEFAULT_METADATA_BASE,
  namesGateway = DEFAULT_NAMES_GATEWAY,
  namesSignerKey = DEV_NAMES_SIGNER_KEY,
}) {
  if (!rpcUrl) throw new Error('missing --rpc URL');
  if (!/^https?:\/\/\S+$/.test(namesGateway)) throw new Error(`--names-gateway '${namesGateway}' is not an http(s) URL`);
  const key = namesSignerKey.startsWith('0x') ? namesSignerKey : `0x${namesSignerKey}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error('--names-signer-key must be 64 hex digits');
  const namesSigner = privateKeyToAccount(key).address;
  if (!/^[a-z][a-z0-9+.-]*:\S*$/i.test(metadataBase)) throw new Error(`--metadata-base '${metadataBase}' is not a URL`);
  if (!isBuilt()) {
    log('build/ missing: compiling contracts');
    build();
  }

  // Probe with no retries and a short timeout, so an unreachable RPC fails fast and clearly.
  const probe = createPublicClient({ transport: http(rpcUrl, { retryCount: 0, timeout: 5_000 }) });
  let chainId;
  try {
    chainId = await probe.getChainId();
  } catch (err) {
    throw new Error(`RPC unreachable at ${rpcUrl}: ${err.shortMessage ?? err.message}`);
  }

  const transport = http(rpcUrl, { retryCount: 1, timeout: 30_000 });
  const chain = {
    id: chainId,
    name: `devchain-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  const pub = createPublicClient({ chain, transport });
  const accounts = (await pub.request({ method: 'eth_accounts' })).map((a) => getAddress(a));
  if (accounts.length < 4) {
    throw new Error(`need 4 unlocked accounts on ${rpcUrl} (anvil has 10), got ${accounts.length}`);
  }
  const deployer = accounts[0];
  const wallet = createWalletClient({ chain, transport, account: deployer });

  const token = loadArtifact('SigilToken');
  const pairArt = loadArtifact('SigilPair');
  const walletArt = loadArtifact('ContractWallet');

  async function mined(hash, what) {
    const r = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (r.status !== 'success') throw new Error(`${what} reverted (tx ${hash})`);
    return r;
  }
  async function deployContract(art, args, what) {
    const hash = await wallet.deployContract({ abi: art.abi, bytecode: art.bytecode, args });
    const r = await mined(hash, `deploy ${what}`);
    log(`${what} at ${r.contractAddress}`);
    return getAddress(r.contractAddress);
  }
  async function send(address, abi, functionName, args, what) {
    const hash = await wallet.writeContract({ address, abi, functionName, args });
    await mined(hash, what);
  }

  log(`chain eip155:${chainId}, deployer ${deployer}`);
  const sgl = await deployContract(
    token,
    [SGL.name, SGL.symbol, SGL.decimals, parseUnits(SGL.supply, SGL.decimals)],
    'SGL',
  );
  const usdc = await deployContract(
    token,
    [USDC.name, USDC.symbol, USDC.decimals, parseUnits(USDC.supply, USDC.decimals)],
    'USDC',
  );
  const pair = await deployContract(pairArt, [sgl, usdc], 'SGL/USDC pair');
  await send(sgl, token.abi, 'transfer', [pair, parseUnits(PAIR_SEED.SGL, SGL.decimals)], 'seed SGL');
  await send(usdc, token.abi, 'transfer', [pair, parseUnits(PAIR_SEED.USDC, USDC.decimals)], 'seed USDC');
  await send(pair, pairArt.abi, 'sync', [], 'pair sync');
  const contractWallet = await deployContract(walletArt, [deployer], 'ContractWallet');
  for (const to of accounts.slice(1, 4)) {
    await send(sgl, token.abi, 'transfer', [to, parseUnits(GIFT_SGL, SGL.decimals)], `gift SGL to ${to}`);
  }

  const ens = await deployNames();
  const farcaster = await deployFarcaster();
  const usdt = await deployUsdt();
  const nfts = await deployNfts();
  const uniswapV2 = await deployUniswap();
  const accountNames = await deployAccountNames();
  const smartAccount = await deploySmartAccount();

  // The EIP-7702 account implementation, from its npm package's artifact (not compiled here).
  async function deploySmartAccount() {
    const art = loadPackageArtifact('@account-abstraction/contracts/artifacts/Simple7702Account.json');
    return { implementation: await deployContract(art, [], 'Simple7702Account') };
  }

  // Account names, deployed last: the offchain resolver for the zone and the reverse
  // namespaces, and the universal resolver clients call.
  async function deployAccountNames() {
    const registryArt = loadArtifact('NameRegistry');
    const offchainArt = loadArtifact('OffchainResolver');
    const universalArt = loadArtifact('UniversalResolver');
    const offchainResolver = await deployContract(offchainArt, [[namesGateway], [namesSigner]], 'OffchainResolver');
    const universalResolver = await deployContract(universalArt, [ens.registry], 'UniversalResolver');
    const own = (parent, label) =>
      send(ens.registry, registryArt.abi, 'setSubnodeOwner', [namehash(parent), labelhash(label), deployer], `own ${label}.${parent}`);
    const [zoneLabel, tld] = NAMES_ZONE.split('.');
    await own('', tld);
    await own(tld, zoneLabel);
    const reverseNamespace = (0x80000000 | chainId) >>> 0;
    await own('reverse', reverseNamespace.toString(16));
    for (const node of [NAMES_ZONE, 'addr.reverse', `${reverseNamespace.toString(16)}.reverse`]) {
      await send(ens.registry, registryArt.abi, 'setResolver', [namehash(node), offchainResolver], `offchain resolver of ${node}`);
    }
    return { universalResolver, offchainResolver, zone: NAMES_ZONE, signer: namesSigner, gateway: namesGateway };
  }

  // Uniswap V2 (GPL-3.0 test fixture, see the header): factory, WETH9, Router02, then the pools
  // through the router's addLiquidity(ETH), from account 0 with exact approvals.
  async function deployUniswap() {
    const factoryArt = loadPackageArtifact('@uniswap/v2-core/build/UniswapV2Factory.json');
    const wethArt = loadPackageArtifact('@uniswap/v2-periphery/build/WETH9.json');
    const routerArt = loadPackageArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json');
    const factory = await deployContract(factoryArt, [deployer], 'UniswapV2Factory');
    const weth = await deployContract(wethArt, [], 'WETH9');
    const router = await deployContract(routerArt, [factory, weth], 'UniswapV2Router02');
    const tokenOf = {
      SGL: { address: sgl, abi: token.abi, decimals: SGL.decimals },
      USDT: { address: usdt, abi: loadArtifact('NoReturnToken').abi, decimals: USDT.decimals },
    };
    const units = (symbol, amount) => parseUnits(amount, symbol === 'ETH' ? 18 : tokenOf[symbol].decimals);
    // Exact approvals: what the pools take, no more (USDT refuses to change a non-zero allowance).
    for (const symbol of Object.keys(tokenOf)) {
      const total = UNISWAP_POOLS.flatMap((p) => p.tokens.map((t, i) => (t === symbol ? units(symbol, p.amounts[i]) : 0n))).reduce((a, b) => a + b, 0n);
      await send(tokenOf[symbol].address, tokenOf[symbol].abi, 'approve', [router, total], `approve ${symbol} to the router`);
    }
    const pools = [];
    for (const pool of UNISWAP_POOLS) {
      const [a, b] = pool.tokens;
      const what = `pool ${a}/${b}`;
      let hash;
      if (a === 'ETH') {
        hash = await wallet.writeContract({
          address: router,
          abi: routerArt.abi,
          functionName: 'addLiquidityETH',
          args: [tokenOf[b].address, units(b, pool.amounts[1]), 0n, 0n, deployer, NO_DEADLINE],
          value: units('ETH', pool.amounts[0]),
        });
      } else {
        hash = await wallet.writeContract({
          address: router,
          abi: routerArt.abi,
          functionName: 'addLiquidity',
          args: [tokenOf[a].address, tokenOf[b].address, units(a, pool.amounts[0]), units(b, pool.amounts[1]), 0n, 0n, deployer, NO_DEADLINE],
        });
      }
      await mined(hash, what);
      const addressOf = (symbol) => (symbol === 'ETH' ? weth : tokenOf[symbol].address);
      const address = getAddress(
        await pub.readContract({ address: factory, abi: factoryArt.abi, functionName: 'getPair', args: [addressOf(a), addressOf(b)] }),
      );
      log(`${what} at ${address}`);
      pools.push({ address, tokens: [a, b], amounts: pool.amounts });
    }
    return { factory, weth, router, pools };
  }

  // USDT as mainnet has it: no bool from transfer/approve (see contracts/NoReturnToken.sol).
  async function deployUsdt() {
    const art = loadArtifact('NoReturnToken');
    const address = await deployContract(
      art,
      [USDT.name, USDT.symbol, USDT.decimals, parseUnits(USDT.supply, USDT.decimals)],
      'USDT',
    );
    for (const to of accounts.slice(1, 4)) {
      await send(address, art.abi, 'transfer', [to, parseUnits(GIFT_USDT, USDT.decimals)], `gift USDT to ${to}`);
    }
    return address;
  }

  // An ERC-721 with badges #1 and #2 and an ERC-1155 with 5 of item 1, all held by account 1.
  async function deployNfts() {
    const { badgeBaseUri, itemsUri } = metadataUris(metadataBase);
    const badgeArt = loadArtifact('SigilBadge');
    const itemsArt = loadArtifact('SigilItems');
    const badge = await deployContract(badgeArt, [badgeBaseUri], 'SigilBadge');
    for (let i = 1; i <= BADGES_TO_ACCOUNT_1; i++) {
      await send(badge, badgeArt.abi, 'mint', [accounts[1]], `badge #${i} to ${accounts[1]}`);
    }
    const items = await deployContract(itemsArt, [itemsUri], 'SigilItems');
    await send(items, itemsArt.abi, 'mint', [accounts[1], BigInt(ITEM.id), BigInt(ITEM.amount)], `item ${ITEM.id} x${ITEM.amount} to ${accounts[1]}`);
    const [name, symbol] = await Promise.all([
      pub.readContract({ address: badge, abi: badgeArt.abi, functionName: 'name' }),
      pub.readContract({ address: badge, abi: badgeArt.abi, functionName: 'symbol' }),
    ]);
    return {
      erc721: { address: badge, name, symbol, baseUri: badgeBaseUri },
      erc1155: { address: items, uri: itemsUri },
    };
  }

  // Farcaster: fid 1 is held by account 1 (alice), fid 2 by account 2 (bob).
  async function deployFarcaster() {
    const art = loadArtifact('FarcasterIdRegistry');
    const idRegistry = await deployContract(art, [], 'FarcasterIdRegistry');
    const fids = [
      { fid: 1, custody: accounts[1], username: 'alice' },
      { fid: 2, custody: accounts[2], username: 'bob' },
    ];
    for (const f of fids) await send(idRegistry, art.abi, 'register', [f.custody], `fid ${f.fid} for ${f.custody}`);
    return { idRegistry, fids };
  }

  async function deployNames() {
    const registryArt = loadArtifact('NameRegistry');
    const resolverArt = loadArtifact('NameResolver');
    const registry = await deployContract(registryArt, [], 'NameRegistry');
    const resolver = await deployContract(resolverArt, [registry], 'NameResolver');
    const own = (parent, label) =>
      send(registry, registryArt.abi, 'setSubnodeOwner', [namehash(parent), labelhash(label), deployer], `own ${label}.${parent}`);
    const setResolver = (name) => send(registry, registryArt.abi, 'setResolver', [namehash(name), resolver], `resolver of ${name}`);
    await own('', 'eth');
    await own('', 'reverse');
    await own('reverse', 'addr');
    const names = [
      { name: 'alice.eth', address: accounts[1], avatar: ALICE_AVATAR },
      { name: 'bob.eth', address: accounts[2], avatar: null },
    ];
    for (const n of names) {
      await own('eth', n.name.split('.')[0]);
      await setResolver(n.name);
      await send(resolver, resolverArt.abi, 'setAddr', [namehash(n.name), n.address], `addr of ${n.name}`);
      if (n.avatar) await send(resolver, resolverArt.abi, 'setText', [namehash(n.name), 'avatar', n.avatar], `avatar of ${n.name}`);
    }
    // Reverse records: <address hex>.addr.reverse -> name. Account 3 claims a name it does not own.
    const reverse = [...names.map((n) => [n.address, n.name]), [accounts[3], 'alice.eth']];
    for (const [address, name] of reverse) {
      const label = address.slice(2).toLowerCase();
      await own('addr.reverse', label);
      await setResolver(`${label}.addr.reverse`);
      await send(resolver, resolverArt.abi, 'setName', [namehash(`${label}.addr.reverse`), name], `reverse name of ${address}`);
    }
    return { registry, resolver, names, unverified: [{ address: accounts[3], claims: 'alice.eth' }] };
  }

  const [token0, token1] = await Promise.all([
    pub.readContract({ address: pair, abi: pairArt.abi, functionName: 'token0' }),
    pub.readContract({ address: pair, abi: pairArt.abi, functionName: 'token1' }),
  ]);

  return {
    chainId: `eip155:${chainId}`,
    rpcUrl,
    deployer,
    tokens: [
      { address: sgl, symbol: SGL.symbol, name: SGL.name, decimals: SGL.decimals },
      { address: usdc, symbol: USDC.symbol, name: USDC.name, decimals: USDC.decimals },
      { address: usdt, symbol: USDT.symbol, name: USDT.name, decimals: USDT.decimals, noReturn: true },
    ],
    pairs: [
      { address: pair, base: 'SGL', quote: 'USDC', token0: getAddress(token0), token1: getAddress(token1) },
    ],
    contractWallet: { address: contractWallet, owner: deployer },
    ens,
    farcaster,
    nfts,
    uniswapV2,
    names: accountNames,
    smartAccount,
  };
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`deploy: ${err.message}`);
    process.exit(2);
  }
  if (args.help || !args.rpc) {
    console.error(
      'usage: node devchain/deploy.mjs --rpc http://127.0.0.1:PORT [--out FILE.json] [--metadata-base URL] [--names-gateway URL] [--names-signer-key HEX]',
    );
    process.exit(args.help ? 0 : 2);
  }
  try {
    const result = await deploy({
      rpcUrl: args.rpc,
      metadataBase: args.metadataBase,
      namesGateway: args.namesGateway,
      namesSignerKey: args.namesSignerKey,
    });
    const text = `${JSON.stringify(result, null, 2)}\n`;
    if (args.out) {
      const out = resolve(args.out);
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, text);
      log(`wrote ${out}`);
    }
    process.stdout.write(text);
  } catch (err) {
    console.error(`deploy failed: ${err.message}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
