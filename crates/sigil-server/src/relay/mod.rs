//! The WalletConnect relay: clients (dapps, wallets) open a WebSocket, authenticate with an
//! EdDSA JWT, subscribe to topics and publish encrypted messages on them. Every message is
//! stored (store.rs) until its TTL ends or a recipient acknowledges it, delivered at once to
//! the topic's connected subscribers except its publisher, and on subscribe to whoever comes
//! later. Processes sharing one PostgreSQL database tell each other of new messages with
//! LISTEN/NOTIFY, so a client on one process reaches a client on another.

pub mod protocol;
pub mod routes;
pub mod socket;
pub mod store;
pub mod verify;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, Notify};

use crate::db::{now_ms, Db};
use protocol::{Publish, RpcError};
use store::Stored;

/// The relay's limits, from the configuration.
#[derive(Debug, Clone)]
pub struct RelaySettings {
    /// Largest message text a publish may carry.
    pub max_message_bytes: usize,
    /// Topics one socket may be subscribed to.
    pub max_subscriptions: usize,
    /// Publishes one socket may make per second (bursts to twice that).
    pub publishes_per_second: u32,
    /// Open sockets at most.
    pub max_sockets: usize,
    /// How often each socket is pinged (Node clients drop a socket after 35 s of silence).
    pub ping_every: Duration,
    /// Relay URLs a token's audience may name besides the one the client connected to.
    pub audiences: Vec<String>,
}

impl Default for RelaySettings {
    fn default() -> Self {
        RelaySettings {
            max_message_bytes: 128 * 1024,
            max_subscriptions: 1000,
            publishes_per_second: 50,
            max_sockets: 10_000,
            ping_every: Duration::from_secs(25),
            audiences: Vec::new(),
        }
    }
}

/// What goes out on a socket.
#[derive(Debug)]
pub enum Frame {
    Text(String),
    Close(u16, String),
}

/// Frames queued for one socket before it counts as too slow and is closed.
const QUEUE: usize = 4096;
/// Messages delivered per query when a subscriber catches up.
const PAGE: i64 = 200;
/// The PostgreSQL channel processes announce new messages on.
pub const CHANNEL: &str = "sigil_relay";

/// One open socket.
pub struct Conn {
    pub id: u64,
    /// The client's id (its JWT issuer, a did:key): stable across its reconnects.
    pub client: String,
    tx: mpsc::Sender<Frame>,
    /// Closed by the relay (too slow); the socket loop ends.
    pub closed: Notify,
    next_push: AtomicU64,
    /// Pushes awaiting the client's ack: push id -> (topic, message id).
    pushed: Mutex<HashMap<u64, (String, String)>>,
    topics: Mutex<HashSet<String>>,
}

pub struct Relay {
    db: Db,
    pub settings: RelaySettings,
    /// Set on PostgreSQL: new messages are announced to the other processes.
    notify_others: bool,
    /// This process, so it ignores its own announcements.
    instance: String,
    conns: RwLock<HashMap<u64, Arc<Conn>>>,
    subscribers: RwLock<HashMap<String, HashSet<u64>>>,
    next_conn: AtomicU64,
    next_seq: AtomicU64,
    sockets: AtomicUsize,
    /// Whether this process hears the others' announcements now (PostgreSQL).
    listening: std::sync::atomic::AtomicBool,
    /// Messages to store and acks to record, written in order and in batches by one writer:
    /// an ack can never come before the message it acknowledges is stored.
    writes: mpsc::UnboundedSender<Write>,
    writes_in: Mutex<Option<mpsc::UnboundedReceiver<Write>>>,
    /// Messages published lately (topic, id), so one published again is not delivered again.
    recent: Mutex<Recent>,
}

/// (topic, message id) of recent messages: a set to look up, and their order to forget the oldest.
type Recent = (HashSet<(String, String)>, std::collections::VecDeque<(String, String)>);

/// How many recent messages are remembered for that.
const RECENT: usize = 65_536;

/// What the writer does: store a message (its publisher waits to know whether it was new),
/// or delete an acknowledged one.
pub enum Write {
    Store(Stored, tokio::sync::oneshot::Sender<Result<bool, ()>>),
    Ack(String, String),
    /// Answered once everything queued before it is written (see `subscribe`).
    Flush(tokio::sync::oneshot::Sender<()>),
}

/// The id of a client's subscription to a topic, as WalletConnect clients compute it
/// themselves: sha256(topic + client id), hex.
pub fn subscription_id(topic: &str, client: &str) -> String {
    hex::encode(Sha256::digest(format!("{topic}{client}").as_bytes()))
}

/// A message's id: sha256 of its text, hex.
pub fn message_id(message: &str) -> String {
    hex::encode(Sha256::digest(message.as_bytes()))
}

impl Relay {
    pub fn new(db: Db, settings: RelaySettings, postgres: bool) -> Relay {
        let (writes, writes_in) = mpsc::unbounded_channel();
        Relay {
            writes,
            writes_in: Mutex::new(Some(writes_in)),
            recent: Default::default(),
            db,
            settings,
            notify_others: postgres,
            instance: uuid::Uuid::new_v4().simple().to_string(),
            conns: Default::default(),
            subscribers: Default::default(),
            next_conn: AtomicU64::new(1),
            next_seq: AtomicU64::new(0),
            sockets: AtomicUsize::new(0),
            listening: Default::default(),
        }
    }

    /// Whether messages published on other processes reach this one's subscribers live.
    pub fn is_listening(&self) -> bool {
        self.listening.load(Ordering::Acquire)
    }

    pub fn sockets(&self) -> usize {
        self.sockets.load(Ordering::Relaxed)
    }

    /// A place for a new socket, unless the relay is full.
    pub fn admit(self: &Arc<Self>) -> Option<SocketSlot> {
        let taken = self.sockets.fetch_add(1, Ordering::AcqRel);
        if taken >= self.settings.max_sockets {
            self.sockets.fetch_sub(1, Ordering::AcqRel);
            return None;
        }
        Some(SocketSlot(self.clone()))
    }

    pub fn register(&self, client: String, tx: mpsc::Sender<Frame>) -> Arc<Conn> {
        let id = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            client,
            tx,
            closed: Notify::new(),
            // Push ids stay under 2^53: clients parse bigger ones as BigInt and ack them as strings.
            next_push: AtomicU64::new(1_000_000_000),
            pushed: Default::default(),
            topics: Default::default(),
        });
        self.conns.write().unwrap_or_else(|e| e.into_inner()).insert(id, conn.clone());
        conn
    }

    pub fn unregister(&self, conn: &Conn) {
        self.conns.write().unwrap_or_else(|e| e.into_inner()).remove(&conn.id);
        let topics: Vec<String> = conn.topics.lock().unwrap_or_else(|e| e.into_inner()).drain().collect();
        let mut subscribers = self.subscribers.write().unwrap_or_else(|e| e.into_inner());
        for topic in topics {
            if let Some(set) = subscribers.get_mut(&topic) {
                set.remove(&conn.id);
                if set.is_empty() {
                    subscribers.remove(&topic);
                }
            }
        }
    }

    /// Subscribes `conn` to `topic` and sends it what waits there; the subscription id.
    pub async fn subscribe(&self, conn: &Arc<Conn>, topic: &str) -> Result<String, RpcError> {
        protocol::check_topic(topic)?;
        let fresh = {
            let mut topics = conn.topics.lock().unwrap_or_else(|e| e.into_inner());
            if !topics.contains(topic) && topics.len() >= self.settings.max_subscriptions {
                return Err(RpcError::handler(
                    "SubscriberLimitExceeded",
                    format!("a connection may hold at most {} subscriptions", self.settings.max_subscriptions),
                ));
            }
            topics.insert(topic.to_owned())
        };
        if fresh {
            self.subscribers.write().unwrap_or_else(|e| e.into_inner()).entry(topic.to_owned()).or_default().insert(conn.id);
        }
        // A message fanned out just before this subscription counted may not be stored yet
        // (delivery runs while it is written): read the mailbox once everything queued so far
        // is written, so such a message comes from there instead of being missed.
        let (flushed, written) = tokio::sync::oneshot::channel();
        if self.writes.send(Write::Flush(flushed)).is_ok() {
            let _ = written.await;
        }
        self.deliver_waiting(conn, topic).await?;
        Ok(subscription_id(topic, &conn.client))
    }

    pub fn unsubscribe(&self, conn: &Conn, topic: &str) {
        conn.topics.lock().unwrap_or_else(|e| e.into_inner()).remove(topic);
        let mut subscribers = self.subscribers.write().unwrap_or_else(|e| e.into_inner());
        if let Some(set) = subscribers.get_mut(topic) {
            set.remove(&conn.id);
            if set.is_empty() {
                subscribers.remove(topic);
            }
        }
    }

    /// Everything stored on `topic` that `conn`'s client did not publish, in order.
    async fn deliver_waiting(&self, conn: &Arc<Conn>, topic: &str) -> Result<(), RpcError> {
        let mut after = i64::MIN;
        loop {
            let page = store::waiting(&self.db, topic, &conn.client, now_ms(), after, PAGE).await.map_err(|e| self.storage_failed(e))?;
            for m in &page {
                self.push(conn, m);
            }
            match page.last() {
                Some(last) if page.len() as i64 == PAGE => after = last.seq,
                _ => return Ok(()),
            }
        }
    }

    /// An ordering stamp: publish time in microseconds, with room for 1024 publishes a
    /// microsecond on one process.
    fn seq(&self) -> i64 {
        let micros = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_micros() as i64).unwrap_or(0);
        micros * 1024 + (self.next_seq.fetch_add(1, Ordering::Relaxed) % 1024) as i64
    }

    /// Stores and delivers a message `client` publishes.
    pub async fn publish(&self, client: &str, p: Publish) -> Result<(), RpcError> {
        protocol::check_topic(&p.topic)?;
        protocol::check_ttl(p.ttl)?;
        if p.message.len() > self.settings.max_message_bytes {
            return Err(RpcError::payload(
                "PayloadSizeExceeded",
                format!("the message has {} bytes; at most {} are relayed", p.message.len(), self.settings.max_message_bytes),
            ));
        }
        let now = now_ms();
        let stored = Stored {
            id: message_id(&p.message),
            topic: p.topic,
            message: p.message,
            tag: p.tag,
            attestation: p.attestation,
            publisher: client.to_owned(),
            published_at: now,
            expires_at: now + p.ttl * 1000,
            seq: self.seq(),
        };
        // Delivered to who listens while it is stored; the publisher is answered once it is
        // stored, so a restart loses nothing it was told was sent. The store is queued before
        // the delivery, so an ack always finds it. A message published again (a client that
        // saw no answer) is delivered once.
        let (done, stored_as) = tokio::sync::oneshot::channel();
        let _ = self.writes.send(Write::Store(stored.clone(), done));
        let seen_before = {
            let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
            let key = (stored.topic.clone(), stored.id.clone());
            let seen = !recent.0.insert(key.clone());
            if !seen {
                recent.1.push_back(key);
                if recent.1.len() > RECENT {
                    if let Some(old) = recent.1.pop_front() {
                        recent.0.remove(&old);
                    }
                }
            }
            seen
        };
        if !seen_before {
            self.fan_out(&stored);
        }
        match stored_as.await {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => return Ok(()),
            _ => return Err(RpcError::internal()),
        }
        if self.notify_others {
            let note = format!("{} {} {}", self.instance, stored.topic, stored.id);
            if let Err(e) = sqlx::query("SELECT pg_notify($1, $2)").bind(CHANNEL).bind(note).execute(&self.db).await {
                tracing::warn!(error = %e, "telling the other relay processes of a message failed; they deliver it on subscribe");
            }
        }
        Ok(())
    }

    /// Sends a stored message to this process's subscribers of its topic, except its publisher.
    fn fan_out(&self, m: &Stored) {
        let targets: Vec<Arc<Conn>> = {
            let subscribers = self.subscribers.read().unwrap_or_else(|e| e.into_inner());
            let Some(ids) = subscribers.get(&m.topic) else { return };
            let conns = self.conns.read().unwrap_or_else(|e| e.into_inner());
            ids.iter().filter_map(|id| conns.get(id)).filter(|c| c.client != m.publisher).cloned().collect()
        };
        for conn in targets {
            self.push(&conn, m);
        }
    }

    /// One `irn_subscription` to `conn`, remembered until acknowledged.
    fn push(&self, conn: &Conn, m: &Stored) {
        let push_id = conn.next_push.fetch_add(1, Ordering::Relaxed);
        // A message without an attestation goes out with an empty one: wallets then skip Verify
        // instead of asking the vendor's server about it (nothing leaves the deployment).
        let attestation = m.attestation.as_deref().unwrap_or("");
        let data = serde_json::json!({"topic": m.topic, "message": m.message, "publishedAt": m.published_at, "tag": m.tag, "attestation": attestation});
        let frame = serde_json::json!({
            "id": push_id, "jsonrpc": "2.0", "method": "irn_subscription",
            "params": {"id": subscription_id(&m.topic, &conn.client), "data": data},
        });
        conn.pushed.lock().unwrap_or_else(|e| e.into_inner()).insert(push_id, (m.topic.clone(), m.id.clone()));
        if conn.tx.try_send(Frame::Text(frame.to_string())).is_err() {
            // Too slow to read what it is sent: closed; it gets the rest when it subscribes again.
            conn.closed.notify_one();
        }
    }

    /// The client acknowledged push `push_id`: its message is done with (deleted shortly,
    /// in order with the writer's other work).
    pub fn acknowledge(&self, conn: &Conn, push_id: u64) {
        let Some((topic, id)) = conn.pushed.lock().unwrap_or_else(|e| e.into_inner()).remove(&push_id) else { return };
        let _ = self.writes.send(Write::Ack(topic, id));
    }

    /// Stores published messages and deletes acknowledged ones, in order, in batches (one
    /// transaction for all that wait), until the relay is gone.
    pub fn spawn_writer(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let receiver = self.writes_in.lock().unwrap_or_else(|e| e.into_inner()).take();
        let relay = Arc::downgrade(self);
        tokio::spawn(async move {
            let Some(mut receiver) = receiver else { return };
            let mut batch: Vec<Write> = Vec::new();
            while receiver.recv_many(&mut batch, 200).await > 0 {
                let Some(relay) = relay.upgrade() else { return };
                match store::write_all(&relay.db, &batch).await {
                    Ok(fresh) => {
                        let mut fresh = fresh.into_iter();
                        for write in batch.drain(..) {
                            match write {
                                Write::Store(_, done) => {
                                    let _ = done.send(Ok(fresh.next().unwrap_or(false)));
                                }
                                Write::Flush(done) => {
                                    let _ = done.send(());
                                }
                                Write::Ack(..) => {}
                            }
                        }
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "relay storage failed");
                        for write in batch.drain(..) {
                            match write {
                                Write::Store(_, done) => {
                                    let _ = done.send(Err(()));
                                }
                                Write::Flush(done) => {
                                    let _ = done.send(());
                                }
                                Write::Ack(..) => {}
                            }
                        }
                    }
                }
            }
        })
    }

    /// Stored messages of `topics` for `client` (fetch: they stay until receipts come).
    pub async fn fetch(&self, client: &str, topics: &[String]) -> Result<Vec<Stored>, RpcError> {
        let mut out = Vec::new();
        for topic in topics {
            protocol::check_topic(topic)?;
            out.extend(store::waiting(&self.db, topic, client, now_ms(), i64::MIN, PAGE).await.map_err(|e| self.storage_failed(e))?);
        }
        Ok(out)
    }

    pub async fn receipt(&self, topic: &str, message_id: &str) -> Result<(), RpcError> {
        store::acknowledge(&self.db, topic, message_id).await.map_err(|e| self.storage_failed(e))
    }

    fn storage_failed(&self, e: sqlx::Error) -> RpcError {
        tracing::error!(error = %e, "relay storage failed");
        RpcError::internal()
    }

    /// Follows the other processes' announcements (PostgreSQL LISTEN) until aborted.
    pub fn spawn_listener(self: &Arc<Self>, database_url: String) -> tokio::task::JoinHandle<()> {
        let relay = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let listened = async {
                    let mut listener = sqlx::postgres::PgListener::connect(&database_url).await?;
                    listener.listen(CHANNEL).await?;
                    if let Some(relay) = relay.upgrade() {
                        relay.listening.store(true, Ordering::Release);
                    }
                    loop {
                        let note = listener.recv().await?;
                        let Some(relay) = relay.upgrade() else { return Ok::<(), sqlx::Error>(()) };
                        let mut parts = note.payload().splitn(3, ' ');
                        let (Some(instance), Some(topic), Some(id)) = (parts.next(), parts.next(), parts.next()) else { continue };
                        if instance == relay.instance || !relay.subscribers.read().unwrap_or_else(|e| e.into_inner()).contains_key(topic) {
                            continue;
                        }
                        if let Some(m) = store::get(&relay.db, topic, id).await? {
                            relay.fan_out(&m);
                        }
                    }
                };
                let outcome = listened.await;
                if let Some(relay) = relay.upgrade() {
                    relay.listening.store(false, Ordering::Release);
                }
                match outcome {
                    Ok(()) => return,
                    Err(e) => tracing::warn!(error = %e, "relay listener lost its connection; listening again"),
                }
                if relay.strong_count() == 0 {
                    return;
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        })
    }
}

/// A socket's place in the relay, given back when dropped.
pub struct SocketSlot(Arc<Relay>);

impl Drop for SocketSlot {
    fn drop(&mut self) {
        self.0.sockets.fetch_sub(1, Ordering::AcqRel);
    }
}
