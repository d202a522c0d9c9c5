// SPDX-License-Identifier: Apache-2.0
// A local Solana JSON-RPC endpoint over the real Solana runtime in npm `litesvm` (no validator
// can be installed here). It serves the methods the modal and the Sigil server use:
//   getBalance, getTokenAccountsByOwner (jsonParsed), getLatestBlockhash, getAccountInfo
//   (base64, base58, jsonParsed), sendTransaction, simulateTransaction, getSignatureStatuses,
//   requestAirdrop, getMinimumBalanceForRentExemption, getSignaturesForAddress and
//   getTransaction (json/jsonParsed, with pre/post SOL and token balances, for history), plus
//   getGenesisHash, getVersion, getHealth, getSlot and getBlockHeight.
// Transactions run in the runtime as they arrive (each is final at once). The SPL Token, the
// associated-token-account and Memo programs are loaded (litesvm's defaults); litesvm 1.5 does
// not load Token-2022, so token reads answer for both programs but only SPL Token mints exist.
//
// Usage: node devsolana/server.mjs [--port PORT] [--fund ADDRESS ...]
// Each --fund address gets 10 SOL, 1000 of a test token (SGLS, 6 decimals) and 500 of a second
// one (SGLX, 9 decimals), both SPL Token mints, in its associated token accounts, through real
// transactions.
// Prints one JSON line when it listens:
//   {"url", "genesisHash", "caipNetworkId", "mints": [{"symbol", "address", "decimals", "program"}]}
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { getCreateAccountInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
} from '@solana-program/token';
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { FailedTransactionMetadata, LiteSVM } from 'litesvm';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VWeRthBQM1Th1hNqHfgPLz6d8DA7';
// A fixed genesis hash for this local cluster; its CAIP-2 id is its first 32 characters.
export const GENESIS_HASH = 'SigiLDevSoLanaRuntime1111111111111111111111';
export const CAIP_NETWORK_ID = `solana:${GENESIS_HASH.slice(0, 32)}`;

const b58 = { encode: (bytes) => getBase58Decoder().decode(bytes), decode: (text) => getBase58Encoder().encode(text) };
const b64 = { encode: (bytes) => getBase64Decoder().decode(bytes), decode: (text) => getBase64Encoder().encode(text) };

class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

const invalidParams = (message) => new RpcError(-32602, message);

function parseAddress(value, what = 'address') {
  try {
    return address(String(value));
  } catch {
    throw invalidParams(`Invalid param: ${what} is not a valid public key`);
  }
}

const readU64 = (data, offset) => new DataView(data.buffer, data.byteOffset + offset, 8).getBigUint64(0, true);

/** An SPL token account's fields (the layout both token programs share for the first 165 bytes). */
function parseTokenAccount(data) {
  if (data.length < 165 || (data.length > 165 && data[165] !== 2)) return undefined;
  const state = data[108];
  if (state === 0) return undefined;
  return { mint: b58.encode(data.subarray(0, 32)), owner: b58.encode(data.subarray(32, 64)), amount: readU64(data, 64), state };
}

/** A mint's decimals and supply (82-byte base layout in both programs). */
function parseMint(data) {
  if (data.length < 82 || data[45] !== 1 || (data.length > 82 && data[165] !== 1)) return undefined;
  return { supply: readU64(data, 36), decimals: data[44] };
}

function uiAmount(amount, decimals) {
  const text = amount.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = decimals ? text.slice(-decimals).replace(/0+$/, '') : '';
  return fraction ? `${whole}.${fraction}` : whole;
}

export function createDevSolana() {
  const svm = new LiteSVM();
  let slot = 1n;

  const context = () => ({ slot: Number(slot), apiVersion: '2.2.0' });
  // Every transaction that ran, by signature, and the signatures touching each address in the
  // order they ran: what getTransaction and getSignaturesForAddress answer from.
  const ledger = new Map();
  const byAddress = new Map();

  /** The static account keys of a transaction's message, with their signer/writable roles. */
  function accountKeysOf(tx) {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
    const count = message.staticAccounts.length;
    const keys = message.staticAccounts.map((pubkey, i) => ({
      pubkey,
      signer: i < numSignerAccounts,
      writable: i < numSignerAccounts ? i < numSignerAccounts - numReadonlySignerAccounts : i < count - numReadonlyNonSignerAccounts,
      source: 'transaction',
    }));
    const instructions = message.instructions.map((ix) => ({
      programId: message.staticAccounts[ix.programAddressIndex],
      accounts: (ix.accountIndices ?? []).map((i) => message.staticAccounts[i]),
      data: b58.encode(ix.data ?? new Uint8Array()),
      stackHeight: null,
    }));
    return { keys, instructions, recentBlockhash: message.lifetimeToken };
  }

  /** SOL balances and token-account balances of `keys`, as a transaction's meta lists them. */
  function balancesOf(keys) {
    const sol = keys.map(({ pubkey }) => Number(svm.getBalance(address(pubkey)) ?? 0n));
    const tokens = [];
    keys.forEach(({ pubkey }, accountIndex) => {
      const account = svm.getAccount(address(pubkey));
      const program = account.exists ? programOf(account) : undefined;
      if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) return;
      const token = parseTokenAccount(account.data);
      if (!token) return;
      const mint = svm.getAccount(address(token.mint));
      const decimals = mint.exists ? (parseMint(mint.data)?.decimals ?? 0) : 0;
      const ui = uiAmount(token.amount, decimals);
      tokens.push({
        accountIndex,
        mint: token.mint,
        owner: token.owner,
        programId: program,
        uiTokenAmount: { amount: token.amount.toString(), decimals, uiAmount: Number(ui), uiAmountString: ui },
      });
    });
    return { sol, tokens };
  }

  /** Runs `execute` (which sends `tx` to the runtime) and records it with its balances before and after. */
  function recorded(tx, execute) {
    const { keys, instructions, recentBlockhash } = accountKeysOf(tx);
    const before = balancesOf(keys);
    const result = execute();
    // A transaction the runtime refused is not recorded: sendTransaction refuses it to the caller.
    if (!result || result instanceof FailedTransactionMetadata) return result;
    const after = balancesOf(keys);
    const meta = result;
    const signature = b58.encode(Object.values(tx.signatures)[0]);
    const entry = {
      signature,
      slot: Number(slot) + 1,
      blockTime: Math.floor(Date.now() / 1000),
      err: errorOf(result),
      keys,
      instructions,
      recentBlockhash,
      signatures: Object.values(tx.signatures).map((s) => (s ? b58.encode(s) : null)),
      // litesvm charges the default 5000 lamports per signature.
      fee: 5000 * Object.keys(tx.signatures).length,
      before,
      after,
      logs: typeof meta.logs === 'function' ? meta.logs() : [],
      units: typeof meta.computeUnitsConsumed === 'function' ? Number(meta.computeUnitsConsumed()) : 0,
    };
    ledger.set(signature, entry);
    for (const { pubkey } of keys) {
      const list = byAddress.get(pubkey) ?? [];
      list.push(signature);
      byAddress.set(pubkey, list);
    }
    return result;
  }

  /** An airdrop, recorded as a transaction of the runtime's faucet that only its receiver's keys show. */
  function airdrop(to, amount) {
    const before = balancesOf([{ pubkey: to }]);
    const result = svm.airdrop(to, amount);
    if (!result || result instanceof FailedTransactionMetadata) return result;
    const signature = b58.encode(result.signature());
    const keys = [{ pubkey: to, signer: false, writable: true, source: 'transaction' }];
    ledger.set(signature, { signature, slot: Number(slot) + 1, blockTime: Math.floor(Date.now() / 1000), err: null, keys, instructions: [], recentBlockhash: svm.latestBlockhash(), signatures: [signature], fee: 0, before, after: balancesOf(keys), logs: [], units: 0 });
    byAddress.set(to, [...(byAddress.get(to) ?? []), signature]);
    return result;
  }

  /** A ledger entry in getTransaction's shape. */
  function transactionOf(entry, encoding) {
    const accountKeys = encoding === 'jsonParsed' ? entry.keys : entry.keys.map((k) => k.pubkey);
    return {
      slot: entry.slot,
      blockTime: entry.blockTime,
      version: 0,
      meta: {
        err: entry.err,
        status: entry.err ? { Err: entry.err } : { Ok: null },
        fee: entry.fee,
        preBalances: entry.before.sol,
        postBalances: entry.after.sol,
        preTokenBalances: entry.before.tokens,
        postTokenBalances: entry.after.tokens,
        innerInstructions: [],
        logMessages: entry.logs,
        computeUnitsConsumed: entry.units,
        loadedAddresses: { writable: [], readonly: [] },
        rewards: [],
      },
      transaction: {
        signatures: entry.signatures,
        message: { accountKeys, instructions: entry.instructions, recentBlockhash: entry.recentBlockhash },
      },
    };
  }
  const withContext = (value) => ({ context: context(), value });

  function programOf(account) {
    return account.programAddress;
  }

  function jsonParsedData(account) {
    const program = programOf(account);
    if (program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) return undefined;
    const label = program === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022';
    const token = parseTokenAccount(account.data);
    if (token) {
      const mint = svm.getAccount(address(token.mint));
      const decimals = mint.exists ? (parseMint(mint.data)?.decimals ?? 0) : 0;
      return {
        program: label,
        space: account.data.length,
        parsed: {
          type: 'account',
          info: {
            isNative: false,
            mint: token.mint,
            owner: token.owner,
            state: token.state === 2 ? 'frozen' : 'initialized',
            tokenAmount: {
              amount: token.amount.toString(),
              decimals,
              uiAmount: Number(uiAmount(token.amount, decimals)),
              uiAmountString: uiAmount(token.amount, decimals),
            },
          },
        },
      };
    }
    const mint = parseMint(account.data);
    if (mint) {
      return {
        program: label,
        space: account.data.length,
        parsed: { type: 'mint', info: { decimals: mint.decimals, supply: mint.supply.toString(), isInitialized: true } },
      };
    }
    return undefined;
  }

  function encodeAccount(account, encoding = 'base64') {
    let data;
    if (encoding === 'jsonParsed') data = jsonParsedData(account) ?? [b64.encode(account.data), 'base64'];
    else if (encoding === 'base58') data = [b58.encode(account.data), 'base58'];
    else if (encoding === 'base64') data = [b64.encode(account.data), 'base64'];
    else throw invalidParams(`Invalid param: unsupported encoding ${encoding}`);
    return {
      data,
      executable: account.executable,
      lamports: Number(account.lamports),
      owner: programOf(account),
      rentEpoch: 18446744073709551615,
      space: account.data.length,
    };
  }

  function decodeTransaction(wire, encoding = 'base58') {
    if (typeof wire !== 'string') throw invalidParams('Invalid param: transaction must be a string');
    try {
      const bytes = encoding === 'base64' ? b64.decode(wire) : b58.decode(wire);
      return getTransactionDecoder().decode(bytes);
    } catch (error) {
      throw invalidParams(`failed to deserialize transaction: ${error.message}`);
    }
  }

  function errorOf(result) {
    if (!(result instanceof FailedTransactionMetadata)) return null;
    const err = result.err();
    return typeof err === 'object' && err !== null ? JSON.parse(JSON.stringify(err, (_k, v) => (typeof v === 'bigint' ? Number(v) : v))) : err;
  }

  const methods = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    getGenesisHash: () => GENESIS_HASH,
    getSlot: () => Number(slot),
    getBlockHeight: () => Number(slot),
    getBalance([owner]) {
      return withContext(Number(svm.getBalance(parseAddress(owner)) ?? 0n));
    },
    getMinimumBalanceForRentExemption([size]) {
      if (!Number.isInteger(size) || size < 0) throw invalidParams('Invalid param: data length must be a non-negative integer');
      return Number(svm.minimumBalanceForRentExemption(BigInt(size)));
    },
    getLatestBlockhash() {
      return withContext({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: Number(slot) + 150 });
    },
    getAccountInfo([key, config = {}]) {
      const account = svm.getAccount(parseAddress(key));
      return withContext(account.exists ? encodeAccount(account, config.encoding) : null);
    },
    getMultipleAccounts([keys, config = {}]) {
      if (!Array.isArray(keys)) throw invalidParams('Invalid param: expected an array of addresses');
      return withContext(
        keys.map((key) => {
          const account = svm.getAccount(parseAddress(key));
          return account.exists ? encodeAccount(account, config.encoding) : null;
        }),
      );
    },
    getTokenAccountsByOwner([owner, filter = {}, config = {}]) {
      const ownerAddress = parseAddress(owner, 'owner');
      let programs;
      let mint;
      if (filter.programId) {
        programs = [parseAddress(filter.programId, 'programId')];
        if (programs[0] !== TOKEN_PROGRAM && programs[0] !== TOKEN_2022_PROGRAM) throw invalidParams('Invalid param: unrecognized Token program id');
      } else if (filter.mint) {
        mint = parseAddress(filter.mint, 'mint');
        const mintAccount = svm.getAccount(mint);
        if (!mintAccount.exists) throw invalidParams('Invalid param: could not find mint');
        programs = [programOf(mintAccount)];
      } else {
        throw invalidParams('Invalid param: expected {"mint": ...} or {"programId": ...}');
      }
      const value = [];
      for (const program of programs) {
        for (const account of svm.getProgramAccounts(program)) {
          const token = parseTokenAccount(account.data);
          if (!token || token.owner !== ownerAddress || (mint && token.mint !== mint)) continue;
          value.push({ pubkey: account.address, account: encodeAccount(account, config.encoding ?? 'base64') });
        }
      }
      return withContext(value);
    },
    requestAirdrop([to, amount]) {
      if (!Number.isSafeInteger(amount) || amount <= 0) throw invalidParams('Invalid param: lamports must be a positive integer');
      const result = airdrop(parseAddress(to), lamports(BigInt(amount)));
      if (!result || result instanceof FailedTransactionMetadata) throw new RpcError(-32603, `airdrop failed: ${result ? result.toString() : 'no result'}`);
      slot += 1n;
      return b58.encode(result.signature());
    },
    sendTransaction([wire, config = {}]) {
      const tx = decodeTransaction(wire, config.encoding);
      const [signature] = Object.values(tx.signatures);
      if (!signature) throw invalidParams('transaction has no signatures');
      const failed = (result) =>
        new RpcError(-32002, `Transaction simulation failed: ${result.toString()}`, { err: errorOf(result), logs: result.meta().logs(), accounts: null, unitsConsumed: 0 });
      // Preflight, as a validator's RPC does: a transaction that would fail is not sent (and pays no fee).
      if (!config.skipPreflight) {
        const simulated = svm.simulateTransaction(tx);
        if (simulated instanceof FailedTransactionMetadata) throw failed(simulated);
      }
      const result = recorded(tx, () => svm.sendTransaction(tx));
      slot += 1n;
      svm.expireBlockhash();
      if (result instanceof FailedTransactionMetadata) throw failed(result);
      return b58.encode(signature);
    },
    simulateTransaction([wire, config = {}]) {
      const tx = decodeTransaction(wire, config.encoding);
      const result = svm.simulateTransaction(tx);
      const meta = result instanceof FailedTransactionMetadata ? result.meta() : result.meta();
      return withContext({ err: errorOf(result), logs: meta.logs(), accounts: null, unitsConsumed: Number(meta.computeUnitsConsumed()), returnData: null });
    },
    getSignaturesForAddress([owner, config = {}]) {
      const signatures = byAddress.get(parseAddress(owner)) ?? [];
      const limit = config.limit ?? 1000;
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams('Invalid param: limit must be between 1 and 1000');
      let end = signatures.length;
      if (config.before !== undefined) {
        const at = signatures.indexOf(config.before);
        if (at < 0) return [];
        end = at;
      }
      const start = config.until !== undefined ? signatures.indexOf(config.until) + 1 : 0;
      return signatures
        .slice(Math.max(start, end - limit), end)
        .reverse()
        .map((signature) => {
          const entry = ledger.get(signature);
          return { signature, slot: entry.slot, blockTime: entry.blockTime, err: entry.err, memo: null, confirmationStatus: 'finalized' };
        });
    },
    getTransaction([signature, config = {}]) {
      const encoding = typeof config === 'string' ? config : (config.encoding ?? 'json');
      if (encoding !== 'json' && encoding !== 'jsonParsed') throw invalidParams(`Invalid param: unsupported encoding ${encoding}`);
      if (typeof signature !== 'string') throw invalidParams('Invalid param: invalid signature');
      const entry = ledger.get(signature);
      return entry ? transactionOf(entry, encoding) : null;
    },
    getSignatureStatuses([signatures]) {
      if (!Array.isArray(signatures)) throw invalidParams('Invalid param: expected an array of signatures');
      return withContext(
        signatures.map((signature) => {
          let bytes;
          try {
            bytes = b58.decode(signature);
          } catch {
            throw invalidParams('Invalid param: invalid signature');
          }
          const known = svm.getTransaction(b58.encode(bytes));
          if (!known) return null;
          return { slot: Number(slot), confirmations: null, err: errorOf(known), status: errorOf(known) ? { Err: errorOf(known) } : { Ok: null }, confirmationStatus: 'finalized' };
        }),
      );
    },
  };

  async function handle(request) {
    if (typeof request !== 'object' || request === null || request.jsonrpc !== '2.0' || typeof request.method !== 'string') {
      return { jsonrpc: '2.0', id: request?.id ?? null, error: { code: -32600, message: 'Invalid request' } };
    }
    const method = methods[request.method];
    if (!method) return { jsonrpc: '2.0', id: request.id ?? null, error: { code: -32601, message: 'Method not found' } };
    try {
      const params = Array.isArray(request.params) ? request.params : [];
      return { jsonrpc: '2.0', id: request.id ?? null, result: await method(params) };
    } catch (error) {
      if (error instanceof RpcError) return { jsonrpc: '2.0', id: request.id ?? null, error: { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) } };
      return { jsonrpc: '2.0', id: request.id ?? null, error: { code: -32603, message: String(error?.message ?? error) } };
    }
  }

  /** Sends a transaction built from `instructions`, paid and signed by `payer` (plus `signers` the instructions carry). */
  async function run(payer, instructions) {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: slot + 150n }, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const tx = await signTransactionMessageWithSigners(message);
    const result = recorded(tx, () => svm.sendTransaction(tx));
    if (result instanceof FailedTransactionMetadata) throw new Error(`setup transaction failed: ${result.toString()}\n${result.meta().prettyLogs()}`);
    slot += 1n;
    svm.expireBlockhash();
  }

  /** Creates a mint with `decimals` under `program`; the returned authority may mint. */
  async function createMint(payer, decimals, program) {
    const mint = await generateKeyPairSigner();
    const space = 82n;
    await run(payer, [
      getCreateAccountInstruction({ payer, newAccount: mint, lamports: svm.minimumBalanceForRentExemption(space), space, programAddress: program }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: payer.address }, { programAddress: program }),
    ]);
    return mint.address;
  }

  async function mintTo(payer, mint, owner, amount, program) {
    const [ata] = await findAssociatedTokenPda({ mint, owner, tokenProgram: program });
    await run(payer, [
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner, mint, tokenProgram: program }),
      getMintToInstruction({ mint, token: ata, mintAuthority: payer, amount }, { programAddress: program }),
    ]);
    return ata;
  }

  /** Gives each address SOL and both test tokens. */
  async function seed(owners) {
    const payer = await generateKeyPairSigner();
    airdrop(payer.address, lamports(100_000_000_000n));
    const classic = await createMint(payer, 6, address(TOKEN_PROGRAM));
    const second = await createMint(payer, 9, address(TOKEN_PROGRAM));
    for (const owner of owners) {
      const who = parseAddress(owner);
      airdrop(who, lamports(10_000_000_000n));
      await mintTo(payer, classic, who, 1_000_000_000n, address(TOKEN_PROGRAM));
      await mintTo(payer, second, who, 500_000_000_000n, address(TOKEN_PROGRAM));
    }
    return [
      { symbol: 'SGLS', name: 'Sigil Solana Token', address: classic, decimals: 6, program: TOKEN_PROGRAM },
      { symbol: 'SGLX', name: 'Sigil Solana Extra', address: second, decimals: 9, program: TOKEN_PROGRAM },
    ];
  }

  return { svm, handle, seed };
}

export async function start({ port = 0, fund = [] } = {}) {
  const chain = createDevSolana();
  const mints = await chain.seed(fund);
  const server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, solana-client', 'access-control-allow-methods': 'POST, OPTIONS' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, cors).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const answer = Array.isArray(body) ? await Promise.all(body.map((r) => chain.handle(r))) : await chain.handle(body);
      res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, server, chain, mints };
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
  const { url, mints } = await start(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${JSON.stringify({ url, genesisHash: GENESIS_HASH, caipNetworkId: CAIP_NETWORK_ID, mints })}\n`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
}
