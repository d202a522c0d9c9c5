//! The JSON-RPC proxy: POST /v1?chainId=eip155:N forwards to the chain's upstreams, choosing by
//! health, failing over on transport errors, timeouts, 5xx and 429, and retrying with a doubling
//! delay. Identical in-flight reads share one upstream call; eth_chainId and net_version are
//! cached; eth_blockNumber comes from the followed head where a WebSocket upstream exists
//! (head.rs); sending methods are always forwarded as they are.

pub mod calls;
pub mod client;
pub mod head;
pub mod jsonrpc;
pub mod routes;
pub mod upstream;

// Looked up on every proxied call: a fast hasher (keys are chain ids, methods, call keys).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
type HashSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;

use crate::chains::Chains;
use jsonrpc::{Answer, Reply};
use upstream::Upstream;

/// Spec section 9: timeout 10 s, 3 retries, 150 ms doubling, batch 1000, de-dup 8192, probe 4 s.
#[derive(Debug, Clone)]
pub struct RpcSettings {
    pub timeout: Duration,
    /// The longest one call may take over all its tries. The server sets it inside its request
    /// timeout, so a client gets the proxy's own JSON-RPC answer rather than a 408.
    pub budget: Duration,
    pub retries: u32,
    pub retry_delay: Duration,
    pub probe_interval: Duration,
    pub max_batch: usize,
    pub max_in_flight_keys: usize,
    pub requests_per_second: u32,
}

impl Default for RpcSettings {
    fn default() -> Self {
        RpcSettings {
            timeout: Duration::from_secs(10),
            budget: Duration::from_secs(29),
            retries: 3,
            retry_delay: Duration::from_millis(150),
            probe_interval: Duration::from_secs(4),
            max_batch: 1000,
            max_in_flight_keys: 8192,
            requests_per_second: 500,
        }
    }
}

impl From<&crate::config::RpcConfig> for RpcSettings {
    /// The proxy's settings from its group of the configuration (the rest are the spec's).
    fn from(c: &crate::config::RpcConfig) -> RpcSettings {
        RpcSettings { requests_per_second: c.requests_per_second, timeout: c.timeout, ..RpcSettings::default() }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// Every upstream failed on every try.
    #[error("All upstream RPC endpoints for {0} are unavailable")]
    AllDown(String),
}

/// Identical calls in flight: the key, and those waiting for the one call's answer.
type Waiters = Vec<tokio::sync::oneshot::Sender<Result<Bytes, Failure>>>;

/// The call that identical calls wait for; its key leaves the map with it, also when the
/// caller goes away before the answer (its waiters then ask again).
struct Leader<'a> {
    rpc: &'a Rpc,
    key: &'a str,
}

impl Leader<'_> {
    fn finish(self) -> Waiters {
        let waiters = self.rpc.in_flight.lock().unwrap_or_else(|e| e.into_inner()).remove(self.key).unwrap_or_default();
        std::mem::forget(self);
        waiters
    }
}

impl Drop for Leader<'_> {
    fn drop(&mut self) {
        self.rpc.in_flight.lock().unwrap_or_else(|e| e.into_inner()).remove(self.key);
    }
}

pub struct Rpc {
    chains: Chains,
    pools: HashMap<String, Vec<Arc<Upstream>>>,
    /// The methods forwarded for each chain (its namespace's defaults and its own list).
    allowed: HashMap<String, HashSet<String>>,
    /// The Esplora API of each Bitcoin chain that has one.
    esplora: HashMap<String, Arc<client::UpstreamClient>>,
    pub settings: RpcSettings,
    cached: Mutex<HashMap<(String, String), Reply>>,
    in_flight: Mutex<HashMap<String, Waiters>>,
    /// When each chain last had traffic: only those in use are probed and followed.
    /// Milliseconds after `started` of each configured chain's last use (0: never); atomics,
    /// since every request touches them.
    last_used: HashMap<String, std::sync::atomic::AtomicU64>,
    started: Instant,
    /// Chain heads followed over WebSocket upstreams, for chains that have them.
    heads: HashMap<String, Arc<head::Head>>,
    pub limiter: crate::limits::PerSecond,
}

/// Chains idle for longer than this are not probed.
const PROBE_IDLE_AFTER: Duration = Duration::from_secs(300);

/// Methods whose answer depends only on the chain: cached for good.
const CACHED_FOREVER: &[&str] = &["eth_chainId", "net_version"];

/// Reads that may share one upstream call with an identical in-flight request.
pub fn is_coalescable(method: &str) -> bool {
    matches!(
        method,
        "eth_blockNumber"
            | "eth_call"
            | "eth_chainId"
            | "net_version"
            | "eth_gasPrice"
            | "eth_maxPriorityFeePerGas"
            | "eth_feeHistory"
            | "eth_estimateGas"
            | "eth_getLogs"
            | "eth_getCode"
            | "eth_getStorageAt"
            | "web3_clientVersion"
    ) || (method.starts_with("eth_get") && !method.starts_with("eth_getFilter"))
}

impl Rpc {
    pub fn new(chains: Chains, settings: RpcSettings) -> Rpc {
        let pools = chains.by_id.iter().map(|(id, c)| (id.clone(), c.rpc.iter().map(|u| Arc::new(Upstream::new(u))).collect())).collect();
        let allowed = chains.by_id.iter().map(|(id, c)| (id.clone(), c.allowed_methods().map(str::to_owned).collect())).collect();
        let esplora = chains
            .by_id
            .iter()
            .filter_map(|(id, c)| Some((id.clone(), Arc::new(client::UpstreamClient::new(c.esplora.as_deref()?, 64, Duration::from_secs(5)).ok()?))))
            .collect();
        let limiter = crate::limits::PerSecond::new(settings.requests_per_second);
        let heads = chains.by_id.iter().filter(|(_, c)| !c.ws.is_empty()).map(|(id, _)| (id.clone(), Arc::default())).collect();
        let last_used = chains.by_id.keys().map(|id| (id.clone(), Default::default())).collect();
        Rpc {
            chains,
            pools,
            allowed,
            esplora,
            settings,
            cached: Default::default(),
            in_flight: Default::default(),
            last_used,
            started: Instant::now(),
            heads,
            limiter,
        }
    }

    pub fn chains(&self) -> &Chains {
        &self.chains
    }

    /// The Esplora API of a Bitcoin chain.
    pub fn esplora(&self, chain: &str) -> Option<&client::UpstreamClient> {
        self.esplora.get(chain).map(Arc::as_ref)
    }

    /// Whether the proxy forwards `method` for `chain` (sigil_core::rpc_methods).
    pub fn allows(&self, chain: &str, method: &str) -> bool {
        self.allowed.get(chain).is_some_and(|m| m.contains(method))
    }

    pub fn upstreams(&self, chain: &str) -> Option<&[Arc<Upstream>]> {
        self.pools.get(chain).map(Vec::as_slice)
    }

    /// Sends `body` to the chain's upstreams in order of health until one answers.
    pub async fn send(&self, chain: &str, body: Bytes) -> Result<Bytes, Failure> {
        let Some(upstreams) = self.pools.get(chain) else { return Err(Failure::AllDown(chain.to_owned())) };
        self.touch(chain);
        let deadline = tokio::time::Instant::now() + self.settings.budget;
        let mut delay = self.settings.retry_delay;
        'rounds: for round in 0..=self.settings.retries {
            if round > 0 {
                if tokio::time::Instant::now() + delay >= deadline {
                    break;
                }
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
            for i in upstream::by_weight(upstreams) {
                let up = &upstreams[i];
                let start = Instant::now();
                // One timer: the try's own timeout, or the end of the whole budget if sooner.
                let ends = deadline.min(tokio::time::Instant::now() + self.settings.timeout);
                let outcome = match tokio::time::timeout_at(ends, up.post(body.clone())).await {
                    Ok(Ok((status, _))) if status.is_server_error() || status.as_u16() == 429 => None,
                    Ok(Ok((_, bytes))) => Some(bytes),
                    Ok(Err(_)) => None,
                    Err(_) if ends == deadline => {
                        up.record(false, start.elapsed());
                        tracing::warn!(chain, upstream = %up.url, round, "upstream call ran out of time");
                        break 'rounds;
                    }
                    Err(_) => None,
                };
                up.record(outcome.is_some(), start.elapsed());
                match outcome {
                    Some(bytes) => return Ok(bytes),
                    None => tracing::warn!(chain, upstream = %up.url, round, "upstream failed"),
                }
            }
        }
        Err(Failure::AllDown(chain.to_owned()))
    }

    /// Marks the chain as in use (it is probed and its head followed while it is).
    fn touch(&self, chain: &str) {
        if let Some(at) = self.last_used.get(chain) {
            // +1: a use in the very first millisecond still counts as a use.
            at.store(self.started.elapsed().as_millis() as u64 + 1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    fn is_active(&self, chain: &str) -> bool {
        self.last_used.get(chain).is_some_and(|at| {
            let at = at.load(std::sync::atomic::Ordering::Relaxed);
            at > 0 && (self.started.elapsed().as_millis() as u64 + 1).saturating_sub(at) < PROBE_IDLE_AFTER.as_millis() as u64
        })
    }

    /// The followed head of `chain`, while its subscription is live.
    pub fn head(&self, chain: &str) -> Option<u64> {
        self.heads.get(chain).and_then(|h| h.current())
    }

    /// One call's reply, sharing identical in-flight reads and caching chain constants.
    pub async fn call(self: &Arc<Self>, chain: &str, method: &str, params: Option<&str>) -> Result<Reply, Failure> {
        self.forward(chain, method, params, None).await.map(Answer::into_reply)
    }

    /// One call's answer, as `call`. `exact`: the client's request body and its id, when the
    /// body can go upstream as it is (jsonrpc::Call::exact); the upstream's answer then goes back
    /// as it is too when it answers that id, with nothing parsed into a new body either way.
    pub async fn forward(self: &Arc<Self>, chain: &str, method: &str, params: Option<&str>, exact: Option<(&Bytes, &str)>) -> Result<Answer, Failure> {
        if method == "eth_blockNumber" && params.is_none_or(|p| p.trim() == "[]") {
            if let Some(n) = self.head(chain) {
                self.touch(chain);
                return Ok(Answer::Reply(Reply::Result(format!("\"0x{n:x}\""))));
            }
        }
        if CACHED_FOREVER.contains(&method) {
            let key = (chain.to_owned(), method.to_owned());
            if let Some(hit) = self.cached.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
                return Ok(Answer::Reply(hit.clone()));
            }
            let bytes = self.shared(format!("{chain}|{method}|{}", params.unwrap_or("")), chain, jsonrpc::request_body(method, params).into()).await?;
            let reply = Reply::from_upstream(&bytes);
            if reply.is_result() {
                self.cached.lock().unwrap_or_else(|e| e.into_inner()).insert(key, reply.clone());
            }
            return Ok(Answer::Reply(reply));
        }
        let body = match exact {
            Some((raw, _)) => raw.clone(),
            None => Bytes::from(jsonrpc::request_body(method, params)),
        };
        let bytes = if is_coalescable(method) {
            // Calls that share this one get the same answer, framed for their own ids.
            self.shared(format!("{chain}|{method}|{}", params.unwrap_or("")), chain, body).await?
        } else {
            self.send(chain, body).await?
        };
        Ok(match exact {
            Some((_, id)) => Answer::for_request(bytes, id),
            None => Answer::Reply(Reply::from_upstream(&bytes)),
        })
    }

    /// The answer of an identical call already in flight, or of a new one that later identical
    /// calls wait for. A waiter whose leader went away (its client left) asks again itself.
    async fn shared(&self, key: String, chain: &str, body: Bytes) -> Result<Bytes, Failure> {
        enum Role {
            Wait(tokio::sync::oneshot::Receiver<Result<Bytes, Failure>>),
            Lead,
            Alone,
        }
        loop {
            let role = {
                let mut map = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
                let full = map.len() >= self.settings.max_in_flight_keys;
                match map.get_mut(&key) {
                    Some(waiters) => {
                        let (tx, rx) = tokio::sync::oneshot::channel();
                        waiters.push(tx);
                        Role::Wait(rx)
                    }
                    // Bounded: past the limit, a request simply goes alone.
                    None if full => Role::Alone,
                    None => {
                        map.insert(key.clone(), Vec::new());
                        Role::Lead
                    }
                }
            };
            match role {
                Role::Alone => return self.send(chain, body).await,
                Role::Wait(rx) => match rx.await {
                    Ok(answer) => return answer,
                    Err(_) => continue,
                },
                Role::Lead => {
                    let leader = Leader { rpc: self, key: &key };
                    let answer = self.send(chain, body).await;
                    for waiter in leader.finish() {
                        let _ = waiter.send(answer.clone());
                    }
                    return answer;
                }
            }
        }
    }

    /// Starts following the chain's head over its WebSocket upstreams, unless already running;
    /// the follower stops once the chain is idle or the server is gone.
    fn follow_head(self: &Arc<Self>, chain: &str) {
        let (Some(head), Some(config)) = (self.heads.get(chain), self.chains.get(chain)) else { return };
        if head.following.swap(true, std::sync::atomic::Ordering::AcqRel) {
            return;
        }
        let (head, urls, weak, chain) = (head.clone(), config.ws.clone(), Arc::downgrade(self), chain.to_owned());
        tokio::spawn(async move {
            let still_wanted = || weak.upgrade().is_some_and(|rpc| rpc.is_active(&chain));
            head::follow(head.clone(), urls, still_wanted).await;
            head.following.store(false, std::sync::atomic::Ordering::Release);
        });
    }

    /// Probes the upstreams of chains in use with eth_chainId every `probe_interval`, until aborted.
    pub fn spawn_probes(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let this = Arc::downgrade(self);
        let interval = self.settings.probe_interval;
        let timeout = self.settings.timeout;
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(interval);
            loop {
                tick.tick().await;
                let Some(rpc) = this.upgrade() else { return };
                let active: Vec<String> = rpc.last_used.keys().filter(|c| rpc.is_active(c)).cloned().collect();
                for chain in &active {
                    rpc.follow_head(chain);
                }
                let probes = active.iter().filter_map(|c| rpc.pools.get(c)).flatten().map(|up| {
                    let up = up.clone();
                    async move {
                        let start = Instant::now();
                        let answer = tokio::time::timeout(timeout, up.post(Bytes::from(jsonrpc::request_body("eth_chainId", None)))).await;
                        let ok = matches!(&answer, Ok(Ok((status, body))) if status.is_success() && Reply::from_upstream(body).is_result());
                        up.record(ok, start.elapsed());
                    }
                });
                futures::future::join_all(probes).await;
            }
        })
    }
}

/// The JSON-RPC proxy, under the project gate. A batch of 1000 calls needs more room than the
/// general body limit: the proxy reads its body with its own (--rpc-body-limit).
/// An upstream failure as the API answers it: 503 with what failed.
pub fn upstream_error(f: Failure) -> crate::error::ApiError {
    crate::error::ApiError::new(axum::http::StatusCode::SERVICE_UNAVAILABLE, crate::error::ErrorCode::UpstreamUnavailable, f.to_string())
}

pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::proxy)).routes(utoipa_axum::routes!(routes::proxy_slash))
}
