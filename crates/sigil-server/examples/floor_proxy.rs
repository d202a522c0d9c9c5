//! The floor under the JSON-RPC proxy's cost, for make bench-rpc: the smallest HTTP proxy the
//! same libraries make (hyper server, the proxy's own upstream client), forwarding each body
//! as it is, with no parsing, routing, limits or checks. What it costs over calling the node
//! directly is the cost of the extra hop itself on this machine.
//!
//! Usage: floor_proxy <listen addr> <upstream url>

use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use sigil_server::rpc::client::UpstreamClient;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let listener = tokio::net::TcpListener::bind(&args[1]).await.expect("listen");
    let upstream = Arc::new(UpstreamClient::new(&args[2], 256, std::time::Duration::from_secs(5)).expect("upstream URL"));
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let _ = stream.set_nodelay(true);
        let upstream = upstream.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let upstream = upstream.clone();
                async move {
                    let body = req.into_body().collect().await?.to_bytes();
                    let answer = match upstream.post(body).await {
                        Ok((_, bytes)) => bytes,
                        Err(_) => bytes::Bytes::from_static(b"{}"),
                    };
                    let mut res = hyper::Response::new(Full::new(answer));
                    res.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
                    Ok::<_, hyper::Error>(res)
                }
            });
            let _ = hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}
