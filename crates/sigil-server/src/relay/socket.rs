//! One client's socket: its requests answered in order, the messages pushed to it, pings.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::protocol::{self, ApproveSession, Incoming, ProposeSession, Publish, Publishes, Receipts, RpcError, Subscriptions, Topic, Topics};
use super::{Conn, Frame, Relay};

/// Publishes a socket may make: `rate` a second, bursting to twice that.
struct PublishBudget {
    rate: f64,
    tokens: f64,
    at: Instant,
}

impl PublishBudget {
    fn new(rate: u32) -> PublishBudget {
        PublishBudget { rate: f64::from(rate), tokens: f64::from(rate) * 2.0, at: Instant::now() }
    }

    fn take(&mut self, n: usize) -> Result<(), RpcError> {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.rate * 2.0);
        self.at = now;
        if self.tokens < n as f64 {
            return Err(RpcError::too_many_requests());
        }
        self.tokens -= n as f64;
        Ok(())
    }
}

/// Serves an authenticated socket until it closes.
pub async fn serve<S: AsyncRead + AsyncWrite + Unpin>(relay: Arc<Relay>, mut ws: WebSocketStream<S>, client: String, address: std::net::IpAddr) {
    let (tx, mut rx) = mpsc::channel(super::QUEUE);
    let conn = relay.register(client, address, tx);
    let mut budget = PublishBudget::new(relay.settings.publishes_per_second);
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + relay.settings.ping_every, relay.settings.ping_every);
    loop {
        tokio::select! {
            frame = ws.next() => match frame {
                Some(Ok(Message::Text(text))) => {
                    if let Some(reply) = answer(&relay, &conn, &text, &mut budget).await {
                        if ws.send(Message::text(reply)).await.is_err() {
                            break;
                        }
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                // Pings are answered by the WebSocket layer; binary frames mean nothing here.
                Some(Ok(_)) => {}
            },
            out = rx.recv() => match out {
                Some(Frame::Text(text)) => {
                    if ws.send(Message::text(text)).await.is_err() {
                        break;
                    }
                }
                Some(Frame::Close(code, reason)) => {
                    let _ = ws.close(Some(CloseFrame { code: CloseCode::from(code), reason: reason.into() })).await;
                    break;
                }
                None => break,
            },
            _ = conn.closed.notified() => {
                // 4010: the client reconnects at once and subscribes again, getting what it missed.
                let _ = ws.close(Some(CloseFrame { code: CloseCode::from(4010), reason: "The connection fell behind; reconnect".into() })).await;
                break;
            }
            _ = ping.tick() => {
                if ws.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    relay.unregister(&conn);
}

/// Closes a socket whose handshake was refused, with the relay protocol's code and a reason.
pub async fn refuse<S: AsyncRead + AsyncWrite + Unpin>(mut ws: WebSocketStream<S>, code: u16, reason: String) {
    let _ = ws.close(Some(CloseFrame { code: CloseCode::from(code), reason: reason.into() })).await;
    // Wait (briefly) for the client's close so the frame is not lost in a reset.
    let _ = tokio::time::timeout(Duration::from_secs(2), async { while let Some(Ok(_)) = ws.next().await {} }).await;
}

/// The reply to one frame (None for acks and for what gets no reply).
async fn answer(relay: &Arc<Relay>, conn: &Arc<Conn>, text: &str, budget: &mut PublishBudget) -> Option<String> {
    let Ok(incoming) = serde_json::from_str::<Incoming>(text) else {
        return Some(RpcError::payload("Serialization", "the frame is not a JSON-RPC message").reply("0"));
    };
    let id = incoming.id.map_or("0", |id| id.get());
    let Some(method) = incoming.method.as_deref() else {
        // An ack of a push: its id as a number, or (from some clients) a string.
        if incoming.result.is_some() || incoming.error.is_some() {
            let push_id = id.trim_matches('"').trim_end_matches('n').parse::<u64>().ok();
            if let (Some(push_id), Some(_)) = (push_id, incoming.result) {
                relay.acknowledge(conn, push_id);
            }
        }
        return None;
    };
    let outcome = handle(relay, conn, method, incoming.params, budget).await;
    Some(match outcome {
        Ok(result) => protocol::result(id, &result),
        Err(e) => e.reply(id),
    })
}

async fn handle(
    relay: &Arc<Relay>,
    conn: &Arc<Conn>,
    method: &str,
    params: Option<&serde_json::value::RawValue>,
    budget: &mut PublishBudget,
) -> Result<String, RpcError> {
    const TRUE: &str = "true";
    let json = |v: serde_json::Value| v.to_string();
    match method {
        "irn_subscribe" => {
            let p: Topic = protocol::params(params)?;
            Ok(json(relay.subscribe(conn, &p.topic).await?.into()))
        }
        "irn_batchSubscribe" => {
            let p: Topics = protocol::params(params)?;
            protocol::check_batch(&p.topics)?;
            let mut ids = Vec::with_capacity(p.topics.len());
            for topic in &p.topics {
                ids.push(relay.subscribe(conn, topic).await?);
            }
            Ok(json(ids.into()))
        }
        "irn_unsubscribe" => {
            let p: Topic = protocol::params(params)?;
            relay.unsubscribe(conn, &p.topic);
            Ok(TRUE.into())
        }
        "irn_batchUnsubscribe" => {
            let p: Subscriptions = protocol::params(params)?;
            protocol::check_batch(&p.subscriptions)?;
            for s in &p.subscriptions {
                relay.unsubscribe(conn, &s.topic);
            }
            Ok(TRUE.into())
        }
        "irn_publish" => {
            let p: Publish = protocol::params(params)?;
            budget.take(1)?;
            relay.publish(conn, p).await?;
            Ok(TRUE.into())
        }
        "irn_batchPublish" => {
            let p: Publishes = protocol::params(params)?;
            protocol::check_batch(&p.messages)?;
            budget.take(p.messages.len())?;
            for m in p.messages {
                relay.publish(conn, m).await?;
            }
            Ok(TRUE.into())
        }
        "irn_fetchMessages" | "irn_batchFetchMessages" => {
            let topics =
                if method == "irn_fetchMessages" { vec![protocol::params::<Topic>(params)?.topic] } else { protocol::params::<Topics>(params)?.topics };
            protocol::check_batch(&topics)?;
            let messages: Vec<serde_json::Value> = relay
                .fetch(&conn.client, &topics)
                .await?
                .into_iter()
                .map(|m| {
                    let mut v = serde_json::json!({"topic": m.topic, "message": m.message, "publishedAt": m.published_at, "tag": m.tag});
                    if let Some(a) = m.attestation {
                        v["attestation"] = a.into();
                    }
                    v
                })
                .collect();
            Ok(json(serde_json::json!({"messages": messages, "hasMore": false})))
        }
        "irn_batchReceive" => {
            let p: Receipts = protocol::params(params)?;
            protocol::check_batch(&p.receipts)?;
            for r in &p.receipts {
                relay.receipt(conn, &r.topic, &r.message_id).await?;
            }
            Ok(TRUE.into())
        }
        // 2.21 dapps send the session proposal this way and never subscribe to the pairing
        // topic themselves; the relay subscribes them and publishes the proposal.
        "wc_proposeSession" => {
            let p: ProposeSession = protocol::params(params)?;
            budget.take(1)?;
            relay.subscribe(conn, &p.pairing_topic).await?;
            let proposal = Publish {
                topic: p.pairing_topic,
                message: p.session_proposal,
                ttl: protocol::SESSION_TTL,
                tag: protocol::TAG_SESSION_PROPOSE,
                attestation: p.attestation,
            };
            relay.publish(conn, proposal).await?;
            Ok(TRUE.into())
        }
        // The wallet's approval: the answer on the pairing topic first (the dapp learns the
        // session topic from it), then the settlement waiting on the session topic.
        "wc_approveSession" => {
            let p: ApproveSession = protocol::params(params)?;
            budget.take(2)?;
            relay.subscribe(conn, &p.session_topic).await?;
            let message = |topic: String, message: String, tag: i64| Publish { topic, message, ttl: protocol::SESSION_TTL, tag, attestation: None };
            relay.publish(conn, message(p.pairing_topic, p.session_proposal_response, protocol::TAG_SESSION_PROPOSE_RESPONSE)).await?;
            relay.publish(conn, message(p.session_topic, p.session_settlement_request, protocol::TAG_SESSION_SETTLE)).await?;
            Ok(TRUE.into())
        }
        other => Err(RpcError::payload("InvalidMethod", format!("unknown method '{}'", other.chars().take(64).collect::<String>()))),
    }
}
