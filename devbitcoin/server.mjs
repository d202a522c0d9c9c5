// SPDX-License-Identifier: Apache-2.0
// A local Bitcoin regtest node (npm bcoin, a full node kept in memory; no bitcoind can be
// installed here) behind the parts of the Esplora HTTP API (electrs, mempool.space) that Sigil
// and its tests use:
//   GET  /address/{address}         chain_stats and mempool_stats (funded/spent sums and counts)
//   GET  /address/{address}/utxo    unspent outputs (txid, vout, value, status)
//   GET  /tx/{txid}/hex             a transaction's raw hex
//   POST /tx                        broadcasts a raw transaction (hex body), answers its txid
//   GET  /blocks/tip/height         the tip's height
// and one development route: POST /dev/mine {"address", "blocks"} mines blocks to an address.
// bcoin's regtest address prefixes are set to Bitcoin Core's (P2PKH 111, P2SH 196, bech32
// 'bcrt') first, and segwit is active from the start, so bcrt1… addresses work as they do
// against bitcoind.
//
// Usage: node devbitcoin/server.mjs [--port PORT] [--fund ADDRESS ...]
// Each --fund address gets the rewards of 101 mined blocks (5050 BTC, 50 of them spendable).
// Prints one JSON line when it listens: {"url", "genesisHash", "caipNetworkId", "tipHeight"}.
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const networks = require('bcoin/lib/protocol/networks');
Object.assign(networks.regtest.addressPrefix, { pubkeyhash: 111, scripthash: 196, witnesspubkeyhash: 6, witnessscripthash: 10, bech32: 'bcrt' });
networks.regtest.keyPrefix.privkey = 0xef;
// Segregated witness from the third block, as good as bitcoind's regtest where it is active from
// the start (bcoin follows BIP9 there: a 144-block window would take 432 blocks).
Object.assign(networks.regtest.deployments.segwit, { window: 1, threshold: 1 });
const bcoin = require('bcoin');
const { Address, TX } = bcoin;

export const GENESIS_HASH = '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206';
export const CAIP_NETWORK_ID = `bip122:${GENESIS_HASH.slice(0, 32)}`;

const network = bcoin.Network.get('regtest');
Object.assign(network.addressPrefix, networks.regtest.addressPrefix);

function parseAddress(text) {
  try {
    return Address.fromString(text, network);
  } catch {
    return undefined;
  }
}

export async function createDevBitcoin() {
  const node = new bcoin.FullNode({
    network: 'regtest',
    memory: true,
    indexTX: true,
    indexAddress: true,
    listen: false,
    selfish: true,
    noDns: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
    logLevel: 'error',
    workers: false,
  });
  // No HTTP server of bcoin's own: ours below answers the Esplora routes.
  node.http = { open: async () => {}, close: async () => {} };
  await node.open();

  let mining = Promise.resolve();
  /** Mines `blocks` blocks paying `addr`, one after the other. */
  function mine(addr, blocks) {
    const run = mining.then(async () => {
      const hashes = [];
      for (let i = 0; i < blocks; i++) {
        const block = await node.miner.mineBlock(null, addr);
        const entry = await node.chain.add(block);
        hashes.push(entry.rhash());
      }
      return hashes;
    });
    mining = run.catch(() => {});
    return run;
  }

  /** Esplora's /address/{a} answer: what the address received and spent, confirmed and in the mempool. */
  async function addressStats(addr) {
    // The mempool lets go of a mined transaction a moment after the block: a transaction in both
    // counts as mined.
    const confirmedFirst = (await node.getMetaByAddress([addr])).sort((a, b) => Number(a.height === -1) - Number(b.height === -1));
    const seen = new Set();
    const metas = confirmedFirst.filter((m) => !seen.has(m.tx.txid()) && seen.add(m.tx.txid()));
    const script = addr.toString(network);
    const byHash = new Map(metas.map((m) => [m.tx.txid(), m]));
    const stats = { chain: empty(), mempool: empty() };
    for (const meta of metas) {
      const bucket = meta.height === -1 ? stats.mempool : stats.chain;
      let touched = false;
      meta.tx.outputs.forEach((output) => {
        const to = output.getAddress();
        if (to && to.toString(network) === script) {
          bucket.funded_txo_count += 1;
          bucket.funded_txo_sum += output.value;
          touched = true;
        }
      });
      for (const input of meta.tx.inputs) {
        const prev = byHash.get(input.prevout.txid());
        const output = prev?.tx.outputs[input.prevout.index];
        const from = output?.getAddress();
        if (from && from.toString(network) === script) {
          bucket.spent_txo_count += 1;
          bucket.spent_txo_sum += output.value;
          touched = true;
        }
      }
      if (touched) bucket.tx_count += 1;
    }
    return { address: script, chain_stats: stats.chain, mempool_stats: stats.mempool };
  }

  async function utxos(addr) {
    const coins = await node.getCoinsByAddress([addr]);
    const tip = node.chain.height;
    return coins.map((coin) => ({
      txid: coin.txid(),
      vout: coin.index,
      value: coin.value,
      status:
        coin.height === -1
          ? { confirmed: false }
          : { confirmed: true, block_height: coin.height, confirmations: tip - coin.height + 1, coinbase: coin.coinbase },
    }));
  }

  async function broadcast(hex) {
    const tx = TX.fromRaw(Buffer.from(hex.trim(), 'hex'));
    // Straight into the mempool, so a refusal comes back with its reason.
    await node.mempool.addTX(tx);
    return tx.txid();
  }

  async function rawTx(txid) {
    // bcoin 1.0 keys transactions by their hash in internal byte order, as hex.
    const meta = await node.getMeta(Buffer.from(txid, 'hex').reverse().toString('hex'));
    return meta ? meta.tx.toRaw().toString('hex') : undefined;
  }

  return { node, mine, addressStats, utxos, broadcast, rawTx, close: () => node.close() };
}

function empty() {
  return { funded_txo_count: 0, funded_txo_sum: 0, spent_txo_count: 0, spent_txo_sum: 0, tx_count: 0 };
}

export async function start({ port = 0, fund = [] } = {}) {
  const chain = await createDevBitcoin();
  for (const text of fund) {
    const addr = parseAddress(text);
    if (!addr) throw new Error(`--fund ${text}: not a regtest address`);
    await chain.mine(addr, 101);
  }
  const server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' };
    const send = (status, body, type = 'application/json') =>
      res.writeHead(status, { ...cors, 'content-type': type }).end(typeof body === 'string' ? body : JSON.stringify(body));
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      try {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        let m;
        if (req.method === 'OPTIONS') return send(204, '');
        if (req.method === 'GET' && path === '/blocks/tip/height') return send(200, String(chain.node.chain.height), 'text/plain');
        if (req.method === 'GET' && (m = path.match(/^\/address\/([^/]+)(\/utxo)?$/))) {
          const addr = parseAddress(decodeURIComponent(m[1]));
          if (!addr) return send(400, 'Invalid Bitcoin address', 'text/plain');
          return send(200, m[2] ? await chain.utxos(addr) : await chain.addressStats(addr));
        }
        if (req.method === 'GET' && (m = path.match(/^\/tx\/([0-9a-f]{64})\/hex$/))) {
          const hex = await chain.rawTx(m[1]);
          return hex ? send(200, hex, 'text/plain') : send(404, 'Transaction not found', 'text/plain');
        }
        if (req.method === 'POST' && path === '/tx') {
          try {
            return send(200, await chain.broadcast(Buffer.concat(chunks).toString('utf8')), 'text/plain');
          } catch (error) {
            return send(400, `sendrawtransaction RPC error: ${error.message}`, 'text/plain');
          }
        }
        if (req.method === 'POST' && path === '/dev/mine') {
          const { address: to, blocks = 1 } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
          const addr = parseAddress(String(to));
          if (!addr || !Number.isInteger(blocks) || blocks < 1 || blocks > 1000) return send(400, 'give a regtest address and 1..1000 blocks', 'text/plain');
          return send(200, { hashes: await chain.mine(addr, blocks), height: chain.node.chain.height });
        }
        return send(404, 'Not found', 'text/plain');
      } catch (error) {
        return send(500, String(error?.message ?? error), 'text/plain');
      }
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, server, chain };
}

function parseArgs(argv) {
  const args = { port: 0, fund: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--port') args.port = Number(value());
    else if (a === '--fund') args.fund.push(value());
    else throw new Error(`unknown argument: ${a}`);
  }
  return args;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { url, chain } = await start(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${JSON.stringify({ url, genesisHash: GENESIS_HASH, caipNetworkId: CAIP_NETWORK_ID, tipHeight: chain.node.chain.height })}\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
}
