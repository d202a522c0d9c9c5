//! The Sigil server: every API the modal calls, in one binary. Each API area is one module;
//! this file wires them into one router with the shared layers (request ids, tracing, metrics,
//! panics and limits turned into JSON errors).

// Early answers are axum `Response`s, passed by value as axum does everywhere.
#![allow(clippy::result_large_err)]

pub mod account;
pub mod analytics;
pub mod appkit;
pub mod auth;
pub mod cache;
pub mod chains;
pub mod config;
pub mod convert;
pub mod db;
pub mod directory;
pub mod edge;
pub mod error;
pub mod extract;
pub mod families;
pub mod guards;
pub mod health;
pub mod history;
pub mod identity;
pub mod limits;
pub mod listener;
pub mod metrics;
pub mod nfts;
pub mod onramp;
pub mod paging;
pub mod pay;
pub mod profile;
pub mod projects;
pub mod query;
pub mod relay;
pub mod retention;
pub mod rpc;
pub mod wallet;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, Request, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use tokio::net::TcpListener;
use tower::ServiceBuilder;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::config::Config;
use crate::db::Db;
use crate::error::ApiError;
use crate::error::ErrorCode;

/// What every handler shares. Cloned per request by the router, so it is one `Arc`.
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl std::ops::Deref for AppState {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        &self.0
    }
}

pub struct Shared {
    pub db: Db,
    pub config: Arc<Config>,
    pub metrics: Arc<metrics::Metrics>,
    pub limiter: Arc<limits::PerMinute>,
    pub rpc: Arc<rpc::Rpc>,
    pub balance_cache: Arc<account::routes::BalanceCache>,
    /// Recent history pages (history::routes::PageCache).
    pub history_pages: Arc<history::routes::PageCache>,
    /// The fetcher of chains' history upstreams (history/upstream.rs).
    pub history_upstreams: Arc<history::upstream::Upstreams>,
    pub identity_cache: Arc<identity::IdentityCache>,
    pub projects: Arc<projects::ProjectCache>,
    pub directory: Arc<directory::snapshot::Directory>,
    pub relay: Arc<relay::Relay>,
    pub verify_key: Arc<relay::verify::VerifyKey>,
    /// The embedded-wallet service, when configured (a key-encryption key).
    pub wallets: Option<Arc<wallet::Wallets>>,
    /// This process among those sharing the database (the history indexer's leases).
    pub instance: String,
    /// NFT metadata and images: the guarded fetcher and its settings.
    pub nfts: Arc<nfts::Nfts>,
    /// Swaps: what is kept of the chains' routers, and the area's settings.
    pub convert: Arc<convert::Convert>,
    /// Buying crypto: the enabled onramp providers (their credentials) and the sandbox's sender.
    pub onramp: Arc<onramp::Onramp>,
    /// Account names: the zones, the registration's rules, the gateway's signer.
    pub profile: Arc<profile::Profile>,
    /// Deposits from an exchange: the exchanges, the sandbox exchange's sender, the sessions' rules.
    pub pay: Arc<pay::Pay>,
}

impl AppState {
    pub fn new(db: Db, config: Config) -> AppState {
        // Every upstream try ends inside the request timeout, with a second to spare.
        let request_timeout = config.settings.server.request_timeout;
        let budget = config.rpc.budget.min(request_timeout.saturating_sub(Duration::from_secs(1)).max(Duration::from_millis(500)));
        let rpc = Arc::new(rpc::Rpc::new(config.chains.clone(), rpc::RpcSettings { budget, ..config.rpc.clone() }));
        let directory = Arc::new(directory::snapshot::Directory::new(&config.public_url));
        let relay_settings = relay::RelaySettings::from(&config.settings.relay);
        let postgres = config::database_kind(&config.database_url) == Ok(config::DatabaseKind::Postgres);
        let relay = Arc::new(relay::Relay::new(db.clone(), relay_settings, postgres));
        let wallets = wallet::from_config(&db, &config).unwrap_or_else(|e| {
            tracing::error!(error = %e, "the embedded wallet is off: its mail settings are unusable");
            None
        });
        let nfts = Arc::new(nfts::Nfts::new(&config.settings.nfts));
        let history_upstreams = Arc::new(history::upstream::Upstreams::new(&config.settings.history));
        let convert = Arc::new(convert::Convert::new(&config.settings.convert));
        let onramp = Arc::new(onramp::Onramp::new(&config.settings.onramp, &config.chains));
        let profile = Arc::new(profile::Profile::new(&config.settings.names));
        let pay = Arc::new(pay::Pay::new(&config.settings.pay, &config.chains, &config.public_url));
        AppState(Arc::new(Shared {
            db,
            config: Arc::new(config),
            metrics: Default::default(),
            limiter: Default::default(),
            rpc,
            balance_cache: Arc::new(cache::TtlCache::new(account::routes::BALANCE_TTL, account::routes::CACHE_MAX)),
            history_pages: Arc::new(cache::TtlCache::new(history::routes::PAGE_TTL, history::routes::PAGE_CACHE_MAX)),
            history_upstreams,
            identity_cache: Arc::new(cache::TtlCache::new(identity::IDENTITY_TTL, identity::CACHE_MAX)),
            projects: Default::default(),
            directory,
            relay,
            verify_key: Default::default(),
            wallets,
            instance: uuid::Uuid::new_v4().to_string(),
            nfts,
            convert,
            onramp,
            profile,
            pay,
        }))
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Sigil API", description = "Wallet directory, analytics and operations API of the Sigil server."),
    tags((name = "directory", description = "Wallet directory; every call needs projectId and may carry st, sv."),
         (name = "blockchain", description = "Chains, JSON-RPC proxy and account data; every call needs projectId."),
         (name = "auth", description = "Sign in with the wallet (SIWX): nonces, sessions, sign-out."),
         (name = "relay", description = "WalletConnect relay (WebSocket) and the Verify endpoints its clients consult."),
         (name = "operations", description = "Health, metrics and this document."))
)]
struct ApiDoc;

/// This OpenAPI document.
#[utoipa::path(get, path = "/openapi.json", tag = "operations", responses((status = 200, description = "OpenAPI 3.1 document", content_type = "application/json")))]
async fn openapi_json() {}

/// Every route and its OpenAPI description, from the same registrations.
pub fn routes(state: &AppState) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (project_routes, mut api) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(directory::router())
        .merge(analytics::router())
        .merge(appkit::router())
        .merge(projects::router())
        .merge(chains::router())
        .merge(account::router())
        .merge(history::router())
        .merge(nfts::router())
        .merge(convert::router())
        .merge(onramp::router())
        .merge(profile::router())
        .merge(pay::router())
        .merge(identity::router())
        .merge(auth::router())
        .merge(rpc::router())
        .split_for_parts();
    let project_routes = project_routes.route_layer(projects::gate::GateLayer(state.clone()));

    let (open_routes, open_api) = OpenApiRouter::new()
        .merge(directory::image_router())
        .merge(nfts::image_router())
        .merge(onramp::sandbox_router())
        .merge(pay::sandbox_router())
        .merge(profile::gateway_router())
        .merge(relay::routes::router())
        .merge(health::router())
        .split_for_parts();
    api.merge(open_api);
    // /openapi.json is served by `app` (it needs the finished document); only its description is taken here.
    let (_, doc_api) = OpenApiRouter::<AppState>::new().routes(routes!(openapi_json)).split_for_parts();
    api.merge(doc_api);
    (project_routes.merge(open_routes), api)
}

/// The application with all layers, ready to serve.
pub fn app(state: AppState) -> Router {
    let (routes, api) = routes(&state);
    let api_json = Arc::new(api.to_pretty_json().expect("OpenAPI document serializes"));
    let config = state.config.clone();
    let direct = state.clone();
    let router = routes
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let json = api_json.clone();
                async move { ([(header::CONTENT_TYPE, "application/json")], (*json).clone()) }
            }),
        )
        .route_layer(metrics::TrackLayer(state.metrics.clone()))
        .fallback(|| async { ApiError::not_found(sigil_core::errors::NOT_FOUND) })
        .with_state(state);
    // The JSON-RPC proxy, the route called most, is served ahead of the router when it can be.
    layered(&config, rpc::routes::Direct { state: direct, inner: router })
}

/// The frame origin: the embedded-wallet page and its API, with the same layers.
pub fn frame_app(state: AppState) -> Router {
    let (routes, _) = wallet::routes::router().split_for_parts();
    let config = state.config.clone();
    let router = routes
        .route("/", axum::routing::get(wallet::routes::frame_page))
        .route("/assets/{*file}", axum::routing::get(wallet::routes::frame_asset))
        .route_layer(metrics::TrackLayer(state.metrics.clone()))
        .fallback(|| async { ApiError::not_found(sigil_core::errors::NOT_FOUND) })
        .with_state(state);
    layered(&config, router)
}

/// The layers every request passes, outermost first, around `router` as one service:
/// `Router::layer` would wrap each route apart and clone a boxed service per layer on every
/// request, which cost the proxy about a quarter of its throughput.
fn layered<S>(config: &Arc<Config>, router: S) -> Router
where
    S: tower::Service<Request<Body>, Response = axum::response::Response, Error = std::convert::Infallible> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
{
    macro_rules! stack {
        ($($trace:expr)?) => {
            ServiceBuilder::new()
                .layer(edge::EdgeLayer::new(config.clone()))
                $(.layer($trace))?
                .layer(CatchPanicLayer::custom(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, sigil_core::errors::INTERNAL).into_response()))
                .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.settings.server.request_timeout))
                .layer(DefaultBodyLimit::max(config.settings.server.body_limit))
                .service(router)
        };
    }
    // Request spans and events are INFO and DEBUG: with the log at WARN or quieter nothing
    // would be written, and the layer alone cost the proxy about 15% of its throughput.
    if tracing::level_filters::LevelFilter::current() >= tracing::Level::INFO {
        Router::new().fallback_service(stack!(TraceLayer::new_for_http().make_span_with(|req: &Request<Body>| {
            let id = req.headers().get(edge::REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
            tracing::info_span!("request", method = %req.method(), uri = %req.uri().path(), request_id = %id)
        })))
    } else {
        Router::new().fallback_service(stack!())
    }
}

/// A server running in the background (tests, benchmarks) or the foreground (`sigil serve`).
pub struct RunningServer {
    pub addr: SocketAddr,
    /// Where the embedded-wallet frame is served, when it is.
    pub frame_addr: Option<SocketAddr>,
    /// Where /metrics is served apart, when it is (`--metrics-listen`).
    pub metrics_addr: Option<SocketAddr>,
    shutdown: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Probes, pruning, directory reloads: stopped with the server.
    background: Vec<tokio::task::JoinHandle<()>>,
    /// The history indexers: they stop on the shutdown signal, giving their leases up.
    history: Vec<tokio::task::JoinHandle<()>>,
}

impl RunningServer {
    /// Stops accepting, lets in-flight requests finish, and waits.
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.shutdown.send(true);
        for task in &self.background {
            task.abort();
        }
        for task in self.history {
            let _ = task.await;
        }
        self.task.await.unwrap_or(Ok(()))
    }
}

/// Binds `addr` and serves `state` until `stop` (or the returned server is dropped and stopped).
pub async fn start(state: AppState, addr: SocketAddr) -> anyhow::Result<RunningServer> {
    let listener = TcpListener::bind(addr).await.map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
    let addr = listener.local_addr()?;
    let (tx, rx) = tokio::sync::watch::channel(false);
    state.directory.refresh(&state.db).await?;
    let background = vec![
        state.rpc.spawn_probes(),
        retention::spawn(state.db.clone(), state.config.settings.analytics.retention_days),
        state.directory.spawn_refresh(state.db.clone()),
        state.relay.spawn_writer(),
    ];
    let mut background = background;
    if config::database_kind(&state.config.database_url) == Ok(config::DatabaseKind::Postgres) {
        background.push(state.relay.spawn_listener(state.config.database_url.clone()));
    }
    background.push(state.relay.count_mailbox().await?);
    let history = history::spawn(&state.db, &state.rpc, &state.config.settings.history, &state.instance, rx.clone());
    let settings = &state.config.settings.server;
    let limits = listener::Limits {
        header_timeout: settings.header_timeout,
        body_timeout: settings.body_timeout,
        max_connections: listener::connections_that_fit(settings.max_connections),
        max_per_address: (!settings.trust_proxy_headers).then_some(settings.max_connections_per_address),
    };
    if limits.max_connections < settings.max_connections {
        tracing::warn!(max_connections = limits.max_connections, "fewer connections than configured fit under the file-descriptor limit");
    }
    // Every listener and the relay's sockets share one budget of descriptors.
    let connections = listener::Connections::new(&limits);
    state.relay.set_socket_budget(limits.max_connections - limits.reserved_for_http());
    let mut frame_addr = None;
    if let Some(frame_listen) = state.config.settings.wallet.frame_listen {
        let frame_listener = TcpListener::bind(frame_listen).await.map_err(|e| anyhow::anyhow!("cannot listen on {frame_listen} (frame): {e}"))?;
        frame_addr = Some(frame_listener.local_addr()?);
        let serving = listener::serve(frame_listener, frame_app(state.clone()), limits, connections.clone(), rx.clone());
        background.push(tokio::spawn(async move {
            if let Err(e) = serving.await {
                tracing::error!(error = %e, "the frame origin stopped serving");
            }
        }));
    }
    let mut metrics_addr = None;
    if let Some(metrics_listen) = state.config.settings.server.metrics_listen {
        let metrics_listener = TcpListener::bind(metrics_listen).await.map_err(|e| anyhow::anyhow!("cannot listen on {metrics_listen} (metrics): {e}"))?;
        metrics_addr = Some(metrics_listener.local_addr()?);
        let serving = listener::serve(metrics_listener, health::metrics_app(state.clone()), limits, connections.clone(), rx.clone());
        background.push(tokio::spawn(async move {
            if let Err(e) = serving.await {
                tracing::error!(error = %e, "the metrics address stopped serving");
            }
        }));
    }
    let task = tokio::spawn(listener::serve(listener, app(state), limits, connections, rx));
    Ok(RunningServer { addr, frame_addr, metrics_addr, shutdown: tx, task, background, history })
}

/// Resolves on SIGTERM or Ctrl-C.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! { _ = ctrl_c => {}, _ = term => {} }
}
