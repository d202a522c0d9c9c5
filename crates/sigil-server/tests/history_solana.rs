//! Solana history against the dev Solana runtime (devsolana/server.mjs over litesvm): a script
//! starts it, funds two fresh keys, and makes real transactions between them (a 1.5 SOL
//! transfer, a 2.5 SGLS transferChecked, 0.25 SOL back, 1 SGLS to a key without a token account,
//! and 25 more transfers); the history
//! API then reads them from the node: the values both sides see, paging past 20 without a
//! duplicate or a gap, and the answers to a bad address, a bad cursor and a node that is down.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::{Backend, TestServer};
use serde_json::Value;
use sigil_server::chains::{ChainConfig, Chains, NativeCurrency, Token};

/// Run by node in devsolana/ (its dependencies): the runtime, two funded keys (10 SOL, 1000
/// SGLS, 500 SGLX each) and the transactions, printed as one JSON line; then it serves.
const SCRIPT: &str = r#"
import { start, CAIP_NETWORK_ID } from './server.mjs';
import { getTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import { address, appendTransactionMessageInstructions, createTransactionMessage, generateKeyPairSigner, getBase64EncodedWireTransaction, pipe,
  setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash, signTransactionMessageWithSigners } from '@solana/kit';

const me = await generateKeyPairSigner();
const you = await generateKeyPairSigner();
const { url, chain, mints } = await start({ fund: [me.address, you.address] });
async function rpc(method, params) {
  const answer = await chain.handle({ jsonrpc: '2.0', id: 1, method, params });
  if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}
async function send(payer, instructions) {
  const { value } = await rpc('getLatestBlockhash', []);
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: value.blockhash, lastValidBlockHeight: BigInt(value.lastValidBlockHeight) }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  return rpc('sendTransaction', [getBase64EncodedWireTransaction(tx), { encoding: 'base64' }]);
}
const sol = (from, to, amount) => send(from, [getTransferSolInstruction({ source: from, destination: to.address, amount })]);
const sgls = mints.find((m) => m.symbol === 'SGLS');
async function token(from, to, amount) {
  const [mint, tokenProgram] = [address(sgls.address), address(sgls.program)];
  const [source] = await findAssociatedTokenPda({ mint, owner: from.address, tokenProgram });
  const [destination] = await findAssociatedTokenPda({ mint, owner: to.address, tokenProgram });
  return send(from, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: from, ata: destination, owner: to.address, mint, tokenProgram }),
    getTransferCheckedInstruction({ source, mint, destination, authority: from, amount, decimals: sgls.decimals }, { programAddress: tokenProgram }),
  ]);
}
const third = await generateKeyPairSigner();
const made = { sol: await sol(me, you, 1_500_000_000n), token: await token(me, you, 2_500_000n), back: await sol(you, me, 250_000_000n), many: [] };
// 1 SGLS to a key without a token account: the sender pays its rent.
made.rent = await token(me, third, 1_000_000n);
for (let i = 1; i <= 25; i++) made.many.push(await sol(me, you, BigInt(i) * 1_000_000n));
process.stdout.write(`${JSON.stringify({ url, chain: CAIP_NETWORK_ID, mints, me: me.address, you: you.address, third: third.address, made })}\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(0));
"#;

/// The runtime with the script's transactions; stopped when dropped.
struct DevSolana {
    child: Child,
    made: Value,
}

impl DevSolana {
    fn start() -> DevSolana {
        let dir = common::repo_root().join("devsolana");
        assert!(dir.join("node_modules").exists(), "run `cd devsolana && npm ci` first (make test does)");
        let mut child = Command::new("node")
            .args(["--input-type=module", "-e", SCRIPT])
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let made: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("the script's line ({e}): {line:?}"));
        DevSolana { child, made }
    }

    fn str(&self, pointer: &str) -> String {
        self.made.pointer(pointer).and_then(Value::as_str).unwrap_or_else(|| panic!("{pointer} in {}", self.made)).to_owned()
    }
}

impl Drop for DevSolana {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A down node's chain: nothing listens on port 1.
const DOWN: &str = "solana:DownDownDownDownDownDownDownDown";

fn solana_chain(id: &str, rpc: &str, tokens: Vec<Token>) -> ChainConfig {
    ChainConfig {
        id: id.into(),
        name: "Sigil Solana Dev".into(),
        testnet: true,
        rpc: vec![rpc.into()],
        ws: vec![],
        native: NativeCurrency { name: "Solana".into(), symbol: "SOL".into(), decimals: 9 },
        tokens,
        ens_registry: None,
        price_pairs: vec![],
        allow_methods: vec![],
        esplora: None,
        history: Default::default(),
        swap: None,
        smart_account: None,
    }
}

async fn page(server: &TestServer, chain: &str, address: &str, cursor: Option<&str>) -> (u16, Value) {
    let cursor = cursor.map(|c| format!("&cursor={c}")).unwrap_or_default();
    server.get_json(&server.api(&format!("/v1/account/{address}/history?chainId={chain}{cursor}"))).await
}

/// Every page of `address`'s history: the items and the number of pages.
async fn all_pages(server: &TestServer, chain: &str, address: &str) -> (Vec<Value>, usize) {
    let (mut items, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let (status, body) = page(server, chain, address, cursor.as_deref()).await;
        assert_eq!(status, 200, "{body}");
        pages += 1;
        let data = body["data"].as_array().unwrap();
        assert!(data.len() <= 20);
        items.extend(data.iter().cloned());
        match body["next"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return (items, pages),
        }
        assert!(pages < 10, "paging does not end");
    }
}

fn find<'a>(items: &'a [Value], signature: &str) -> &'a Value {
    items.iter().find(|i| i["metadata"]["hash"] == signature).unwrap_or_else(|| panic!("{signature} is not listed"))
}

/// (operation, [(symbol, direction, quantity)], sentFrom, sentTo) of an item.
fn summary(item: &Value) -> (String, Vec<(String, String, String)>, String, String) {
    let m = &item["metadata"];
    let transfers = item["transfers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let s = |v: &Value| v.as_str().unwrap().to_owned();
            (s(&t["fungible_info"]["symbol"]), s(&t["direction"]), s(&t["quantity"]["numeric"]))
        })
        .collect();
    let s = |k: &str| m[k].as_str().unwrap().to_owned();
    (s("operationType"), transfers, s("sentFrom"), s("sentTo"))
}

fn moved(symbol: &str, direction: &str, quantity: &str) -> (String, String, String) {
    (symbol.to_owned(), direction.to_owned(), quantity.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solana_history_is_read_from_the_node() {
    let node = tokio::task::spawn_blocking(DevSolana::start).await.unwrap();
    let chain = node.str("/chain");
    let (me, you) = (node.str("/me"), node.str("/you"));
    let mints = node.made["mints"].as_array().unwrap().clone();
    let mint = |symbol: &str| mints.iter().find(|m| m["symbol"] == symbol).unwrap()["address"].as_str().unwrap().to_owned();
    let (sgls, sglx) = (mint("SGLS"), mint("SGLX"));
    // SGLS is in the chain's token list; SGLX is not.
    let listed = vec![Token { address: sgls.clone(), symbol: "SGLS".into(), name: "Sigil Solana Token".into(), decimals: 6, icon: None }];
    let chains = Chains::from_list(vec![solana_chain(&chain, &node.str("/url"), listed), solana_chain(DOWN, "http://127.0.0.1:1", vec![])]).unwrap();
    // History on (TestServer turns it off); no EVM chain, so no indexer: Solana needs none.
    let server = TestServer::start_with(Backend::Sqlite, &["*"], |c| {
        c.chains = chains.clone();
        c.settings.history.enabled = true;
    })
    .await
    .unwrap();

    let (sol, token, back, rent) = (node.str("/made/sol"), node.str("/made/token"), node.str("/made/back"), node.str("/made/rent"));
    let many: Vec<String> = node.made["made"]["many"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();

    // The sender: every transaction once across two pages (20 + 11), newest first.
    let (items, pages) = all_pages(&server, &chain, &me).await;
    assert_eq!(pages, 2);
    assert_eq!(items.len(), 32, "3 of the funding, 4 made, 25 more");
    let hashes: Vec<&str> = items.iter().map(|i| i["metadata"]["hash"].as_str().unwrap()).collect();
    let mut newest_first: Vec<&str> = many.iter().rev().map(String::as_str).collect();
    newest_first.extend([rent.as_str(), back.as_str(), token.as_str(), sol.as_str()]);
    assert_eq!(hashes[..29], newest_first[..], "no duplicate, no gap, in the node's order");

    // 1.5 SOL sent: the quantity without the fee; the item's whole shape.
    let item = find(&items, &sol);
    assert_eq!(item["id"], format!("{chain}:{sol}"));
    let m = &item["metadata"];
    assert_eq!((m["chain"].as_str(), m["status"].as_str(), m["nonce"].is_null(), m["spam"].is_null()), (Some(chain.as_str()), Some("confirmed"), true, true));
    let mined_at = m["minedAt"].as_str().unwrap();
    assert!(mined_at.len() == 20 && mined_at.ends_with('Z') && mined_at.as_bytes()[10] == b'T', "{mined_at}");
    assert_eq!(summary(item), ("send".into(), vec![moved("SOL", "out", "1.5")], me.clone(), you.clone()));
    let sol_info = &item["transfers"][0]["fungible_info"];
    assert_eq!(sol_info["name"], "Solana");
    assert_eq!((item["transfers"][0]["value"].as_f64(), item["transfers"][0]["price"].as_f64()), (Some(0.0), Some(0.0)));
    // 2.5 SGLS sent (the receiver's account existed: no SOL moved but the fee).
    let item = find(&items, &token);
    assert_eq!(summary(item), ("send".into(), vec![moved("SGLS", "out", "2.5")], me.clone(), you.clone()));
    assert_eq!((item["transfers"][0]["sender"].as_str(), item["transfers"][0]["recipient"].as_str()), (Some(me.as_str()), Some(you.as_str())));
    assert_eq!(item["transfers"][0]["fungible_info"]["name"], "Sigil Solana Token");
    assert!(item["transfers"][0]["fungible_info"]["icon"]["url"].as_str().unwrap().contains("/public/getTokenImage/SGLS?projectId="));
    // 1 SGLS to a key without a token account: the token, then the rent of the account made for it.
    let third = node.str("/third");
    assert_eq!(summary(find(&items, &rent)), ("send".into(), vec![moved("SGLS", "out", "1"), moved("SOL", "out", "0.00203928")], me.clone(), third));
    // 0.25 SOL received from the other key, which paid the fee.
    assert_eq!(summary(find(&items, &back)), ("receive".into(), vec![moved("SOL", "in", "0.25")], you.clone(), you.clone()));
    let back_in = &find(&items, &back)["transfers"][0];
    assert_eq!((back_in["sender"].as_str(), back_in["recipient"].as_str()), (Some(you.as_str()), Some(me.as_str())));
    // The 25 transfers: 0.001, 0.002, … 0.025 SOL.
    assert_eq!(summary(find(&items, &many[0])).1, vec![moved("SOL", "out", "0.001")]);
    assert_eq!(summary(find(&items, &many[9])).1, vec![moved("SOL", "out", "0.01")]);
    assert_eq!(summary(find(&items, &many[24])).1, vec![moved("SOL", "out", "0.025")]);
    // The funding: 1000 SGLS and 500 of an unlisted token (named by its mint) minted to it, 10 SOL airdropped.
    let oldest: Vec<_> = items[29..].iter().map(summary).collect();
    let short = format!("{}…", &sglx[..4]);
    assert_eq!(oldest[0].1, vec![moved(&short, "in", "500")]);
    assert_eq!(oldest[1].1, vec![moved("SGLS", "in", "1000")]);
    assert_eq!(oldest[2].1, vec![moved("SOL", "in", "10")]);
    assert!(oldest.iter().all(|o| o.0 == "receive"));
    assert_eq!(items[29]["transfers"][0]["fungible_info"]["name"], format!("Token {short}"));
    // An unlisted token gets no icon (its symbol is its deployer's choice); SOL and SGLS do.
    assert_eq!(items[29]["transfers"][0]["fungible_info"]["icon"]["url"], "");
    assert!(items[31]["transfers"][0]["fungible_info"]["icon"]["url"].as_str().unwrap().contains("/public/getTokenImage/SOL?projectId="));

    // The receiver sees the other side with the opposite directions.
    let (theirs, _) = all_pages(&server, &chain, &you).await;
    assert_eq!(theirs.len(), 31);
    assert_eq!(summary(find(&theirs, &sol)), ("receive".into(), vec![moved("SOL", "in", "1.5")], me.clone(), me.clone()));
    assert_eq!(summary(find(&theirs, &token)), ("receive".into(), vec![moved("SGLS", "in", "2.5")], me.clone(), me.clone()));
    assert_eq!(summary(find(&theirs, &back)), ("send".into(), vec![moved("SOL", "out", "0.25")], you.clone(), me.clone()));

    // An address of no transaction: an empty page, no cursor.
    let nobody = bs58::encode([9u8; 32]).into_string();
    let (status, body) = page(&server, &chain, &nobody, None).await;
    assert_eq!((status, body["data"].as_array().map(Vec::len), body["next"].is_null()), (200, Some(0), true));

    // Not a Solana address; not a cursor of this server: 400 naming the parameter.
    let (status, body) = page(&server, &chain, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("invalid_parameter")));
    assert!(body["error"]["message"].as_str().unwrap().contains("'address'"), "{body}");
    let (status, body) = page(&server, &chain, &me, Some("MTIzLjQ")).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("'cursor'"), "{body}");
    // An unconfigured Solana chain: an empty list.
    let (status, body) = page(&server, &chain.replace("SigiL", "Other"), &me, None).await;
    assert_eq!((status, body["data"].as_array().map(Vec::len)), (200, Some(0)));
    // A node that does not answer: 502 in the server's error shape.
    let (status, body) = page(&server, DOWN, &me, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (502, Some("upstream_unavailable")), "{body}");

    server.stop().await;

    // Each call to the node is one of the project's upstream budget: a page of 20 transactions
    // is 21 calls, over a budget of 10 a second; an address without transactions is 1.
    let tight = TestServer::start_with(Backend::Sqlite, &["*"], |c| {
        c.chains = chains.clone();
        c.settings.history.enabled = true;
        c.rpc.requests_per_second = 10;
    })
    .await
    .unwrap();
    let (status, body) = page(&tight, &chain, &me, None).await;
    assert_eq!((status, body["error"]["code"].as_str()), (429, Some("rate_limited")), "{body}");
    let (status, body) = page(&tight, &chain, &nobody, None).await;
    assert_eq!((status, body["data"].as_array().map(Vec::len)), (200, Some(0)), "{body}");
    tight.stop().await;

    // History turned off is off for Solana too: no node is asked.
    let off = TestServer::start_with(Backend::Sqlite, &["*"], |c| c.chains = chains).await.unwrap();
    let (status, body) = page(&off, &chain, &me, None).await;
    assert_eq!((status, body), (200, serde_json::json!({"data": [], "next": null})));
    off.stop().await;
    drop(node);
}
