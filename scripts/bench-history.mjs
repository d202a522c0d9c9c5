// SPDX-License-Identifier: Apache-2.0
// Helpers of the history benchmark (scripts/bench-api.sh), against a running anvil:
//   node scripts/bench-history.mjs fill RPC TOKEN TO N   sends N transfers of TOKEN (an ERC-20 held by
//                                                        anvil's account 0) to TO (one a block); prints the last one's hash
//   node scripts/bench-history.mjs logs RPC FROM TO STEP  asks eth_getLogs for the indexer's topics over
//                                                        FROM..TO in ranges of STEP blocks, as the indexer
//                                                        does, one after another; prints the seconds taken
//   node scripts/bench-history.mjs reads RPC FROM TO     the least a full index reads: those eth_getLogs calls and,
//                                                        at the same time, trace_filter over FROM..TO in 100-block
//                                                        ranges (4 in flight), as the indexer does; prints the seconds
const [cmd, rpcUrl, ...args] = process.argv.slice(2);
const ACCOUNT0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TOPICS = [
  '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
  '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925',
  '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62',
  '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb',
];

async function call(body) {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

if (cmd === 'fill') {
  const [token, to, n] = args;
  const data = (i) => `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, '0')}${(1000n + BigInt(i)).toString(16).padStart(64, '0')}`;
  // One after another, each mined in a block of its own (anvil's automine packs a few a block,
  // and batched or concurrent sends lose a nonce now and then, which stalls the rest).
  const rpc = async (method, params) => {
    const r = await call({ jsonrpc: '2.0', id: 1, method, params });
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  await rpc('evm_setAutomine', [false]);
  let last;
  for (let i = 0; i < Number(n); i++) {
    last = await rpc('eth_sendTransaction', [{ from: ACCOUNT0, to: token, data: data(i), gas: '0x186a0' }]);
    await rpc('evm_mine', []);
  }
  await rpc('evm_setAutomine', [true]);
  for (let i = 0; i < 100 && !(await rpc('eth_getTransactionReceipt', [last])); i++) await new Promise((r) => setTimeout(r, 100));
  const receipt = await rpc('eth_getTransactionReceipt', [last]);
  if (!receipt || receipt.status !== '0x1') throw new Error(`the last transfer was not mined: ${JSON.stringify(receipt)}`);
  console.log(last);
} else if (cmd === 'logs') {
  const [from, to, step] = args.map(Number);
  const started = process.hrtime.bigint();
  let logs = 0;
  for (let a = from; a <= to; a += step) {
    const b = Math.min(to, a + step - 1);
    const r = await call({ jsonrpc: '2.0', id: 1, method: 'eth_getLogs', params: [{ fromBlock: `0x${a.toString(16)}`, toBlock: `0x${b.toString(16)}`, topics: [TOPICS] }] });
    if (r.error) throw new Error(JSON.stringify(r.error));
    logs += r.result.length;
  }
  console.log(`${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(3)} ${logs}`);
} else if (cmd === 'reads') {
  const [from, to] = args.map(Number);
  const ranges = (step) => {
    const out = [];
    for (let a = from; a <= to; a += step) out.push([a, Math.min(to, a + step - 1)]);
    return out;
  };
  const hex = (n) => `0x${n.toString(16)}`;
  const ask = async (method, params) => {
    const r = await call({ jsonrpc: '2.0', id: 1, method, params });
    if (r.error) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const started = process.hrtime.bigint();
  const logs = (async () => {
    for (const [a, b] of ranges(500)) await ask('eth_getLogs', [{ fromBlock: hex(a), toBlock: hex(b), topics: [TOPICS] }]);
  })();
  const traces = (async () => {
    const all = ranges(100);
    for (let i = 0; i < all.length; i += 4) await Promise.all(all.slice(i, i + 4).map(([a, b]) => ask('trace_filter', [{ fromBlock: hex(a), toBlock: hex(b) }])));
  })();
  await Promise.all([logs, traces]);
  console.log((Number(process.hrtime.bigint() - started) / 1e9).toFixed(3));
} else {
  console.error('usage: bench-history.mjs fill RPC TOKEN TO N | logs RPC FROM TO STEP | reads RPC FROM TO');
  process.exit(2);
}
