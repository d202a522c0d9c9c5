//! Typed configuration. Each setting comes from, in order of precedence: a command-line flag,
//! a `SIGIL_*` environment variable, the optional TOML file (`--config`), then the default.
//! Everything is validated once at start, with one clear message per bad value.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Deserialize;

use crate::chains::Chains;
use crate::rpc::RpcSettings;

pub const DEFAULT_DATABASE_URL: &str = "sqlite://var/sigil.db";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

/// Options every subcommand that touches storage needs.
#[derive(Debug, Clone, Args, Default)]
pub struct StorageArgs {
    /// TOML configuration file; its keys are the long flag names with '_' for '-'.
    #[arg(long, env = "SIGIL_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// Database URL: sqlite://PATH (created if missing, WAL mode) or postgres://USER@HOST/DB.
    /// [default: sqlite://var/sigil.db]
    #[arg(long, env = "SIGIL_DATABASE_URL", value_name = "URL")]
    pub database_url: Option<String>,
}

/// `sigil serve` options.
#[derive(Debug, Clone, Args, Default)]
pub struct ServeArgs {
    #[command(flatten)]
    pub storage: StorageArgs,

    /// Address and port to listen on. [default: 127.0.0.1:8080]
    #[arg(long, env = "SIGIL_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,

    /// Public base URL of this server, used in absolute links such as wallet image_url.
    /// [default: http://<listen>]
    #[arg(long, env = "SIGIL_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<String>,

    /// Log filter, e.g. info, debug, sigil_server=debug,tower_http=info. [default: info]
    #[arg(long, env = "SIGIL_LOG", value_name = "FILTER")]
    pub log: Option<String>,

    /// Log line format. [default: text]
    #[arg(long, env = "SIGIL_LOG_FORMAT", value_enum)]
    pub log_format: Option<LogFormat>,

    /// Largest accepted request body in bytes (1..=16777216). [default: 65536]
    #[arg(long, env = "SIGIL_BODY_LIMIT", value_name = "BYTES")]
    pub body_limit: Option<usize>,

    /// Seconds before a request is abandoned with 408 (1..=600). [default: 30]
    #[arg(long, env = "SIGIL_REQUEST_TIMEOUT", value_name = "SECS")]
    pub request_timeout: Option<u64>,

    /// Analytics events accepted per minute per project and client address. [default: 120]
    #[arg(long, env = "SIGIL_ANALYTICS_EVENTS_PER_MINUTE", value_name = "N")]
    pub analytics_events_per_minute: Option<u32>,

    /// Analytics error events (props.type "error") accepted per minute per project and client
    /// address. [default: 5]
    #[arg(long, env = "SIGIL_ANALYTICS_ERRORS_PER_MINUTE", value_name = "N")]
    pub analytics_errors_per_minute: Option<u32>,

    /// Take the client address from X-Forwarded-For (only behind a trusted reverse proxy).
    /// [default: false]
    #[arg(long, env = "SIGIL_TRUST_PROXY_HEADERS", value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
    pub trust_proxy_headers: Option<bool>,

    /// Chains file (TOML, the format of config/chains.toml) replacing the built-in chain list.
    #[arg(long, env = "SIGIL_CHAINS", value_name = "FILE")]
    pub chains: Option<PathBuf>,

    /// JSON-RPC URL of the local dev chain eip155:31337. [default: http://127.0.0.1:8545]
    #[arg(long, env = "SIGIL_DEV_RPC_URL", value_name = "URL")]
    pub dev_rpc_url: Option<String>,

    /// A dev-chain deployment (JSON written by devchain/deploy.mjs): its tokens and price pairs
    /// are added to the chain it names.
    #[arg(long, env = "SIGIL_DEV_DEPLOYMENT", value_name = "FILE")]
    pub dev_deployment: Option<PathBuf>,

    /// JSON-RPC proxy requests per second per project (batch items count). [default: 500]
    #[arg(long, env = "SIGIL_RPC_REQUESTS_PER_SECOND", value_name = "N")]
    pub rpc_requests_per_second: Option<u32>,

    /// Seconds before an upstream JSON-RPC call counts as failed (1..=60). [default: 10]
    #[arg(long, env = "SIGIL_RPC_TIMEOUT", value_name = "SECS")]
    pub rpc_timeout: Option<u64>,
}

/// The keys a TOML configuration file may hold.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    database_url: Option<String>,
    listen: Option<SocketAddr>,
    public_url: Option<String>,
    log: Option<String>,
    log_format: Option<LogFormat>,
    body_limit: Option<usize>,
    request_timeout: Option<u64>,
    analytics_events_per_minute: Option<u32>,
    analytics_errors_per_minute: Option<u32>,
    trust_proxy_headers: Option<bool>,
    chains: Option<PathBuf>,
    dev_rpc_url: Option<String>,
    dev_deployment: Option<PathBuf>,
    rpc_requests_per_second: Option<u32>,
    rpc_timeout: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseKind {
    Sqlite,
    Postgres,
}

/// The validated configuration the server runs with.
#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: String,
    pub listen: SocketAddr,
    pub public_url: String,
    pub log: String,
    pub log_format: LogFormat,
    pub body_limit: usize,
    pub request_timeout_secs: u64,
    pub analytics_events_per_minute: u32,
    pub analytics_errors_per_minute: u32,
    pub trust_proxy_headers: bool,
    pub chains: Chains,
    pub rpc: RpcSettings,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read configuration file {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("configuration file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("invalid {name}: {message}")]
    Invalid { name: &'static str, message: String },
}

fn invalid(name: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { name, message: message.into() }
}

fn read_file(path: Option<&Path>) -> Result<FileConfig, ConfigError> {
    let Some(path) = path else { return Ok(FileConfig::default()) };
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse { path: path.to_owned(), message: e.message().to_owned() })
}

/// Checks a database URL and tells which engine it names.
pub fn database_kind(url: &str) -> Result<DatabaseKind, ConfigError> {
    let name = "database-url (SIGIL_DATABASE_URL)";
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.trim_start_matches("//");
        if path.is_empty() {
            return Err(invalid(name, "sqlite URL needs a file path, e.g. sqlite://var/sigil.db"));
        }
        Ok(DatabaseKind::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        url::Url::parse(url).map_err(|e| invalid(name, format!("'{url}' is not a valid URL: {e}")))?;
        Ok(DatabaseKind::Postgres)
    } else {
        Err(invalid(name, format!("'{url}' must start with sqlite:// or postgres://")))
    }
}

/// The database URL for admin commands (flag, env, file, default).
pub fn storage_url(args: &StorageArgs) -> Result<String, ConfigError> {
    let file = read_file(args.config.as_deref())?;
    let url = args.database_url.clone().or(file.database_url).unwrap_or_else(|| DEFAULT_DATABASE_URL.to_owned());
    database_kind(&url)?;
    Ok(url)
}

impl Config {
    pub fn from_args(args: &ServeArgs) -> Result<Config, ConfigError> {
        let file = read_file(args.storage.config.as_deref())?;
        let database_url = storage_url(&args.storage)?;
        let listen = args.listen.or(file.listen).unwrap_or_else(|| "127.0.0.1:8080".parse().expect("valid default"));

        let public_url = args.public_url.clone().or(file.public_url).unwrap_or_else(|| format!("http://{listen}"));
        let parsed = url::Url::parse(&public_url)
            .map_err(|e| invalid("public-url (SIGIL_PUBLIC_URL)", format!("'{public_url}' is not a valid URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(invalid("public-url (SIGIL_PUBLIC_URL)", format!("'{public_url}' must be an http(s) URL with a host")));
        }
        let public_url = public_url.trim_end_matches('/').to_owned();

        let log = args.log.clone().or(file.log).unwrap_or_else(|| "info".to_owned());
        tracing_subscriber::EnvFilter::try_new(&log)
            .map_err(|e| invalid("log (SIGIL_LOG)", format!("'{log}' is not a log filter: {e}")))?;

        let body_limit = args.body_limit.or(file.body_limit).unwrap_or(64 * 1024);
        if !(1..=16 * 1024 * 1024).contains(&body_limit) {
            return Err(invalid("body-limit (SIGIL_BODY_LIMIT)", format!("{body_limit} is outside 1..=16777216")));
        }
        let request_timeout_secs = args.request_timeout.or(file.request_timeout).unwrap_or(30);
        if !(1..=600).contains(&request_timeout_secs) {
            return Err(invalid("request-timeout (SIGIL_REQUEST_TIMEOUT)", format!("{request_timeout_secs} is outside 1..=600")));
        }
        let analytics_events_per_minute = args.analytics_events_per_minute.or(file.analytics_events_per_minute).unwrap_or(120);
        if analytics_events_per_minute == 0 {
            return Err(invalid("analytics-events-per-minute (SIGIL_ANALYTICS_EVENTS_PER_MINUTE)", "must be at least 1"));
        }
        let analytics_errors_per_minute = args.analytics_errors_per_minute.or(file.analytics_errors_per_minute).unwrap_or(5);
        if analytics_errors_per_minute == 0 {
            return Err(invalid("analytics-errors-per-minute (SIGIL_ANALYTICS_ERRORS_PER_MINUTE)", "must be at least 1"));
        }

        let mut chains = match args.chains.clone().or(file.chains) {
            Some(path) => Chains::from_file(&path).map_err(|e| invalid("chains (SIGIL_CHAINS)", e.to_string()))?,
            None => Chains::built_in(),
        };
        if let Some(url) = args.dev_rpc_url.clone().or(file.dev_rpc_url) {
            match url::Url::parse(&url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => chains.set_dev_rpc(&url),
                _ => return Err(invalid("dev-rpc-url (SIGIL_DEV_RPC_URL)", format!("'{url}' is not an http(s) URL"))),
            }
        }
        if let Some(path) = args.dev_deployment.clone().or(file.dev_deployment) {
            let name = "dev-deployment (SIGIL_DEV_DEPLOYMENT)";
            let text = std::fs::read_to_string(&path).map_err(|e| invalid(name, format!("cannot read {}: {e}", path.display())))?;
            chains.apply_deployment(&text).map_err(|e| invalid(name, e.to_string()))?;
        }
        let mut rpc = RpcSettings::default();
        rpc.requests_per_second = args.rpc_requests_per_second.or(file.rpc_requests_per_second).unwrap_or(rpc.requests_per_second);
        if rpc.requests_per_second == 0 {
            return Err(invalid("rpc-requests-per-second (SIGIL_RPC_REQUESTS_PER_SECOND)", "must be at least 1"));
        }
        let timeout = args.rpc_timeout.or(file.rpc_timeout).unwrap_or(10);
        if !(1..=60).contains(&timeout) {
            return Err(invalid("rpc-timeout (SIGIL_RPC_TIMEOUT)", format!("{timeout} is outside 1..=60")));
        }
        rpc.timeout = std::time::Duration::from_secs(timeout);

        Ok(Config {
            chains,
            rpc,
            database_url,
            listen,
            public_url,
            log,
            log_format: args.log_format.or(file.log_format).unwrap_or(LogFormat::Text),
            body_limit,
            request_timeout_secs,
            analytics_events_per_minute,
            analytics_errors_per_minute,
            trust_proxy_headers: args.trust_proxy_headers.or(file.trust_proxy_headers).unwrap_or(false),
        })
    }

    /// Defaults for tests and embedding: an in-process server on `database_url`.
    pub fn for_database(database_url: &str) -> Config {
        let args = ServeArgs { storage: StorageArgs { config: None, database_url: Some(database_url.to_owned()) }, ..Default::default() };
        Config::from_args(&args).expect("default configuration is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let c = Config::from_args(&ServeArgs::default()).unwrap();
        assert_eq!(c.database_url, DEFAULT_DATABASE_URL);
        assert_eq!(c.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_url, "http://127.0.0.1:8080");
        assert_eq!(c.body_limit, 65536);
        assert_eq!(c.analytics_errors_per_minute, 5);
    }

    #[test]
    fn flags_override_file_and_file_overrides_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sigil.toml");
        std::fs::write(&path, "listen = \"127.0.0.1:9000\"\nbody_limit = 1000\nlog = \"debug\"\n").unwrap();
        let mut args = ServeArgs { storage: StorageArgs { config: Some(path), database_url: None }, ..Default::default() };
        args.body_limit = Some(2000);
        let c = Config::from_args(&args).unwrap();
        assert_eq!(c.listen.port(), 9000);
        assert_eq!(c.body_limit, 2000);
        assert_eq!(c.log, "debug");
    }

    #[test]
    fn bad_values_have_clear_messages() {
        let err = |args: ServeArgs| Config::from_args(&args).unwrap_err().to_string();
        let with_db = |u: &str| ServeArgs { storage: StorageArgs { config: None, database_url: Some(u.into()) }, ..Default::default() };
        assert_eq!(err(with_db("mysql://x")), "invalid database-url (SIGIL_DATABASE_URL): 'mysql://x' must start with sqlite:// or postgres://");
        assert!(err(ServeArgs { body_limit: Some(0), ..Default::default() }).starts_with("invalid body-limit"));
        assert!(err(ServeArgs { public_url: Some("ftp://x".into()), ..Default::default() }).starts_with("invalid public-url"));
        assert!(err(ServeArgs { log: Some("info,[".into()), ..Default::default() }).starts_with("invalid log"));
    }

    #[test]
    fn unknown_file_keys_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sigil.toml");
        std::fs::write(&path, "lisen = \"127.0.0.1:9000\"\n").unwrap();
        let args = ServeArgs { storage: StorageArgs { config: Some(path), database_url: None }, ..Default::default() };
        let msg = Config::from_args(&args).unwrap_err().to_string();
        assert!(msg.contains("unknown field `lisen`"), "{msg}");
    }
}
