//! The accept loop. Each connection is HTTP/1.1 with a header-read timeout, which also ends
//! idle keep-alive connections (hyper starts it whenever it waits for a request head), and a
//! deadline for reading a request's body. Open connections are capped below the process's
//! file-descriptor limit, in one budget shared by every listener and the WebSocket relay (an
//! upgraded socket keeps its connection's place), with room kept for HTTP that the relay cannot
//! take; one client address may hold only so many. At the cap, the connection that has waited
//! longest with no request in flight is closed to make room, so a flood of half-sent requests
//! cannot lock everyone else out. Only when every connection is busy does a new one wait.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// File descriptors kept back from connections for the database, upstream calls and logs.
const RESERVED_FDS: u64 = 64;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Time a client has to send a request head, and the longest a keep-alive connection idles.
    pub header_timeout: Duration,
    /// Time a client has to send a request's whole body, from when its head arrived.
    pub body_timeout: Duration,
    /// Open connections at most, relay sockets included.
    pub max_connections: usize,
    /// Open connections from one client address at most; none behind a trusted proxy (every
    /// connection then comes from the proxy).
    pub max_per_address: Option<usize>,
}

impl Limits {
    /// Connections the relay's sockets may not take: room for /health and the API.
    pub fn reserved_for_http(&self) -> usize {
        (self.max_connections / 10).clamp(16.min(self.max_connections / 2), 1024)
    }
}

/// Connections as every listener of the process counts them: one budget of places (file
/// descriptors), the registry that picks which idle one to close, and places per address.
#[derive(Default)]
pub struct Connections {
    permits: std::sync::OnceLock<Arc<Semaphore>>,
    registry: Registry,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

impl Connections {
    pub fn new(limits: &Limits) -> Arc<Connections> {
        let c = Connections::default();
        let _ = c.permits.set(Arc::new(Semaphore::new(limits.max_connections)));
        Arc::new(c)
    }

    fn permits(&self) -> Arc<Semaphore> {
        self.permits.get().expect("made by new").clone()
    }

    /// Counts a connection from `address`, unless it has `max` already.
    fn enter(self: &Arc<Self>, address: IpAddr, max: Option<usize>) -> Option<AddressPlace> {
        let mut by_address = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let open = by_address.entry(address).or_default();
        if max.is_some_and(|max| *open >= max) {
            return None;
        }
        *open += 1;
        Some(AddressPlace { connections: self.clone(), address })
    }
}

/// A connection's count against its address, given back when dropped.
struct AddressPlace {
    connections: Arc<Connections>,
    address: IpAddr,
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        let mut by_address = self.connections.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(open) = by_address.get_mut(&self.address) {
            *open -= 1;
            if *open == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

/// A connection's place in the descriptor budget, in each of its requests' extensions: a
/// request that takes the connection over (the relay's WebSocket upgrade) takes the place with
/// it, so the socket counts for as long as it is open. Both the connection's place against its
/// address and its permit go together.
#[derive(Clone)]
pub struct ConnectionPlace(Arc<Mutex<Option<(OwnedSemaphorePermit, AddressPlace)>>>);

/// What a taken connection place holds until dropped.
pub struct TakenPlace(#[allow(dead_code)] (OwnedSemaphorePermit, AddressPlace));

impl ConnectionPlace {
    pub fn take(&self) -> Option<TakenPlace> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take().map(TakenPlace)
    }
}

/// Why a request's body stopped: it took longer than the body deadline.
#[derive(Debug, thiserror::Error)]
#[error("the request body took longer than {0} seconds to arrive")]
pub struct BodyTimedOut(pub u64);

/// A request body that fails once its deadline passes (a client sending it byte by byte holds
/// its connection no longer than that). `timed_out` tells the connection to answer 408,
/// whichever extractor was reading.
struct DeadlineBody {
    inner: Incoming,
    /// When the body must be in; its timer is made only once the body is waited for (most
    /// bodies are already read with their head, and a timer per request costs).
    until: tokio::time::Instant,
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
    seconds: u64,
    timed_out: Arc<std::sync::atomic::AtomicBool>,
}

impl hyper::body::Body for DeadlineBody {
    type Data = bytes::Bytes;
    type Error = axum::BoxError;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        let until = self.until;
        let deadline = self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(until)));
        match std::future::Future::poll(deadline.as_mut(), cx) {
            Poll::Ready(()) => {
                self.timed_out.store(true, Ordering::Release);
                Poll::Ready(Some(Err(Box::new(BodyTimedOut(self.seconds)))))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.inner.size_hint()
    }
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
/// Connections count in `connections`, which the process's other listeners share.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    connections: Arc<Connections>,
    mut shutdown: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let permits = connections.permits();
    let registry = &connections.registry;
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
        // One address holds only so many: the rest are closed at once.
        let Some(address_place) = connections.enter(peer.ip(), limits.max_per_address) else {
            tracing::debug!(%peer, "too many connections from this address; closed");
            continue;
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
        let place = ConnectionPlace(Arc::new(Mutex::new(Some((permit, address_place)))));
        tokio::spawn(connection(stream, peer, app.clone(), limits, connections.clone(), shutdown.clone(), place));
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
    connections: Arc<Connections>,
    mut shutdown: watch::Receiver<bool>,
    place: ConnectionPlace,
) {
    let _ = stream.set_nodelay(true);
    let registry = &connections.registry;
    let (id, conn) = registry.add();
    let answering = Arc::new(AtomicUsize::new(0));
    let service = {
        let (conn, connections, answering, place) = (conn.clone(), connections.clone(), answering.clone(), place.clone());
        hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(place.clone());
            answering.fetch_add(1, Ordering::AcqRel);
            let (app, conn, connections) = (app.clone(), conn.clone(), connections.clone());
            let seconds = limits.body_timeout.as_secs();
            let timed_out = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let until = tokio::time::Instant::now() + limits.body_timeout;
            let req = req.map(|inner| axum::body::Body::new(DeadlineBody { inner, until, deadline: None, seconds, timed_out: timed_out.clone() }));
            async move {
                let _in_flight = InFlight::new(&conn, &connections.registry);
                let res = app.oneshot(req).await?;
                if !timed_out.load(Ordering::Acquire) {
                    return Ok::<_, std::convert::Infallible>(res);
                }
                let mut late = crate::error::ApiError::new(
                    axum::http::StatusCode::REQUEST_TIMEOUT,
                    crate::error::ErrorCode::Timeout,
                    format!("Request timed out: {}", BodyTimedOut(seconds)),
                )
                .into_response();
                if let Some(id) = res.headers().get(crate::edge::REQUEST_ID) {
                    late.headers_mut().insert(crate::edge::REQUEST_ID, id.clone());
                }
                late.headers_mut().insert(axum::http::header::CONNECTION, axum::http::HeaderValue::from_static("close"));
                Ok(late)
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
    // The socket closes before the permit frees its place (unless a relay socket took it over).
    drop(served);
    drop(place.take());
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
    fn connections_per_address_are_counted_and_freed() {
        let c = Connections::new(&Limits {
            header_timeout: Duration::from_secs(1),
            body_timeout: Duration::from_secs(1),
            max_connections: 10,
            max_per_address: Some(2),
        });
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.1".parse().unwrap(), "127.0.0.2".parse().unwrap());
        let first = c.enter(a, Some(2)).unwrap();
        let _second = c.enter(a, Some(2)).unwrap();
        assert!(c.enter(a, Some(2)).is_none());
        assert!(c.enter(b, Some(2)).is_some());
        drop(first);
        assert!(c.enter(a, Some(2)).is_some());
        assert!((0..100).all(|_| c.enter(a, None).is_some()), "no limit behind a proxy");
    }

    #[test]
    fn http_keeps_room_the_relay_cannot_take() {
        let limits = |max| Limits { header_timeout: Duration::from_secs(1), body_timeout: Duration::from_secs(1), max_connections: max, max_per_address: None };
        assert_eq!(limits(192).reserved_for_http(), 19);
        assert_eq!(limits(100).reserved_for_http(), 16);
        assert_eq!(limits(20).reserved_for_http(), 10);
        assert_eq!(limits(1_000_000).reserved_for_http(), 1024);
    }

    #[test]
    fn connections_fit_under_the_descriptor_limit() {
        let fit = connections_that_fit(usize::MAX);
        let (soft, _) = rlimit::Resource::NOFILE.get().unwrap();
        assert!(fit as u64 <= soft - RESERVED_FDS.min(soft / 4), "{fit} {soft}");
        assert_eq!(connections_that_fit(10), 10);
    }
}
