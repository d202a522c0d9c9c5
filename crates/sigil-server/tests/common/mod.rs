//! Test harness: a real server in-process on an ephemeral port with a fresh database, SQLite
//! or PostgreSQL. PostgreSQL comes from SIGIL_TEST_POSTGRES_URL (an admin URL; each test gets
//! its own new database). `make test` starts one and sets SIGIL_REQUIRE_POSTGRES=1, so there the
//! PostgreSQL variants cannot be skipped.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use sigil_server::config::Config;
use sigil_server::projects::{self, Features};
use sigil_server::{db, AppState, RunningServer};
use sqlx::Executor;

#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestServer {
    pub base: String,
    pub db: db::Db,
    pub project: String,
    pub http: reqwest::Client,
    server: Option<RunningServer>,
    _dir: tempfile::TempDir,
}

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn wallets_file() -> PathBuf {
    repo_root().join("data/wallets.json")
}

/// A fresh database URL, or None when PostgreSQL is not configured (and not required).
pub async fn fresh_database(backend: Backend, dir: &tempfile::TempDir) -> Option<String> {
    match backend {
        Backend::Sqlite => Some(format!("sqlite://{}", dir.path().join("sigil.db").display())),
        Backend::Postgres => {
            let Ok(admin) = std::env::var("SIGIL_TEST_POSTGRES_URL") else {
                assert!(std::env::var("SIGIL_REQUIRE_POSTGRES").is_err(), "SIGIL_REQUIRE_POSTGRES is set but SIGIL_TEST_POSTGRES_URL is not");
                eprintln!("skipping PostgreSQL variant: SIGIL_TEST_POSTGRES_URL is not set");
                return None;
            };
            let name = format!("sigil_test_{}", uuid::Uuid::new_v4().simple());
            let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&admin).await.expect("connect to SIGIL_TEST_POSTGRES_URL");
            conn.execute(format!("CREATE DATABASE {name}").as_str()).await.expect("create test database");
            let mut url = url::Url::parse(&admin).expect("admin URL");
            url.set_path(&format!("/{name}"));
            Some(url.to_string())
        }
    }
}

impl TestServer {
    /// A server with the directory imported and one project allowing `origins`.
    pub async fn start(backend: Backend, origins: &[&str]) -> Option<TestServer> {
        Self::start_with(backend, origins, |_| {}).await
    }

    pub async fn start_with(backend: Backend, origins: &[&str], tweak: impl FnOnce(&mut Config)) -> Option<TestServer> {
        let dir = tempfile::tempdir().unwrap();
        let url = fresh_database(backend, &dir).await?;
        let db = db::connect(&url).await.expect("database opens");
        sigil_server::directory::import::import_file(&db, &wallets_file()).await.expect("import");
        let origins: Vec<String> = origins.iter().map(|s| s.to_string()).collect();
        let project = projects::create(&db, "Test", &origins, Features::default()).await.unwrap().id;
        let mut config = Config::for_database(&url);
        // The history indexer would add upstream calls a test counts; tests of history turn it on.
        config.settings.history.enabled = false;
        tweak(&mut config);
        let server = sigil_server::start(AppState::new(db.clone(), config.clone()), "127.0.0.1:0".parse().unwrap()).await.unwrap();
        let base = format!("http://{}", server.addr);
        Some(TestServer { base, db, project, http: reqwest::Client::new(), server: Some(server), _dir: dir })
    }

    /// Where the embedded-wallet frame is served, when the configuration asks for it.
    pub fn frame_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().and_then(|s| s.frame_addr)
    }

    /// Where /metrics is served apart, when the configuration asks for it.
    pub fn metrics_addr(&self) -> Option<std::net::SocketAddr> {
        self.server.as_ref().and_then(|s| s.metrics_addr)
    }

    pub fn url(&self, path_and_query: &str) -> String {
        format!("{}{}", self.base, path_and_query)
    }

    /// `path` with projectId, st and sv appended.
    pub fn api(&self, path: &str) -> String {
        let sep = if path.contains('?') { '&' } else { '?' };
        format!("{}{}{}projectId={}&st=sigil&sv=test", self.base, path, sep, self.project)
    }

    pub async fn get_json(&self, url: &str) -> (u16, serde_json::Value) {
        let res = self.http.get(url).send().await.unwrap();
        let status = res.status().as_u16();
        (status, res.json().await.unwrap_or(serde_json::Value::Null))
    }

    pub async fn stop(mut self) {
        if let Some(s) = self.server.take() {
            s.stop().await.unwrap();
        }
    }
}

/// Runs an async test body against SQLite and PostgreSQL.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    super::$name($crate::common::Backend::Sqlite).await
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    super::$name($crate::common::Backend::Postgres).await
                }
            }
        )*
    };
}

/// anvil from SIGIL_ANVIL, or the npm package installed by `make test`.
pub fn anvil_bin() -> std::path::PathBuf {
    if let Ok(p) = std::env::var("SIGIL_ANVIL") {
        return p.into();
    }
    // The binary itself, not npm's node wrapper (killing the wrapper would leave the chain running).
    {
        let rel = "var/tools/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil";
        let p = repo_root().join(rel);
        if p.exists() {
            return p;
        }
    }
    panic!("anvil not found: set SIGIL_ANVIL or run `make test` (installs @foundry-rs/anvil from npm)");
}

pub struct Anvil {
    child: Child,
    pub url: String,
}

impl Anvil {
    pub fn start() -> Anvil {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(anvil_bin())
            .args(["--host", "127.0.0.1", "--port", &port.to_string(), "--chain-id", "31337", "--hardfork", "prague"])
            // No state written to ~/.foundry/anvil/tmp, which anvil never cleans.
            .args(["--silent", "--max-persisted-states", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("anvil starts");
        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "anvil did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        Anvil { child, url }
    }
}

impl Drop for Anvil {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Deploys the dev-chain contracts (devchain/, our own Solidity) and returns deploy.mjs's JSON.
pub fn deploy_devchain(rpc_url: &str) -> Value {
    let root = repo_root();
    assert!(root.join("devchain/node_modules").exists(), "run `cd devchain && npm ci` first (make test does)");
    let out = tempfile::NamedTempFile::new().unwrap();
    let status = Command::new("node")
        .arg(root.join("devchain/deploy.mjs"))
        .args(["--rpc", rpc_url, "--out"])
        .arg(out.path())
        .stdout(Stdio::null())
        .status()
        .expect("node runs");
    assert!(status.success(), "deploy.mjs failed");
    serde_json::from_str(&std::fs::read_to_string(out.path()).unwrap()).unwrap()
}

/// The local dev chain (eip155:31337, a testnet) on `upstreams`, and nothing else.
pub fn dev_chain(upstreams: &[&str]) -> sigil_server::chains::Chains {
    chain_with(upstreams, true)
}

/// eip155:31337 on `upstreams`, with no tokens, names or prices.
pub fn chain_with(upstreams: &[&str], testnet: bool) -> sigil_server::chains::Chains {
    use sigil_server::chains::{ChainConfig, Chains, NativeCurrency};
    Chains::from_list(vec![ChainConfig {
        id: "eip155:31337".into(),
        name: "Sigil Dev".into(),
        testnet,
        rpc: upstreams.iter().map(|s| s.to_string()).collect(),
        ws: vec![],
        native: NativeCurrency { name: "Ether".into(), symbol: "ETH".into(), decimals: 18 },
        tokens: vec![],
        ens_registry: None,
        price_pairs: vec![],
        allow_methods: vec![],
        esplora: None,
        history: Default::default(),
        swap: None,
        smart_account: None,
    }])
    .unwrap()
}

/// A transfer signed by one of anvil's unlocked accounts (straight on the node, not through the
/// proxy, which forwards no signing method): the raw transaction to broadcast.
pub async fn signed_transfer(anvil_url: &str, from: &str, to: &str, value: &str) -> String {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "eth_signTransaction", "params": [{"from": from, "to": to, "value": value}]});
    let res: Value = reqwest::Client::new().post(anvil_url).json(&body).send().await.unwrap().json().await.unwrap();
    res["result"].as_str().unwrap_or_else(|| panic!("anvil signs: {res}")).to_owned()
}

/// A JSON-RPC call to a test chain (anvil); its result, asserting it is not an error.
pub async fn rpc(anvil: &str, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let res: Value = reqwest::Client::new().post(anvil).json(&body).send().await.unwrap().json().await.unwrap();
    assert!(res.get("error").is_none(), "{method}: {res}");
    res["result"].clone()
}

/// A transaction's receipt once mined: anvil mines each at once, but answers
/// eth_sendTransaction before the receipt exists.
pub async fn receipt(anvil: &str, hash: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let receipt = rpc(anvil, "eth_getTransactionReceipt", serde_json::json!([hash])).await;
        if !receipt.is_null() {
            return receipt;
        }
        assert!(Instant::now() < deadline, "no receipt for {hash}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
