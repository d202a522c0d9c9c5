//! GET /v1/identity/{address} against real anvil with the dev chain's own name registry
//! (devchain/contracts/NameRegistry.sol, NameResolver.sol): verified reverse names, avatars,
//! the forward check, bad input, the 5-minute cache and a dead upstream.

mod common;

use std::time::Duration;

use common::{deploy_devchain, dev_chain, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_server::chains::Chains;

const DEV: &str = "eip155:31337";

async fn server_for(chains: Chains) -> TestServer {
    TestServer::start_with(Backend::Sqlite, &["*"], move |c| {
        c.chains = chains;
        c.rpc.probe_interval = Duration::from_secs(3600);
        c.rpc.retries = 0;
    })
    .await
    .unwrap()
}

async fn identity(s: &TestServer, address: &str) -> (u16, Value) {
    s.get_json(&s.api(&format!("/v1/identity/{address}"))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolves_verified_names_and_avatars() {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let names = &deployed["ens"]["names"];
    let (alice, bob) = (&names[0], &names[1]);
    assert_eq!((alice["name"].as_str(), bob["name"].as_str()), (Some("alice.eth"), Some("bob.eth")));
    let claimer = deployed["ens"]["unverified"][0]["address"].as_str().unwrap();

    let mut chains = dev_chain(&[&anvil.url]);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let s = server_for(chains).await;

    let alice_addr = alice["address"].as_str().unwrap();
    let (status, body) = identity(&s, alice_addr).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"name": "alice.eth", "avatar": alice["avatar"]}));
    assert!(body["avatar"].as_str().unwrap().starts_with("data:image/svg+xml;base64,"));

    // No avatar record; the address given without 0x and in upper case.
    let bob_bare = bob["address"].as_str().unwrap()[2..].to_ascii_uppercase();
    let (status, body) = identity(&s, &format!("{bob_bare}?sender={alice_addr}")).await;
    assert_eq!((status, body), (200, json!({"name": "bob.eth", "avatar": null})));

    // A reverse record whose name points elsewhere is not shown; no record at all gives nulls.
    assert_eq!(identity(&s, claimer).await, (200, json!({"name": null, "avatar": null})));
    assert_eq!(identity(&s, deployed["deployer"].as_str().unwrap()).await, (200, json!({"name": null, "avatar": null})));

    // Bad input: a clear 400 naming the parameter.
    let (status, body) = identity(&s, "0x1234").await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("address"), "{body}");
    let (status, body) = identity(&s, &format!("{alice_addr}?sender=bob")).await;
    assert_eq!(status, 400);
    assert!(body["error"]["message"].as_str().unwrap().contains("sender"), "{body}");
    let res = s.http.get(s.url(&format!("/v1/identity/{alice_addr}?projectId=00000000000000000000000000000000"))).send().await.unwrap();
    assert_eq!(res.status(), 403);

    // Cached for 5 minutes: with the chain gone, a known answer still comes back at once, while
    // an address never looked up gets a quick 503, not a hang.
    drop(anvil);
    assert_eq!(identity(&s, alice_addr).await.1["name"], "alice.eth");
    let started = std::time::Instant::now();
    let (status, body) = identity(&s, "0x000000000000000000000000000000000000dEaD").await;
    assert_eq!(status, 503, "{body}");
    assert!(body["error"]["message"].as_str().unwrap().contains("unavailable"), "{body}");
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    // The failure was not cached as "no name".
    assert_eq!(identity(&s, "0x000000000000000000000000000000000000dEaD").await.0, 503);
    s.stop().await;
}

async fn resolve(s: &TestServer, name: &str, chain: &str) -> (u16, Value) {
    s.get_json(&s.api(&format!("/v1/identity/resolve/{name}?chainId={chain}"))).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolves_names_forward_for_the_chains_coin_type_only() {
    let anvil = Anvil::start();
    let deployed = deploy_devchain(&anvil.url);
    let names = &deployed["ens"]["names"];
    let mut chains = dev_chain(&[&anvil.url]);
    chains.apply_deployment(&deployed.to_string()).unwrap();
    let s = server_for(chains).await;

    // On the registry's own chain (the dev chain): addr(node), the EIP-55 address.
    let (status, body) = resolve(&s, "alice.eth", DEV).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body, json!({"name": "alice.eth", "address": names[0]["address"]}));
    // Normalised first (ENSIP-15).
    assert_eq!(resolve(&s, "Bob.ETH", DEV).await, (200, json!({"name": "bob.eth", "address": names[1]["address"]})));
    // A name without a record gives null, not an error.
    assert_eq!(resolve(&s, "nobody.eth", DEV).await, (200, json!({"name": "nobody.eth", "address": null})));
    // Another chain asks its own coin type (ENSIP-11), which the dev resolver does not hold:
    // Ethereum's address is never given for another chain.
    assert_eq!(resolve(&s, "alice.eth", "eip155:10").await, (200, json!({"name": "alice.eth", "address": null})));

    // Bad input: the parameter is named.
    for (name, chain, param) in
        [("alice", DEV, "name"), ("al%20ice.eth", DEV, "name"), ("alice.eth", "solana:abc", "chainId"), ("alice.eth", "eip155:4294967296", "chainId")]
    {
        let (status, body) = resolve(&s, name, chain).await;
        assert_eq!(status, 400, "{name} {chain}: {body}");
        assert!(body["error"]["message"].as_str().unwrap().contains(param), "{body}");
    }
    let (status, _) = s.get_json(&s.api("/v1/identity/resolve/alice.eth")).await;
    assert_eq!(status, 400);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_registry_every_answer_is_null() {
    let anvil = Anvil::start();
    let s = server_for(dev_chain(&[&anvil.url])).await;
    let (status, body) = identity(&s, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8").await;
    assert_eq!((status, body), (200, json!({"name": null, "avatar": null})));
    assert_eq!(resolve(&s, "alice.eth", DEV).await, (200, json!({"name": "alice.eth", "address": null})));
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registry_address_without_a_contract_means_no_names() {
    // Ethereum's registry address on a fresh anvil holds no code: every eth_call answers 0x.
    let anvil = Anvil::start();
    let mut chains = dev_chain(&[&anvil.url]);
    let dev = chains.by_id.get_mut(DEV).unwrap();
    dev.ens_registry = Some("0x00000000000C2E074eC69A0dFb2997BA6C7d2e1e".into());
    chains.ens_chain = Some(DEV.into());
    let s = server_for(chains).await;
    assert_eq!(identity(&s, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8").await, (200, json!({"name": null, "avatar": null})));
    s.stop().await;
}
