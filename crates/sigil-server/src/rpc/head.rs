//! Follows a chain's head over its WebSocket upstream (`eth_subscribe` newHeads), so that
//! `eth_blockNumber`, which clients poll while they wait for a transaction, is answered from
//! memory instead of costing every poll an upstream call. The answer is only used while the
//! subscription is live: on any error the tracker marks itself stale (requests are forwarded
//! as usual) and reconnects with a doubling delay.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

const RECONNECT_FIRST: Duration = Duration::from_millis(500);
const RECONNECT_MAX: Duration = Duration::from_secs(30);
/// Connecting must finish within this.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Every this often the follower asks eth_blockNumber; an upstream that has not answered
/// anything since the previous check is treated as gone (a half-open connection, a dropped
/// subscription), so a frozen head is never served for long.
const CHECK_EVERY: Duration = Duration::from_secs(5);

#[derive(Default)]
pub struct Head {
    number: AtomicU64,
    live: AtomicBool,
    /// Whether a follower task is running for this head.
    pub(super) following: AtomicBool,
}

impl Head {
    /// The head block number, while the subscription is live.
    pub fn current(&self) -> Option<u64> {
        self.live.load(Ordering::Acquire).then(|| self.number.load(Ordering::Acquire))
    }

    fn set(&self, number: u64) {
        self.number.store(number, Ordering::Release);
        self.live.store(true, Ordering::Release);
    }

    fn stale(&self) {
        self.live.store(false, Ordering::Release);
    }
}

/// Follows the head over the first working URL of `urls` until `keep_going` says stop.
pub async fn follow(head: Arc<Head>, urls: Vec<String>, keep_going: impl Fn() -> bool) {
    let mut delay = RECONNECT_FIRST;
    while keep_going() {
        for url in &urls {
            if let Err(e) = subscribe(&head, url, &keep_going).await {
                tracing::debug!(upstream = %url, error = %e, "head subscription ended");
            }
            // A subscription that went live was healthy for a while: start the back-off over.
            if head.current().is_some() {
                delay = RECONNECT_FIRST;
            }
            head.stale();
            if !keep_going() {
                return;
            }
        }
        tokio::time::sleep(delay).await;
        delay = (delay * 2).min(RECONNECT_MAX);
    }
}

/// Why a head subscription ended (it is made again).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Lost(String);

impl From<tokio_tungstenite::tungstenite::Error> for Lost {
    fn from(e: tokio_tungstenite::tungstenite::Error) -> Lost {
        Lost(e.to_string())
    }
}

/// One subscription: connect, subscribe, read the current head, then follow newHeads.
async fn subscribe(head: &Head, url: &str, keep_going: &impl Fn() -> bool) -> Result<(), Lost> {
    // A restarted node may be behind the last head seen.
    head.number.store(0, Ordering::Release);
    let (mut ws, _) = tokio::time::timeout(CONNECT_TIMEOUT, tokio_tungstenite::connect_async(url))
        .await
        .map_err(|_| Lost("connect timed out".into()))?
        .map_err(Lost::from)?;
    const SUBSCRIBE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}"#;
    const BLOCK_NUMBER: &str = r#"{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber","params":[]}"#;
    for r in [SUBSCRIBE, BLOCK_NUMBER] {
        ws.send(Message::text(r)).await.map_err(Lost::from)?;
    }
    let (mut subscribed, mut seed) = (false, None);
    let mut heard = true;
    let mut check = tokio::time::interval_at(tokio::time::Instant::now() + CHECK_EVERY, CHECK_EVERY);
    loop {
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = check.tick() => {
                if !keep_going() {
                    let _ = ws.close(None).await;
                    return Ok(());
                }
                if !heard || !subscribed {
                    return Err(Lost("no answer since the last check".into()));
                }
                heard = false;
                ws.send(Message::text(BLOCK_NUMBER)).await.map_err(Lost::from)?;
                continue;
            }
        };
        heard = true;
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(Message::Close(_))) | None => return Err(Lost("closed".into())),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.into()),
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| Lost(format!("not JSON: {e}")))?;
        match v.get("id").and_then(Value::as_u64) {
            Some(1) if v.get("result").is_some() => subscribed = true,
            Some(1) => return Err(Lost(format!("eth_subscribe refused: {}", v["error"]))),
            Some(2) => seed = Some(parse_number(&v["result"]).ok_or_else(|| Lost(format!("unexpected eth_blockNumber answer: {v}")))?),
            _ => {
                if let Some(n) = parse_number(&v["params"]["result"]["number"]) {
                    head.set(n);
                    continue;
                }
            }
        }
        // Live once newHeads is confirmed and the current head is known, so no block is missed;
        // a block that arrived in between is newer than the seed.
        if subscribed {
            if let Some(n) = seed.take() {
                head.set(n.max(head.number.load(Ordering::Acquire)));
            }
        }
    }
}

fn parse_number(v: &Value) -> Option<u64> {
    u64::from_str_radix(v.as_str()?.strip_prefix("0x")?, 16).ok()
}

/// The WebSocket address of an HTTP JSON-RPC URL on the same host (nodes like anvil and geth's
/// dev mode serve both on one port).
pub fn ws_url_for(http: &str) -> Option<String> {
    if let Some(rest) = http.strip_prefix("http://") {
        Some(format!("ws://{rest}"))
    } else {
        http.strip_prefix("https://").map(|rest| format!("wss://{rest}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_is_only_given_while_live() {
        let h = Head::default();
        assert_eq!(h.current(), None);
        h.set(7);
        assert_eq!(h.current(), Some(7));
        h.stale();
        assert_eq!(h.current(), None);
    }

    #[test]
    fn parses_and_maps() {
        assert_eq!(parse_number(&serde_json::json!("0x1b4")), Some(436));
        assert_eq!(parse_number(&serde_json::json!("1b4")), None);
        assert_eq!(parse_number(&serde_json::json!(5)), None);
        assert_eq!(ws_url_for("http://127.0.0.1:8545").as_deref(), Some("ws://127.0.0.1:8545"));
        assert_eq!(ws_url_for("https://x.test/rpc").as_deref(), Some("wss://x.test/rpc"));
        assert_eq!(ws_url_for("ipc:///x"), None);
    }
}
