// SPDX-License-Identifier: Apache-2.0
// End-to-end test of the dev chain: starts a real anvil (npm @foundry-rs/anvil) on a free
// port, runs `node deploy.mjs` against it and checks the deployed state with real calls.
// Run with `npm test` in devchain/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPublicClient,
  createWalletClient,
  http,
  hashMessage,
  keccak256,
  toHex,
  parseUnits,
  getAddress,
  namehash,
  labelhash,
  zeroAddress,
  encodeFunctionData,
  decodeEventLog,
  decodeErrorResult,
  decodeFunctionData,
  encodeAbiParameters,
  encodePacked,
  parseAbi,
} from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { compile, loadArtifact, CONTRACT_NAMES } from './build.mjs';
import {
  metadataUris,
  loadPackageArtifact,
  UNISWAP_POOLS,
  NAMES_ZONE,
  DEFAULT_NAMES_GATEWAY,
  DEV_NAMES_SIGNER_KEY,
} from './deploy.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const MAGIC = '0x1626ba7e';
const INVALID = '0xffffffff';
// Anvil's default dev accounts come from this public test mnemonic.
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

function anvilBinary() {
  if (process.env.ANVIL) return process.env.ANVIL;
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const candidates = [
    join(here, 'node_modules', '@foundry-rs', `anvil-${process.platform}-${arch}`, 'bin', 'anvil'),
    join(here, 'node_modules', '.bin', 'anvil'),
  ];
  const found = candidates.find((p) => existsSync(p));
  if (found) return found;
  // Other platforms: the npm binary is linux-x64 only here; use an anvil on PATH if any.
  const onPath = (process.env.PATH ?? '').split(delimiter).map((d) => join(d, 'anvil')).find((p) => existsSync(p));
  if (onPath) return onPath;
  throw new Error(`anvil not found (run npm ci in devchain/, or set ANVIL); looked in ${candidates.join(', ')} and PATH`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function rpc(url, method, params = []) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

let anvil;
let anvilExited = false;
let rpcUrl;
let tmp;
let deployed;
let pub;
let accounts;

async function startAnvil() {
  const bin = anvilBinary();
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(bin, ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '31337', '--hardfork', 'prague', '--silent', '--max-persisted-states', '0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let exited = false;
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', () => {
      exited = true;
      anvilExited = true;
    });
    const deadline = Date.now() + 10_000;
    while (!exited && Date.now() < deadline) {
      try {
        if ((await rpc(url, 'eth_chainId')) === '0x7a69') {
          anvilExited = false;
          return { child, url };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    if (!exited) child.kill('SIGKILL');
    if (attempt === 3) throw new Error(`anvil did not start on ${url}: ${stderr.trim() || 'timeout'}`);
  }
}

function stopAnvil() {
  if (!anvil || anvilExited) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(() => anvil.kill('SIGKILL'), 3_000);
    anvil.once('exit', () => {
      clearTimeout(t);
      resolve();
    });
    anvil.kill('SIGTERM');
  });
}

function runDeploy(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(here, 'deploy.mjs'), ...args], { timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (err.code ?? 1) : 0, stdout, stderr });
    });
  });
}

// If the test process is interrupted, do not leave anvil behind.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    if (anvil && !anvilExited) anvil.kill('SIGKILL');
    process.exit(130);
  });
}

before(async () => {
  ({ child: anvil, url: rpcUrl } = await startAnvil());
  tmp = mkdtempSync(join(tmpdir(), 'sigil-devchain-'));
  const out = join(tmp, 'devchain.json');
  const r = await runDeploy(['--rpc', rpcUrl, '--out', out]);
  assert.equal(r.code, 0, `deploy failed:\n${r.stderr}`);
  deployed = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(JSON.parse(r.stdout), deployed, 'stdout and --out file carry the same JSON');
  pub = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  accounts = (await rpc(rpcUrl, 'eth_accounts')).map((a) => getAddress(a));
});

after(async () => {
  await stopAnvil();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const token = () => loadArtifact('SigilToken');
const pairArt = () => loadArtifact('SigilPair');
const walletArt = () => loadArtifact('ContractWallet');
const sym = (s) => deployed.tokens.find((t) => t.symbol === s);
const read = (address, abi, functionName, args = []) => pub.readContract({ address, abi, functionName, args });

test('output JSON has the documented shape', () => {
  assert.equal(deployed.chainId, 'eip155:31337');
  assert.equal(deployed.rpcUrl, rpcUrl);
  assert.equal(deployed.deployer, accounts[0]);
  assert.deepEqual(
    deployed.tokens.map((t) => [t.symbol, t.decimals]),
    [['SGL', 18], ['USDC', 6], ['USDT', 6]],
  );
  assert.deepEqual(
    deployed.tokens.map((t) => t.noReturn),
    [undefined, undefined, true],
    'only USDT is marked as returning no bool',
  );
  assert.equal(sym('USDT').name, 'Tether USD (test)');
  const { erc721, erc1155 } = deployed.nfts;
  assert.deepEqual(Object.keys(erc721), ['address', 'name', 'symbol', 'baseUri']);
  assert.deepEqual(Object.keys(erc1155), ['address', 'uri']);
  assert.equal(erc721.address, getAddress(erc721.address));
  assert.equal(erc1155.address, getAddress(erc1155.address));
  assert.deepEqual([erc721.name, erc721.symbol], ['Sigil Badge', 'SBG']);
  assert.equal(erc721.baseUri, 'ipfs://sigil-dev/badge/', 'the default metadata base');
  assert.equal(erc1155.uri, 'ipfs://sigil-dev/items/{id}.json');
  for (const t of deployed.tokens) {
    assert.equal(t.address, getAddress(t.address), 'checksummed address');
    assert.equal(typeof t.name, 'string');
  }
  assert.equal(deployed.pairs.length, 1);
  const p = deployed.pairs[0];
  assert.equal(p.base, 'SGL');
  assert.equal(p.quote, 'USDC');
  assert.deepEqual(
    [p.token0, p.token1].sort(),
    [sym('SGL').address, sym('USDC').address].sort(),
  );
  assert.deepEqual(deployed.contractWallet.owner, accounts[0]);
  assert.deepEqual(Object.keys(deployed.smartAccount), ['implementation']);
});

test('tokens: metadata and balances on chain', async () => {
  const abi = token().abi;
  const sgl = sym('SGL').address;
  const usdc = sym('USDC').address;
  assert.equal(await read(sgl, abi, 'symbol'), 'SGL');
  assert.equal(await read(sgl, abi, 'decimals'), 18);
  assert.equal(await read(sgl, abi, 'totalSupply'), 1_000_000n * 10n ** 18n);
  assert.equal(await read(usdc, abi, 'symbol'), 'USDC');
  assert.equal(await read(usdc, abi, 'decimals'), 6);
  assert.equal(await read(usdc, abi, 'totalSupply'), 1_000_000n * 10n ** 6n);

  for (const a of accounts.slice(1, 4)) {
    assert.equal(await read(sgl, abi, 'balanceOf', [a]), 1000n * 10n ** 18n, `SGL of ${a}`);
    assert.equal(await read(usdc, abi, 'balanceOf', [a]), 0n);
  }
  assert.equal(await read(sgl, abi, 'balanceOf', [accounts[4]]), 0n);
  // deployer: supply - 10,000 (pair) - 3 x 1,000 (gifts) - 2 x 10,000 (Uniswap pools)
  assert.equal(await read(sgl, abi, 'balanceOf', [accounts[0]]), (1_000_000n - 33_000n) * 10n ** 18n);
  assert.equal(await read(usdc, abi, 'balanceOf', [accounts[0]]), (1_000_000n - 25_000n) * 10n ** 6n);
});

test('tokens: approve / transferFrom and Transfer events', async () => {
  const abi = token().abi;
  const sgl = sym('SGL').address;
  const [owner, spender, to] = [accounts[1], accounts[2], accounts[5]];
  const w = (account) => createWalletClient({ transport: http(rpcUrl), account, chain: null });
  const wait = async (hash) => {
    const r = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    assert.equal(r.status, 'success');
    return r;
  };
  await wait(await w(owner).writeContract({ address: sgl, abi, functionName: 'approve', args: [spender, 5n] }));
  assert.equal(await read(sgl, abi, 'allowance', [owner, spender]), 5n);
  const r = await wait(
    await w(spender).writeContract({ address: sgl, abi, functionName: 'transferFrom', args: [owner, to, 3n] }),
  );
  assert.equal(await read(sgl, abi, 'allowance', [owner, spender]), 2n);
  assert.equal(await read(sgl, abi, 'balanceOf', [to]), 3n);
  // Transfer(address indexed from, address indexed to, uint256 value)
  const topic = keccak256(toHex('Transfer(address,address,uint256)'));
  const log = r.logs.find((l) => l.topics[0] === topic);
  assert.ok(log, 'Transfer event emitted');
  assert.equal(BigInt(log.data), 3n);
  // more than the allowance reverts
  await assert.rejects(
    pub.simulateContract({ address: sgl, abi, functionName: 'transferFrom', args: [owner, to, 3n], account: spender }),
    /allowance/,
  );
  // give the 3 wei back so account 1 keeps exactly 1,000 SGL
  await wait(await w(to).writeContract({ address: sgl, abi, functionName: 'transfer', args: [owner, 3n] }));
  assert.equal(await read(sgl, abi, 'balanceOf', [owner]), 1000n * 10n ** 18n);
});

test('pair: token0 < token1, reserves as seeded, price 2.5 USDC per SGL', async () => {
  const abi = pairArt().abi;
  const p = deployed.pairs[0];
  const token0 = getAddress(await read(p.address, abi, 'token0'));
  const token1 = getAddress(await read(p.address, abi, 'token1'));
  assert.equal(token0, p.token0);
  assert.equal(token1, p.token1);
  assert.ok(BigInt(token0) < BigInt(token1), 'token0 sorts below token1');

  const [r0, r1, ts] = await read(p.address, abi, 'getReserves');
  const seeded = { [sym('SGL').address]: 10_000n * 10n ** 18n, [sym('USDC').address]: 25_000n * 10n ** 6n };
  assert.equal(r0, seeded[token0]);
  assert.equal(r1, seeded[token1]);
  assert.ok(ts > 0, 'blockTimestampLast set by sync');

  // What the price source computes: quote per base, scaled by decimals.
  const sglIs0 = token0 === sym('SGL').address;
  const [rBase, rQuote] = sglIs0 ? [r0, r1] : [r1, r0];
  const priceCents = (rQuote * 10n ** 18n * 100n) / (rBase * 10n ** 6n);
  assert.equal(priceCents, 250n);
  assert.equal(Number(rQuote) / 1e6 / (Number(rBase) / 1e18), 2.5);
});

test('pair: sync() picks up new balances', async () => {
  const p = deployed.pairs[0];
  const w = createWalletClient({ transport: http(rpcUrl), account: accounts[0], chain: null });
  const wait = (hash) => pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  const usdc = sym('USDC').address;
  await wait(await w.writeContract({ address: usdc, abi: token().abi, functionName: 'transfer', args: [p.address, 25_000n * 10n ** 6n] }));
  const before = await read(p.address, pairArt().abi, 'getReserves');
  await wait(await w.writeContract({ address: p.address, abi: pairArt().abi, functionName: 'sync' }));
  const after = await read(p.address, pairArt().abi, 'getReserves');
  const usdcIdx = p.token0 === usdc ? 0 : 1;
  assert.equal(after[usdcIdx], before[usdcIdx] + 25_000n * 10n ** 6n);
  assert.equal(after[1 - usdcIdx], before[1 - usdcIdx]);
});

test('ContractWallet: EIP-1271 isValidSignature', async () => {
  const abi = walletArt().abi;
  const cw = deployed.contractWallet.address;
  assert.equal(getAddress(await read(cw, abi, 'owner')), accounts[0]);
  const check = (hash, sig) => read(cw, abi, 'isValidSignature', [hash, sig]);

  // Sign-in flow: the wallet personal_signs a message; the verifier hashes it per EIP-191.
  const message = 'sigil.test wants you to sign in with your Ethereum account';
  const hash = hashMessage(message);
  const sigOwner = await rpc(rpcUrl, 'personal_sign', [toHex(message), accounts[0]]);
  assert.equal(await check(hash, sigOwner), MAGIC);

  const sigOther = await rpc(rpcUrl, 'personal_sign', [toHex(message), accounts[1]]);
  assert.equal(await check(hash, sigOther), INVALID);

  // Raw hash signed with account 0's key (no prefix), and with account 1's key.
  const raw = keccak256(toHex('sigil raw hash'));
  const key0 = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 });
  const key1 = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 });
  assert.equal(key0.address, accounts[0]);
  assert.equal(await check(raw, await key0.sign({ hash: raw })), MAGIC);
  assert.equal(await check(raw, await key1.sign({ hash: raw })), INVALID);

  // Wrong hash, wrong length, garbage.
  assert.equal(await check(keccak256(toHex('other')), sigOwner), INVALID);
  assert.equal(await check(hash, sigOwner.slice(0, -2)), INVALID);
  assert.equal(await check(hash, '0x'), INVALID);
  assert.equal(await check(hash, `0x${'11'.repeat(65)}`), INVALID);
});

test('names: reverse and forward records, avatar, and only owners may write', async () => {
  const { registry, resolver, names, unverified } = deployed.ens;
  const reg = loadArtifact('NameRegistry').abi;
  const res = loadArtifact('NameResolver').abi;
  const reverseName = async (address) => {
    const node = namehash(`${address.slice(2).toLowerCase()}.addr.reverse`);
    const at = await read(registry, reg, 'resolver', [node]);
    return read(at, res, 'name', [node]);
  };
  assert.deepEqual(names.map((n) => [n.name, n.address]), [['alice.eth', accounts[1]], ['bob.eth', accounts[2]]]);
  for (const n of names) {
    assert.equal(await reverseName(n.address), n.name);
    assert.equal(getAddress(await read(resolver, res, 'addr', [namehash(n.name)])), n.address);
    assert.equal(await read(resolver, res, 'text', [namehash(n.name), 'avatar']), n.avatar ?? '');
  }
  // Account 3 claims alice.eth, which points at account 1: a verifier must not accept it.
  assert.equal(await reverseName(unverified[0].address), 'alice.eth');
  assert.equal(getAddress(await read(resolver, res, 'addr', [namehash('alice.eth')])), accounts[1]);
  // No reverse record for account 0; nobody but the node's owner can set records.
  assert.equal(await read(registry, reg, 'resolver', [namehash(`${accounts[0].slice(2).toLowerCase()}.addr.reverse`)]), zeroAddress);
  const asOther = (address, abi, functionName, args) => pub.simulateContract({ address, abi, functionName, args, account: accounts[4] });
  await assert.rejects(asOther(resolver, res, 'setName', [namehash('alice.eth'), 'mallory.eth']), /not the node's owner/);
  await assert.rejects(asOther(registry, reg, 'setSubnodeOwner', [namehash('eth'), labelhash('mallory'), accounts[4]]), /not the node's owner/);
  assert.equal(await read(resolver, res, 'supportsInterface', ['0x691f3431']), true);
});

test('farcaster: custody addresses by fid and fids by address; only the owner registers', async () => {
  const { idRegistry, fids } = deployed.farcaster;
  const abi = loadArtifact('FarcasterIdRegistry').abi;
  assert.deepEqual(fids.map((f) => [f.fid, f.custody]), [[1, accounts[1]], [2, accounts[2]]]);
  for (const f of fids) {
    assert.equal(getAddress(await read(idRegistry, abi, 'custodyOf', [BigInt(f.fid)])), f.custody);
    assert.equal(await read(idRegistry, abi, 'idOf', [f.custody]), BigInt(f.fid));
  }
  assert.equal(await read(idRegistry, abi, 'custodyOf', [3n]), zeroAddress);
  assert.equal(await read(idRegistry, abi, 'idCounter', []), 2n);
  await assert.rejects(
    pub.simulateContract({ address: idRegistry, abi, functionName: 'register', args: [accounts[4]], account: accounts[4] }),
    /only the owner registers/,
  );
});

const as = (account) => createWalletClient({ transport: http(rpcUrl), account, chain: null });
async function mined(hash) {
  const r = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  assert.equal(r.status, 'success', `tx ${hash}`);
  return r;
}
/** The revert reason of `functionName` called by `account` (simulated, nothing sent). */
const revertOf = (address, abi, functionName, args, account) =>
  pub.simulateContract({ address, abi, functionName, args, account }).then(
    () => assert.fail(`${functionName} did not revert`),
    (err) => err.shortMessage ?? err.message,
  );

test('USDT: metadata, supply and gifts; transfer and approve return no data', async () => {
  const abi = loadArtifact('NoReturnToken').abi;
  const usdt = sym('USDT').address;
  assert.equal(await read(usdt, abi, 'name'), 'Tether USD (test)');
  assert.equal(await read(usdt, abi, 'symbol'), 'USDT');
  assert.equal(await read(usdt, abi, 'decimals'), 6);
  assert.equal(await read(usdt, abi, 'totalSupply'), 1_000_000n * 10n ** 6n);
  for (const a of accounts.slice(1, 4)) assert.equal(await read(usdt, abi, 'balanceOf', [a]), 1000n * 10n ** 6n, `USDT of ${a}`);
  // supply - 3 x 1,000 (gifts) - 2 x 25,000 (Uniswap pools)
  assert.equal(await read(usdt, abi, 'balanceOf', [accounts[0]]), 947_000n * 10n ** 6n);
  for (const fn of ['transfer', 'transferFrom', 'approve']) {
    assert.deepEqual(abi.find((f) => f.name === fn).outputs, [], `${fn} declares no return value`);
  }

  // A raw transfer (selector 0xa9059cbb) answers with empty return data, and works when sent.
  const [from, to] = [accounts[1], accounts[6]];
  const data = encodeFunctionData({ abi, functionName: 'transfer', args: [to, 7n] });
  assert.equal(data.slice(0, 10), '0xa9059cbb');
  assert.equal(await rpc(rpcUrl, 'eth_call', [{ from, to: usdt, data }, 'latest']), '0x');
  const r = await mined(await rpc(rpcUrl, 'eth_sendTransaction', [{ from, to: usdt, data }]));
  assert.equal(await read(usdt, abi, 'balanceOf', [to]), 7n);
  const ev = decodeEventLog({ abi, ...r.logs[0] });
  assert.deepEqual([ev.eventName, ev.args.from, ev.args.to, ev.args.value], ['Transfer', from, to, 7n]);
  // An overdrawn transfer reverts: a caller cannot rely on a `false`.
  await assert.rejects(rpc(rpcUrl, 'eth_call', [{ from: to, to: usdt, data: encodeFunctionData({ abi, functionName: 'transfer', args: [from, 8n] }) }, 'latest']), /NoReturnToken: balance/);

  // A client with the standard bool-returning ABI: simulating fails to decode the empty result,
  // while sending (no decoding) goes through.
  const boolAbi = token().abi;
  const err = await pub.simulateContract({ address: usdt, abi: boolAbi, functionName: 'transfer', args: [from, 7n], account: to }).catch((e) => e);
  assert.ok(err instanceof Error, 'simulateContract with a bool ABI throws');
  assert.match(err.shortMessage, /returned no data \("0x"\)/);
  await mined(await as(to).writeContract({ address: usdt, abi: boolAbi, functionName: 'transfer', args: [from, 7n] }));
  assert.equal(await read(usdt, abi, 'balanceOf', [from]), 1000n * 10n ** 6n);
  assert.equal(await read(usdt, abi, 'balanceOf', [to]), 0n);
});

test('USDT: approve from non-zero to non-zero reverts; via 0 it works; transferFrom', async () => {
  const abi = loadArtifact('NoReturnToken').abi;
  const usdt = sym('USDT').address;
  const [owner, spender, to] = [accounts[2], accounts[3], accounts[7]];
  await mined(await as(owner).writeContract({ address: usdt, abi, functionName: 'approve', args: [spender, 5n] }));
  assert.equal(await read(usdt, abi, 'allowance', [owner, spender]), 5n);
  assert.match(await revertOf(usdt, abi, 'approve', [spender, 9n], owner), /reset allowance to 0 first/);
  const approveData = encodeFunctionData({ abi, functionName: 'approve', args: [spender, 0n] });
  assert.equal(await rpc(rpcUrl, 'eth_call', [{ from: owner, to: usdt, data: approveData }, 'latest']), '0x');
  await mined(await as(owner).writeContract({ address: usdt, abi, functionName: 'approve', args: [spender, 0n] }));
  await mined(await as(owner).writeContract({ address: usdt, abi, functionName: 'approve', args: [spender, 9n] }));
  assert.equal(await read(usdt, abi, 'allowance', [owner, spender]), 9n);
  await mined(await as(spender).writeContract({ address: usdt, abi, functionName: 'transferFrom', args: [owner, to, 4n] }));
  assert.equal(await read(usdt, abi, 'allowance', [owner, spender]), 5n);
  assert.match(await revertOf(usdt, abi, 'transferFrom', [owner, to, 6n], spender), /NoReturnToken: allowance/);
  await mined(await as(to).writeContract({ address: usdt, abi, functionName: 'transfer', args: [owner, 4n] }));
  await mined(await as(owner).writeContract({ address: usdt, abi, functionName: 'approve', args: [spender, 0n] }));
  assert.equal(await read(usdt, abi, 'balanceOf', [owner]), 1000n * 10n ** 6n);
});

test('badge (ERC-721): interfaces, deployed badges, mint, tokenURI, approvals and transfers', async () => {
  const abi = loadArtifact('SigilBadge').abi;
  const { address: badge, baseUri } = deployed.nfts.erc721;
  for (const id of ['0x01ffc9a7', '0x80ac58cd', '0x5b5e139f']) assert.equal(await read(badge, abi, 'supportsInterface', [id]), true, id);
  assert.equal(await read(badge, abi, 'supportsInterface', ['0xd9b67a26']), false);
  assert.equal(await read(badge, abi, 'name'), 'Sigil Badge');
  assert.equal(await read(badge, abi, 'symbol'), 'SBG');
  assert.equal(await read(badge, abi, 'baseURI'), baseUri);
  // Badges #1 and #2 belong to account 1.
  assert.equal(await read(badge, abi, 'balanceOf', [accounts[1]]), 2n);
  for (const id of [1n, 2n]) {
    assert.equal(await read(badge, abi, 'ownerOf', [id]), accounts[1]);
    assert.equal(await read(badge, abi, 'tokenURI', [id]), `${baseUri}${id}`);
  }
  await assert.rejects(read(badge, abi, 'ownerOf', [3n]), /no such token/);
  await assert.rejects(read(badge, abi, 'tokenURI', [3n]), /no such token/);

  // Anyone mints the next id; tokenURI writes ids in decimal (up to two digits here).
  const [minter, holder, other] = [accounts[4], accounts[5], accounts[6]];
  const sim = await pub.simulateContract({ address: badge, abi, functionName: 'mint', args: [minter], account: minter });
  assert.equal(sim.result, 3n);
  const r = await mined(await as(minter).writeContract(sim.request));
  const ev = decodeEventLog({ abi, ...r.logs[0] });
  assert.deepEqual([ev.eventName, ev.args.from, ev.args.to, ev.args.tokenId], ['Transfer', zeroAddress, minter, 3n]);
  for (let id = 4; id <= 10; id++) await mined(await as(minter).writeContract({ address: badge, abi, functionName: 'mint', args: [minter] }));
  assert.equal(await read(badge, abi, 'totalSupply'), 10n);
  assert.equal(await read(badge, abi, 'tokenURI', [10n]), `${baseUri}10`);
  assert.equal(await read(badge, abi, 'balanceOf', [minter]), 8n);

  // safeTransferFrom (3 args) to an EOA; only owner, approved or operator may move a badge.
  assert.match(await revertOf(badge, abi, 'safeTransferFrom', [minter, holder, 3n], other), /not owner, approved or operator/);
  await mined(await as(minter).writeContract({ address: badge, abi, functionName: 'safeTransferFrom', args: [minter, holder, 3n] }));
  assert.equal(await read(badge, abi, 'ownerOf', [3n]), holder);
  // approve then safeTransferFrom (4 args, with data) by the approved account; approval cleared.
  await mined(await as(minter).writeContract({ address: badge, abi, functionName: 'approve', args: [other, 4n] }));
  assert.equal(await read(badge, abi, 'getApproved', [4n]), other);
  await mined(await as(other).writeContract({ address: badge, abi, functionName: 'safeTransferFrom', args: [minter, holder, 4n, '0x1234'] }));
  assert.equal(await read(badge, abi, 'ownerOf', [4n]), holder);
  assert.equal(await read(badge, abi, 'getApproved', [4n]), zeroAddress);
  // an operator for all of holder's badges; transferFrom back
  await mined(await as(holder).writeContract({ address: badge, abi, functionName: 'setApprovalForAll', args: [other, true] }));
  assert.equal(await read(badge, abi, 'isApprovedForAll', [holder, other]), true);
  await mined(await as(other).writeContract({ address: badge, abi, functionName: 'transferFrom', args: [holder, minter, 3n] }));
  assert.equal(await read(badge, abi, 'ownerOf', [3n]), minter);
  assert.equal(await read(badge, abi, 'balanceOf', [holder]), 1n);

  // A contract without onERC721Received cannot receive by safeTransferFrom (plain transferFrom can).
  const notReceiver = sym('SGL').address;
  assert.match(await revertOf(badge, abi, 'safeTransferFrom', [minter, notReceiver, 5n], minter), /not an ERC-721 receiver/);
  assert.match(await revertOf(badge, abi, 'safeTransferFrom', [minter, notReceiver, 5n, '0x'], minter), /not an ERC-721 receiver/);
  assert.match(await revertOf(badge, abi, 'transferFrom', [minter, zeroAddress, 5n], minter), /zero address/);
  assert.match(await revertOf(badge, abi, 'transferFrom', [holder, minter, 5n], minter), /from is not the owner/);
});

test('items (ERC-1155): interfaces, deployed item, uri, mint, balances and transfers', async () => {
  const abi = loadArtifact('SigilItems').abi;
  const { address: items, uri } = deployed.nfts.erc1155;
  for (const id of ['0x01ffc9a7', '0xd9b67a26', '0x0e89341c']) assert.equal(await read(items, abi, 'supportsInterface', [id]), true, id);
  assert.equal(await read(items, abi, 'supportsInterface', ['0x80ac58cd']), false);
  assert.equal(await read(items, abi, 'uri', [1n]), uri);
  assert.ok(uri.includes('{id}'));
  // Item 1 x5 belongs to account 1.
  assert.equal(await read(items, abi, 'balanceOf', [accounts[1], 1n]), 5n);
  assert.equal(await read(items, abi, 'balanceOf', [accounts[2], 1n]), 0n);

  const [owner, to, operator] = [accounts[1], accounts[8], accounts[9]];
  // safeTransferFrom with an amount: 2 of item 1 to an EOA
  const r = await mined(await as(owner).writeContract({ address: items, abi, functionName: 'safeTransferFrom', args: [owner, to, 1n, 2n, '0x'] }));
  const ev = decodeEventLog({ abi, ...r.logs[0] });
  assert.deepEqual([ev.eventName, ev.args.operator, ev.args.from, ev.args.to, ev.args.id, ev.args.value], ['TransferSingle', owner, owner, to, 1n, 2n]);
  assert.deepEqual(await read(items, abi, 'balanceOfBatch', [[owner, to, operator], [1n, 1n, 1n]]), [3n, 2n, 0n]);
  assert.match(await revertOf(items, abi, 'safeTransferFrom', [to, owner, 1n, 3n, '0x'], to), /SigilItems: balance/);
  assert.match(await revertOf(items, abi, 'safeTransferFrom', [to, owner, 1n, 1n, '0x'], operator), /not owner or operator/);

  // mint by anyone; a batch moved by an operator
  await mined(await as(to).writeContract({ address: items, abi, functionName: 'mint', args: [to, 7n, 10n] }));
  await mined(await as(to).writeContract({ address: items, abi, functionName: 'setApprovalForAll', args: [operator, true] }));
  assert.equal(await read(items, abi, 'isApprovedForAll', [to, operator]), true);
  const rb = await mined(
    await as(operator).writeContract({ address: items, abi, functionName: 'safeBatchTransferFrom', args: [to, owner, [1n, 7n], [2n, 4n], '0x'] }),
  );
  const evb = decodeEventLog({ abi, ...rb.logs[0] });
  assert.deepEqual([evb.eventName, evb.args.operator, evb.args.ids, evb.args.values], ['TransferBatch', operator, [1n, 7n], [2n, 4n]]);
  assert.deepEqual(await read(items, abi, 'balanceOfBatch', [[owner, owner, to, to], [1n, 7n, 1n, 7n]]), [5n, 4n, 0n, 6n]);

  // A contract without the receiver hooks cannot receive, by transfer or by mint.
  const notReceiver = sym('SGL').address;
  assert.match(await revertOf(items, abi, 'safeTransferFrom', [owner, notReceiver, 1n, 1n, '0x'], owner), /not an ERC-1155 receiver/);
  assert.match(await revertOf(items, abi, 'safeBatchTransferFrom', [owner, notReceiver, [1n], [1n], '0x'], owner), /not an ERC-1155 receiver/);
  assert.match(await revertOf(items, abi, 'mint', [notReceiver, 1n, 1n], owner), /not an ERC-1155 receiver/);
  // give account 1 back exactly 5 of item 1 and nothing else
  await mined(await as(owner).writeContract({ address: items, abi, functionName: 'safeTransferFrom', args: [owner, to, 7n, 4n, '0x'] }));
  assert.equal(await read(items, abi, 'balanceOf', [owner, 1n]), 5n);
});

test('metadata URIs come from --metadata-base', async () => {
  assert.deepEqual(metadataUris(), { badgeBaseUri: 'ipfs://sigil-dev/badge/', itemsUri: 'ipfs://sigil-dev/items/{id}.json' });
  assert.deepEqual(metadataUris('http://127.0.0.1:8080/v1/dev-metadata/'), {
    badgeBaseUri: 'http://127.0.0.1:8080/v1/dev-metadata/badge/',
    itemsUri: 'http://127.0.0.1:8080/v1/dev-metadata/items/{id}.json',
  });
  const r = await runDeploy(['--rpc', rpcUrl, '--metadata-base', 'not a url']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--metadata-base 'not a url' is not a URL/);
});

test('deploy fails clearly when the RPC is unreachable', async () => {
  const port = await freePort();
  const r = await runDeploy(['--rpc', `http://127.0.0.1:${port}`, '--out', join(tmp, 'never.json')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /RPC unreachable at http:\/\/127\.0\.0\.1:\d+/);
  assert.equal(existsSync(join(tmp, 'never.json')), false);
});

test('build is deterministic: recompiling gives the files in build/', () => {
  const fresh = compile();
  for (const name of CONTRACT_NAMES) {
    assert.deepEqual(fresh[name], loadArtifact(name), name);
  }
});

test('Uniswap V2: factory, WETH9 and router from the npm artifacts; pools as seeded; quotes and swaps', async () => {
  const { factory, weth, router, pools } = deployed.uniswapV2;
  for (const a of [factory, weth, router]) assert.equal(a, getAddress(a));
  const routerAbi = loadPackageArtifact('@uniswap/v2-periphery/build/UniswapV2Router02.json').abi;
  const pairAbi = loadPackageArtifact('@uniswap/v2-core/build/UniswapV2Pair.json').abi;
  assert.equal(getAddress(await read(router, routerAbi, 'WETH')), weth);
  assert.equal(getAddress(await read(router, routerAbi, 'factory')), factory);
  assert.deepEqual(pools.map((p) => p.tokens), UNISWAP_POOLS.map((p) => p.tokens));
  const addressOf = (symbol) => (symbol === 'ETH' ? weth : sym(symbol).address);
  const decimalsOf = (symbol) => (symbol === 'ETH' ? 18 : sym(symbol).decimals);
  for (const p of pools) {
    const [r0, r1] = await read(p.address, pairAbi, 'getReserves');
    const token0 = getAddress(await read(p.address, pairAbi, 'token0'));
    const [a, b] = p.tokens;
    const [ra, rb] = token0 === addressOf(a) ? [r0, r1] : [r1, r0];
    assert.equal(ra, parseUnits(p.amounts[0], decimalsOf(a)), `${a} in ${a}/${b}`);
    assert.equal(rb, parseUnits(p.amounts[1], decimalsOf(b)), `${b} in ${a}/${b}`);
  }
  // The deployer's approvals were exact: nothing is left allowed to the router.
  assert.equal(await read(sym('SGL').address, token().abi, 'allowance', [accounts[0], router]), 0n);
  assert.equal(await read(sym('USDT').address, loadArtifact('NoReturnToken').abi, 'allowance', [accounts[0], router]), 0n);

  // 1 ETH buys a little under 1,000 SGL / 11 (10 ETH : 10,000 SGL, 0.3 % fee): 906.6 SGL.
  const oneEth = 10n ** 18n;
  const [, out] = await read(router, routerAbi, 'getAmountsOut', [oneEth, [weth, sym('SGL').address]]);
  assert.equal(out, (oneEth * 997n * 10_000n * 10n ** 18n) / (10n * oneEth * 1000n + oneEth * 997n));
  // ...and swapping it from account 4 gives exactly that.
  const buyer = accounts[9];
  const before = await read(sym('SGL').address, token().abi, 'balanceOf', [buyer]);
  await mined(
    await as(buyer).writeContract({
      address: router,
      abi: routerAbi,
      functionName: 'swapExactETHForTokens',
      args: [out, [weth, sym('SGL').address], buyer, 4102444800n],
      value: oneEth,
      // The node's estimate is made in the last block's time: when the swap lands in a later
      // second it also writes the pool's price accumulators and runs out of that gas.
      gas: 300_000n,
    }),
  );
  assert.equal((await read(sym('SGL').address, token().abi, 'balanceOf', [buyer])) - before, out);
});

// The revert data of an eth_call that reverts (the call made straight on the node).
async function revertData(to, data) {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to, data }, 'latest'] }),
  });
  const body = await res.json();
  assert.ok(body.error, `expected a revert, got ${JSON.stringify(body)}`);
  return body.error.data;
}

// A dotted name in DNS wire format, hex.
function dnsEncode(name) {
  const bytes = [];
  for (const label of name.split('.')) {
    const encoded = new TextEncoder().encode(label);
    bytes.push(encoded.length, ...encoded);
  }
  bytes.push(0);
  return toHex(new Uint8Array(bytes));
}

test('account names: the zone and reverse namespaces resolve off chain; answers are taken only signed, unexpired, for this resolver', async () => {
  const { universalResolver, offchainResolver, zone, signer, gateway } = deployed.names;
  assert.equal(zone, NAMES_ZONE);
  assert.equal(gateway, DEFAULT_NAMES_GATEWAY);
  assert.equal(signer, privateKeyToAccount(DEV_NAMES_SIGNER_KEY).address);
  assert.ok(!accounts.includes(signer), 'the dev signer is not an anvil account');
  for (const a of [universalResolver, offchainResolver]) assert.equal(a, getAddress(a));
  const registryAbi = loadArtifact('NameRegistry').abi;
  for (const node of [zone, 'addr.reverse', '80007a69.reverse']) {
    assert.equal(getAddress(await read(deployed.ens.registry, registryAbi, 'resolver', [namehash(node)])), offchainResolver, node);
  }
  const art = loadArtifact('OffchainResolver');
  assert.equal(await read(offchainResolver, art.abi, 'supportsInterface', ['0x9061b923']), true);
  assert.equal(await read(offchainResolver, art.abi, 'supportsInterface', ['0x01ffc9a7']), true);
  assert.equal(await read(offchainResolver, art.abi, 'supportsInterface', ['0x3b3b57de']), false);

  // resolve() sends the client to the gateway with the call itself.
  const name = `bob.${zone}`;
  const resolverAbi = parseAbi(['function addr(bytes32 node) view returns (address)']);
  const inner = encodeFunctionData({ abi: resolverAbi, functionName: 'addr', args: [namehash(name)] });
  const call = encodeFunctionData({ abi: art.abi, functionName: 'resolve', args: [dnsEncode(name), inner] });
  const lookup = decodeErrorResult({ abi: art.abi, data: await revertData(offchainResolver, call) });
  assert.equal(lookup.errorName, 'OffchainLookup');
  const [sender, urls, callData, callback, extraData] = lookup.args;
  assert.equal(getAddress(sender), offchainResolver);
  assert.deepEqual(urls, [gateway]);
  assert.equal(callData, call);
  assert.equal(callback, encodeFunctionData({ abi: art.abi, functionName: 'resolveWithProof', args: ['0x', '0x'] }).slice(0, 10));
  assert.equal(extraData, call);

  // The gateway's answer, signed as the server signs it (sigil_core::ccip::digest).
  const result = encodeAbiParameters([{ type: 'address' }], [accounts[1]]);
  const answer = async (key, resolver, expires) => {
    const digest = keccak256(
      encodePacked(['bytes2', 'address', 'uint64', 'bytes32', 'bytes32'], ['0x1900', resolver, expires, keccak256(call), keccak256(result)]),
    );
    const signature = await privateKeyToAccount(key).sign({ hash: digest });
    return encodeAbiParameters([{ type: 'bytes' }, { type: 'uint64' }, { type: 'bytes' }], [result, expires, signature]);
  };
  const now = (await pub.getBlock()).timestamp;
  const proved = (a) => read(offchainResolver, art.abi, 'resolveWithProof', [a, call]);
  assert.equal(await proved(await answer(DEV_NAMES_SIGNER_KEY, offchainResolver, now + 300n)), result);
  await assert.rejects(proved(await answer(DEV_NAMES_SIGNER_KEY, offchainResolver, now - 1n)), /AnswerExpired/);
  await assert.rejects(proved(await answer(keccak256(toHex('another key')), offchainResolver, now + 300n)), /NotSigner/);
  await assert.rejects(proved(await answer(DEV_NAMES_SIGNER_KEY, accounts[5], now + 300n)), /NotSigner/);

  // The universal resolver passes the lookup on as a batch-gateway query, as its own sender.
  const ur = loadArtifact('UniversalResolver');
  const gateways = ['x-batch-gateway:true'];
  const urCall = encodeFunctionData({ abi: ur.abi, functionName: 'resolveWithGateways', args: [dnsEncode(name), inner, gateways] });
  const passed = decodeErrorResult({ abi: ur.abi, data: await revertData(universalResolver, urCall) });
  assert.equal(passed.errorName, 'OffchainLookup');
  assert.equal(getAddress(passed.args[0]), universalResolver);
  assert.deepEqual(passed.args[1], gateways);
  const batchAbi = parseAbi(['function query((address sender, string[] urls, bytes data)[] queries) view returns (bool[], bytes[])']);
  const { args: [queries] } = decodeFunctionData({ abi: batchAbi, data: passed.args[2] });
  assert.deepEqual(queries.map((q) => [getAddress(q.sender), q.urls, q.data]), [[offchainResolver, [gateway], call]]);

  // Names on chain resolve through it too, as viem asks (no gateway needed).
  assert.equal(await pub.getEnsAddress({ name: 'alice.eth', universalResolverAddress: universalResolver }), accounts[1]);
  assert.equal(await pub.getEnsName({ address: accounts[1], universalResolverAddress: universalResolver }), 'alice.eth');
  assert.equal(await pub.getEnsName({ address: accounts[3], universalResolverAddress: universalResolver }), null, 'a reverse claim that does not point back');
});

test('smart accounts: an account delegates to Simple7702Account (EIP-7702) and batches calls only it can send', async () => {
  const { implementation } = deployed.smartAccount;
  assert.equal(implementation, getAddress(implementation));
  const art = loadPackageArtifact('@account-abstraction/contracts/artifacts/Simple7702Account.json');
  assert.equal((await pub.getCode({ address: implementation }))?.length > 2, true, 'the implementation has code');
  const chain = { id: 31337, name: 'devchain', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } };
  // Account 7 of the test mnemonic: a plain EOA nothing else here uses.
  const owner = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 7 });
  const wallet = createWalletClient({ chain, transport: http(rpcUrl, { retryCount: 0 }), account: owner });
  const [a, b] = [accounts[8], accounts[9]];
  const before = await Promise.all([a, b].map((address) => pub.getBalance({ address })));
  // The sender is the authority: its nonce is used by the transaction first, so the
  // authorization carries the next one (viem's executor: 'self').
  const authorization = await wallet.signAuthorization({ contractAddress: implementation, executor: 'self' });
  const calls = [
    { target: a, value: 1n, data: '0x' },
    { target: b, value: 2n, data: '0x' },
  ];
  const hash = await wallet.sendTransaction({
    to: owner.address,
    data: encodeFunctionData({ abi: art.abi, functionName: 'executeBatch', args: [calls] }),
    authorizationList: [authorization],
  });
  const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  assert.equal(receipt.status, 'success');
  assert.equal(receipt.type, 'eip7702');
  assert.equal(await pub.getCode({ address: owner.address }), `0xef0100${implementation.slice(2).toLowerCase()}`, 'the delegation designator');
  const after = await Promise.all([a, b].map((address) => pub.getBalance({ address })));
  assert.deepEqual([after[0] - before[0], after[1] - before[1]], [1n, 2n], 'both calls ran, in one transaction');
  // Anyone else calling the account's executeBatch is refused: only the account itself (or the
  // EntryPoint) may.
  await assert.rejects(
    pub.call({ account: accounts[0], to: owner.address, data: encodeFunctionData({ abi: art.abi, functionName: 'executeBatch', args: [[{ target: a, value: 1n, data: '0x' }]] }) }),
    /not from self or EntryPoint/,
  );
});
