// The JSON-RPC layer against the real runtime: funding, balances in both token programs, a
// wallet-signed SOL transfer and an SPL transferChecked sent as wire bytes, statuses, errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { CAIP_NETWORK_ID, GENESIS_HASH, start, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './server.mjs';

let node;
let owner;

async function rpc(method, params = []) {
  const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  assert.equal(res.status, 200);
  return res.json();
}
const result = async (method, params) => {
  const answer = await rpc(method, params);
  assert.equal(answer.error, undefined, `${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
};

async function tokenBalances(who) {
  const out = {};
  for (const programId of [TOKEN_PROGRAM, TOKEN_2022_PROGRAM]) {
    const { value } = await result('getTokenAccountsByOwner', [who, { programId }, { encoding: 'jsonParsed' }]);
    for (const { account } of value) out[account.data.parsed.info.mint] = account.data.parsed.info.tokenAmount;
  }
  return out;
}

async function sendSigned(signer, instructions, encoding = 'base64') {
  const { value } = await result('getLatestBlockhash', [{ commitment: 'confirmed' }]);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(signer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  const wire = getBase64EncodedWireTransaction(tx);
  return { wire, answer: await rpc('sendTransaction', [wire, { encoding }]) };
}

before(async () => {
  owner = await generateKeyPairSigner();
  node = await start({ fund: [owner.address] });
});
after(() => node?.server.close());

test('identifies itself and its cluster', async () => {
  assert.equal(await result('getGenesisHash'), GENESIS_HASH);
  assert.equal(CAIP_NETWORK_ID, `solana:${GENESIS_HASH.slice(0, 32)}`);
  assert.equal(await result('getHealth'), 'ok');
});

test('funded owner holds SOL and both test tokens with their decimals; the other token program has none', async () => {
  const { value } = await result('getBalance', [owner.address]);
  assert.equal(value, 10_000_000_000);
  const tokens = await tokenBalances(owner.address);
  const [first, second] = node.mints;
  assert.deepEqual(tokens[first.address], { amount: '1000000000', decimals: 6, uiAmount: 1000, uiAmountString: '1000' });
  assert.deepEqual(tokens[second.address], { amount: '500000000000', decimals: 9, uiAmount: 500, uiAmountString: '500' });
  assert.deepEqual((await result('getTokenAccountsByOwner', [owner.address, { programId: TOKEN_2022_PROGRAM }, { encoding: 'jsonParsed' }])).value, []);
  // An address with nothing: zero lamports, no token accounts.
  const nobody = (await generateKeyPairSigner()).address;
  assert.equal((await result('getBalance', [nobody])).value, 0);
  assert.deepEqual(await tokenBalances(nobody), {});
});

test('a signed SOL transfer moves lamports and its status is final', async () => {
  const to = (await generateKeyPairSigner()).address;
  const before = (await result('getBalance', [owner.address])).value;
  const { answer } = await sendSigned(owner, [getTransferSolInstruction({ source: owner, destination: to, amount: 1_500_000_000n })]);
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  assert.equal((await result('getBalance', [to])).value, 1_500_000_000);
  const after = (await result('getBalance', [owner.address])).value;
  assert.equal(before - after, 1_500_000_000 + 5000, 'the transfer plus one signature fee');
  const { value: statuses } = await result('getSignatureStatuses', [[answer.result]]);
  assert.equal(statuses[0].confirmationStatus, 'finalized');
  assert.equal(statuses[0].err, null);
});

test('an SPL transferChecked creates the receiver account and moves tokens (both mints)', async () => {
  const to = (await generateKeyPairSigner()).address;
  for (const mint of node.mints) {
    const program = address(mint.program);
    const [source] = await findAssociatedTokenPda({ mint: address(mint.address), owner: owner.address, tokenProgram: program });
    const [destination] = await findAssociatedTokenPda({ mint: address(mint.address), owner: to, tokenProgram: program });
    const { answer } = await sendSigned(owner, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: owner, ata: destination, owner: to, mint: address(mint.address), tokenProgram: program }),
      getTransferCheckedInstruction(
        { source, mint: address(mint.address), destination, authority: owner, amount: 2n * 10n ** BigInt(mint.decimals), decimals: mint.decimals },
        { programAddress: program },
      ),
    ]);
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  }
  const tokens = await tokenBalances(to);
  assert.equal(tokens[node.mints[0].address].uiAmountString, '2');
  assert.equal(tokens[node.mints[1].address].uiAmountString, '2');
  const mintInfo = await result('getAccountInfo', [node.mints[1].address, { encoding: 'jsonParsed' }]);
  assert.equal(mintInfo.value.owner, TOKEN_PROGRAM);
  assert.equal(mintInfo.value.data.parsed.info.decimals, 9);
});

test('a transfer beyond the balance fails in simulation and in sending, and changes nothing', async () => {
  const poor = await generateKeyPairSigner();
  await result('requestAirdrop', [poor.address, 1_000_000_000]);
  const to = (await generateKeyPairSigner()).address;
  const { wire, answer } = await sendSigned(poor, [getTransferSolInstruction({ source: poor, destination: to, amount: 5_000_000_000n })]);
  assert.equal(answer.error.code, -32002);
  assert.match(answer.error.message, /Transaction simulation failed/);
  const simulated = await result('simulateTransaction', [wire, { encoding: 'base64' }]);
  assert.notEqual(simulated.value.err, null);
  assert.equal((await result('getBalance', [poor.address])).value, 1_000_000_000);
  assert.equal((await result('getBalance', [to])).value, 0);
});

test('rent exemption, bad params and unknown methods', async () => {
  assert.equal(await result('getMinimumBalanceForRentExemption', [165]), 2_039_280);
  assert.equal((await rpc('getBalance', ['not-an-address'])).error.code, -32602);
  assert.equal((await rpc('getTokenAccountsByOwner', [owner.address, {}])).error.code, -32602);
  assert.equal((await rpc('sendTransaction', ['!!!', { encoding: 'base64' }])).error.code, -32602);
  assert.equal((await rpc('getProgramAccounts', [TOKEN_PROGRAM])).error.code, -32601);
  const batch = await (await fetch(node.url, { method: 'POST', body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'getSlot' }, { jsonrpc: '2.0', id: 2, method: 'getHealth' }]) })).json();
  assert.deepEqual(batch.map((r) => r.id), [1, 2]);
});

test('history: getSignaturesForAddress pages newest first, getTransaction gives the balances a history reader needs', async () => {
  const sender = await generateKeyPairSigner();
  await result('requestAirdrop', [sender.address, 5_000_000_000]);
  const to = (await generateKeyPairSigner()).address;
  const sent = [];
  for (let i = 1; i <= 3; i++) {
    const { answer } = await sendSigned(sender, [getTransferSolInstruction({ source: sender, destination: to, amount: BigInt(i) * 1_000_000n })]);
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    sent.push(answer.result);
  }
  // The airdrop and three transfers, newest first; the receiver appears in the three transfers only.
  const all = await result('getSignaturesForAddress', [sender.address]);
  assert.equal(all.length, 4);
  assert.deepEqual(all.slice(0, 3).map((s) => s.signature), [...sent].reverse());
  assert.ok(all.every((s) => s.err === null && s.confirmationStatus === 'finalized' && Number.isInteger(s.blockTime)));
  assert.deepEqual((await result('getSignaturesForAddress', [to])).map((s) => s.signature), [...sent].reverse());
  // Paging: a limit, then `before` the last one seen.
  const first = await result('getSignaturesForAddress', [sender.address, { limit: 2 }]);
  assert.deepEqual(first.map((s) => s.signature), [sent[2], sent[1]]);
  const next = await result('getSignaturesForAddress', [sender.address, { limit: 2, before: sent[1] }]);
  assert.equal(next.length, 2);
  assert.equal(next[0].signature, sent[0]);
  assert.equal((await result('getSignaturesForAddress', [sender.address, { until: sent[1] }])).length, 1);

  const tx = await result('getTransaction', [sent[1], { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }]);
  const keys = tx.transaction.message.accountKeys.map((k) => k.pubkey);
  const [from, receiver] = [keys.indexOf(sender.address), keys.indexOf(to)];
  assert.equal(tx.meta.err, null);
  assert.equal(tx.meta.fee, 5000);
  assert.equal(tx.meta.preBalances[from] - tx.meta.postBalances[from], 2_000_000 + 5000);
  assert.equal(tx.meta.postBalances[receiver] - tx.meta.preBalances[receiver], 2_000_000);
  assert.equal(tx.transaction.signatures[0], sent[1]);
  assert.ok(tx.transaction.message.accountKeys[from].signer);
  assert.equal(await result('getTransaction', ['1111111111111111111111111111111111111111111111111111111111111111', { encoding: 'json' }]), null);
  assert.equal((await rpc('getSignaturesForAddress', [sender.address, { limit: 0 }])).error.code, -32602);
});

test('history: an SPL transfer lists both token accounts before and after, with mint and owner', async () => {
  const to = (await generateKeyPairSigner()).address;
  const mint = node.mints[0];
  const program = address(mint.program);
  const [source] = await findAssociatedTokenPda({ mint: address(mint.address), owner: owner.address, tokenProgram: program });
  const [destination] = await findAssociatedTokenPda({ mint: address(mint.address), owner: to, tokenProgram: program });
  const { answer } = await sendSigned(owner, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: owner, ata: destination, owner: to, mint: address(mint.address), tokenProgram: program }),
    getTransferCheckedInstruction({ source, mint: address(mint.address), destination, authority: owner, amount: 3_000_000n, decimals: 6 }, { programAddress: program }),
  ]);
  assert.equal(answer.error, undefined, JSON.stringify(answer.error));
  const [latest] = await result('getSignaturesForAddress', [owner.address, { limit: 1 }]);
  assert.equal(latest.signature, answer.result);
  const { meta } = await result('getTransaction', [answer.result, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }]);
  const of = (list, who) => list.find((b) => b.owner === who && b.mint === mint.address);
  assert.equal(of(meta.preTokenBalances, to), undefined, 'the receiver had no token account before');
  assert.equal(of(meta.postTokenBalances, to).uiTokenAmount.amount, '3000000');
  assert.equal(BigInt(of(meta.preTokenBalances, owner.address).uiTokenAmount.amount) - BigInt(of(meta.postTokenBalances, owner.address).uiTokenAmount.amount), 3_000_000n);
  assert.equal(of(meta.postTokenBalances, to).programId, TOKEN_PROGRAM);
});
