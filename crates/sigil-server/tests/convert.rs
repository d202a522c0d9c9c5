//! Swaps against a real anvil with the dev chain deployed (its Uniswap V2 factory, WETH9,
//! router and pools from devchain/deploy.mjs), on SQLite (the area stores nothing): the token
//! list, quotes equal to the router's own getAmountsOut (direct, and through WETH for a token
//! with only an ETH pool), no route, not enough liquidity, balance and allowance issues, gas
//! prices, exact and unlimited approvals sent and read back, the USDT-style reset, and swaps
//! built by the server and sent from an unlocked account changing balances by the quoted
//! amount; and every endpoint's bad input as a 400 in the API's error shape.

mod common;

use alloy_dyn_abi::DynSolValue;
use alloy_primitives::{keccak256, Address, U256};
use common::{deploy_devchain, receipt, rpc, Anvil, Backend, TestServer};
use serde_json::{json, Value};
use sigil_core::evm::{self, UniswapV2Router};
use sigil_server::chains::Chains;

const DEV: &str = "eip155:31337";
const NATIVE: &str = "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
const ONE_ETH: u128 = 1_000_000_000_000_000_000;
/// anvil's accounts 5, 7 and 8: untouched by the deployment (it uses 0..3).
const MAKER: &str = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc";
const ME: &str = "0x14dC79964da2C08b23698B3D3cc7Ca32193d9955";
const POOR: &str = "0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f";

struct Dev {
    anvil: Anvil,
    server: TestServer,
    router: String,
    weth: String,
    sgl: String,
    usdt: String,
}

impl Dev {
    async fn start() -> Dev {
        let anvil = Anvil::start();
        let deployed = deploy_devchain(&anvil.url);
        let mut chains = Chains::built_in();
        chains.apply_deployment(&deployed.to_string()).unwrap();
        let server = TestServer::start_with(Backend::Sqlite, &["*"], move |c| c.chains = chains).await.unwrap();
        let token =
            |symbol: &str| deployed["tokens"].as_array().unwrap().iter().find(|t| t["symbol"] == symbol).unwrap()["address"].as_str().unwrap().to_owned();
        let v2 = &deployed["uniswapV2"];
        Dev {
            router: v2["router"].as_str().unwrap().to_owned(),
            weth: v2["weth"].as_str().unwrap().to_owned(),
            sgl: token("SGL"),
            usdt: token("USDT"),
            anvil,
            server,
        }
    }

    fn id(&self, address: &str) -> String {
        format!("{DEV}:{address}")
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        self.server.get_json(&self.server.api(path)).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let res = self.server.http.post(self.server.api(path)).json(&body).send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(Value::Null))
    }

    async fn quote(&self, from: &str, to: &str, amount: &str, user: &str) -> (u16, Value) {
        self.get(&format!("/v1/convert/quotes?amount={amount}&userAddress={DEV}:{user}&from={from}&to={to}&gasPrice=1000000000")).await
    }

    /// The router's own quote along `path`, called directly on the node.
    async fn amounts_out(&self, amount: U256, path: &[&str]) -> Vec<U256> {
        let path: Vec<Address> = path.iter().map(|a| a.parse().unwrap()).collect();
        let data = evm::call_data(&UniswapV2Router::getAmountsOutCall { amountIn: amount, path });
        let out = rpc(&self.anvil.url, "eth_call", json!([{"to": self.router, "data": data}, "latest"])).await;
        evm::decode_return::<UniswapV2Router::getAmountsOutCall>(out.as_str().unwrap()).unwrap()
    }

    async fn token_balance(&self, token: &str, owner: &str) -> U256 {
        let data = evm::call_data(&evm::balanceOfCall { owner: owner.parse().unwrap() });
        let out = rpc(&self.anvil.url, "eth_call", json!([{"to": token, "data": data}, "latest"])).await;
        evm::decode_return::<evm::balanceOfCall>(out.as_str().unwrap()).unwrap()
    }

    async fn eth_balance(&self, owner: &str) -> U256 {
        quantity(&rpc(&self.anvil.url, "eth_getBalance", json!([owner, "latest"])).await)
    }

    async fn allowance(&self, token: &str, owner: &str) -> String {
        let (status, body) = self.get(&format!("/v1/convert/allowance?tokenAddress={}&userAddress={DEV}:{owner}", self.id(token))).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["spender"].as_str().unwrap().to_lowercase(), self.id(&self.router).to_lowercase());
        body["allowance"].as_str().unwrap().to_owned()
    }

    /// Sends a transaction the server built (`to` as CAIP-10 or 0x) from an unlocked account;
    /// its receipt, which must be a success.
    async fn send_built(&self, from: &str, tx: &Value, gas: Option<&str>) -> Value {
        let to = tx["to"].as_str().unwrap().rsplit(':').next().unwrap();
        let mut call = json!({"from": from, "to": to, "data": tx["data"]});
        if let Some(value) = tx.get("value").and_then(Value::as_str) {
            call["value"] = format!("{:#x}", U256::from_str_radix(value, 10).unwrap()).into();
        }
        if let Some(gas) = gas {
            call["gas"] = format!("{:#x}", U256::from_str_radix(gas, 10).unwrap()).into();
        }
        send(&self.anvil.url, call).await
    }
}

fn quantity(v: &Value) -> U256 {
    U256::from_str_radix(v.as_str().unwrap().trim_start_matches("0x"), 16).unwrap()
}

fn number(v: &Value) -> U256 {
    U256::from_str_radix(v.as_str().unwrap_or_else(|| panic!("not a decimal string: {v}")), 10).unwrap()
}

async fn send(anvil: &str, tx: Value) -> Value {
    let hash = rpc(anvil, "eth_sendTransaction", json!([tx])).await;
    let receipt = receipt(anvil, hash.as_str().unwrap()).await;
    assert_eq!(receipt["status"], "0x1", "{receipt}");
    receipt
}

/// What a receipt's transaction paid for gas, in wei.
fn gas_paid(receipt: &Value) -> U256 {
    quantity(&receipt["gasUsed"]) * quantity(&receipt["effectiveGasPrice"])
}

/// Call data of `signature` with `args`.
fn calldata(signature: &str, args: Vec<DynSolValue>) -> String {
    let selector = &keccak256(signature.as_bytes())[..4];
    format!("0x{}{}", alloy_primitives::hex::encode(selector), alloy_primitives::hex::encode(DynSolValue::Tuple(args).abi_encode_params()))
}

fn address(a: &str) -> DynSolValue {
    DynSolValue::Address(a.parse().unwrap())
}

fn uint(n: U256) -> DynSolValue {
    DynSolValue::Uint(n, 256)
}

/// A new 18-decimal token minted to `MAKER` with an ETH pool only (100 NEW : 1 ETH).
async fn token_with_an_eth_pool(dev: &Dev) -> String {
    let artifact: Value = serde_json::from_str(&std::fs::read_to_string(common::repo_root().join("devchain/build/SigilToken.json")).unwrap()).unwrap();
    let supply = U256::from(1_000_000u64) * U256::from(ONE_ETH);
    let args =
        DynSolValue::Tuple(vec![DynSolValue::String("New".into()), DynSolValue::String("NEW".into()), DynSolValue::Uint(U256::from(18), 8), uint(supply)]);
    let data = format!("{}{}", artifact["bytecode"].as_str().unwrap(), alloy_primitives::hex::encode(args.abi_encode_params()));
    let receipt = send(&dev.anvil.url, json!({"from": MAKER, "data": data})).await;
    let token = evm::checksummed(receipt["contractAddress"].as_str().unwrap());
    let hundred = U256::from(100u64) * U256::from(ONE_ETH);
    send(&dev.anvil.url, json!({"from": MAKER, "to": token, "data": calldata("approve(address,uint256)", vec![address(&dev.router), uint(hundred)])})).await;
    let add = calldata(
        "addLiquidityETH(address,uint256,uint256,uint256,address,uint256)",
        vec![address(&token), uint(hundred), uint(U256::ZERO), uint(U256::ZERO), address(MAKER), uint(U256::from(4_102_444_800u64))],
    );
    send(&dev.anvil.url, json!({"from": MAKER, "to": dev.router, "data": add, "value": format!("{ONE_ETH:#x}")})).await;
    token
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_quotes_routes_and_gas_prices() {
    let dev = Dev::start().await;

    // The token list: the native coin first, then the chain's tokens, CAIP-10.
    let (status, body) = dev.get(&format!("/v1/convert/tokens?chainId={DEV}")).await;
    assert_eq!(status, 200, "{body}");
    let tokens = body["tokens"].as_array().unwrap();
    assert_eq!(tokens[0]["address"], NATIVE);
    assert_eq!((tokens[0]["symbol"].as_str(), tokens[0]["decimals"].as_u64()), (Some("ETH"), Some(18)));
    let symbols: Vec<&str> = tokens.iter().map(|t| t["symbol"].as_str().unwrap()).collect();
    assert_eq!(symbols, ["ETH", "SGL", "USDC", "USDT"]);
    assert_eq!(tokens[1]["address"], dev.id(&dev.sgl));
    assert!(tokens[1]["logoUri"].as_str().unwrap().contains("/public/getTokenImage/SGL"), "{}", tokens[1]);

    // ETH -> SGL: exactly the router's getAmountsOut on the direct pool.
    let amount = U256::from(ONE_ETH);
    let (status, body) = dev.quote(NATIVE, &dev.id(&dev.sgl), &amount.to_string(), ME).await;
    assert_eq!(status, 200, "{body}");
    let quote = &body["quotes"][0];
    let direct = dev.amounts_out(amount, &[&dev.weth, &dev.sgl]).await;
    assert_eq!(number(&quote["toAmount"]), direct[1]);
    assert!(direct[1] > U256::from(900u64) * U256::from(ONE_ETH), "about 906.6 SGL for 1 ETH: {}", direct[1]);
    assert_eq!(number(&quote["toAmountMin"]), direct[1] * U256::from(99u64) / U256::from(100u64));
    assert_eq!(
        (quote["fromAmount"].as_str(), quote["fromAccount"].as_str(), quote["toAccount"].as_str()),
        (Some("1000000000000000000"), Some(NATIVE), Some(dev.id(&dev.sgl).as_str()))
    );
    assert_eq!(quote["id"], Value::Null);
    assert_eq!(quote["route"], json!([dev.id(&dev.weth), dev.id(&dev.sgl)]));
    assert_eq!(quote["source"], "uniswap_v2");
    assert_eq!(quote["slippage"], 1.0);
    // 1 ETH into a 10 ETH pool moves the price by about 1/11.
    let impact = quote["priceImpact"].as_f64().unwrap();
    assert!((8.5..9.5).contains(&impact), "{impact}");
    // Asked again, the pair now known: its reserves come in the quote's own batch, same figures.
    let (status, again) = dev.quote(NATIVE, &dev.id(&dev.sgl), &amount.to_string(), ME).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!((&again["quotes"][0]["toAmount"], &again["quotes"][0]["priceImpact"]), (&quote["toAmount"], &quote["priceImpact"]));
    assert_eq!(quote["issues"], json!([]), "account 7 has 10000 ETH and needs no allowance to sell it");
    // A slippage of its own.
    let (_, body) = dev.get(&format!("/v1/convert/quotes?amount={amount}&from={NATIVE}&to={}&slippage=0.5", dev.id(&dev.sgl))).await;
    assert_eq!(number(&body["quotes"][0]["toAmountMin"]), direct[1] * U256::from(995u64) / U256::from(1000u64));

    // A token with only an ETH pool reaches USDT through WETH: the router's quote along that path.
    let new = token_with_an_eth_pool(&dev).await;
    let ten = U256::from(10u64) * U256::from(ONE_ETH);
    let (status, body) = dev.quote(&dev.id(&new), &dev.id(&dev.usdt), &ten.to_string(), MAKER).await;
    assert_eq!(status, 200, "{body}");
    let quote = &body["quotes"][0];
    let via_weth = dev.amounts_out(ten, &[&new, &dev.weth, &dev.usdt]).await;
    assert_eq!(number(&quote["toAmount"]), via_weth[2]);
    assert_eq!(quote["route"], json!([dev.id(&new), dev.id(&dev.weth), dev.id(&dev.usdt)]));
    assert!(quote["priceImpact"].as_f64().is_some(), "{quote}");
    // MAKER holds NEW but has allowed the router nothing more: an allowance issue, in words.
    let codes: Vec<&str> = quote["issues"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["insufficient_allowance"]);
    assert!(quote["issues"][0]["message"].as_str().unwrap().starts_with("Insufficient allowance"), "{quote}");

    // SGL -> USDT: the best of the direct pool and the path through WETH wins.
    let sgl_amount = U256::from(100u64) * U256::from(ONE_ETH);
    let (_, body) = dev.quote(&dev.id(&dev.sgl), &dev.id(&dev.usdt), &sgl_amount.to_string(), POOR).await;
    let direct = dev.amounts_out(sgl_amount, &[&dev.sgl, &dev.usdt]).await[1];
    let through = dev.amounts_out(sgl_amount, &[&dev.sgl, &dev.weth, &dev.usdt]).await[2];
    assert_eq!(number(&body["quotes"][0]["toAmount"]), direct.max(through), "{body}");
    // An account with no SGL: both issues.
    let codes: Vec<&str> = body["quotes"][0]["issues"].as_array().unwrap().iter().map(|i| i["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["insufficient_balance", "insufficient_allowance"]);

    // No pool at all for an unknown token: no route, in words.
    let unknown = dev.id("0x1111111111111111111111111111111111111111");
    let (status, body) = dev.quote(&unknown, &dev.id(&dev.sgl), "1000", ME).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["code"], "no_route");
    assert!(body["error"]["message"].as_str().unwrap().starts_with("No route"), "{body}");
    // A pool that gives nothing for 1 wei: not enough liquidity.
    let (status, body) = dev.quote(&dev.id(&dev.sgl), NATIVE, "1", ME).await;
    assert_eq!((status, body["error"]["code"].as_str()), (400, Some("insufficient_liquidity")), "{body}");
    // A spec swap network with no source here, and a configured chain without one.
    for chain in ["eip155:324", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"] {
        let (status, body) = dev.get(&format!("/v1/convert/tokens?chainId={chain}")).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Network not supported for Swaps")), "{body}");
        let (status, body) = dev.get(&format!("/v1/convert/gas-price?chainId={chain}")).await;
        assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Network not supported for Gas Price")), "{body}");
    }
    let (status, body) =
        dev.quote("eip155:324:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "eip155:324:0x1111111111111111111111111111111111111111", "1", ME).await;
    assert_eq!((status, body["error"]["message"].as_str()), (400, Some("Network not supported for Swaps")), "{body}");

    // Gas prices: wei, standard <= fast <= instant.
    let (status, body) = dev.get(&format!("/v1/convert/gas-price?chainId={DEV}")).await;
    assert_eq!(status, 200, "{body}");
    let (standard, fast, instant) = (number(&body["standard"]), number(&body["fast"]), number(&body["instant"]));
    assert!(!standard.is_zero() && standard <= fast && fast <= instant, "{body}");
    dev.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approvals_and_swaps_on_chain() {
    let dev = Dev::start().await;
    let sgl = dev.id(&dev.sgl);

    // ETH -> SGL, built with a gas estimate and sent as built: the quoted SGL arrive.
    let amount = U256::from(ONE_ETH / 2);
    let (_, quoted) = dev.quote(NATIVE, &sgl, &amount.to_string(), ME).await;
    let quoted = number(&quoted["quotes"][0]["toAmount"]);
    let body = json!({"amount": amount.to_string(), "eip155": {"slippage": 1}, "from": NATIVE, "to": sgl, "userAddress": format!("{DEV}:{ME}"), "disableEstimate": false});
    let (status, built) = dev.post("/v1/convert/build-transaction", body).await;
    assert_eq!(status, 200, "{built}");
    let tx = &built["tx"];
    assert_eq!(tx["from"].as_str().unwrap(), format!("{DEV}:{ME}"));
    assert_eq!(tx["to"].as_str().unwrap().to_lowercase(), dev.id(&dev.router).to_lowercase());
    assert_eq!(tx["value"].as_str(), Some(amount.to_string().as_str()), "selling ETH sends it");
    assert!(tx["data"].as_str().unwrap().starts_with("0x7ff36ab5"), "swapExactETHForTokens: {tx}");
    assert_eq!(number(&tx["amount"]), quoted);
    assert_eq!(number(&built["toAmountMin"]), quoted * U256::from(99u64) / U256::from(100u64));
    assert_eq!(built["gasEstimated"], true);
    assert!(number(&tx["eip155"]["gas"]) > U256::from(21_000u64) && !number(&tx["eip155"]["gasPrice"]).is_zero(), "{tx}");
    let deadline = built["deadline"].as_u64().unwrap();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    assert!((now + 1100..now + 1300).contains(&deadline), "20 minutes by default: {deadline}");
    let (eth_before, sgl_before) = (dev.eth_balance(ME).await, dev.token_balance(&dev.sgl, ME).await);
    let receipt = dev.send_built(ME, tx, tx["eip155"]["gas"].as_str()).await;
    let received = dev.token_balance(&dev.sgl, ME).await - sgl_before;
    assert_eq!(received, quoted, "nothing traded in between: exactly the quote");
    assert!(received >= number(&built["toAmountMin"]));
    assert_eq!(eth_before - dev.eth_balance(ME).await, amount + gas_paid(&receipt));
    // The pool moved: the same quote asked again (its path remembered) reads the new amounts.
    let (_, after) = dev.quote(NATIVE, &sgl, &amount.to_string(), ME).await;
    let now_direct = dev.amounts_out(amount, &[&dev.weth, &dev.sgl]).await[1];
    assert!(now_direct < quoted, "less SGL for the same ETH after a buy");
    assert_eq!(number(&after["quotes"][0]["toAmount"]), now_direct, "{after}");

    // SGL -> ETH needs an allowance: none yet, and a built swap with an estimate says so.
    assert_eq!(dev.allowance(&dev.sgl, ME).await, "0");
    let sell = received / U256::from(2u64);
    let body = json!({"amount": sell.to_string(), "eip155": {"slippage": 2}, "from": sgl, "to": NATIVE, "userAddress": ME});
    let (status, refused) = dev.post("/v1/convert/build-transaction", body.clone()).await;
    assert_eq!((status, refused["error"]["code"].as_str()), (400, Some("insufficient_allowance")), "{refused}");
    // The approval is for the exact amount, sent to the token.
    let (status, approve) = dev.get(&format!("/v1/convert/build-approve?userAddress={DEV}:{ME}&from={sgl}&to={NATIVE}&amount={sell}")).await;
    assert_eq!(status, 200, "{approve}");
    assert_eq!(
        (approve["amount"].as_str(), approve["unlimited"].as_bool(), approve["resetFirst"].as_bool()),
        (Some(sell.to_string().as_str()), Some(false), Some(false))
    );
    assert_eq!(approve["tx"]["to"], sgl);
    assert_eq!(approve["tx"]["from"], sgl, "AppKit's client sends the approval to tx.from");
    assert_eq!(approve["tx"]["value"], "0");
    assert!(!number(&approve["tx"]["eip155"]["gasPrice"]).is_zero());
    assert_eq!(approve["resetTx"], Value::Null);
    dev.send_built(ME, &approve["tx"], None).await;
    assert_eq!(dev.allowance(&dev.sgl, ME).await, sell.to_string(), "exactly the amount approved");

    // Now the swap builds; sent, the ETH quoted arrive and the allowance is used up.
    let (_, quoted) = dev.quote(&sgl, NATIVE, &sell.to_string(), ME).await;
    assert_eq!(quoted["quotes"][0]["issues"], json!([]), "{quoted}");
    let quoted = number(&quoted["quotes"][0]["toAmount"]);
    let (status, built) = dev.post("/v1/convert/build-transaction", body).await;
    assert_eq!(status, 200, "{built}");
    assert!(built["tx"].get("value").is_none(), "no value when selling a token: {built}");
    assert!(built["tx"]["data"].as_str().unwrap().starts_with("0x18cbafe5"), "swapExactTokensForETH");
    assert_eq!(number(&built["toAmountMin"]), quoted * U256::from(98u64) / U256::from(100u64));
    let eth_before = dev.eth_balance(ME).await;
    let receipt = dev.send_built(ME, &built["tx"], built["tx"]["eip155"]["gas"].as_str()).await;
    assert_eq!(dev.eth_balance(ME).await + gas_paid(&receipt) - eth_before, quoted);
    assert_eq!(dev.allowance(&dev.sgl, ME).await, "0");

    // SGL -> USDT without an estimate (as in a batch whose approval is not mined yet): a fixed
    // gas per hop, and it goes through once approved.
    let sell = U256::from(10u64) * U256::from(ONE_ETH);
    let (_, approve) = dev.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={}&amount={sell}", dev.id(&dev.usdt))).await;
    let body = json!({"amount": sell.to_string(), "eip155": {"slippage": 1}, "from": sgl, "to": dev.id(&dev.usdt), "userAddress": ME, "disableEstimate": true});
    let (status, built) = dev.post("/v1/convert/build-transaction", body).await;
    assert_eq!(status, 200, "{built}");
    // The ETH/SGL pool moved with the swaps above: the best route may now pass through WETH.
    let hops = built["route"].as_array().unwrap().len() as u64 - 1;
    assert_eq!(
        (built["gasEstimated"].as_bool(), number(&built["tx"]["eip155"]["gas"])),
        (Some(false), U256::from(sigil_server::convert::GAS_PER_HOP * hops)),
        "{built}"
    );
    dev.send_built(ME, &approve["tx"], None).await;
    let usdt_before = dev.token_balance(&dev.usdt, ME).await;
    dev.send_built(ME, &built["tx"], built["tx"]["eip155"]["gas"].as_str()).await;
    assert_eq!(dev.token_balance(&dev.usdt, ME).await - usdt_before, number(&built["toAmount"]));

    // USDT refuses to change a non-zero allowance: the approval says to reset it first.
    let usdt = dev.id(&dev.usdt);
    let first = U256::from(5_000_000u64);
    let (_, approve) = dev.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={usdt}&to={sgl}&amount={first}")).await;
    assert_eq!(approve["resetFirst"], false, "nothing allowed yet: {approve}");
    dev.send_built(ME, &approve["tx"], None).await;
    assert_eq!(dev.allowance(&dev.usdt, ME).await, first.to_string());
    let (_, approve) = dev.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={usdt}&to={sgl}&amount=7000000")).await;
    assert_eq!(approve["resetFirst"], true, "{approve}");
    let reset = &approve["resetTx"];
    assert_eq!(reset["data"].as_str().unwrap(), format!("0x095ea7b3{:0>64}{}", &dev.router[2..].to_lowercase(), "0".repeat(64)));
    let direct = json!({"from": ME, "to": dev.usdt, "data": approve["tx"]["data"]});
    let refused: Value = reqwest::Client::new()
        .post(&dev.anvil.url)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": [direct, "latest"]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(refused["error"]["message"].as_str().unwrap_or("").contains("reset allowance to 0 first"), "{refused}");
    dev.send_built(ME, reset, None).await;
    dev.send_built(ME, &approve["tx"], None).await;
    assert_eq!(dev.allowance(&dev.usdt, ME).await, "7000000");

    // Unlimited only when asked.
    let (status, approve) = dev.get(&format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={usdt}&amount=max")).await;
    assert_eq!(status, 200, "{approve}");
    assert_eq!((approve["unlimited"].as_bool(), approve["amount"].as_str()), (Some(true), Some(U256::MAX.to_string().as_str())));
    assert!(approve["tx"]["data"].as_str().unwrap().ends_with(&"f".repeat(64)));
    // The native coin needs no allowance.
    assert_eq!(dev.allowance("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", ME).await, U256::MAX.to_string());
    dev.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_400_in_the_api_shape() {
    let dev = Dev::start().await;
    let (sgl, usdt) = (dev.id(&dev.sgl), dev.id(&dev.usdt));
    let other_chain = format!("eip155:1:{}", dev.sgl);
    let huge = (U256::from(1u64) << 112usize).to_string();
    let gets = [
        // tokens and gas-price: no chain, a bad one.
        "/v1/convert/tokens".to_owned(),
        "/v1/convert/tokens?chainId=eip155".to_owned(),
        "/v1/convert/gas-price?chainId=".to_owned(),
        "/v1/convert/gas-price?chainId=not:a:chain".to_owned(),
        // quotes: amounts, token ids, chains, slippage, gas price, user.
        format!("/v1/convert/quotes?from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount=0&from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount=-1&from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount=1.5&from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount=1e18&from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount={huge}&from={NATIVE}&to={sgl}"),
        format!("/v1/convert/quotes?amount={}&from={NATIVE}&to={sgl}", "9".repeat(100)),
        format!("/v1/convert/quotes?amount=1&from=0x1234&to={sgl}"),
        format!("/v1/convert/quotes?amount=1&from={DEV}:0x12&to={sgl}"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to=solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:So11111111111111111111111111111111111111112"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={other_chain}"),
        format!("/v1/convert/quotes?amount=1&from={sgl}&to={sgl}"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={sgl}&slippage=51"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={sgl}&slippage=abc"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={sgl}&gasPrice=fast"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={sgl}&userAddress=eip155:1:{ME}"),
        format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={sgl}&userAddress=0x12"),
        // allowance: token and user.
        format!("/v1/convert/allowance?tokenAddress={DEV}:0xzz&userAddress={ME}"),
        format!("/v1/convert/allowance?tokenAddress={sgl}"),
        format!("/v1/convert/allowance?tokenAddress={sgl}&userAddress=me"),
        format!("/v1/convert/allowance?userAddress={ME}"),
        // build-approve: no amount (exact by default), zero, too large, the coin, chains, user.
        format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={usdt}"),
        format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={usdt}&amount=0"),
        format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={usdt}&amount={huge}"),
        format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={usdt}&amount=unlimited"),
        format!("/v1/convert/build-approve?userAddress={ME}&from={NATIVE}&to={usdt}&amount=1"),
        format!("/v1/convert/build-approve?userAddress={ME}&from={sgl}&to={other_chain}&amount=1"),
        format!("/v1/convert/build-approve?from={sgl}&to={usdt}&amount=1"),
    ];
    for path in &gets {
        let (status, body) = dev.get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body["error"]["code"].is_string() && !body["error"]["message"].as_str().unwrap_or("").is_empty(), "{path}: {body}");
    }
    let (_, body) = dev.get(&format!("/v1/convert/quotes?amount=1&from={NATIVE}&to={other_chain}")).await;
    assert!(body["error"]["message"].as_str().unwrap().contains("chain IDs must have the same value"), "{body}");
    let (_, body) = dev.get(&format!("/v1/convert/quotes?amount={huge}&from={NATIVE}&to={sgl}")).await;
    assert_eq!(
        body["error"]["message"],
        format!("Invalid parameter 'amount': too large: at most {} (a pool holds at most 2^112 - 1 of a token)", (U256::from(1) << 112usize) - U256::from(1))
    );

    let good = json!({"amount": "1000", "eip155": {"slippage": 1}, "from": NATIVE, "to": sgl, "userAddress": ME, "disableEstimate": true});
    let with = |key: &str, value: Value| {
        let mut body = good.clone();
        body[key] = value;
        body
    };
    let bodies = [
        json!([]),
        json!("text"),
        with("amount", json!("0")),
        with("amount", json!(-5)),
        with("amount", json!(1.5)),
        with("amount", json!(huge)),
        with("amount", Value::Null),
        with("from", json!("eip155:31337")),
        with("from", Value::Null),
        with("to", json!(other_chain)),
        with("to", json!(NATIVE)),
        with("userAddress", json!("eip155:10:0x14dC79964da2C08b23698B3D3cc7Ca32193d9955")),
        with("userAddress", Value::Null),
        with("eip155", json!({"slippage": 51})),
        with("eip155", json!({"slippage": "lots"})),
        with("disableEstimate", json!("yes")),
    ];
    for body in &bodies {
        let (status, answer) = dev.post("/v1/convert/build-transaction", body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(answer["error"]["code"].is_string(), "{body}: {answer}");
    }
    let res = dev
        .server
        .http
        .post(dev.server.api("/v1/convert/build-transaction"))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 400);
    // The good body itself is fine.
    let (status, answer) = dev.post("/v1/convert/build-transaction", good).await;
    assert_eq!(status, 200, "{answer}");
    dev.server.stop().await;
}
