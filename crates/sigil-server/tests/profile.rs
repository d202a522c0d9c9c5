//! Account names (/v1/profile/*) on SQLite and PostgreSQL: registration by a signed message
//! (EOA and EIP-1271 contract accounts on a real anvil), the name rules and the spec's
//! refusals with their reasons, reads, suggestions, a registration race with one winner, and
//! the CCIP-read gateway's answers, signed and checked exactly as the offchain resolver
//! contract checks them.

mod common;

use std::time::Duration;

use alloy_primitives::U256;
use alloy_primitives::{keccak256, Address, Signature, B256};
use alloy_signer::SignerSync;
use alloy_signer_local::PrivateKeySigner;
use common::{deploy_devchain, dev_chain, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_core::ccip::{self, Record};
use sigil_core::ens::{self, namehash};

/// The dev chain's coin type: 0x80000000 | 31337.
const DEV_COIN: u64 = 0x8000_7a69;
/// anvil's account 0 (owner of the deployment's ContractWallet) and account 1.
const ANVIL_KEY_0: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ANVIL_KEY_1: &str = "59c6995e998f97a0a0ffd4d3ac6ac07ac2bbfc28b3fcb2d6ae4c5d94e7a4d0b2";
/// A gateway signer for tests only.
const SIGNER_KEY: &str = "5e1e000000000000000000000000000000000000000000000000000000000001";

both_backends!(registers_reads_and_refuses, a_registration_race_has_one_winner, names_per_address_is_the_operators);

async fn server(b: Backend, anvil: &Anvil, tweak: impl FnOnce(&mut sigil_server::config::Config)) -> Option<TestServer> {
    let chains = dev_chain(&[&anvil.url]);
    TestServer::start_with(b, &["*"], move |c| {
        c.chains = chains;
        c.rpc.probe_interval = Duration::from_secs(3600);
        c.rpc.retries = 0;
        tweak(c);
    })
    .await
}

fn key(n: u8) -> PrivateKeySigner {
    PrivateKeySigner::from_bytes(&B256::from(U256::from(0x5161_0000u64 + u64::from(n)))).unwrap()
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

fn message(name: &str, timestamp: i64) -> String {
    json!({"name": name, "attributes": {}, "timestamp": timestamp}).to_string()
}

fn signed(signer: &PrivateKeySigner, address: &str, coin_type: u64, message: &str) -> Value {
    let signature = signer.sign_message_sync(message.as_bytes()).unwrap();
    json!({"coin_type": coin_type, "address": address, "message": message, "signature": format!("0x{}", hex::encode(signature.as_bytes()))})
}

fn by(signer: &PrivateKeySigner, name: &str) -> Value {
    signed(signer, &signer.address().to_checksum(None), DEV_COIN, &message(name, now()))
}

async fn register(s: &TestServer, body: &Value) -> (u16, Value) {
    let res = s.http.post(s.api("/v1/profile/account")).json(body).send().await.unwrap();
    (res.status().as_u16(), res.json().await.unwrap_or(Value::Null))
}

/// A refusal: the status, the spec's message and the first reason's field.
fn assert_refused(got: (u16, Value), status: u16, message: &str, field: &str) -> String {
    let (code, body) = got;
    assert_eq!(code, status, "{body}");
    assert_eq!(body["error"]["message"], message, "{body}");
    assert_eq!(body["reasons"][0]["field"], field, "{body}");
    body["reasons"][0]["description"].as_str().unwrap().to_owned()
}

async fn identity(s: &TestServer, path: String) -> (u16, Value) {
    s.get_json(&s.api(&path)).await
}

fn unique(label: &str) -> String {
    format!("{label}-{}", &uuid::Uuid::new_v4().simple().to_string()[..8])
}

async fn registers_reads_and_refuses(b: Backend) {
    let anvil = Anvil::start();
    let Some(s) = server(b, &anvil, |_| {}).await else { return };
    let alice = key(1);
    let alice_addr = alice.address().to_checksum(None);
    let name = format!("{}.sigil.id", unique("alice"));

    // Registered; the name comes back normalised.
    let upper = name.to_uppercase();
    let (status, body) = register(&s, &by(&alice, &upper)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"success": true, "name": name}));

    // Read back: AppKit's apiVersion 2 shape, the address only for the coin type registered.
    let (status, record) = s.get_json(&s.api(&format!("/v1/profile/account/{name}?apiVersion=2"))).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["name"], name);
    assert_eq!(record["addresses"], json!({DEV_COIN.to_string(): {"address": alice_addr, "created": record["registered"]}}));
    assert_eq!(record["attributes"], json!({}));
    assert!((record["registered"].as_i64().unwrap() - now()).abs() < 10);
    assert_eq!(record["updated"], record["registered"]);
    let (status, names) = s.get_json(&s.api(&format!("/v1/profile/reverse/{}?sender={alice_addr}&apiVersion=2", alice_addr.to_lowercase()))).await;
    assert_eq!(status, 200);
    assert_eq!(names, json!([record]));
    assert_eq!(s.get_json(&s.api(&format!("/v1/profile/reverse/{}?apiVersion=2", key(9).address()))).await, (200, json!([])));
    assert_refused(s.get_json(&s.api("/v1/profile/reverse/0x1234")).await, 400, "Error fetching names for address", "address");
    let missing = format!("{}.sigil.id", unique("nobody"));
    let why = assert_refused(s.get_json(&s.api(&format!("/v1/profile/account/{missing}"))).await, 404, "Error resolving name", "name");
    assert!(why.contains("not registered"), "{why}");
    assert_refused(s.get_json(&s.api("/v1/profile/account/ab.sigil.id")).await, 400, "Error resolving name", "name");

    // Taken: 409, whoever asks.
    let bob = key(2);
    let why = assert_refused(register(&s, &by(&bob, &name)).await, 409, &format!("Error registering name {name}"), "name");
    assert_eq!(why, format!("{name} is already registered"));
    // One name per address per zone.
    let second = format!("{}.sigil.id", unique("alice"));
    let why = assert_refused(register(&s, &by(&alice, &second)).await, 409, &format!("Error registering name {second}"), "address");
    assert!(why.contains("already has a name in sigil.id"), "{why}");

    // The name's rules.
    let bob_name = format!("{}.sigil.id", unique("bob"));
    for (bad, words) in [
        ("abc.sigil.id", "at least 4"),
        ("böb1234.sigil.id", "letters, digits and hyphens"),
        ("bobby.eth", "must end with .sigil.id"),
        ("x.bobby.sigil.id", "one label"),
        ("bob..sigil.id", "not a valid name"),
    ] {
        let why = assert_refused(register(&s, &by(&bob, bad)).await, 400, &format!("Error registering name {bad}"), "name");
        assert!(why.contains(words), "{bad}: {why}");
    }
    // A stale (or future) timestamp: the server's time is in the reason.
    for offset in [-600, 600] {
        let body = signed(&bob, &bob.address().to_string(), DEV_COIN, &message(&bob_name, now() + offset));
        let why = assert_refused(register(&s, &body).await, 400, &format!("Error registering name {bob_name}"), "timestamp");
        assert!(why.contains("server's time"), "{why}");
        let server_time: i64 = why.split("server's time ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap();
        assert!((server_time - now()).abs() < 10, "{why}");
    }
    // Signed by someone else: 401 (the chain was asked too: no contract there).
    let forged = signed(&alice, &bob.address().to_string(), DEV_COIN, &message(&bob_name, now()));
    let why = assert_refused(register(&s, &forged).await, 401, &format!("Error registering name {bob_name}"), "signature");
    assert!(why.contains("Invalid signature"), "{why}");
    let mut garbled = by(&bob, &bob_name);
    garbled["signature"] = json!("0xnothex");
    assert_refused(register(&s, &garbled).await, 400, &format!("Error registering name {bob_name}"), "signature");
    // Coin types: not an EVM chain's, or a chain not configured here.
    for (coin, words) in [
        (json!(0x8000_0001u64), "Invalid chainId"),
        (json!(501), "Invalid chainId"),
        (json!(1u64 << 32), "Invalid chainId"),
        (json!(0x8000_000au64), "eip155:10"),
    ] {
        let mut body = by(&bob, &bob_name);
        body["coin_type"] = coin.clone();
        let why = assert_refused(register(&s, &body).await, 400, &format!("Error registering name {bob_name}"), "coin_type");
        assert!(why.contains(words), "{coin}: {why}");
    }
    let mut body = by(&bob, &bob_name);
    body["address"] = json!("0x1234");
    assert_refused(register(&s, &body).await, 400, &format!("Error registering name {bob_name}"), "address");
    // Not JSON, no message fields, attributes that are not text.
    let res = s.http.post(s.api("/v1/profile/account")).body("{").send().await.unwrap();
    assert_refused((res.status().as_u16(), res.json().await.unwrap()), 400, "Error registering name", "body");
    let mut body = by(&bob, &bob_name);
    body["message"] = json!("hello");
    assert_refused(register(&s, &body).await, 400, "Error registering name", "message");
    let body = signed(&bob, &bob.address().to_string(), DEV_COIN, &json!({"name": bob_name, "attributes": {"bio": 7}, "timestamp": now()}).to_string());
    assert_refused(register(&s, &body).await, 400, &format!("Error registering name {bob_name}"), "attributes");
    // None of it was stored; a proper request still goes through, with its attributes.
    let body = signed(&bob, &bob.address().to_string(), 60, &json!({"name": bob_name, "attributes": {"bio": "hi"}, "timestamp": now()}).to_string());
    let (status, body) = register(&s, &body).await;
    assert_eq!(status, 400, "Ethereum is not configured here: {body}");
    let body = signed(&bob, &bob.address().to_string(), DEV_COIN, &json!({"name": bob_name, "attributes": {"bio": "hi"}, "timestamp": now()}).to_string());
    assert_eq!(register(&s, &body).await.0, 200);
    let (_, record) = s.get_json(&s.api(&format!("/v1/profile/account/{bob_name}?apiVersion=2"))).await;
    assert_eq!(record["attributes"], json!({"bio": "hi"}));

    // Suggestions: the name asked for first, then five free names like it.
    let label = name.strip_suffix(".sigil.id").unwrap();
    let (status, body) = s.get_json(&s.api(&format!("/v1/profile/suggestions/{label}?zone=sigil.id"))).await;
    assert_eq!(status, 200, "{body}");
    let list = body["suggestions"].as_array().unwrap();
    assert_eq!(list.len(), 6, "{body}");
    assert_eq!(list[0], json!({"name": name, "registered": true}));
    for s in &list[1..] {
        assert_eq!(s["registered"], false);
        assert!(s["name"].as_str().unwrap().starts_with(label) && s["name"].as_str().unwrap().ends_with(".sigil.id"), "{s}");
    }
    // A free name: first, not registered; a whole name is taken as its label.
    let (_, body) = s.get_json(&s.api(&format!("/v1/profile/suggestions/{missing}"))).await;
    assert_eq!(body["suggestions"][0], json!({"name": missing, "registered": false}));
    assert_refused(s.get_json(&s.api("/v1/profile/suggestions/ab")).await, 400, "Error fetching name suggestions", "name");
    assert_refused(s.get_json(&s.api("/v1/profile/suggestions/alice?zone=other.xyz")).await, 400, "Error fetching name suggestions", "zone");
    // The identity lookup (the Account view) shows the name: per chain when the chain is
    // given; a send's receiver field resolves it for its own chain's coin type only.
    assert_eq!(identity(&s, format!("/v1/identity/{alice_addr}")).await, (200, json!({"name": name, "avatar": null})));
    assert_eq!(identity(&s, format!("/v1/identity/{alice_addr}?chainId=eip155:31337")).await, (200, json!({"name": name, "avatar": null})));
    assert_eq!(identity(&s, format!("/v1/identity/{alice_addr}?chainId=eip155:10")).await, (200, json!({"name": null, "avatar": null})));
    assert_eq!(identity(&s, format!("/v1/identity/{alice_addr}?chainId=solana:abc")).await.0, 400);
    assert_eq!(identity(&s, format!("/v1/identity/resolve/{name}?chainId=eip155:31337")).await, (200, json!({"name": name, "address": alice_addr})));
    assert_eq!(identity(&s, format!("/v1/identity/resolve/{name}?chainId=eip155:1")).await, (200, json!({"name": name, "address": null})));
    assert_eq!(identity(&s, format!("/v1/identity/resolve/{missing}?chainId=eip155:31337")).await, (200, json!({"name": missing, "address": null})));

    // Outside the project gate: refused.
    let res = s.http.get(s.url(&format!("/v1/profile/account/{name}"))).send().await.unwrap();
    assert_eq!(res.status(), 400);
    s.stop().await;
}

async fn a_registration_race_has_one_winner(b: Backend) {
    let anvil = Anvil::start();
    let Some(s) = server(b, &anvil, |_| {}).await else { return };
    let name = format!("{}.sigil.id", unique("race"));
    let bodies: Vec<Value> = (10..22).map(|n| by(&key(n), &name)).collect();
    let answers = futures::future::join_all(bodies.iter().map(|body| register(&s, body))).await;
    let winners: Vec<usize> = answers.iter().enumerate().filter(|(_, (status, _))| *status == 200).map(|(i, _)| i).collect();
    assert_eq!(winners.len(), 1, "{answers:?}");
    for (status, body) in &answers {
        assert!(*status == 200 || (*status == 409 && body["reasons"][0]["field"] == "name"), "{status} {body}");
    }
    let (_, record) = s.get_json(&s.api(&format!("/v1/profile/account/{name}"))).await;
    let winner = key(10 + winners[0] as u8).address().to_checksum(None);
    assert_eq!(record["addresses"][DEV_COIN.to_string()]["address"], winner);
    s.stop().await;
}

async fn names_per_address_is_the_operators(b: Backend) {
    let anvil = Anvil::start();
    let Some(s) = server(b, &anvil, |c| {
        c.settings.names.per_address = 2;
        c.settings.names.zones = "sigil.id,other.xyz".into();
    })
    .await
    else {
        return;
    };
    let carol = key(3);
    // The zones come from the settings; Profile is built from them at start.
    for n in 0..2 {
        assert_eq!(register(&s, &by(&carol, &format!("{}.sigil.id", unique(&format!("carol{n}"))))).await.0, 200);
    }
    let third = format!("{}.sigil.id", unique("carol"));
    let why = assert_refused(register(&s, &by(&carol, &third)).await, 409, &format!("Error registering name {third}"), "address");
    assert!(why.contains("2 names in sigil.id"), "{why}");
    // Another zone is counted apart.
    assert_eq!(register(&s, &by(&carol, &format!("{}.other.xyz", unique("carol")))).await.0, 200);
    // Names asked for by one address at the same moment: no more than it may hold.
    let dave = key(7);
    let bodies: Vec<Value> = (0..6).map(|n| by(&dave, &format!("{}.sigil.id", unique(&format!("dave{n}"))))).collect();
    let answers = futures::future::join_all(bodies.iter().map(|body| register(&s, body))).await;
    assert_eq!(answers.iter().filter(|(status, _)| *status == 200).count(), 2, "{answers:?}");
    for (status, body) in &answers {
        assert!(*status == 200 || (*status == 409 && body["reasons"][0]["field"] == "address"), "{status} {body}");
    }
    let (_, names) = s.get_json(&s.api(&format!("/v1/profile/reverse/{}", dave.address()))).await;
    assert_eq!(names.as_array().unwrap().len(), 2);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn contract_accounts_register_by_eip1271() {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let wallet = deployed["contractWallet"]["address"].as_str().unwrap().to_owned();
    let s = server(Backend::Sqlite, &anvil, |_| {}).await.unwrap();
    let owner: PrivateKeySigner = ANVIL_KEY_0.parse().unwrap();
    let stranger: PrivateKeySigner = ANVIL_KEY_1.parse().unwrap();
    let name = format!("{}.sigil.id", unique("safe"));
    let by_stranger = signed(&stranger, &wallet, DEV_COIN, &message(&name, now()));
    assert_refused(register(&s, &by_stranger).await, 401, &format!("Error registering name {name}"), "signature");
    let (status, body) = register(&s, &signed(&owner, &wallet, DEV_COIN, &message(&name, now()))).await;
    assert_eq!(status, 200, "{body}");
    let (_, record) = s.get_json(&s.api(&format!("/v1/profile/account/{name}"))).await;
    assert_eq!(record["addresses"][DEV_COIN.to_string()]["address"], wallet);
    // With the chain gone, a contract account's check is a 503, never a 5xx of ours: not a 500.
    drop(anvil);
    let other = format!("{}.sigil.id", unique("safe"));
    let (status, body) = register(&s, &signed(&stranger, &wallet, DEV_COIN, &message(&other, now()))).await;
    assert_eq!(status, 503, "{body}");
    s.stop().await;
}

/// What the resolver contract does with an answer: the same hash, the signer recovered.
fn verify_as_the_resolver(resolver: Address, request: &[u8], answer: &[u8]) -> (Address, u64, Vec<u8>) {
    let (result, expires, signature) = ccip::decode_answer(answer).unwrap();
    let mut packed = vec![0x19u8, 0x00];
    packed.extend_from_slice(resolver.as_slice());
    packed.extend_from_slice(&expires.to_be_bytes());
    packed.extend_from_slice(keccak256(request).as_slice());
    packed.extend_from_slice(keccak256(&result).as_slice());
    let hash = keccak256(&packed);
    // ecrecover(hash, v, r, s) with v 27 or 28, as Solidity's.
    assert_eq!(signature.len(), 65);
    assert!(signature[64] == 27 || signature[64] == 28, "v = {}", signature[64]);
    let sig = Signature::from_bytes_and_parity(&signature[..64], signature[64] == 28);
    (sig.recover_address_from_prehash(&hash).unwrap(), expires, result.to_vec())
}

/// `resolve(name, inner)`, the inner call given as the 0x-hex of sigil_core::ens's calls.
fn resolve_call(name: &str, inner: &str) -> Vec<u8> {
    ccip::encode_request(name, &hex::decode(inner.trim_start_matches("0x")).unwrap()).unwrap()
}

async fn gateway(s: &TestServer, resolver: Address, request: &[u8]) -> (u16, Value) {
    s.get_json(&s.url(&format!("/v1/profile/gateway/{resolver}/0x{}.json", hex::encode(request)))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gateway_answers_are_signed_as_the_resolver_checks() {
    let anvil = Anvil::start();
    let s = server(Backend::Sqlite, &anvil, |c| c.settings.names.signer_key = Some(SIGNER_KEY.parse().unwrap())).await.unwrap();
    let signer: PrivateKeySigner = SIGNER_KEY.parse().unwrap();
    let alice = key(4);
    let name = format!("{}.sigil.id", unique("alice"));
    let body = signed(&alice, &alice.address().to_string(), DEV_COIN, &json!({"name": name, "attributes": {"bio": "gm"}, "timestamp": now()}).to_string());
    assert_eq!(register(&s, &body).await.0, 200);
    let resolver: Address = "0x00000000000000000000000000000000000005e1".parse().unwrap();
    let node = namehash(&name);
    let addr_of = |a: Option<Address>| ccip::encode_result(&Record::Addr, a, None);
    let bytes_of = |a: Option<Address>| ccip::encode_result(&Record::AddrOf(U256::ZERO), a, None);
    let text_of = |t: &str| ccip::encode_result(&Record::Name, None, Some(t));

    let signer_address = signer.address();
    let ask = |request: Vec<u8>| {
        let s = &s;
        async move {
            let (status, body) = gateway(s, resolver, &request).await;
            assert_eq!(status, 200, "{body}");
            let answer = hex::decode(body["data"].as_str().unwrap().trim_start_matches("0x")).unwrap();
            let (recovered, expires, result) = verify_as_the_resolver(resolver, &request, &answer);
            assert_eq!(recovered, signer_address);
            assert!((expires as i64 - now() - 300).abs() < 10, "expires {expires}");
            result
        }
    };
    // The dev chain's coin type gives the address; Ethereum's (addr(node) and coin type 60) nothing.
    let result = ask(resolve_call(&name, &ens::addr_for_coin_call(&node, DEV_COIN))).await;
    assert_eq!(result, bytes_of(Some(alice.address())));
    assert_eq!(ens::decode_coin_address(&format!("0x{}", hex::encode(&result))), Some(format!("{:#x}", alice.address())));
    let result = ask(resolve_call(&name, &ens::addr_for_coin_call(&node, 60))).await;
    assert_eq!(result, bytes_of(None));
    let result = ask(resolve_call(&name, &ens::addr_call(&node))).await;
    assert_eq!(result, addr_of(None));
    assert_eq!(result, [0u8; 32]);
    let result = ask(resolve_call(&name, &ens::text_call(&node, "bio"))).await;
    assert_eq!(ens::decode_string(&format!("0x{}", hex::encode(&result))).as_deref(), Some("gm"));
    // The reverse node of the address for the dev chain's coin type (ENSIP-19) names it.
    let reverse = format!("{}.80007a69.reverse", hex::encode(alice.address()));
    let result = ask(resolve_call(&reverse, &ens::name_call(&namehash(&reverse)))).await;
    assert_eq!(result, text_of(&name));
    let on_mainnet = format!("{}.addr.reverse", hex::encode(alice.address()));
    let result = ask(resolve_call(&on_mainnet, &ens::name_call(&namehash(&on_mainnet)))).await;
    assert_eq!(result, text_of(""));
    // Unknown names and names outside the zones: the empty answer, signed.
    for other in [format!("{}.sigil.id", unique("nobody")), "alice.eth".to_owned()] {
        let result = ask(resolve_call(&other, &ens::addr_call(&namehash(&other)))).await;
        assert_eq!(result, addr_of(None));
    }
    // Answers are kept a while (signing is their cost), but a registration is never hidden by
    // one: an empty answer asked just before the name is registered is not served after it.
    let later = format!("{}.sigil.id", unique("later"));
    let bob = key(5);
    let ask_later = || ask(resolve_call(&later, &ens::addr_for_coin_call(&namehash(&later), DEV_COIN)));
    assert_eq!(ask_later().await, bytes_of(None));
    assert_eq!(ask_later().await, bytes_of(None));
    let body = signed(&bob, &bob.address().to_string(), DEV_COIN, &message(&later, now()));
    assert_eq!(register(&s, &body).await.0, 200);
    assert_eq!(ask_later().await, bytes_of(Some(bob.address())));

    // The POST form answers the same.
    let request = resolve_call(&name, &ens::text_call(&node, "bio"));
    let res =
        s.http.post(s.url("/v1/profile/gateway")).json(&json!({"sender": resolver, "data": format!("0x{}", hex::encode(&request))})).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let answer = hex::decode(body["data"].as_str().unwrap().trim_start_matches("0x")).unwrap();
    assert_eq!(verify_as_the_resolver(resolver, &request, &answer).0, signer.address());
    // Readable from any page (ENS clients run in browsers), the POST's preflight answered.
    let res = s.http.get(s.url(&format!("/v1/profile/gateway/{resolver}/0x{}.json", hex::encode(&request)))).send().await.unwrap();
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    let res = s.http.request(reqwest::Method::OPTIONS, s.url("/v1/profile/gateway")).header("origin", "https://wallet.example").send().await.unwrap();
    assert_eq!(res.status(), 204);
    assert_eq!(res.headers()["access-control-allow-origin"], "*");
    assert_eq!(res.headers()["access-control-allow-headers"], "content-type");
    // Another resolver's answer does not verify for this one.
    assert_ne!(verify_as_the_resolver("0x00000000000000000000000000000000000005e2".parse().unwrap(), &request, &answer).0, signer.address());

    // Bad data: 400.
    for (sender, data) in [
        (resolver.to_string(), "0x1234".to_owned()),
        (resolver.to_string(), "nothex".to_owned()),
        ("0x12".to_owned(), format!("0x{}", hex::encode(&request))),
        (resolver.to_string(), format!("0x{}", hex::encode(resolve_call(&name, "0x01020304")))),
        (resolver.to_string(), format!("0x{}", hex::encode(resolve_call(&name, &ens::addr_call(&[0; 32]))))),
    ] {
        let (status, body) = s.get_json(&s.url(&format!("/v1/profile/gateway/{sender}/{data}"))).await;
        assert_eq!(status, 400, "{sender} {data}: {body}");
    }
    s.stop().await;

    // Without a signer key: 503 from the gateway; the rest of the area works.
    let s = server(Backend::Sqlite, &anvil, |_| {}).await.unwrap();
    assert_eq!(gateway(&s, resolver, &request).await.0, 503);
    assert_eq!(s.get_json(&s.api("/v1/profile/suggestions/alice")).await.0, 200);
    s.stop().await;
}

/// The dev chain's names signer key (devchain/deploy.mjs DEV_NAMES_SIGNER_KEY: dev only).
const DEV_NAMES_SIGNER_KEY: &str = "3cd2e9b3a2fcc4dd50078cb0011b92ee4b4075d95e83f586e3f2288cb3dd7858";

/// deploy.mjs with the names gateway at `gateway`.
fn deploy_with_gateway(rpc_url: &str, gateway: &str) -> Value {
    let root = common::repo_root();
    let out = tempfile::NamedTempFile::new().unwrap();
    let status = std::process::Command::new("node")
        .arg(root.join("devchain/deploy.mjs"))
        .args(["--rpc", rpc_url, "--names-gateway", gateway, "--out"])
        .arg(out.path())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("node runs");
    assert!(status.success(), "deploy.mjs failed");
    serde_json::from_str(&std::fs::read_to_string(out.path()).unwrap()).unwrap()
}

/// devchain/resolve.mjs: viem's getEnsAddress or getEnsName through the universal resolver,
/// CCIP-read on.
fn viem(rpc_url: &str, universal_resolver: &str, args: &[&str]) -> Value {
    let out = std::process::Command::new("node")
        .arg(common::repo_root().join("devchain/resolve.mjs"))
        .args(["--rpc", rpc_url, "--universal-resolver", universal_resolver])
        .args(args)
        .output()
        .expect("node runs");
    assert!(out.status.success(), "resolve.mjs {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_ens_client_resolves_names_through_the_gateway() {
    let anvil = Anvil::start();
    let s = server(Backend::Sqlite, &anvil, |c| c.settings.names.signer_key = Some(DEV_NAMES_SIGNER_KEY.parse().unwrap())).await.unwrap();
    let deployed = deploy_with_gateway(&anvil.url, &format!("{}/v1/profile/gateway/{{sender}}/{{data}}.json", s.base));
    let names = &deployed["names"];
    let signer: PrivateKeySigner = DEV_NAMES_SIGNER_KEY.parse().unwrap();
    assert_eq!(names["signer"], signer.address().to_checksum(None));
    assert_eq!(names["zone"], "sigil.id");
    let universal = names["universalResolver"].as_str().unwrap().to_owned();

    let alice = key(5);
    let alice_addr = alice.address().to_checksum(None);
    let name = format!("{}.sigil.id", unique("alice"));
    assert_eq!(register(&s, &by(&alice, &name)).await.0, 200);
    let coin = DEV_COIN.to_string();

    // Forward, per chain: the dev chain's coin type gives the address; Ethereum's gives none.
    assert_eq!(viem(&anvil.url, &universal, &["--name", &name, "--coin-type", &coin]), json!({"address": alice_addr}));
    assert_eq!(viem(&anvil.url, &universal, &["--name", &name]), json!({"address": null}));
    assert_eq!(viem(&anvil.url, &universal, &["--name", &format!("{}.sigil.id", unique("nobody")), "--coin-type", &coin]), json!({"address": null}));
    // Reverse (ENSIP-19, verified forward by the universal resolver) for the dev chain only.
    assert_eq!(viem(&anvil.url, &universal, &["--address", &alice_addr, "--coin-type", &coin]), json!({"name": name}));
    assert_eq!(viem(&anvil.url, &universal, &["--address", &alice_addr]), json!({"name": null}));
    assert_eq!(viem(&anvil.url, &universal, &["--address", &key(6).address().to_string(), "--coin-type", &coin]), json!({"name": null}));
    // Names on chain (the dev registry's own resolver) still resolve through it.
    let onchain = &deployed["ens"]["names"][0];
    assert_eq!(viem(&anvil.url, &universal, &["--name", "alice.eth"]), json!({"address": onchain["address"]}));
    assert_eq!(viem(&anvil.url, &universal, &["--address", onchain["address"].as_str().unwrap()]), json!({"name": "alice.eth"}));

    // The resolver takes the server's answer only for itself, signed by its signer.
    let resolver: Address = names["offchainResolver"].as_str().unwrap().parse().unwrap();
    let request = resolve_call(&name, &ens::addr_for_coin_call(&namehash(&name), DEV_COIN));
    let with_proof = |answer: &[u8]| {
        let mut data = keccak256("resolveWithProof(bytes,bytes)")[..4].to_vec();
        data.extend(abi_two_bytes(answer, &request));
        format!("0x{}", hex::encode(data))
    };
    let (_, body) = gateway(&s, resolver, &request).await;
    let answer = hex::decode(body["data"].as_str().unwrap().trim_start_matches("0x")).unwrap();
    let result = common::rpc(&anvil.url, "eth_call", json!([{"to": resolver, "data": with_proof(&answer)}, "latest"])).await;
    let expected = ccip::encode_result(&Record::AddrOf(U256::ZERO), Some(alice.address()), None);
    assert!(result.as_str().unwrap().contains(&hex::encode(&expected)), "{result}");
    let (_, body) = gateway(&s, "0x00000000000000000000000000000000000005e1".parse().unwrap(), &request).await;
    let for_another = hex::decode(body["data"].as_str().unwrap().trim_start_matches("0x")).unwrap();
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [{"to": resolver, "data": with_proof(&for_another)}, "latest"]});
    let reply: Value = reqwest::Client::new().post(&anvil.url).json(&call).send().await.unwrap().json().await.unwrap();
    assert!(reply["error"]["message"].as_str().unwrap_or("").contains("revert"), "{reply}");
    s.stop().await;
}

/// `abi.encode(bytes a, bytes b)`.
fn abi_two_bytes(a: &[u8], b: &[u8]) -> Vec<u8> {
    let padded = |x: &[u8]| x.len().div_ceil(32) * 32;
    let word = |n: usize| {
        let mut w = [0u8; 32];
        w[24..].copy_from_slice(&(n as u64).to_be_bytes());
        w
    };
    let mut out = Vec::new();
    out.extend(word(64));
    out.extend(word(64 + 32 + padded(a)));
    for x in [a, b] {
        out.extend(word(x.len()));
        out.extend(x);
        out.extend(vec![0u8; padded(x) - x.len()]);
    }
    out
}

#[test]
fn names_settings_are_checked_at_start() {
    use sigil_server::config::{Config, Seconds, ServeArgs};
    let err = |f: fn(&mut ServeArgs)| {
        let mut args = ServeArgs::default();
        f(&mut args);
        Config::from_args(&args).unwrap_err().to_string()
    };
    assert!(err(|a| a.settings.names_zones = Some("nodot".into())).starts_with("invalid names-zones (SIGIL_NAMES_ZONES): 'nodot'"));
    assert!(err(|a| a.settings.names_zones = Some(" , ".into())).contains("at least one zone"));
    assert_eq!(
        err(|a| a.settings.names_timestamp_window = Some(Seconds(5))),
        "invalid names-timestamp-window (SIGIL_NAMES_TIMESTAMP_WINDOW): 5 is outside 10..=3600"
    );
    assert_eq!(err(|a| a.settings.names_per_address = Some(0)), "invalid names-per-address (SIGIL_NAMES_PER_ADDRESS): must be at least 1");
    // A bad key is refused without being repeated.
    let message = err(|a| a.settings.names_signer_key = Some("0xdeadbeef".parse().unwrap()));
    assert_eq!(message, "invalid names-signer-key (SIGIL_NAMES_SIGNER_KEY): expected 64 hex digits");
    // A good one is never shown.
    let mut args = ServeArgs::default();
    args.settings.names_signer_key = Some(DEV_NAMES_SIGNER_KEY.parse().unwrap());
    args.settings.names_zones = Some("Sigil.ID, example.xyz".into());
    let config = Config::from_args(&args).unwrap();
    assert!(!format!("{config:?}").contains(DEV_NAMES_SIGNER_KEY));
    let profile = sigil_server::profile::Profile::new(&config.settings.names);
    assert_eq!(profile.zones, ["sigil.id", "example.xyz"]);
    assert_eq!(profile.signer.unwrap().address().to_checksum(None), "0x9ec3A80B369d41f3C3affE5c94E7F829577E8F44");
}
