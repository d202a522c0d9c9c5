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

/// hyper answers a request it cannot parse (bad header, URI too long, headers too large) itself,
/// with an empty body. This wrapper of the connection's socket turns those answers into the
/// API's JSON error shape: a response head written while no request is being answered is
/// hyper's own. `answering` counts the requests handed to the app whose head is not out yet.
struct JsonRejections<S> {
    inner: S,
    answering: Arc<AtomicUsize>,
    /// A rewritten answer being written, how much of it is out, and the length hyper gave.
    rewrite: Option<(Vec<u8>, usize, usize)>,
}

/// hyper's own answer rewritten with a JSON body; None when `head` is not one.
fn json_rejection(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let status = text.strip_prefix("HTTP/1.1 ").or_else(|| text.strip_prefix("HTTP/1.0 "))?.get(..3)?;
    let message = match status {
        "400" => "Bad request: the request line or a header is malformed",
        "414" => "The request URI is too long",
        "431" => "The request headers are too large",
        _ => return None,
    };
    let (top, rest) = text.split_once("\r\n\r\n")?;
    if !rest.is_empty() || !top.to_ascii_lowercase().contains("content-length: 0") {
        return None;
    }
    let code = crate::error::ErrorCode::from_status(status.parse().ok()?);
    let body = serde_json::json!({"error": {"code": code, "message": message}}).to_string();
    let mut out = String::with_capacity(top.len() + body.len() + 128);
    for line in top.split("\r\n") {
        if !line.to_ascii_lowercase().starts_with("content-length:") {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    out.push_str(&format!("content-type: application/json\r\nx-content-type-options: nosniff\r\ncontent-length: {}\r\n\r\n{body}", body.len()));
    Some(out.into_bytes())
}

impl<S: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for JsonRejections<S> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> JsonRejections<S> {
    /// Looks at the start of what hyper writes: counts the app's response heads out, and
    /// rewrites hyper's own answers. `whole` builds the full bytes when a rewrite is needed.
    fn inspect(&mut self, first: &[u8], whole: impl FnOnce() -> Vec<u8>) {
        if self.rewrite.is_some() || !first.starts_with(b"HTTP/1.") {
            return;
        }
        let mut answering = self.answering.load(Ordering::Acquire);
        while answering > 0 {
            match self.answering.compare_exchange_weak(answering, answering - 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return,
                Err(now) => answering = now,
            }
        }
        let bytes = whole();
        if let Some(json) = json_rejection(&bytes) {
            self.rewrite = Some((json, 0, bytes.len()));
        }
    }

    fn poll_rewrite(&mut self, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<Option<usize>>> {
        let Some((bytes, written, given)) = &mut self.rewrite else { return std::task::Poll::Ready(Ok(None)) };
        while *written < bytes.len() {
            match std::pin::Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]) {
                std::task::Poll::Ready(Ok(0)) => return std::task::Poll::Ready(Err(std::io::ErrorKind::WriteZero.into())),
                std::task::Poll::Ready(Ok(n)) => *written += n,
                std::task::Poll::Ready(Err(e)) => return std::task::Poll::Ready(Err(e)),
                std::task::Poll::Pending => return std::task::Poll::Pending,
            }
        }
        let given = *given;
        self.rewrite = None;
        std::task::Poll::Ready(Ok(Some(given)))
    }
}

impl<S: tokio::io::AsyncWrite + Unpin> tokio::io::AsyncWrite for JsonRejections<S> {
    fn poll_write(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>, buf: &[u8]) -> std::task::Poll<std::io::Result<usize>> {
        self.inspect(buf, || buf.to_vec());
        match self.poll_rewrite(cx) {
            std::task::Poll::Ready(Ok(None)) => std::pin::Pin::new(&mut self.inner).poll_write(cx, buf),
            std::task::Poll::Ready(Ok(Some(given))) => std::task::Poll::Ready(Ok(given)),
            std::task::Poll::Ready(Err(e)) => std::task::Poll::Ready(Err(e)),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }

    fn poll_write_vectored(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> std::task::Poll<std::io::Result<usize>> {
        // Looked at in place: every response passes here.
        let first: &[u8] = bufs.iter().find(|b| !b.is_empty()).map_or(&[], |b| b);
        self.inspect(first, || bufs.iter().flat_map(|b| b.iter().copied()).collect());
        match self.poll_rewrite(cx) {
            std::task::Poll::Ready(Ok(None)) => std::pin::Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
            std::task::Poll::Ready(Ok(Some(given))) => std::task::Poll::Ready(Ok(given)),
            std::task::Poll::Ready(Err(e)) => std::task::Poll::Ready(Err(e)),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
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
    let answering = Arc::new(AtomicUsize::new(0));
    let service = {
        let (conn, registry, answering) = (conn.clone(), registry.clone(), answering.clone());
        hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            answering.fetch_add(1, Ordering::AcqRel);
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
            .serve_connection(TokioIo::new(JsonRejections { inner: stream, answering, rewrite: None }), service)
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
