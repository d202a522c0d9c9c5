//! The HTTP client of one upstream: a pool of keep-alive HTTP/1.1 connections, each driven
//! inside the task that uses it. A request checks a connection out, polls it together with its
//! own request until the whole answer is in, and puts it back. No connection task, no channel
//! between tasks, no per-call URL parsing: on loopback the forwarding cost was mostly those
//! wake-ups and copies (perf, make bench-rpc).

use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

use bytes::Bytes;
use futures::future::{select, Either};
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderValue, CONTENT_TYPE, HOST};
use hyper::{Request, StatusCode, Uri};
use tower::ServiceExt;

type Driver = Pin<Box<dyn Future<Output = hyper::Result<()>> + Send>>;
type Connector = hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>;

/// One open connection: the handle requests go through, and the future that moves its bytes.
struct Conn {
    sender: SendRequest<Full<Bytes>>,
    driver: Driver,
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("upstream URL: {0}")]
    Url(String),
    #[error("connecting: {0}")]
    Connect(String),
    #[error("{0}")]
    Http(#[from] hyper::Error),
    #[error("the connection closed before the answer")]
    Closed,
}

pub struct UpstreamClient {
    uri: Uri,
    host: HeaderValue,
    connector: Connector,
    idle: Mutex<Vec<Conn>>,
    max_idle: usize,
    connect_timeout: Duration,
}

fn connector(connect_timeout: Duration) -> Connector {
    let mut http = hyper_util::client::legacy::connect::HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    http.set_connect_timeout(Some(connect_timeout));
    hyper_rustls::HttpsConnectorBuilder::new().with_webpki_roots().https_or_http().enable_http1().wrap_connector(http)
}

impl UpstreamClient {
    pub fn new(url: &str, max_idle: usize, connect_timeout: Duration) -> Result<UpstreamClient, ClientError> {
        let uri: Uri = url.parse().map_err(|e| ClientError::Url(format!("'{url}': {e}")))?;
        let authority = uri.authority().ok_or_else(|| ClientError::Url(format!("'{url}' has no host")))?;
        let host = HeaderValue::from_str(authority.as_str()).map_err(|e| ClientError::Url(e.to_string()))?;
        Ok(UpstreamClient { uri, host, connector: connector(connect_timeout), idle: Mutex::new(Vec::new()), max_idle, connect_timeout })
    }

    async fn connect(&self) -> Result<Conn, ClientError> {
        let io = tokio::time::timeout(self.connect_timeout, self.connector.clone().oneshot(self.uri.clone()))
            .await
            .map_err(|_| ClientError::Connect("timed out".into()))?
            .map_err(|e| ClientError::Connect(e.to_string()))?;
        let (sender, connection) = hyper::client::conn::http1::handshake(io).await?;
        Ok(Conn { sender, driver: Box::pin(connection) })
    }

    /// An idle connection that is still open and ready for a request, if there is one.
    async fn idle(&self) -> Option<Conn> {
        loop {
            let mut conn = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop()?;
            // Polling the driver lets the connection finish the last answer or notice a close.
            let ready = {
                let Conn { sender, driver } = &mut conn;
                matches!(select(std::pin::pin!(sender.ready()), driver.as_mut()).await, Either::Left((Ok(()), _)))
            };
            if ready {
                return Some(conn);
            }
        }
    }

    fn checkin(&self, conn: Conn) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < self.max_idle {
            idle.push(conn);
        }
    }

    fn request(&self, body: Bytes) -> Request<Full<Bytes>> {
        let mut request = Request::post(self.uri.clone()).body(Full::new(body)).expect("a request from parts that were checked");
        let headers = request.headers_mut();
        headers.insert(HOST, self.host.clone());
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        request
    }

    /// GETs `path` below the upstream's URL (an Esplora API, say); the status and the body.
    pub async fn get(&self, path: &str) -> Result<(StatusCode, Bytes), ClientError> {
        let base = self.uri.to_string();
        let uri: Uri = format!("{}{path}", base.trim_end_matches('/')).parse().map_err(|e| ClientError::Url(format!("{path}: {e}")))?;
        let make = || {
            let mut request = Request::get(uri.clone()).body(Full::new(Bytes::new())).expect("a request from parts that were checked");
            request.headers_mut().insert(HOST, self.host.clone());
            request
        };
        if let Some(mut conn) = self.idle().await {
            if let Some(answer) = exchange(&mut conn, make()).await {
                self.checkin(conn);
                return Ok(answer);
            }
        }
        let mut conn = self.connect().await?;
        let answer = exchange(&mut conn, make()).await.ok_or(ClientError::Closed)?;
        self.checkin(conn);
        Ok(answer)
    }

    /// POSTs a JSON body; the status and the whole body of the answer. When an idle connection
    /// fails before any answer (the upstream closed it as the request went out), the request
    /// goes once more on a new connection, as HTTP clients do for keep-alive races.
    pub async fn post(&self, body: Bytes) -> Result<(StatusCode, Bytes), ClientError> {
        if let Some(mut conn) = self.idle().await {
            if let Some(answer) = exchange(&mut conn, self.request(body.clone())).await {
                self.checkin(conn);
                return Ok(answer);
            }
        }
        let mut conn = self.connect().await?;
        let answer = exchange(&mut conn, self.request(body)).await.ok_or(ClientError::Closed)?;
        self.checkin(conn);
        Ok(answer)
    }
}

/// One request on `conn`, driving it until the whole answer is in; None when it failed.
async fn exchange(conn: &mut Conn, request: Request<Full<Bytes>>) -> Option<(StatusCode, Bytes)> {
    let Conn { sender, driver } = conn;
    let exchange = async {
        let response = sender.send_request(request).await.ok()?;
        let status = response.status();
        let body = response.into_body().collect().await.ok()?.to_bytes();
        Some((status, body))
    };
    match select(std::pin::pin!(exchange), driver.as_mut()).await {
        Either::Left((answer, _)) => answer,
        // The connection ended (e.g. the answer said "Connection: close"): the answer counts if
        // it is in already; nothing more will come.
        Either::Right((_, exchange)) => futures::FutureExt::now_or_never(exchange).flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    #[tokio::test]
    async fn reuses_connections_and_survives_their_close() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let counter = accepted.clone();
        // A server that closes each connection after its second answer.
        tokio::spawn(async move {
            loop {
                let (socket, _) = listener.accept().await.unwrap();
                counter.fetch_add(1, Ordering::SeqCst);
                let answered = Arc::new(AtomicUsize::new(0));
                let service = hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
                    let n = answered.fetch_add(1, Ordering::SeqCst) + 1;
                    async move {
                        // Read, as a node does: hyper closes connections whose request it left unread.
                        req.into_body().collect().await.unwrap();
                        let mut res = hyper::Response::new(Full::new(Bytes::from_static(br#"{"ok":true}"#)));
                        if n == 2 {
                            res.headers_mut().insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
                        }
                        Ok::<_, std::convert::Infallible>(res)
                    }
                });
                tokio::spawn(hyper::server::conn::http1::Builder::new().serve_connection(hyper_util::rt::TokioIo::new(socket), service));
            }
        });
        let client = UpstreamClient::new(&format!("http://{addr}/"), 4, Duration::from_secs(2)).unwrap();
        for _ in 0..5 {
            let (status, body) = client.post(Bytes::from_static(b"{}")).await.unwrap();
            assert_eq!((status, body.as_ref()), (StatusCode::OK, br#"{"ok":true}"#.as_ref()));
        }
        // Two answers per connection: three connections for five calls, none failed.
        assert_eq!(accepted.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn a_refused_connection_is_an_error() {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let client = UpstreamClient::new(&format!("http://127.0.0.1:{port}/"), 4, Duration::from_secs(2)).unwrap();
        assert!(matches!(client.post(Bytes::from_static(b"{}")).await, Err(ClientError::Connect(_))));
    }
}
