//! The accept loop. Each connection is HTTP/1.1 with a header-read timeout, which also ends
//! idle keep-alive connections (hyper starts it whenever it waits for a request head). Open
//! connections are capped below the process's file-descriptor limit; at the cap, the connection
//! that has waited longest with no request in flight is closed to make room, so a flood of
//! half-sent requests cannot lock everyone else out. Only when every connection is busy does a
//! new one wait for a place.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify};
use tower::ServiceExt;

/// File descriptors kept back from connections for the database, upstream calls and logs.
const RESERVED_FDS: u64 = 64;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time a client has to send a request head, and the longest a keep-alive connection idles.
    pub header_timeout: Duration,
    /// Open connections at most.
    pub max_connections: usize,
}

/// Raises the soft file-descriptor limit to the hard one and returns the connections that fit
/// under it: `wanted`, or fewer when the limit is lower.
pub fn connections_that_fit(wanted: usize) -> usize {
    let (soft, hard) = rlimit::Resource::NOFILE.get().unwrap_or((1024, 1024));
    let soft = if soft < hard && rlimit::Resource::NOFILE.set(hard, hard).is_ok() { hard } else { soft };
    let fit = soft.saturating_sub(RESERVED_FDS.min(soft / 4)).max(1);
    wanted.min(usize::try_from(fit).unwrap_or(usize::MAX))
}

/// One open connection, as the registry sees it.
struct Conn {
    /// Requests being answered on it.
    in_flight: AtomicUsize,
    /// Milliseconds after the registry started when it last had no request in flight.
    idle_since: AtomicU64,
    close: Notify,
}

#[derive(Default)]
struct Registry {
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    next_id: AtomicU64,
    started: std::sync::OnceLock<Instant>,
    /// Woken when the last connection ends (graceful shutdown waits on it).
    drained: Notify,
}

impl Registry {
    fn now_ms(&self) -> u64 {
        self.started.get_or_init(Instant::now).elapsed().as_millis() as u64
    }

    fn len(&self) -> usize {
        self.conns.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn add(&self) -> (u64, Arc<Conn>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let conn = Arc::new(Conn { in_flight: AtomicUsize::new(0), idle_since: AtomicU64::new(self.now_ms()), close: Notify::new() });
        self.conns.lock().unwrap_or_else(|e| e.into_inner()).insert(id, conn.clone());
        (id, conn)
    }

    fn remove(&self, id: u64) {
        let mut conns = self.conns.lock().unwrap_or_else(|e| e.into_inner());
        conns.remove(&id);
        if conns.is_empty() {
            self.drained.notify_waiters();
        }
    }

    /// Closes the connection idle the longest; false when every connection is busy.
    fn evict_idlest(&self) -> bool {
        let mut conns = self.conns.lock().unwrap_or_else(|e| e.into_inner());
        let idlest =
            conns.iter().filter(|(_, c)| c.in_flight.load(Ordering::Acquire) == 0).min_by_key(|(_, c)| c.idle_since.load(Ordering::Relaxed)).map(|(id, _)| *id);
        match idlest.and_then(|id| conns.remove(&id)) {
            Some(conn) => {
                conn.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Marks a request in flight on its connection until dropped.
struct InFlight<'a> {
    conn: &'a Conn,
    registry: &'a Registry,
}

impl<'a> InFlight<'a> {
    fn new(conn: &'a Conn, registry: &'a Registry) -> Self {
        conn.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight { conn, registry }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.conn.idle_since.store(self.registry.now_ms(), Ordering::Relaxed);
        self.conn.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `app` on `listener` until `shutdown` turns true, then lets open requests finish.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits, mut shutdown: watch::Receiver<bool>) -> std::io::Result<()> {
    let registry = Arc::new(Registry::default());
    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max_connections));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped(&mut shutdown) => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) if is_per_connection(&e) => continue,
            Err(e) => {
                // Out of descriptors or memory: wait a little rather than spin.
                tracing::error!(error = %e, "accept failed");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        // A permit per open connection. At the cap, make room by closing the connection idle
        // longest, and wait until it has really closed (its descriptor is free again); when
        // every connection is busy, wait for one to finish.
        let permit = match permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if !registry.evict_idlest() {
                    tracing::warn!(%peer, max = limits.max_connections, "every open connection is busy; the new one waits");
                }
                let Ok(permit) = permits.clone().acquire_owned().await else { break };
                permit
            }
        };
        tokio::spawn(connection(stream, peer, app.clone(), limits, registry.clone(), shutdown.clone(), permit));
    }
    // Graceful: the connections finish what they are answering, then close.
    while registry.len() > 0 {
        let drained = registry.drained.notified();
        if registry.len() == 0 {
            break;
        }
        drained.await;
    }
    Ok(())
}

/// Resolves once the shutdown flag is set (or its sender is gone).
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    // The guard wait_for returns is dropped here, not held across an await.
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Errors that concern one incoming connection only.
fn is_per_connection(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    registry: Arc<Registry>,
    mut shutdown: watch::Receiver<bool>,
    permit: tokio::sync::OwnedSemaphorePermit,
) {
    let _ = stream.set_nodelay(true);
    let (id, conn) = registry.add();
    let service = {
        let (conn, registry) = (conn.clone(), registry.clone());
        hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let (app, conn, registry) = (app.clone(), conn.clone(), registry.clone());
            async move {
                let _in_flight = InFlight::new(&conn, &registry);
                app.oneshot(req.map(axum::body::Body::new)).await
            }
        })
    };
    let mut served = Box::pin(
        hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .keep_alive(true)
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades(),
    );
    tokio::select! {
        _ = served.as_mut() => {}
        _ = conn.close.notified() => {}
        _ = stopped(&mut shutdown) => {
            served.as_mut().graceful_shutdown();
            let _ = served.as_mut().await;
        }
    }
    // The socket closes before the permit frees its place.
    drop(served);
    drop(permit);
    registry.remove(id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evicts_the_connection_idle_longest_and_never_a_busy_one() {
        let r = Registry::default();
        let (_, a) = r.add();
        let (_, b) = r.add();
        a.idle_since.store(10, Ordering::Relaxed);
        b.idle_since.store(5, Ordering::Relaxed);
        let busy = InFlight::new(&b, &r);
        assert!(r.evict_idlest());
        assert_eq!(r.len(), 1, "a, the only idle one, went");
        assert!(!r.evict_idlest(), "b is answering a request");
        drop(busy);
        assert!(r.evict_idlest());
        assert_eq!(r.len(), 0);
    }

    #[test]
    fn connections_fit_under_the_descriptor_limit() {
        let fit = connections_that_fit(usize::MAX);
        let (soft, _) = rlimit::Resource::NOFILE.get().unwrap();
        assert!(fit as u64 <= soft - RESERVED_FDS.min(soft / 4), "{fit} {soft}");
        assert_eq!(connections_that_fit(10), 10);
    }
}
