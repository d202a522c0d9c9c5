//! The WalletConnect relay: clients (dapps, wallets) open a WebSocket, authenticate with an
//! EdDSA JWT, subscribe to topics and publish encrypted messages on them. Every message is
//! stored (store.rs) until its TTL ends, delivered at once to the topic's connected
//! subscribers except its publisher, and on subscribe to whoever comes later and has not
//! acknowledged it. Processes sharing one PostgreSQL database tell each other of new messages
//! with LISTEN/NOTIFY, so a client on one process reaches a client on another: a message that
//! fits in a notification is announced with its text at once, beside its storage, as it is
//! delivered on its own process (the early notes queued together share a notification, a line
//! each); a message no early note went out for (too big, or the notes
//! far behind) is announced by id in the transaction that stores it, for the others to fetch.
//! Only those: a transaction that notifies holds PostgreSQL's notification lock until its
//! commit is flushed, and the early notes would wait for it.
//!
//! What one client can hold is limited (quota.rs): bytes in the mailbox per client identity and
//! per address, a cap on the whole mailbox, a shorter life for undelivered messages of clients
//! nobody ever acknowledged, and sockets per address.

pub mod protocol;
pub mod quota;
pub mod routes;
pub mod socket;
pub mod store;
pub mod verify;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, Notify};

use crate::db::{now_ms, Db};
use protocol::{Publish, RpcError};
use store::{Ack, Stored};

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
    /// Open sockets from one client address at most.
    pub max_sockets_per_address: usize,
    /// Bytes of live messages per client identity, per address, and in the whole mailbox.
    pub mailbox: quota::Limits,
    /// How long an undelivered message of a client nobody ever acknowledged lives at most.
    pub unknown_client_ttl: Duration,
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
            max_sockets_per_address: 100,
            mailbox: quota::Limits { per_client: 4 << 20, per_address: 32 << 20, total: 1 << 30 },
            unknown_client_ttl: Duration::from_secs(3600),
        }
    }
}

impl From<&crate::config::RelayConfig> for RelaySettings {
    /// The relay's settings from its group of the configuration.
    fn from(c: &crate::config::RelayConfig) -> RelaySettings {
        RelaySettings {
            max_message_bytes: c.max_message_bytes,
            max_subscriptions: c.max_subscriptions,
            publishes_per_second: c.publishes_per_second,
            max_sockets: c.max_sockets,
            ping_every: c.ping,
            audiences: c.url.iter().cloned().collect(),
            max_sockets_per_address: c.max_sockets_per_address,
            mailbox: quota::Limits { per_client: c.client_mailbox_bytes, per_address: c.address_mailbox_bytes, total: c.mailbox_max_bytes },
            unknown_client_ttl: c.unknown_client_ttl,
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
    /// The client's address.
    pub address: IpAddr,
    tx: mpsc::Sender<Frame>,
    /// Closed by the relay (too slow); the socket loop ends.
    pub closed: Notify,
    next_push: AtomicU64,
    /// Pushes awaiting the client's ack: push id -> what the ack records.
    pushed: Mutex<HashMap<u64, Ack>>,
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
    /// Open sockets per client address.
    sockets_by_address: Mutex<HashMap<IpAddr, usize>>,
    /// Sockets at most, below the listener's connection budget (the accept loop shares its
    /// descriptors with the relay's sockets and keeps room for the API): set by `start`.
    socket_budget: AtomicUsize,
    /// What the mailbox holds, by whom.
    usage: Mutex<quota::Usage>,
    /// Clients another client acknowledged a message from (a cache of relay_clients).
    known: Mutex<HashSet<String>>,
    /// Whether this process hears the others' announcements now (PostgreSQL).
    listening: std::sync::atomic::AtomicBool,
    /// Messages to store and acks to record, written in order and in batches by one writer:
    /// an ack can never come before the message it acknowledges is stored.
    writes: mpsc::UnboundedSender<Write>,
    writes_in: Mutex<Option<mpsc::UnboundedReceiver<Write>>>,
    /// Messages published lately (topic, id), so one published again is not delivered again;
    /// on PostgreSQL also those announced by the other processes, so each is delivered once.
    recent: Mutex<Recent>,
    /// Announcements of new messages with their text, sent at once (PostgreSQL).
    announce: mpsc::Sender<String>,
    announce_in: Mutex<Option<mpsc::Receiver<String>>>,
    /// Messages the other processes announced early, the latest by topic: a subscriber arriving
    /// before they are stored gets them from here (stored ones come from the mailbox too: sent
    /// once).
    pending: Mutex<Pending>,
}

/// Announced messages: by topic, and their order to forget the oldest (at most PENDING).
#[derive(Default)]
struct Pending {
    by_topic: HashMap<String, Vec<Arc<Stored>>>,
    order: std::collections::VecDeque<(String, String)>,
}

impl Pending {
    fn add(&mut self, m: Arc<Stored>) {
        self.order.push_back((m.topic.clone(), m.id.clone()));
        self.by_topic.entry(m.topic.clone()).or_default().push(m);
        while self.order.len() > PENDING {
            if let Some((topic, id)) = self.order.pop_front() {
                self.take(&topic, &id);
            }
        }
    }

    /// Forgets a message (it is stored now); whether it was here.
    fn take(&mut self, topic: &str, id: &str) -> bool {
        let Some(list) = self.by_topic.get_mut(topic) else { return false };
        let before = list.len();
        list.retain(|m| m.id != id);
        let found = list.len() < before;
        if list.is_empty() {
            self.by_topic.remove(topic);
        }
        found
    }
}

/// Announced messages kept for late subscribers at most (their storage normally follows
/// within milliseconds; no note says so, as one would wait behind durable commits).
const PENDING: usize = 2048;

/// (topic, message id) of recent messages: a set to look up, and their order to forget the oldest.
type Recent = (HashSet<(String, String)>, std::collections::VecDeque<(String, String)>);

/// How many recent messages are remembered for that.
const RECENT: usize = 65_536;

/// The `data` of an `irn_subscription` push, serialized as it is built (no JSON tree in
/// between), once per message: the same for every subscriber.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct PushData<'a> {
    topic: &'a str,
    message: &'a str,
    published_at: i64,
    tag: i64,
    attestation: &'a str,
}

/// PostgreSQL's notifications carry less than 8000 bytes.
const NOTE_MAX: usize = 7_900;

/// A message as an early announcement carries it (`Relay::early_note`).
#[derive(serde::Serialize, serde::Deserialize)]
struct Carried {
    message: String,
    tag: i64,
    attestation: Option<String>,
    publisher: String,
    publisher_address: String,
    published_at: i64,
    expires_at: i64,
    seq: i64,
}

impl Carried {
    fn into_stored(self, topic: &str, id: &str) -> Stored {
        Stored {
            topic: topic.to_owned(),
            id: id.to_owned(),
            message: self.message,
            tag: self.tag,
            attestation: self.attestation,
            publisher: self.publisher,
            publisher_address: self.publisher_address,
            published_at: self.published_at,
            expires_at: self.expires_at,
            seq: self.seq,
        }
    }
}

/// What the writer does: store a message (its publisher waits to know whether it was new),
/// or record that a client acknowledged one.
pub enum Write {
    /// A message, and whether its early note (`Relay::early_note`) was queued.
    Store(Arc<Stored>, bool, tokio::sync::oneshot::Sender<Result<bool, ()>>),
    /// An ack, and whether its publisher, acknowledged by another client, is not known here
    /// yet (it is then recorded as known, and `known` learns it once committed).
    Ack(Ack, bool),
    /// Answered once everything queued before it is written, and on SQLite filed from the
    /// inbox into the mailbox's tables (see `subscribe`).
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
        let (announce, announce_in) = mpsc::channel(QUEUE);
        Relay {
            announce,
            announce_in: Mutex::new(Some(announce_in)),
            pending: Default::default(),
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
            sockets_by_address: Default::default(),
            socket_budget: AtomicUsize::new(usize::MAX),
            usage: Default::default(),
            known: Default::default(),
            listening: Default::default(),
        }
    }

    /// The relay's sockets take their descriptors from the same budget as the listener's
    /// connections: at most `budget` of them.
    pub fn set_socket_budget(&self, budget: usize) {
        self.socket_budget.store(budget, Ordering::Release);
    }

    /// Counts what the mailbox already holds (a process starting), then keeps the total in step
    /// with the database (other processes' messages) every few seconds.
    pub async fn count_mailbox(self: &Arc<Self>) -> Result<tokio::task::JoinHandle<()>, sqlx::Error> {
        let now = now_ms();
        let held = store::held(&self.db, now).await?;
        {
            let mut usage = self.usage.lock().unwrap_or_else(|e| e.into_inner());
            for (client, address, bytes, expires_at) in held {
                let address = address.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]));
                usage.count_stored(&client, address, bytes.max(0) as u64, expires_at);
            }
        }
        let relay = Arc::downgrade(self);
        Ok(tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(5));
            loop {
                every.tick().await;
                let Some(relay) = relay.upgrade() else { return };
                match store::stored_bytes(&relay.db, now_ms()).await {
                    Ok(stored) => relay.usage.lock().unwrap_or_else(|e| e.into_inner()).set_stored(stored, now_ms()),
                    Err(e) => tracing::warn!(error = %e, "reading the relay mailbox's size failed"),
                }
            }
        }))
    }

    /// Bytes of live messages in the mailbox (as /metrics shows).
    pub fn mailbox_bytes(&self) -> u64 {
        self.usage.lock().unwrap_or_else(|e| e.into_inner()).total()
    }

    /// Whether messages published on other processes reach this one's subscribers live.
    pub fn is_listening(&self) -> bool {
        self.listening.load(Ordering::Acquire)
    }

    pub fn sockets(&self) -> usize {
        self.sockets.load(Ordering::Relaxed)
    }

    /// A place for a new socket from `address`, or why there is none.
    pub fn admit(self: &Arc<Self>, address: IpAddr) -> Result<SocketSlot, &'static str> {
        let most = self.settings.max_sockets.min(self.socket_budget.load(Ordering::Acquire));
        let taken = self.sockets.fetch_add(1, Ordering::AcqRel);
        if taken >= most {
            self.sockets.fetch_sub(1, Ordering::AcqRel);
            return Err("The relay is full; try again later");
        }
        let mut by_address = self.sockets_by_address.lock().unwrap_or_else(|e| e.into_inner());
        let open = by_address.entry(address).or_default();
        if *open >= self.settings.max_sockets_per_address {
            drop(by_address);
            self.sockets.fetch_sub(1, Ordering::AcqRel);
            return Err("Too many relay connections from this address; try again later");
        }
        *open += 1;
        Ok(SocketSlot { relay: self.clone(), address })
    }

    pub fn register(&self, client: String, address: IpAddr, tx: mpsc::Sender<Frame>) -> Arc<Conn> {
        let id = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn {
            id,
            client,
            address,
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
        self.written().await;
        // Announced by another process and maybe not stored yet: taken before the mailbox is
        // read, so a message is either here or there (or both: sent once).
        let now = now_ms();
        let mut announced: Vec<Arc<Stored>> = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .by_topic
            .get(topic)
            .map(|list| list.iter().filter(|m| m.publisher != conn.client && m.expires_at > now).cloned().collect())
            .unwrap_or_default();
        let sent = self.deliver_waiting(conn, topic).await?;
        announced.retain(|m| !sent.contains(&m.id));
        if !announced.is_empty() {
            // The mailbox read's rules: not what this client acknowledged (its acks made here are
            // written by now; those made on another process once that one wrote them).
            let ids: Vec<&str> = announced.iter().map(|m| m.id.as_str()).collect();
            let acked = store::acknowledged(&self.db, topic, &conn.client, &ids).await.map_err(|e| self.storage_failed(e))?;
            for m in announced.iter().filter(|m| !acked.contains(&m.id)) {
                self.push(conn, m);
            }
        }
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

    /// Everything stored on `topic` that `conn`'s client did not publish, in order; their ids.
    async fn deliver_waiting(&self, conn: &Arc<Conn>, topic: &str) -> Result<HashSet<String>, RpcError> {
        let mut after = i64::MIN;
        let mut sent = HashSet::new();
        loop {
            let page = store::waiting(&self.db, topic, &conn.client, now_ms(), after, PAGE).await.map_err(|e| self.storage_failed(e))?;
            for m in &page {
                self.push(conn, m);
            }
            let full = page.len() as i64 == PAGE;
            if let Some(last) = page.last() {
                after = last.seq;
            }
            sent.extend(page.into_iter().map(|m| m.id));
            if !full {
                return Ok(sent);
            }
        }
    }

    /// An ordering stamp: publish time in microseconds, with room for 1024 publishes a
    /// microsecond on one process.
    fn seq(&self) -> i64 {
        let micros = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_micros() as i64).unwrap_or(0);
        micros * 1024 + (self.next_seq.fetch_add(1, Ordering::Relaxed) % 1024) as i64
    }

    /// Whether another client ever acknowledged a message of `client`.
    async fn is_known(&self, client: &str) -> bool {
        if self.known.lock().unwrap_or_else(|e| e.into_inner()).contains(client) {
            return true;
        }
        match store::is_known(&self.db, client).await {
            Ok(true) => {
                self.known.lock().unwrap_or_else(|e| e.into_inner()).insert(client.to_owned());
                true
            }
            Ok(false) => false,
            Err(e) => {
                tracing::warn!(error = %e, "reading the relay's known clients failed");
                false
            }
        }
    }

    /// Stores and delivers a message the client of `conn` publishes: within its limits, for
    /// its TTL (at most --relay-unknown-client-ttl while nobody ever acknowledged the client).
    pub async fn publish(&self, conn: &Conn, p: Publish) -> Result<(), RpcError> {
        protocol::check_topic(&p.topic)?;
        protocol::check_ttl(p.ttl)?;
        if p.message.len() > self.settings.max_message_bytes {
            return Err(RpcError::payload(
                "PayloadSizeExceeded",
                format!("the message has {} bytes; at most {} are relayed", p.message.len(), self.settings.max_message_bytes),
            ));
        }
        let now = now_ms();
        let mut expires_at = now + p.ttl * 1000;
        if !self.is_known(&conn.client).await {
            expires_at = expires_at.min(now + self.settings.unknown_client_ttl.as_millis() as i64);
        }
        let bytes = p.message.len() as u64;
        let place = self.usage.lock().unwrap_or_else(|e| e.into_inner()).take(&conn.client, conn.address, bytes, expires_at, now, self.settings.mailbox);
        let place = place.map_err(|refusal| {
            let limits = self.settings.mailbox;
            let why = match refusal {
                quota::Refusal::Client => format!("this client has {} bytes of messages waiting on the relay, the most one client may have", limits.per_client),
                quota::Refusal::Address => {
                    format!("this address has {} bytes of messages waiting on the relay, the most one address may have", limits.per_address)
                }
                quota::Refusal::Full => "the relay's mailbox is full; try again later".to_owned(),
            };
            RpcError::handler("MailboxLimitExceeded", why)
        })?;
        let give_back = || self.usage.lock().unwrap_or_else(|e| e.into_inner()).give_back(place, &conn.client, conn.address, bytes);
        let stored = Arc::new(Stored {
            id: message_id(&p.message),
            topic: p.topic,
            message: p.message,
            tag: p.tag,
            attestation: p.attestation,
            publisher: conn.client.clone(),
            publisher_address: conn.address.to_string(),
            published_at: now,
            expires_at,
            seq: self.seq(),
        });
        // Delivered to who listens while it is stored; the publisher is answered once it is
        // stored, so a restart loses nothing it was told was sent. The store is queued before
        // the delivery, so an ack always finds it. A message published again (a client that
        // saw no answer) is delivered once.
        let (done, stored_as) = tokio::sync::oneshot::channel();
        let seen_before = self.seen(&stored.topic, &stored.id);
        // At once, beside the storage (when it fits; else the storing transaction carries its id).
        let early = !seen_before && self.notify_others && self.early_note(&stored).is_some_and(|note| self.announce.try_send(note).is_ok());
        let _ = self.writes.send(Write::Store(stored.clone(), early, done));
        if !seen_before {
            self.fan_out(&stored);
        }
        match stored_as.await {
            Ok(Ok(true)) => {}
            Ok(Ok(false)) => {
                give_back();
                return Ok(());
            }
            _ => {
                give_back();
                return Err(RpcError::internal());
            }
        }
        Ok(())
    }

    /// The announcement of a new message with its text (`E instance topic id json`), sent at
    /// once, when it fits in a notification.
    fn early_note(&self, m: &Stored) -> Option<String> {
        let carried = Carried {
            message: m.message.clone(),
            tag: m.tag,
            attestation: m.attestation.clone(),
            publisher: m.publisher.clone(),
            publisher_address: m.publisher_address.clone(),
            published_at: m.published_at,
            expires_at: m.expires_at,
            seq: m.seq,
        };
        let whole = format!("E {} {} {} {}", self.instance, m.topic, m.id, serde_json::to_string(&carried).ok()?);
        (whole.len() < NOTE_MAX).then_some(whole)
    }

    /// What the other processes are told in the transaction that stores a message
    /// (`S instance topic id`): they fetch it unless its early note reached them.
    fn note(&self, m: &Stored) -> String {
        format!("S {} {} {}", self.instance, m.topic, m.id)
    }

    /// Whether (topic, id) was delivered here already; remembers it.
    fn seen(&self, topic: &str, id: &str) -> bool {
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let key = (topic.to_owned(), id.to_owned());
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
    }

    /// Sends the early announcements, many per statement, on a connection of their own that
    /// does not wait for its commits to reach the disk (waiting would cost every message a
    /// flush). One lost in a crash of this process (queued before its message's storage, and
    /// normally sent before that commits) loses no message: the others' subscribers get it from
    /// the mailbox when they subscribe again.
    async fn announce_all(mut receiver: mpsc::Receiver<String>, database_url: &str) {
        let mut batch = Vec::new();
        // A batch that failed is sent again once on a new connection (the others skip what they
        // heard already), then dropped (the others' subscribers get those from the mailbox when
        // they subscribe again).
        let mut failed = false;
        loop {
            let connected = async {
                use sqlx::Connection;
                let mut conn = sqlx::postgres::PgConnection::connect(database_url).await?;
                sqlx::query("SET synchronous_commit = off").execute(&mut conn).await?;
                loop {
                    if batch.is_empty() && receiver.recv_many(&mut batch, 64).await == 0 {
                        return Ok::<(), sqlx::Error>(());
                    }
                    // As few notifications as hold them, a line each: each notification costs
                    // PostgreSQL and every listening process a step of its own.
                    let mut payloads: Vec<String> = Vec::new();
                    for note in &batch {
                        match payloads.last_mut() {
                            Some(last) if last.len() + 1 + note.len() < NOTE_MAX => {
                                last.push('\n');
                                last.push_str(note);
                            }
                            _ => payloads.push(note.clone()),
                        }
                    }
                    let calls: Vec<String> = (0..payloads.len()).map(|i| format!("pg_notify($1, ${})", i + 2)).collect();
                    let sql = format!("SELECT {}", calls.join(", "));
                    let mut query = sqlx::query(&sql).bind(CHANNEL);
                    for payload in payloads {
                        query = query.bind(payload);
                    }
                    query.execute(&mut conn).await?;
                    batch.clear();
                    failed = false;
                }
            };
            match connected.await {
                Ok(()) => return,
                Err(e) => tracing::warn!(error = %e, "announcing relay messages failed; the others fetch them once stored"),
            }
            if std::mem::replace(&mut failed, true) {
                batch.clear();
                failed = false;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Sends a stored message to this process's subscribers of its topic, except its publisher.
    fn fan_out(&self, m: &Stored) {
        let targets: Vec<Arc<Conn>> = {
            let subscribers = self.subscribers.read().unwrap_or_else(|e| e.into_inner());
            let Some(ids) = subscribers.get(&m.topic) else { return };
            let conns = self.conns.read().unwrap_or_else(|e| e.into_inner());
            ids.iter().filter_map(|id| conns.get(id)).filter(|c| c.client != m.publisher).cloned().collect()
        };
        if targets.is_empty() {
            return;
        }
        let data = push_data(m);
        for conn in targets {
            self.push_with(&conn, m, &data);
        }
    }

    /// One `irn_subscription` to `conn`, remembered until acknowledged.
    fn push(&self, conn: &Conn, m: &Stored) {
        self.push_with(conn, m, &push_data(m));
    }

    /// `push` with the message's `data` serialized already (`push_data`).
    fn push_with(&self, conn: &Conn, m: &Stored, data: &str) {
        let push_id = conn.next_push.fetch_add(1, Ordering::Relaxed);
        let subscription = subscription_id(&m.topic, &conn.client);
        // The subscription id is hex and `data` JSON: nothing to escape.
        let frame = format!(r#"{{"id":{push_id},"jsonrpc":"2.0","method":"irn_subscription","params":{{"id":"{subscription}","data":{data}}}}}"#);
        let ack = Ack { topic: m.topic.clone(), id: m.id.clone(), client: conn.client.clone(), publisher: m.publisher.clone(), expires_at: m.expires_at };
        conn.pushed.lock().unwrap_or_else(|e| e.into_inner()).insert(push_id, ack);
        if conn.tx.try_send(Frame::Text(frame)).is_err() {
            // Too slow to read what it is sent: closed; it gets the rest when it subscribes again.
            conn.closed.notify_one();
        }
    }

    /// The client acknowledged push `push_id`: its message is never sent to this client again
    /// (recorded shortly, in order with the writer's other work); the topic's other
    /// subscribers still get it.
    pub fn acknowledge(&self, conn: &Conn, push_id: u64) {
        let Some(ack) = conn.pushed.lock().unwrap_or_else(|e| e.into_inner()).remove(&push_id) else { return };
        self.record_ack(ack);
    }

    fn record_ack(&self, ack: Ack) {
        // Not known yet here: the write records the publisher as known, and `known` learns it
        // once that is committed (the writer), so a failed write leaves it unknown in both.
        // Acks queued meanwhile may record it again (ON CONFLICT DO NOTHING).
        let first = ack.client != ack.publisher && !self.known.lock().unwrap_or_else(|e| e.into_inner()).contains(&ack.publisher);
        let _ = self.writes.send(Write::Ack(ack, first));
    }

    /// Stores published messages and deletes acknowledged ones, in order, in batches (one
    /// transaction for all that wait), until the relay is gone.
    pub fn spawn_writer(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let receiver = self.writes_in.lock().unwrap_or_else(|e| e.into_inner()).take();
        let relay = Arc::downgrade(self);
        let sqlite = !self.notify_others;
        let writing = async move {
            let Some(mut receiver) = receiver else { return };
            let mut batch: Vec<Write> = Vec::new();
            // One connection of the pool kept for the writer: on SQLite a connection that another
            // one wrote behind drops its whole page cache and reads the mailbox's pages again.
            // There it checkpoints (copies the log into the database file, with an fsync) once
            // a second, after filing the inbox, not every 1000 pages in the middle of a batch.
            let mut kept: Option<sqlx::pool::PoolConnection<sqlx::Any>> = None;
            // On SQLite, batches go to the inbox, filed every store::FILE_EVERY (at once when a
            // reader waits); what a previous process left there is filed first.
            let mut inbox = sqlite.then(store::Inbox::left_over);
            let mut checkpointed = std::time::Instant::now();
            loop {
                let deadline = inbox.as_ref().and_then(store::Inbox::deadline);
                let received = match deadline {
                    Some(at) => tokio::select! {
                        n = receiver.recv_many(&mut batch, 200) => Some(n),
                        () = tokio::time::sleep_until(at.into()) => None,
                    },
                    None => Some(receiver.recv_many(&mut batch, 200).await),
                };
                if received == Some(0) {
                    return;
                }
                let Some(relay) = relay.upgrade() else { return };
                let note = |m: &Stored| relay.note(m);
                let notify: store::Notify = if relay.notify_others { Some(&note) } else { None };
                let flush = batch.iter().any(|w| matches!(w, Write::Flush(_)));
                // Whether each message was new, and whether the connection is still sound.
                let written = async {
                    if kept.is_none() {
                        let mut conn = relay.db.acquire().await?;
                        if sqlite {
                            sqlx::query("PRAGMA wal_autocheckpoint = 0").execute(&mut *conn).await?;
                        }
                        kept = Some(conn);
                    }
                    let conn = kept.as_mut().expect("a connection was just kept");
                    let fresh = store::write_all(conn, &batch, inbox.as_mut(), notify).await?;
                    if let Some(inbox) = inbox.as_mut().filter(|i| i.due(flush)) {
                        // The batch is committed whatever happens here: a failed move is tried
                        // again a period later, on a new connection.
                        if let Err(e) = store::move_inbox(conn, inbox).await {
                            tracing::error!(error = %e, "filing the relay's inbox failed");
                            inbox.retry_later();
                            return Ok((fresh, false));
                        }
                        // Checkpointed here, between batches, at most once a period: from another
                        // connection beside a writer that never pauses, a checkpoint never
                        // catches up, and the log would grow without end (hundreds of MB a
                        // minute under load).
                        if checkpointed.elapsed() >= store::FILE_EVERY {
                            checkpointed = std::time::Instant::now();
                            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)").execute(&mut **conn).await {
                                tracing::warn!(error = %e, "checkpointing the database failed");
                            }
                        }
                    }
                    Ok::<_, sqlx::Error>((fresh, true))
                };
                let written = written.await;
                if !matches!(written, Ok((_, true))) {
                    // A new connection for the next batch; this one is closed, not pooled.
                    if let Some(conn) = kept.take() {
                        let _ = conn.close().await;
                    }
                }
                match written {
                    Ok((fresh, _)) => {
                        let mut fresh = fresh.into_iter();
                        for write in batch.drain(..) {
                            match write {
                                Write::Store(_, _, done) => {
                                    let _ = done.send(Ok(fresh.next().unwrap_or(false)));
                                }
                                Write::Flush(done) => {
                                    let _ = done.send(());
                                }
                                Write::Ack(ack, true) => {
                                    relay.known.lock().unwrap_or_else(|e| e.into_inner()).insert(ack.publisher);
                                }
                                Write::Ack(_, false) => {}
                            }
                        }
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "relay storage failed");
                        for write in batch.drain(..) {
                            match write {
                                Write::Store(_, _, done) => {
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
        };
        tokio::spawn(writing)
    }

    /// Resolves once everything queued for the writer so far is written.
    async fn written(&self) {
        let (flushed, written) = tokio::sync::oneshot::channel();
        if self.writes.send(Write::Flush(flushed)).is_ok() {
            let _ = written.await;
        }
    }

    /// Stored messages of `topics` for `client` (fetch: they stay until receipts come). Read
    /// once the client's own acks so far are recorded, so a message it acknowledged is not
    /// fetched again.
    pub async fn fetch(&self, client: &str, topics: &[String]) -> Result<Vec<Stored>, RpcError> {
        self.written().await;
        let mut out = Vec::new();
        for topic in topics {
            protocol::check_topic(topic)?;
            out.extend(store::waiting(&self.db, topic, client, now_ms(), i64::MIN, PAGE).await.map_err(|e| self.storage_failed(e))?);
        }
        Ok(out)
    }

    /// A receipt for a fetched message: as an acknowledgement, for this client only.
    pub async fn receipt(&self, conn: &Conn, topic: &str, message_id: &str) -> Result<(), RpcError> {
        if let Some(m) = store::get(&self.db, topic, message_id).await.map_err(|e| self.storage_failed(e))? {
            self.record_ack(Ack { topic: m.topic, id: m.id, client: conn.client.clone(), publisher: m.publisher, expires_at: m.expires_at });
        }
        Ok(())
    }

    fn storage_failed(&self, e: sqlx::Error) -> RpcError {
        tracing::error!(error = %e, "relay storage failed");
        RpcError::internal()
    }

    /// Acts on one announcement from another process: an early one is delivered and kept for
    /// subscribers arriving before it is stored; a stored one is fetched and delivered unless
    /// its early one came.
    async fn hear(&self, line: &str) -> Result<(), sqlx::Error> {
        let mut parts = line.splitn(5, ' ');
        let (Some(kind), Some(instance), Some(topic), Some(id)) = (parts.next(), parts.next(), parts.next(), parts.next()) else { return Ok(()) };
        if instance == self.instance {
            return Ok(());
        }
        if kind == "E" {
            let Some(c) = parts.next().and_then(|whole| serde_json::from_str::<Carried>(whole).ok()) else { return Ok(()) };
            // Expired by the time it is heard: the mailbox would not deliver it.
            if c.expires_at <= now_ms() || self.seen(topic, id) {
                return Ok(());
            }
            let m = Arc::new(c.into_stored(topic, id));
            self.fan_out(&m);
            self.pending.lock().unwrap_or_else(|e| e.into_inner()).add(m);
            return Ok(());
        }
        // Stored: forgotten from the announced ones; fetched and delivered when its early
        // note never came.
        if self.pending.lock().unwrap_or_else(|e| e.into_inner()).take(topic, id) {
            return Ok(());
        }
        if !self.subscribers.read().unwrap_or_else(|e| e.into_inner()).contains_key(topic) || self.seen(topic, id) {
            return Ok(());
        }
        if let Some(m) = store::get(&self.db, topic, id).await? {
            self.fan_out(&m);
        }
        Ok(())
    }

    /// Follows the other processes' announcements (PostgreSQL LISTEN) on the server's runtime,
    /// where the sockets they are delivered to live, and sends this one's from a thread of its
    /// own, until aborted.
    pub fn spawn_listener(self: &Arc<Self>, database_url: String) -> tokio::task::JoinHandle<()> {
        let relay = Arc::downgrade(self);
        // Ends once the relay is gone (its sender with it).
        let announcements = self.announce_in.lock().unwrap_or_else(|e| e.into_inner()).take();
        let announce_url = database_url.clone();
        let announcing = async move {
            if let Some(receiver) = announcements {
                Relay::announce_all(receiver, &announce_url).await;
            }
        };
        let listening = async move {
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
                        // A notification carries one announcement or several, a line each.
                        for line in note.payload().split('\n') {
                            relay.hear(line).await?;
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
        };
        // The announcements go from a thread of their own: on the shared runtime their
        // statements waited behind the sockets' work, and the local deliveries behind them. The
        // listener stays on the runtime: what it hears wakes the sockets' tasks on the same
        // worker, where from another thread each delivery waited for a worker to wake (measured
        // with the two-process bench, old and new builds alternating: cross-process p50
        // 1.56-1.70 -> 1.14-1.31 ms).
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new().name("sigil-relay-announcer".into()).spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime for the relay's announcements");
            runtime.block_on(async {
                tokio::select! {
                    _ = announcing => {}
                    _ = stopped => {}
                }
            });
        });
        if let Err(e) = thread {
            // Its receiver is gone with it: every message is then announced in the transaction
            // that stores it.
            tracing::error!(error = %e, "no thread for the relay's early announcements: the other processes hear of messages once stored");
        }
        // Aborting this task drops `stop`: the thread's work ends with it.
        tokio::spawn(async move {
            let _stop = stop;
            listening.await;
        })
    }
}

/// The `data` of a push of `m`, as JSON.
fn push_data(m: &Stored) -> String {
    // A message without an attestation goes out with an empty one: wallets then skip Verify
    // instead of asking the vendor's server about it (nothing leaves the deployment).
    let attestation = m.attestation.as_deref().unwrap_or("");
    let data = PushData { topic: &m.topic, message: &m.message, published_at: m.published_at, tag: m.tag, attestation };
    serde_json::to_string(&data).expect("strings and numbers serialize")
}

/// A socket's place in the relay, given back when dropped.
pub struct SocketSlot {
    relay: Arc<Relay>,
    address: IpAddr,
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut by_address = self.relay.sockets_by_address.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = by_address.get_mut(&self.address) {
            *open -= 1;
            if *open == 0 {
                by_address.remove(&self.address);
            }
        }
        self.relay.sockets.fetch_sub(1, Ordering::AcqRel);
    }
}
