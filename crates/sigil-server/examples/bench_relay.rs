//! make bench-relay: holds as many relay sockets as asked (default 10,000), then measures
//! publish-to-delivery latency and message throughput through the Sigil relay, and the same
//! pattern through a plain WebSocket echo server in this process as the baseline.
//!
//! Usage: bench_relay <relay ws url> <projectId> <server pid> [sockets] [messages]
//!        bench_relay two-process <relay ws url of A> <relay ws url of B> <projectId> [messages]
//! The second form measures two server processes on one PostgreSQL database: pairs whose
//! publisher and subscriber are both on A, then pairs publishing on A and subscribed on B.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ed25519_dalek::SigningKey;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")).and_then(|v| v.split_whitespace().next()).and_then(|v| v.parse().ok()).unwrap_or(0)
}

async fn relay_socket(url: &str, project: &str, n: u64) -> Ws {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&n.to_le_bytes());
    let token = sigil_core::relay_auth::sign(&SigningKey::from_bytes(&seed), url, now(), now() + 3600);
    tokio_tungstenite::connect_async(format!("{url}?auth={token}&projectId={project}")).await.expect("relay socket").0
}

async fn call(ws: &mut Ws, id: u64, method: &str, params: Value) {
    ws.send(Message::text(json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params}).to_string())).await.unwrap();
    loop {
        if let Some(Ok(Message::Text(t))) = ws.next().await {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["id"] == id {
                return;
            }
        }
    }
}

/// Waits for the next text frame, answering pushes with acks; the frame.
async fn next_text(ws: &mut Ws) -> Value {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).unwrap(),
            Some(Ok(_)) => continue,
            other => panic!("socket ended: {other:?}"),
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

struct Figures {
    p50: f64,
    p99: f64,
    per_second: f64,
}

/// `messages` round trips over `pairs` (sender, receiver) pairs at once; latency in ms.
async fn measure<F, Fut>(pairs: usize, messages: usize, run_pair: F) -> Figures
where
    F: Fn(usize, usize) -> Fut,
    Fut: std::future::Future<Output = Vec<f64>> + Send + 'static,
{
    let per_pair = messages / pairs;
    let started = Instant::now();
    let tasks: Vec<_> = (0..pairs).map(|i| tokio::spawn(run_pair(i, per_pair))).collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    figures(all, started.elapsed().as_secs_f64())
}

/// Latencies (ms) taken over `elapsed` seconds, as figures.
fn figures(mut all: Vec<f64>, elapsed: f64) -> Figures {
    all.sort_by(|a, b| a.partial_cmp(b).unwrap());
    Figures { p50: percentile(&all, 0.5), p99: percentile(&all, 0.99), per_second: all.len() as f64 / elapsed }
}

/// Publish -> delivery over `pairs` (publisher on `send_url`, subscriber on `recv_url`) at once,
/// `messages` in all; each publisher waits for its delivery, acks it, and waits for the publish's
/// answer (the message stored) before the next. `seeds`: the first client key of this run.
async fn relay_pairs(send_url: &str, recv_url: &str, project: &str, pairs: usize, messages: usize, seeds: u64) -> Figures {
    let ids = Arc::new(AtomicU64::new(2_000_000_000 + seeds * 1_000));
    let (send_url, recv_url, project) = (send_url.to_owned(), recv_url.to_owned(), project.to_owned());
    measure(pairs, messages, |i, n| {
        let (send_url, recv_url, project, ids) = (send_url.clone(), recv_url.clone(), project.clone(), ids.clone());
        async move {
            let topic = format!("{:064x}", 9_000_000 + seeds + i as u64);
            let mut receiver = relay_socket(&recv_url, &project, seeds + i as u64 * 2).await;
            let mut sender = relay_socket(&send_url, &project, seeds + 1 + i as u64 * 2).await;
            call(&mut receiver, 1_000_000_001, "irn_subscribe", json!({"topic": topic})).await;
            let mut out = Vec::with_capacity(n);
            for k in 0..n {
                let t0 = Instant::now();
                let id = ids.fetch_add(1, Ordering::Relaxed);
                let publish = json!({"id": id, "jsonrpc": "2.0", "method": "irn_publish", "params": {"topic": topic, "message": format!("bench-{seeds}-{i}-{k}"), "ttl": 300, "tag": 1108}});
                sender.send(Message::text(publish.to_string())).await.unwrap();
                let push = next_text(&mut receiver).await;
                out.push(t0.elapsed().as_secs_f64() * 1000.0);
                receiver.send(Message::text(json!({"id": push["id"], "jsonrpc": "2.0", "result": true}).to_string())).await.unwrap();
                next_text(&mut sender).await; // the publish's answer
            }
            out
        }
    })
    .await
}

/// An in-memory relay on a port of this process, for the floor: it reads each frame's JSON-RPC
/// method, answers a subscribe, and for a publish pushes the message to the topic's subscribers
/// and answers the publisher at once; acks are read and dropped. No token check, no storage.
async fn in_memory_relay() -> String {
    type Subscribers = std::sync::Mutex<std::collections::HashMap<String, Vec<tokio::sync::mpsc::UnboundedSender<Message>>>>;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/relay", listener.local_addr().unwrap());
    let subscribers: Arc<Subscribers> = Arc::default();
    let pushes = Arc::new(AtomicU64::new(1));
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (subscribers, pushes) = (subscribers.clone(), pushes.clone());
            tokio::spawn(async move {
                let Ok(ws) = tokio_tungstenite::accept_async(stream).await else { return };
                let (mut sink, mut stream) = ws.split();
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Message>();
                tokio::spawn(async move {
                    while let Some(m) = rx.recv().await {
                        if sink.send(m).await.is_err() {
                            return;
                        }
                    }
                });
                while let Some(Ok(Message::Text(t))) = stream.next().await {
                    let v: Value = serde_json::from_str(&t).unwrap_or_default();
                    let topic = v["params"]["topic"].as_str().unwrap_or_default().to_owned();
                    match v["method"].as_str() {
                        Some("irn_subscribe") => {
                            subscribers.lock().unwrap().entry(topic).or_default().push(tx.clone());
                            let _ = tx.send(Message::text(json!({"id": v["id"], "jsonrpc": "2.0", "result": "subscription"}).to_string()));
                        }
                        Some("irn_publish") => {
                            let data = json!({"topic": topic, "message": v["params"]["message"], "publishedAt": now(), "tag": v["params"]["tag"]});
                            let push = json!({"id": pushes.fetch_add(1, Ordering::Relaxed), "jsonrpc": "2.0", "method": "irn_subscription", "params": {"id": "subscription", "data": data}});
                            let push = push.to_string();
                            for to in subscribers.lock().unwrap().get(&topic).into_iter().flatten() {
                                let _ = to.send(Message::text(push.clone()));
                            }
                            let _ = tx.send(Message::text(json!({"id": v["id"], "jsonrpc": "2.0", "result": true}).to_string()));
                        }
                        _ => {}
                    }
                }
            });
        }
    });
    url
}

/// `x0.62 (goal >= x0.5)`: a ratio and its goal, and whether it is met.
fn against(ratio: f64, goal: &str) -> String {
    let (op, bound) = goal.split_at(2);
    let bound: f64 = bound.trim().trim_start_matches('x').parse().unwrap_or(f64::NAN);
    let met = if op == ">=" { ratio >= bound } else { ratio <= bound };
    format!("x{ratio:.2} (goal {op} x{bound}{})", if met { "" } else { ", not met" })
}

/// Two server processes on one database: same-process pairs on A, then cross-process pairs
/// (publish on A, deliver on B), the same pattern as the main run.
async fn two_process(args: &[String]) {
    let (a, b, project) = (&args[2], &args[3], &args[4]);
    let messages: usize = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(8_000);
    let pairs = 16;
    // A short warm-up on each path (connections, caches) before anything is counted.
    relay_pairs(a, a, project, pairs, pairs * 20, 700_000).await;
    relay_pairs(a, b, project, pairs, pairs * 20, 710_000).await;
    let same = relay_pairs(a, a, project, pairs, messages, 800_000).await;
    let cross = relay_pairs(a, b, project, pairs, messages, 900_000).await;
    println!("Sigil relay across two server processes on one PostgreSQL database, {pairs} pairs, {messages} messages each way, 127.0.0.1, release build");
    println!("  {:<44} {:>10} {:>10} {:>12}", "", "p50 ms", "p99 ms", "messages/s");
    println!("  {:<44} {:>10.3} {:>10.3} {:>12.0}", "same process: publish on A -> delivery on A", same.p50, same.p99, same.per_second);
    println!("  {:<44} {:>10.3} {:>10.3} {:>12.0}", "cross-process: publish on A -> delivery on B", cross.p50, cross.p99, cross.per_second);
    println!(
        "  cross-process to same-process: p50 {}, p99 x{:.2}, messages/s x{:.2}",
        against(cross.p50 / same.p50, "<= x2"),
        cross.p99 / same.p99,
        cross.per_second / same.per_second
    );
    // The floor of the cross-process step: one PostgreSQL notification from a connection that
    // does not wait for the disk (as the relay's announcer) to a listening one, alone.
    if let Ok(url) = std::env::var("SIGIL_DATABASE_URL") {
        let hop = notify_hop(&url, 2_000, None).await;
        println!(
            "  floor: a NOTIFY to a LISTENing connection, alone: p50 {:.3} ms, p99 {:.3} ms; same-process p50 plus that hop: x{:.2} of same-process",
            hop.p50,
            hop.p99,
            (same.p50 + hop.p50) / same.p50
        );
        // The same hop while the same-process pairs carry their load: on a machine the relay
        // keeps busy, each step waits for a core, and a message from A to B takes one step more
        // at least (this hop) than one from A to A.
        let running = std::sync::atomic::AtomicBool::new(true);
        let (loaded_same, loaded_hop) = tokio::join!(
            async {
                let figures = relay_pairs(a, a, project, pairs, messages, 1_000_000).await;
                running.store(false, Ordering::Release);
                figures
            },
            notify_hop(&url, usize::MAX, Some(&running))
        );
        println!(
            "  floor under load: that hop while the same-process pairs run (their p50 {:.3} ms): p50 {:.3} ms, p99 {:.3} ms; same-process p50 plus that hop: x{:.2} of same-process",
            loaded_same.p50,
            loaded_hop.p50,
            loaded_hop.p99,
            (same.p50 + loaded_hop.p50) / same.p50
        );
    }
}

/// `n` notifications one after another (or until `running` is false), each timed from its
/// pg_notify to its arrival.
async fn notify_hop(url: &str, n: usize, running: Option<&std::sync::atomic::AtomicBool>) -> Figures {
    use sqlx::Connection;
    let mut listener = sqlx::postgres::PgListener::connect(url).await.expect("listening connection");
    listener.listen("sigil_bench_floor").await.unwrap();
    let mut conn = sqlx::postgres::PgConnection::connect(url).await.expect("notifying connection");
    sqlx::query("SET synchronous_commit = off").execute(&mut conn).await.unwrap();
    let started = Instant::now();
    let mut all = Vec::with_capacity(n.min(100_000));
    for k in 0..n {
        if running.is_some_and(|r| !r.load(Ordering::Acquire)) {
            break;
        }
        let t0 = Instant::now();
        sqlx::query("SELECT pg_notify('sigil_bench_floor', $1)").bind(k.to_string()).execute(&mut conn).await.unwrap();
        while listener.recv().await.unwrap().payload() != k.to_string() {}
        all.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    figures(all, started.elapsed().as_secs_f64())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("two-process") {
        return two_process(&args).await;
    }
    let (url, project, server_pid) = (args[1].clone(), args[2].clone(), args[3].parse::<u32>().unwrap());
    let sockets: usize = args.get(4).and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let messages: usize = args.get(5).and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let pairs = 16;

    // Idle sockets, each authenticated and subscribed to its own topic, as real wallets hold.
    let rss_before = rss_kib(server_pid);
    let opened = Instant::now();
    let mut held = Vec::with_capacity(sockets);
    let mut failed = 0;
    for chunk in (0..sockets as u64).collect::<Vec<_>>().chunks(200) {
        let opening = chunk.iter().map(|&n| {
            let (url, project) = (url.clone(), project.clone());
            tokio::spawn(async move {
                let mut ws = relay_socket(&url, &project, n + 1_000).await;
                call(&mut ws, 1_000_000_000, "irn_subscribe", json!({"topic": format!("{:064x}", n + 1_000_000)})).await;
                ws
            })
        });
        for s in futures::future::join_all(opening).await {
            match s {
                Ok(ws) => held.push(ws),
                Err(_) => failed += 1,
            }
        }
    }
    let open_secs = opened.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_after = rss_kib(server_pid);
    let per_socket_kib = (rss_after.saturating_sub(rss_before)) as f64 / held.len().max(1) as f64;

    // Publish to delivery through the relay, while those sockets stay open.
    let relay = relay_pairs(&url, &url, &project, pairs, messages, 500_000).await;

    // The baseline: a plain WebSocket echo server, the same pattern (a frame out, one back).
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let echo_url = format!("ws://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else { return };
                while let Some(Ok(m)) = ws.next().await {
                    if m.is_text() && ws.send(m).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    let echo = measure(pairs, messages, |_, n| {
        let echo_url = echo_url.clone();
        async move {
            let mut ws = tokio_tungstenite::connect_async(&echo_url).await.unwrap().0;
            let mut out = Vec::with_capacity(n);
            for k in 0..n {
                let t0 = Instant::now();
                ws.send(Message::text(json!({"m": k}).to_string())).await.unwrap();
                next_text(&mut ws).await;
                out.push(t0.elapsed().as_secs_f64() * 1000.0);
            }
            out
        }
    })
    .await;

    // The floor of the relay's pattern: the same client against an in-memory relay in this
    // process (subscribe, publish answered at once, push to the subscriber, ack), nothing stored.
    let floor_url = in_memory_relay().await;
    let floor = relay_pairs(&floor_url, &floor_url, &project, pairs, messages, 600_000).await;

    println!("Sigil relay, {pairs} publisher/subscriber pairs, {messages} messages, 127.0.0.1, release build");
    println!("  sockets held open: {} (asked {sockets}, {failed} failed), opened in {open_secs:.1} s", held.len());
    println!("  server memory: {:.1} KiB per open socket (RSS {} -> {} KiB)", per_socket_kib, rss_before, rss_after);
    println!("  {:<36} {:>10} {:>10} {:>12}", "", "p50 ms", "p99 ms", "messages/s");
    println!("  {:<36} {:>10.3} {:>10.3} {:>12.0}", "relay: publish -> delivery", relay.p50, relay.p99, relay.per_second);
    println!("  {:<36} {:>10.3} {:>10.3} {:>12.0}", "in-memory relay, nothing stored (floor)", floor.p50, floor.p99, floor.per_second);
    println!("  {:<36} {:>10.3} {:>10.3} {:>12.0}", "plain WebSocket echo (baseline)", echo.p50, echo.p99, echo.per_second);
    println!(
        "  ratio to baseline: messages/s {}, p50 x{:.2}, p99 {}",
        against(relay.per_second / echo.per_second, ">= x0.5"),
        relay.p50 / echo.p50,
        against(relay.p99 / echo.p99, "<= x1.5")
    );
    // A relay's round (publish, its answer, the push, its ack) is four frames where the echo's is
    // two: the floor shows what the pattern itself allows on this machine.
    println!(
        "  the floor to baseline: messages/s x{:.2}, p50 x{:.2}, p99 x{:.2}; relay to the floor: messages/s x{:.2}, p50 x{:.2}, p99 x{:.2}",
        floor.per_second / echo.per_second,
        floor.p50 / echo.p50,
        floor.p99 / echo.p99,
        relay.per_second / floor.per_second,
        relay.p50 / floor.p50,
        relay.p99 / floor.p99
    );
    drop(held);
}
