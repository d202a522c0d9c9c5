// The regtest node and its Esplora routes: bcrt1 addresses, mining to a P2WPKH key, stats that
// move with a signed spend in the mempool and again once it is mined, and refusals.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import { CAIP_NETWORK_ID, start } from './server.mjs';

const require = createRequire(import.meta.url);
const bcoin = require('bcoin');

let node;
let ring;
let payTo;

const get = async (path) => {
  const res = await fetch(`${node.url}${path}`);
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? await res.json() : await res.text() };
};
const post = (path, body, type = 'application/json') => fetch(`${node.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

function newKey() {
  const key = bcoin.KeyRing.generate();
  key.witness = true;
  return key;
}

before(async () => {
  ring = newKey();
  payTo = ring.getAddress('string', 'regtest');
  node = await start({ fund: [payTo] });
});
after(async () => {
  node?.server.closeAllConnections();
  node?.server.close();
  await node?.chain.close();
});

test('regtest addresses carry Bitcoin Core prefixes and the genesis is regtest', async () => {
  assert.match(payTo, /^bcrt1q[a-z0-9]{38}$/);
  assert.equal(CAIP_NETWORK_ID, 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328');
  const genesis = await node.chain.node.chain.getEntryByHeight(0);
  assert.equal(genesis.rhash(), '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206');
  assert.deepEqual(await get('/blocks/tip/height'), { status: 200, body: '101' });
});

test('the funded address holds 101 block rewards, all confirmed', async () => {
  const { status, body } = await get(`/address/${payTo}`);
  assert.equal(status, 200);
  assert.equal(body.address, payTo);
  assert.deepEqual(body.chain_stats, { funded_txo_count: 101, funded_txo_sum: 101 * 50e8, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 101 });
  assert.deepEqual(body.mempool_stats, { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 });
  const utxo = (await get(`/address/${payTo}/utxo`)).body;
  assert.equal(utxo.length, 101);
  assert.equal(utxo.filter((u) => u.status.confirmations >= 100).length, 2);
});

test('a signed spend shows in the mempool stats, then in the chain stats once mined', async () => {
  const other = newKey();
  const otherAddress = other.getAddress('string', 'regtest');
  const coins = (await node.chain.node.getCoinsByAddress([ring.getAddress()])).filter((c) => node.chain.node.chain.height - c.height + 1 >= 100);
  const mtx = new bcoin.MTX();
  mtx.addOutput(bcoin.Address.fromString(otherAddress, 'regtest'), 12_345_678);
  await mtx.fund(coins, { changeAddress: ring.getAddress(), rate: 10_000 });
  mtx.sign(ring);
  const tx = mtx.toTX();
  const fee = mtx.getFee();

  const res = await post('/tx', tx.toRaw().toString('hex'), 'text/plain');
  const body = await res.text();
  assert.equal(res.status, 200, body);
  assert.equal(body, tx.txid());
  const mempool = (await get(`/address/${otherAddress}`)).body;
  assert.deepEqual(mempool.mempool_stats, { funded_txo_count: 1, funded_txo_sum: 12_345_678, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 1 });
  assert.equal(mempool.chain_stats.funded_txo_sum, 0);
  const spender = (await get(`/address/${payTo}`)).body.mempool_stats;
  assert.equal(spender.spent_txo_sum - spender.funded_txo_sum, 12_345_678 + fee);
  assert.equal((await get(`/tx/${tx.txid()}/hex`)).body, tx.toRaw().toString('hex'));

  const mined = await post('/dev/mine', JSON.stringify({ address: otherAddress, blocks: 1 }));
  assert.equal((await mined.json()).height, 102);
  const confirmed = (await get(`/address/${otherAddress}`)).body;
  assert.equal(confirmed.mempool_stats.tx_count, 0);
  assert.equal(confirmed.chain_stats.funded_txo_sum, 12_345_678 + 50e8 + fee);
});

test('refuses bad addresses, bad transactions and unknown routes', async () => {
  assert.equal((await get('/address/bc1qnotanaddress')).status, 400);
  assert.equal((await get('/address/tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).status, 400, 'a testnet address is not a regtest one');
  const bad = await post('/tx', '00', 'text/plain');
  assert.equal(bad.status, 400);
  assert.equal((await post('/dev/mine', JSON.stringify({ address: payTo, blocks: 0 }))).status, 400);
  assert.equal((await get('/nothing')).status, 404);
});
