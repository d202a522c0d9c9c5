//! Typed configuration. Each setting is declared once below (`settings!`): its flag, its
//! `SIGIL_*` environment variable, its TOML key (the flag name with `_`), its default and its
//! check. A value comes from, in order of precedence: the flag, the environment variable, the
//! optional TOML file (`--config`), then the default. Everything is checked once at start, with
//! one message naming the bad setting.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::chains::Chains;
use crate::rpc::RpcSettings;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    Text,
    Json,
}

impl FromStr for LogFormat {
    type Err = Invalid;
    fn from_str(s: &str) -> Result<Self, Invalid> {
        <LogFormat as ValueEnum>::from_str(s, true).map_err(Invalid)
    }
}

/// Why a setting's value is refused, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read configuration file {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("configuration file {path}: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("invalid {name}: {message}")]
    Invalid { name: String, message: String },
}

/// How a setting is named to the operator: `body-limit (SIGIL_BODY_LIMIT)`.
#[derive(Clone, Copy)]
struct Setting {
    key: &'static str,
    env: &'static str,
}

impl Setting {
    fn invalid(self, message: impl std::fmt::Display) -> ConfigError {
        ConfigError::Invalid { name: format!("{} ({})", self.key.replace('_', "-"), self.env), message: message.to_string() }
    }

    fn read_from<T: serde::de::DeserializeOwned>(self, file: &ConfigFile) -> Result<Option<T>, ConfigError> {
        let Some(value) = file.table.get(self.key) else { return Ok(None) };
        value.clone().try_into().map(Some).map_err(|e| ConfigError::Parse { path: file.path.clone(), message: format!("{}: {}", self.key, e.message()) })
    }
}

/// A check that a number lies in `range`.
fn within<T: PartialOrd + std::fmt::Display + Copy>(range: std::ops::RangeInclusive<T>) -> impl Fn(&T) -> Result<(), Invalid> {
    move |v| if range.contains(v) { Ok(()) } else { Err(Invalid(format!("{v} is outside {}..={}", range.start(), range.end()))) }
}

fn at_least_one(v: &u32) -> Result<(), Invalid> {
    if *v >= 1 {
        Ok(())
    } else {
        Err(Invalid("must be at least 1".into()))
    }
}

/// Declares settings in groups, one per area: each setting's flag (also its TOML key), its
/// `SIGIL_*` environment variable, its default (a string parsed like a flag value; none means
/// optional), an optional check, and the name it has in its group; `Seconds as Duration` reads whole seconds and holds a `Duration`. The flags
/// stay flat; the resolved settings are one struct per group.
macro_rules! grouped_settings {
    (
        $(#[$meta:meta])* $args:ident => $resolved:ident {
            $(
                $(#[doc = $gdoc:literal])+
                $group:ident : $gty:ident {
                    $(
                        $(#[doc = $doc:literal])+
                        $(#[arg($($arg:tt)+)])?
                        $name:ident <- $flag:ident : $ty:ty $(as $rty:ty)? $(= $default:literal)?, env $env:literal $(, check $check:expr)?;
                    )+
                }
            )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, Args)]
        pub struct $args {
            $($(
                #[arg(long, env = $env, help = concat!($($doc),+ $(, " [default: ", $default, "]")?) $(, $($arg)+)?)]
                pub $flag: Option<$ty>,
            )+)+
        }

        /// The settings after flags, environment, file and defaults, each checked, by area.
        #[derive(Debug, Clone)]
        pub struct $resolved {
            $( $(#[doc = $gdoc])+ pub $group: $gty, )+
        }

        $(
            $(#[doc = $gdoc])+
            #[derive(Debug, Clone)]
            pub struct $gty {
                $( $(#[doc = $doc])+ pub $name: grouped_settings!(@ty [$ty] [$($rty)?] [$($default)?]), )+
            }
        )+

        impl $args {
            /// The TOML keys of these settings.
            pub const KEYS: &'static [&'static str] = &[$($(stringify!($flag)),+),+];

            fn resolve(&self, file: &ConfigFile) -> Result<$resolved, ConfigError> {
                Ok($resolved {
                    $(
                        $group: $gty {
                            $(
                                $name: {
                                    let setting = Setting { key: stringify!($flag), env: $env };
                                    let value: Option<$ty> = match &self.$flag {
                                        Some(v) => Some(v.clone()),
                                        None => setting.read_from(file)?,
                                    };
                                    $( if let Some(v) = &value { ($check)(v).map_err(|m| setting.invalid(m))?; } )?
                                    grouped_settings!(@value $flag, value, [$($rty)?] [$($default)?])
                                },
                            )+
                        },
                    )+
                })
            }
        }
    };
    (@ty [$ty:ty] [] [$default:literal]) => { $ty };
    (@ty [$ty:ty] [] []) => { Option<$ty> };
    (@ty [$ty:ty] [$rty:ty] [$default:literal]) => { $rty };
    (@ty [$ty:ty] [$rty:ty] []) => { Option<$rty> };
    (@value $flag:ident, $v:ident, [$($rty:ty)?] [$default:literal]) => {{
        let v = match $v { Some(v) => v, None => $default.parse().expect(concat!("the default of ", stringify!($flag), " is valid")) };
        $( let v = <$rty>::from(v); )?
        v
    }};
    (@value $flag:ident, $v:ident, [$($rty:ty)?] []) => {{
        $( let $v = $v.map(<$rty>::from); )?
        $v
    }};
}

/// A credential setting: its value is never shown (`Debug` prints `***`).
#[derive(Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("***")
    }
}

impl FromStr for Secret {
    type Err = std::convert::Infallible;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(Secret(s.to_owned()))
    }
}

/// A number of whole seconds, as settings give durations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[serde(transparent)]
pub struct Seconds(pub u64);

impl FromStr for Seconds {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse().map(Seconds)
    }
}

impl std::fmt::Display for Seconds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Seconds> for Duration {
    fn from(s: Seconds) -> Duration {
        Duration::from_secs(s.0)
    }
}

grouped_settings! {
    /// Where data is kept (every subcommand).
    DatabaseArgs => Database {
        /// The database.
        storage: StorageSettings {
            /// Database URL: sqlite://PATH (created if missing, WAL mode) or postgres://USER@HOST/DB.
            #[arg(value_name = "URL")]
            url <- database_url: String = "sqlite://var/sigil.db", env "SIGIL_DATABASE_URL", check |u: &String| database_kind(u).map(|_| ());
        }
    }
}

grouped_settings! {
    /// `sigil serve` settings, grouped by the area that takes them; flags, environment variables
    /// and file keys stay flat (`--relay-max-sockets`, `relay_max_sockets`).
    ServeSettingsArgs => ServeSettings {
        /// The HTTP server: addresses, logs, limits on requests and connections.
        server: ServerSettings {
            /// Address and port to listen on.
            #[arg(value_name = "ADDR")]
            listen <- listen: SocketAddr = "127.0.0.1:8080", env "SIGIL_LISTEN";
            /// Public base URL of this server, used in absolute links such as wallet image_url. [default: http://<listen>]
            #[arg(value_name = "URL")]
            public_url <- public_url: String, env "SIGIL_PUBLIC_URL", check check_public_url;
            /// Log filter, e.g. info, debug, sigil_server=debug,tower_http=info.
            #[arg(value_name = "FILTER")]
            log <- log: String = "info", env "SIGIL_LOG", check |f: &String| tracing_subscriber::EnvFilter::try_new(f).map(|_| ()).map_err(|e| Invalid(format!("'{f}' is not a log filter: {e}")));
            /// Log line format.
            #[arg(value_enum)]
            log_format <- log_format: LogFormat = "text", env "SIGIL_LOG_FORMAT";
            /// Largest accepted request body in bytes (1..=16777216).
            #[arg(value_name = "BYTES")]
            body_limit <- body_limit: usize = "65536", env "SIGIL_BODY_LIMIT", check within(1..=16 * 1024 * 1024);
            /// Seconds a client has to send a request's whole body once its headers arrived; slower bodies get 408 (1..=600).
            #[arg(value_name = "SECS")]
            body_timeout <- body_timeout: Seconds as Duration = "10", env "SIGIL_BODY_TIMEOUT", check within(Seconds(1)..=Seconds(600));
            /// Seconds before a request is abandoned with 408 (1..=600).
            #[arg(value_name = "SECS")]
            request_timeout <- request_timeout: Seconds as Duration = "30", env "SIGIL_REQUEST_TIMEOUT", check within(Seconds(1)..=Seconds(600));
            /// Seconds a client has to send a request's headers; also how long an idle keep-alive connection stays open (1..=300).
            #[arg(value_name = "SECS")]
            header_timeout <- header_timeout: Seconds as Duration = "10", env "SIGIL_HEADER_TIMEOUT", check within(Seconds(1)..=Seconds(300));
            /// Open connections at most, relay sockets included (fewer if the file-descriptor limit is lower); past it, the connection idle longest is closed.
            #[arg(value_name = "N")]
            max_connections <- max_connections: usize = "10000", env "SIGIL_MAX_CONNECTIONS", check within(1..=1_000_000);
            /// Open connections from one client address at most (not applied behind a trusted proxy, where every connection comes from it) (1..=1000000).
            #[arg(value_name = "N")]
            max_connections_per_address <- max_connections_per_address: usize = "256", env "SIGIL_MAX_CONNECTIONS_PER_ADDRESS", check within(1..=1_000_000);
            /// Take the client address from X-Forwarded-For (only behind a trusted reverse proxy).
            #[arg(value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
            trust_proxy_headers <- trust_proxy_headers: bool = "false", env "SIGIL_TRUST_PROXY_HEADERS";
            /// Address GET /metrics is served on, alone (e.g. a private interface); when set, the API's own /metrics answers 404. [default: the API's address]
            #[arg(value_name = "ADDR")]
            metrics_listen <- metrics_listen: SocketAddr, env "SIGIL_METRICS_LISTEN";
        }
        /// Analytics events: how many are taken, how long they are kept.
        analytics: AnalyticsSettings {
            /// Analytics events accepted per minute per project and client address.
            #[arg(value_name = "N")]
            events_per_minute <- analytics_events_per_minute: u32 = "120", env "SIGIL_ANALYTICS_EVENTS_PER_MINUTE", check at_least_one;
            /// Analytics error events (props.type "error") accepted per minute per project and client address.
            #[arg(value_name = "N")]
            errors_per_minute <- analytics_errors_per_minute: u32 = "5", env "SIGIL_ANALYTICS_ERRORS_PER_MINUTE", check at_least_one;
            /// Days analytics events are kept; older ones are deleted hourly (1..=36500).
            #[arg(value_name = "DAYS")]
            retention_days <- analytics_retention_days: u32 = "90", env "SIGIL_ANALYTICS_RETENTION_DAYS", check within(1..=36_500);
        }
        /// Sign-in sessions, and the rows a client may store (sign-in and the embedded wallet).
        auth: AuthSettings {
            /// Days a sign-in session lasts at most, whatever the signed message's Expiration Time says (1..=365).
            #[arg(value_name = "DAYS")]
            session_max_days <- session_max_days: u32 = "7", env "SIGIL_SESSION_MAX_DAYS", check within(1..=365);
            /// Stored sign-in nonces and sessions per minute per project and client address.
            #[arg(value_name = "N")]
            writes_per_minute <- writes_per_minute: u32 = "60", env "SIGIL_WRITES_PER_MINUTE", check at_least_one;
        }
        /// The WalletConnect relay.
        relay: RelayConfig {
            /// Largest message the WalletConnect relay carries, in bytes (1024..=8388608).
            #[arg(value_name = "BYTES")]
            max_message_bytes <- relay_max_message_bytes: usize = "131072", env "SIGIL_RELAY_MAX_MESSAGE_BYTES", check within(1024..=8 * 1024 * 1024);
            /// Topics one relay socket may subscribe to (1..=100000).
            #[arg(value_name = "N")]
            max_subscriptions <- relay_max_subscriptions: usize = "1000", env "SIGIL_RELAY_MAX_SUBSCRIPTIONS", check within(1..=100_000);
            /// Publishes one relay socket may make per second; bursts to twice that.
            #[arg(value_name = "N")]
            publishes_per_second <- relay_publishes_per_second: u32 = "50", env "SIGIL_RELAY_PUBLISHES_PER_SECOND", check at_least_one;
            /// Open relay sockets at most (1..=1000000).
            #[arg(value_name = "N")]
            max_sockets <- relay_max_sockets: usize = "10000", env "SIGIL_RELAY_MAX_SOCKETS", check within(1..=1_000_000);
            /// Open relay sockets from one client address at most (1..=1000000).
            #[arg(value_name = "N")]
            max_sockets_per_address <- relay_max_sockets_per_address: usize = "100", env "SIGIL_RELAY_MAX_SOCKETS_PER_ADDRESS", check within(1..=1_000_000);
            /// Bytes of live relay messages one client identity may hold in the mailbox.
            #[arg(value_name = "BYTES")]
            client_mailbox_bytes <- relay_client_mailbox_bytes: u64 = "4194304", env "SIGIL_RELAY_CLIENT_MAILBOX_BYTES", check within(1024..=1 << 40);
            /// Bytes of live relay messages the clients of one address may hold in the mailbox.
            #[arg(value_name = "BYTES")]
            address_mailbox_bytes <- relay_address_mailbox_bytes: u64 = "33554432", env "SIGIL_RELAY_ADDRESS_MAILBOX_BYTES", check within(1024..=1 << 40);
            /// Bytes of live messages the relay's whole mailbox holds at most; past it publishes are refused.
            #[arg(value_name = "BYTES")]
            mailbox_max_bytes <- relay_mailbox_max_bytes: u64 = "1073741824", env "SIGIL_RELAY_MAILBOX_MAX_BYTES", check within(1024..=1 << 50);
            /// Seconds an undelivered message lives at most when no client ever acknowledged one of its publisher's (1..=2592000).
            #[arg(value_name = "SECS")]
            unknown_client_ttl <- relay_unknown_client_ttl: Seconds as Duration = "3600", env "SIGIL_RELAY_UNKNOWN_CLIENT_TTL", check within(Seconds(1)..=Seconds(30 * 86_400));
            /// Seconds between the relay's pings on each socket (Node clients drop a socket after 35 s of silence) (1..=30).
            #[arg(value_name = "SECS")]
            ping <- relay_ping_seconds: Seconds as Duration = "25", env "SIGIL_RELAY_PING_SECONDS", check within(Seconds(1)..=Seconds(30));
            /// The relay URL clients are given, when it is not ws(s)://<this server's host>/relay (e.g. behind a proxy): tokens for it are accepted too.
            #[arg(value_name = "URL")]
            url <- relay_url: String, env "SIGIL_RELAY_URL";
        }
        /// The embedded wallet: keys, mail, its frame origin, social login.
        wallet: WalletSettings {
            /// File holding the embedded wallets' key-encryption key (64 hex digits). Never in the database.
            #[arg(value_name = "FILE")]
            kek_file <- kek_file: PathBuf, env "SIGIL_KEK_FILE";
            /// The key-encryption key itself (64 hex digits), when not in a file.
            #[arg(value_name = "HEX")]
            kek <- kek: String, env "SIGIL_KEK";
            /// Mail server for embedded-wallet codes and links (host name). Without it, email login is off.
            #[arg(value_name = "HOST")]
            smtp_host <- smtp_host: String, env "SIGIL_SMTP_HOST";
            /// Mail server port.
            #[arg(value_name = "PORT")]
            smtp_port <- smtp_port: u16 = "587", env "SIGIL_SMTP_PORT";
            /// Mail server TLS: none, starttls or tls.
            #[arg(value_enum)]
            smtp_tls <- smtp_tls: crate::wallet::mail::SmtpTls = "starttls", env "SIGIL_SMTP_TLS";
            /// Mail server user name.
            #[arg(value_name = "USER")]
            smtp_username <- smtp_username: String, env "SIGIL_SMTP_USERNAME";
            /// Mail server password.
            #[arg(value_name = "PASSWORD")]
            smtp_password <- smtp_password: String, env "SIGIL_SMTP_PASSWORD";
            /// Sender of embedded-wallet email.
            #[arg(value_name = "MAILBOX")]
            mail_from <- mail_from: String = "Sigil wallet <wallet@localhost>", env "SIGIL_MAIL_FROM";
            /// Tries of emailed codes and device-approval links per minute per client address (each code also allows 5 tries).
            #[arg(value_name = "N")]
            code_tries_per_minute <- code_tries_per_minute: u32 = "10", env "SIGIL_CODE_TRIES_PER_MINUTE", check at_least_one;
            /// Address the embedded-wallet frame and its API are served on: their own origin, apart from the API.
            #[arg(value_name = "ADDR")]
            frame_listen <- frame_listen: SocketAddr, env "SIGIL_FRAME_LISTEN";
            /// Public base URL of the frame origin. [default: http://<frame-listen>]
            #[arg(value_name = "URL")]
            frame_public_url <- frame_public_url: String, env "SIGIL_FRAME_PUBLIC_URL", check check_public_url;
            /// Folder of the built frame page (web/packages/frame).
            #[arg(value_name = "DIR")]
            frame_dir <- frame_dir: PathBuf = "web/packages/frame/dist", env "SIGIL_FRAME_DIR";
            /// Social login providers (TOML, [[provider]] tables; see README): Google, Apple, X, Discord, GitHub, Facebook or any OpenID Connect issuer.
            #[arg(value_name = "FILE")]
            socials <- socials: PathBuf, env "SIGIL_SOCIALS";
            /// Chain of the Farcaster ID registry (CAIP-2, served by the RPC proxy).
            #[arg(value_name = "CHAIN")]
            farcaster_chain <- farcaster_chain: String = "eip155:10", env "SIGIL_FARCASTER_CHAIN";
            /// The Farcaster ID registry contract (custodyOf) on that chain.
            #[arg(value_name = "ADDRESS")]
            farcaster_id_registry <- farcaster_id_registry: String = "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b", env "SIGIL_FARCASTER_ID_REGISTRY", check check_evm_address;
            /// The Farcaster app's sign-in link; the channel's parameters are added to it.
            #[arg(value_name = "URL")]
            farcaster_app_url <- farcaster_app_url: String = "https://farcaster.xyz/~/siwf", env "SIGIL_FARCASTER_APP_URL", check check_http_url;
        }
        /// Transaction history: the indexer of each configured EVM chain (a chain opts out, or
        /// names its first block, with `history` in the chains file).
        history: HistorySettings {
            /// Index the history of the configured EVM chains and serve history and NFTs (off: empty on every chain).
            #[arg(value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
            enabled <- history_enabled: bool = "true", env "SIGIL_HISTORY_ENABLED";
            /// Blocks whose hashes are kept to follow a reorganisation back (1..=1000).
            #[arg(value_name = "N")]
            reorg_depth <- history_reorg_depth: u32 = "12", env "SIGIL_HISTORY_REORG_DEPTH", check within(1..=1000);
            /// Blocks read per batch at most (1..=10000).
            #[arg(value_name = "N")]
            batch_blocks <- history_batch_blocks: u32 = "500", env "SIGIL_HISTORY_BATCH_BLOCKS", check within(1..=10_000);
            /// Seconds between looks for new blocks once the index is at the head (1..=3600).
            #[arg(value_name = "SECS")]
            poll_interval <- history_poll_interval: Seconds as Duration = "2", env "SIGIL_HISTORY_POLL_INTERVAL", check within(Seconds(1)..=Seconds(3600));
            /// Seconds a process's claim to index a chain lasts unrenewed; another process takes the chain over after it (2..=3600).
            #[arg(value_name = "SECS")]
            lease <- history_lease: Seconds as Duration = "30", env "SIGIL_HISTORY_LEASE", check within(Seconds(2)..=Seconds(3600));
            /// Seconds one fill of an address's older history from a chain's history upstream may take, every call included (1..=300).
            #[arg(value_name = "SECS")]
            upstream_timeout <- history_upstream_timeout: Seconds as Duration = "20", env "SIGIL_HISTORY_UPSTREAM_TIMEOUT", check within(Seconds(1)..=Seconds(300));
            /// Records one fill from a history upstream keeps, all its lists together: no list is asked for more once reached (10..=1000000).
            #[arg(value_name = "N")]
            upstream_max_records <- history_upstream_max_records: u32 = "10000", env "SIGIL_HISTORY_UPSTREAM_MAX_RECORDS", check within(10..=1_000_000);
            /// Records asked of an Etherscan-style upstream per call (its `offset`; its plan caps it) (1..=10000).
            #[arg(value_name = "N")]
            upstream_page_size <- history_upstream_page_size: u32 = "1000", env "SIGIL_HISTORY_UPSTREAM_PAGE_SIZE", check within(1..=10_000);
        }
        /// NFTs: token metadata and images, fetched by the server from wherever a token's contract
        /// points (never from a private address unless allowed), with limits on time, size and type.
        nfts: NftSettings {
            /// Gateway that ipfs:// URIs are read through (<gateway><cid>/<path>).
            #[arg(value_name = "URL")]
            ipfs_gateway <- nfts_ipfs_gateway: String = "https://ipfs.io/ipfs/", env "SIGIL_NFTS_IPFS_GATEWAY", check check_http_url;
            /// Let metadata and images come from private, loopback and link-local addresses (development and tests only: a token's author picks the URL).
            #[arg(value_name = "BOOL", num_args = 0..=1, default_missing_value = "true")]
            allow_private_hosts <- nfts_allow_private_hosts: bool = "false", env "SIGIL_NFTS_ALLOW_PRIVATE_HOSTS";
            /// Seconds one metadata or image fetch may take, redirects included (1..=30).
            #[arg(value_name = "SECS")]
            fetch_timeout <- nfts_fetch_timeout: Seconds as Duration = "5", env "SIGIL_NFTS_FETCH_TIMEOUT", check within(Seconds(1)..=Seconds(30));
            /// Largest metadata document fetched, in bytes (1024..=4194304).
            #[arg(value_name = "BYTES")]
            max_metadata_bytes <- nfts_max_metadata_bytes: u32 = "262144", env "SIGIL_NFTS_MAX_METADATA_BYTES", check within(1024..=4_194_304);
            /// Largest image fetched, in bytes (1024..=20971520).
            #[arg(value_name = "BYTES")]
            max_image_bytes <- nfts_max_image_bytes: u32 = "5242880", env "SIGIL_NFTS_MAX_IMAGE_BYTES", check within(1024..=20_971_520);
            /// Seconds fetched metadata and images are kept before they are fetched again (60..=2592000); a failure is tried again after 5 minutes.
            #[arg(value_name = "SECS")]
            cache_ttl <- nfts_cache_ttl: Seconds as Duration = "86400", env "SIGIL_NFTS_CACHE_TTL", check within(Seconds(60)..=Seconds(2_592_000));
        }
        /// Swaps (the convert area): quotes and transactions from each chain's swap source.
        convert: ConvertSettings {
            /// Seconds a built swap stays valid on chain (the router's deadline) after it is built (60..=86400).
            #[arg(value_name = "SECS")]
            deadline <- convert_deadline: Seconds as Duration = "1200", env "SIGIL_CONVERT_DEADLINE", check within(Seconds(60)..=Seconds(86_400));
        }
        /// Buying crypto (the onramp area): which providers are on, where they are, their credentials (never shown or logged).
        onramp: OnrampSettings {
            /// Private key (64 hex digits) of an account on the sandbox chain that sells its coin: turns the sandbox provider on. Development and tests only.
            #[arg(value_name = "HEX")]
            sandbox_key <- onramp_sandbox_key: Secret, env "SIGIL_ONRAMP_SANDBOX_KEY", check check_sandbox_key;
            /// The chain (CAIP-2, a configured EVM chain) the sandbox provider sends what is bought on.
            #[arg(value_name = "CAIP2")]
            sandbox_chain <- onramp_sandbox_chain: String = "eip155:31337", env "SIGIL_ONRAMP_SANDBOX_CHAIN";
            /// Base URL of Coinbase's onramp API (CDP).
            #[arg(value_name = "URL")]
            coinbase_api_url <- onramp_coinbase_api_url: String = "https://api.developer.coinbase.com", env "SIGIL_ONRAMP_COINBASE_API_URL", check check_http_url;
            /// Base URL of Coinbase's buy pages (the URL a buyer opens).
            #[arg(value_name = "URL")]
            coinbase_pay_url <- onramp_coinbase_pay_url: String = "https://pay.coinbase.com", env "SIGIL_ONRAMP_COINBASE_PAY_URL", check check_http_url;
            /// Name (id) of a CDP secret API key; with its secret it turns Coinbase on.
            #[arg(value_name = "NAME")]
            coinbase_key_name <- onramp_coinbase_key_name: String, env "SIGIL_ONRAMP_COINBASE_KEY_NAME";
            /// The CDP secret API key's secret: a PEM EC key (ES256) or base64 Ed25519 key.
            #[arg(value_name = "SECRET")]
            coinbase_key_secret <- onramp_coinbase_key_secret: Secret, env "SIGIL_ONRAMP_COINBASE_KEY_SECRET", check check_coinbase_secret;
            /// Base URL of Meld's API.
            #[arg(value_name = "URL")]
            meld_api_url <- onramp_meld_api_url: String = "https://api.meld.io", env "SIGIL_ONRAMP_MELD_API_URL", check check_http_url;
            /// Meld API key (sent as Authorization: BASIC <key>): turns Meld on.
            #[arg(value_name = "KEY")]
            meld_key <- onramp_meld_key: Secret, env "SIGIL_ONRAMP_MELD_KEY";
            /// Seconds one call to a provider may take (1..=60).
            #[arg(value_name = "SECS")]
            timeout <- onramp_timeout: Seconds as Duration = "10", env "SIGIL_ONRAMP_TIMEOUT", check within(Seconds(1)..=Seconds(60));
        }
        /// Deposits from an exchange (the pay area): the operator's exchanges, the sandbox exchange, the sessions' rules.
        pay: PaySettings {
            /// Exchanges visitors may deposit from (TOML: [[exchange]] id, name, image_url, url with placeholders {address} {network} {chainId} {asset} {amount} {symbol} {sessionId}, optional assets). None: no exchange but the sandbox's.
            #[arg(value_name = "FILE")]
            exchanges <- pay_exchanges: PathBuf, env "SIGIL_PAY_EXCHANGES", check |p: &PathBuf| crate::pay::load_exchanges(p).map(|_| ()).map_err(Invalid);
            /// Private key (64 hex digits) of an account on the sandbox chain: turns on the sandbox exchange, which deposits from it. Development and tests only.
            #[arg(value_name = "HEX")]
            sandbox_key <- pay_sandbox_key: Secret, env "SIGIL_PAY_SANDBOX_KEY", check check_sandbox_key;
            /// The chain (CAIP-2, a configured EVM chain) the sandbox exchange deposits on.
            #[arg(value_name = "CAIP2")]
            sandbox_chain <- pay_sandbox_chain: String = "eip155:31337", env "SIGIL_PAY_SANDBOX_CHAIN";
            /// Seconds a deposit session waits for the deposit before it is FAILED (10..=86400).
            #[arg(value_name = "SECS")]
            session_ttl <- pay_session_ttl: Seconds as Duration = "1800", env "SIGIL_PAY_SESSION_TTL", check within(Seconds(10)..=Seconds(86_400));
            /// Deposit sessions one project may start per hour.
            #[arg(value_name = "N")]
            sessions_per_hour <- pay_sessions_per_hour: u32 = "200", env "SIGIL_PAY_SESSIONS_PER_HOUR", check at_least_one;
        }
        /// Account names (the profile area): the zones, the registration's rules, the gateway's signer.
        names: NamesSettings {
            /// Zones account names are registered under, comma-separated (e.g. sigil.id,example.xyz).
            #[arg(value_name = "ZONES")]
            zones <- names_zones: String = "sigil.id", env "SIGIL_NAMES_ZONES", check |z: &String| crate::profile::parse_zones(z).map(|_| ()).map_err(Invalid);
            /// Seconds a registration's signed timestamp may be from the server's time (10..=3600).
            #[arg(value_name = "SECS")]
            timestamp_window <- names_timestamp_window: Seconds as Duration = "120", env "SIGIL_NAMES_TIMESTAMP_WINDOW", check within(Seconds(10)..=Seconds(3600));
            /// Names one address may hold in each zone.
            #[arg(value_name = "N")]
            per_address <- names_per_address: u32 = "1", env "SIGIL_NAMES_PER_ADDRESS", check at_least_one;
            /// Private key (64 hex digits) the CCIP-read gateway signs its answers with; its address is the offchain resolver's signer. Without it the gateway answers 503.
            #[arg(value_name = "HEX")]
            signer_key <- names_signer_key: Secret, env "SIGIL_NAMES_SIGNER_KEY", check |k: &Secret| crate::profile::parse_signer_key(k.expose()).map(|_| ()).map_err(|e| Invalid(e.to_owned()));
        }
        /// Existing AppKit sites: what the AppKit client is told at start.
        appkit: AppkitSettings {
            /// Remote features the AppKit client may turn on (GET /appkit/v1/config), comma-separated from activity, swap, onramp, multi_wallet, or none; each is on only when this server serves it.
            #[arg(value_name = "FEATURES")]
            features <- appkit_features: String = "activity,swap,onramp,multi_wallet", env "SIGIL_APPKIT_FEATURES", check |f: &String| crate::appkit::parse_features(f).map(|_| ());
        }
        /// Chains and the JSON-RPC proxy.
        rpc: RpcConfig {
            /// Chains file (TOML, the format of config/chains.toml) replacing the built-in chain list.
            #[arg(value_name = "FILE")]
            chains <- chains: PathBuf, env "SIGIL_CHAINS";
            /// JSON-RPC URL of the local dev chain eip155:31337. [default: http://127.0.0.1:8545]
            #[arg(value_name = "URL")]
            dev_rpc_url <- dev_rpc_url: String, env "SIGIL_DEV_RPC_URL", check check_http_url;
            /// A dev-chain deployment (JSON written by devchain/deploy.mjs): its tokens and price pairs are added to the chain it names.
            #[arg(value_name = "FILE")]
            dev_deployment <- dev_deployment: PathBuf, env "SIGIL_DEV_DEPLOYMENT";
            /// JSON-RPC proxy requests per second per project (batch items count).
            #[arg(value_name = "N")]
            requests_per_second <- rpc_requests_per_second: u32 = "500", env "SIGIL_RPC_REQUESTS_PER_SECOND", check at_least_one;
            /// Seconds before an upstream JSON-RPC call counts as failed (1..=60).
            #[arg(value_name = "SECS")]
            timeout <- rpc_timeout: Seconds as Duration = "10", env "SIGIL_RPC_TIMEOUT", check within(Seconds(1)..=Seconds(60));
            /// Largest JSON-RPC proxy (/v1) request body in bytes, for batches of up to 1000 calls (1..=16777216).
            #[arg(value_name = "BYTES")]
            body_limit <- rpc_body_limit: usize = "1048576", env "SIGIL_RPC_BODY_LIMIT", check within(1..=16 * 1024 * 1024);
        }
    }
}

fn check_public_url(url: &String) -> Result<(), Invalid> {
    let parsed = url::Url::parse(url).map_err(|e| Invalid(format!("'{url}' is not a valid URL: {e}")))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(Invalid(format!("'{url}' must be an http(s) URL with a host")));
    }
    Ok(())
}

fn check_http_url(url: &String) -> Result<(), Invalid> {
    match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(()),
        _ => Err(Invalid(format!("'{url}' is not an http(s) URL"))),
    }
}

fn check_sandbox_key(key: &Secret) -> Result<(), Invalid> {
    crate::onramp::sandbox::parse_key(key.expose()).map(|_| ()).map_err(|e| Invalid(e.to_owned()))
}

fn check_coinbase_secret(secret: &Secret) -> Result<(), Invalid> {
    crate::onramp::coinbase::KeySecret::parse(secret.expose()).map(|_| ()).map_err(|e| Invalid(e.to_owned()))
}

fn check_evm_address(address: &String) -> Result<(), Invalid> {
    sigil_core::evm::parse_address(address).map(|_| ()).ok_or_else(|| Invalid(format!("'{address}' is not an EVM address (0x and 40 hex digits)")))
}

/// Options every subcommand that touches storage needs.
#[derive(Debug, Clone, Args, Default)]
pub struct StorageArgs {
    /// TOML configuration file; its keys are the long flag names with '_' for '-'.
    #[arg(long, env = "SIGIL_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[command(flatten)]
    pub database: DatabaseArgs,
}

/// `sigil serve` options.
#[derive(Debug, Clone, Args, Default)]
pub struct ServeArgs {
    #[command(flatten)]
    pub storage: StorageArgs,

    #[command(flatten)]
    pub settings: ServeSettingsArgs,
}

/// The optional TOML file, as a table of keys.
struct ConfigFile {
    path: PathBuf,
    table: toml::Table,
}

impl ConfigFile {
    fn read(path: Option<&Path>) -> Result<ConfigFile, ConfigError> {
        let Some(path) = path else { return Ok(ConfigFile { path: PathBuf::new(), table: toml::Table::new() }) };
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| ConfigError::Parse { path: path.to_owned(), message: e.message().to_owned() })?;
        let known = |k: &String| DatabaseArgs::KEYS.contains(&k.as_str()) || ServeSettingsArgs::KEYS.contains(&k.as_str());
        if let Some(unknown) = table.keys().find(|k| !known(k)) {
            return Err(ConfigError::Parse { path: path.to_owned(), message: format!("unknown field `{unknown}`") });
        }
        Ok(ConfigFile { path: path.to_owned(), table })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DatabaseKind {
    Sqlite,
    Postgres,
}

/// Checks a database URL and tells which engine it names.
pub fn database_kind(url: &str) -> Result<DatabaseKind, Invalid> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        if path.trim_start_matches("//").is_empty() {
            return Err(Invalid("sqlite URL needs a file path, e.g. sqlite://var/sigil.db".into()));
        }
        Ok(DatabaseKind::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        url::Url::parse(url).map_err(|e| Invalid(format!("'{url}' is not a valid URL: {e}")))?;
        Ok(DatabaseKind::Postgres)
    } else {
        Err(Invalid(format!("'{url}' must start with sqlite:// or postgres://")))
    }
}

/// The database URL for admin commands (flag, env, file, default).
pub fn storage_url(args: &StorageArgs) -> Result<String, ConfigError> {
    let file = ConfigFile::read(args.config.as_deref())?;
    Ok(args.database.resolve(&file)?.storage.url)
}

/// The configuration the server runs with: the checked settings and what is derived from them.
#[derive(Debug, Clone)]
pub struct Config {
    pub settings: ServeSettings,
    pub database_url: String,
    /// The public base URL, without a trailing slash.
    pub public_url: String,
    pub chains: Chains,
    pub rpc: RpcSettings,
    /// The embedded wallets' key-encryption key, from --kek-file or --kek.
    pub kek: Option<crate::wallet::keys::Kek>,
    /// The frame origin's base URL, without a trailing slash ("" when no frame is served).
    pub frame_url: String,
    /// Social login providers, from --socials.
    pub socials: std::sync::Arc<crate::wallet::social::Socials>,
}

impl Config {
    pub fn from_args(args: &ServeArgs) -> Result<Config, ConfigError> {
        let file = ConfigFile::read(args.storage.config.as_deref())?;
        let database_url = args.storage.database.resolve(&file)?.storage.url;
        let settings = args.settings.resolve(&file)?;
        let server = &settings.server;
        let public_url = server.public_url.clone().unwrap_or_else(|| format!("http://{}", server.listen)).trim_end_matches('/').to_owned();

        let chains_setting = Setting { key: "chains", env: "SIGIL_CHAINS" };
        let rpc_settings = &settings.rpc;
        let mut chains = match &rpc_settings.chains {
            Some(path) => Chains::from_file(path).map_err(|e| chains_setting.invalid(e.to_string()))?,
            None => Chains::built_in(),
        };
        if let Some(path) = &rpc_settings.dev_deployment {
            let setting = Setting { key: "dev_deployment", env: "SIGIL_DEV_DEPLOYMENT" };
            let text = std::fs::read_to_string(path).map_err(|e| setting.invalid(format!("cannot read {}: {e}", path.display())))?;
            chains.apply_deployment(&text).map_err(|e| setting.invalid(e.to_string()))?;
        }
        // The flag says where the dev chain is, also when a deployment names another address.
        if let Some(url) = &rpc_settings.dev_rpc_url {
            chains.set_dev_rpc(url);
        }
        if settings.onramp.sandbox_key.is_some() {
            let chain = &settings.onramp.sandbox_chain;
            if !chain.starts_with("eip155:") || chains.get(chain).is_none() {
                let setting = Setting { key: "onramp_sandbox_chain", env: "SIGIL_ONRAMP_SANDBOX_CHAIN" };
                return Err(setting.invalid(format!("'{chain}' is not a configured EVM chain")));
            }
        }
        if settings.pay.sandbox_key.is_some() {
            let chain = &settings.pay.sandbox_chain;
            if !chain.starts_with("eip155:") || chains.get(chain).is_none() {
                let setting = Setting { key: "pay_sandbox_chain", env: "SIGIL_PAY_SANDBOX_CHAIN" };
                return Err(setting.invalid(format!("'{chain}' is not a configured EVM chain")));
            }
        }
        let rpc = RpcSettings::from(rpc_settings);
        let wallet = &settings.wallet;
        let kek = match (&wallet.kek_file, &wallet.kek) {
            (Some(path), _) => {
                let setting = Setting { key: "kek_file", env: "SIGIL_KEK_FILE" };
                let text = std::fs::read_to_string(path).map_err(|e| setting.invalid(format!("cannot read {}: {e}", path.display())))?;
                Some(crate::wallet::keys::Kek::from_hex(&text).map_err(|e| setting.invalid(e.to_string()))?)
            }
            (None, Some(hex)) => Some(crate::wallet::keys::Kek::from_hex(hex).map_err(|e| Setting { key: "kek", env: "SIGIL_KEK" }.invalid(e.to_string()))?),
            (None, None) => None,
        };
        let frame_url = match (&wallet.frame_public_url, wallet.frame_listen) {
            (Some(url), _) => url.trim_end_matches('/').to_owned(),
            (None, Some(addr)) => format!("http://{addr}"),
            (None, None) => String::new(),
        };
        let socials = crate::wallet::social::Socials::load(wallet.socials.as_deref())
            .map_err(|e| Setting { key: "socials", env: "SIGIL_SOCIALS" }.invalid(e.to_string()))?
            .into();
        Ok(Config { settings, database_url, public_url, chains, rpc, kek, frame_url, socials })
    }

    /// Defaults for tests and embedding: an in-process server on `database_url`.
    pub fn for_database(database_url: &str) -> Config {
        let mut args = ServeArgs::default();
        args.storage.database.database_url = Some(database_url.to_owned());
        Config::from_args(&args).expect("default configuration is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let c = Config::from_args(&ServeArgs::default()).unwrap();
        assert_eq!(c.database_url, "sqlite://var/sigil.db");
        assert_eq!(c.settings.server.listen.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_url, "http://127.0.0.1:8080");
        assert_eq!(c.settings.server.body_limit, 65536);
        assert_eq!(c.settings.analytics.errors_per_minute, 5);
        assert_eq!(c.settings.server.log_format, LogFormat::Text);
        assert!(!c.settings.server.trust_proxy_headers);
        assert_eq!(c.rpc.requests_per_second, 500);
    }

    #[test]
    fn flags_override_file_and_file_overrides_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sigil.toml");
        std::fs::write(&path, "listen = \"127.0.0.1:9000\"\nbody_limit = 1000\nlog = \"debug\"\ndatabase_url = \"sqlite://x.db\"\nlog_format = \"json\"\n")
            .unwrap();
        let mut args = ServeArgs::default();
        args.storage.config = Some(path);
        args.settings.body_limit = Some(2000);
        let c = Config::from_args(&args).unwrap();
        assert_eq!(c.settings.server.listen.port(), 9000);
        assert_eq!(c.settings.server.body_limit, 2000);
        assert_eq!(c.settings.server.log, "debug");
        assert_eq!(c.settings.server.log_format, LogFormat::Json);
        assert_eq!(c.database_url, "sqlite://x.db");
        assert_eq!(storage_url(&args.storage).unwrap(), "sqlite://x.db");
    }

    #[test]
    fn bad_values_have_clear_messages() {
        let err = |args: ServeArgs| Config::from_args(&args).unwrap_err().to_string();
        let mut with_db = ServeArgs::default();
        with_db.storage.database.database_url = Some("mysql://x".into());
        assert_eq!(err(with_db), "invalid database-url (SIGIL_DATABASE_URL): 'mysql://x' must start with sqlite:// or postgres://");
        let with = |f: fn(&mut ServeSettingsArgs)| {
            let mut a = ServeArgs::default();
            f(&mut a.settings);
            a
        };
        assert_eq!(err(with(|s| s.body_limit = Some(0))), "invalid body-limit (SIGIL_BODY_LIMIT): 0 is outside 1..=16777216");
        assert!(err(with(|s| s.public_url = Some("ftp://x".into()))).starts_with("invalid public-url (SIGIL_PUBLIC_URL)"));
        assert!(err(with(|s| s.log = Some("info,[".into()))).starts_with("invalid log (SIGIL_LOG)"));
        assert_eq!(err(with(|s| s.header_timeout = Some(Seconds(0)))), "invalid header-timeout (SIGIL_HEADER_TIMEOUT): 0 is outside 1..=300");
        assert_eq!(err(with(|s| s.dev_rpc_url = Some("ws://x".into()))), "invalid dev-rpc-url (SIGIL_DEV_RPC_URL): 'ws://x' is not an http(s) URL");
    }

    #[test]
    fn the_dev_rpc_url_flag_wins_over_a_deployments_address() {
        let dir = tempfile::tempdir().unwrap();
        let deployment = dir.path().join("deployment.json");
        std::fs::write(&deployment, r#"{"chainId": "eip155:31337", "rpcUrl": "http://127.0.0.1:9999", "tokens": []}"#).unwrap();
        let mut args = ServeArgs::default();
        args.settings.dev_deployment = Some(deployment);
        assert_eq!(Config::from_args(&args).unwrap().chains.get("eip155:31337").unwrap().rpc, ["http://127.0.0.1:9999"]);
        args.settings.dev_rpc_url = Some("http://127.0.0.1:8545".into());
        assert_eq!(Config::from_args(&args).unwrap().chains.get("eip155:31337").unwrap().rpc, ["http://127.0.0.1:8545"], "issue 20, N16");
    }

    #[test]
    fn file_keys_are_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sigil.toml");
        let mut args = ServeArgs::default();
        args.storage.config = Some(path.clone());
        std::fs::write(&path, "lisen = \"127.0.0.1:9000\"\n").unwrap();
        let msg = Config::from_args(&args).unwrap_err().to_string();
        assert!(msg.contains("unknown field `lisen`"), "{msg}");
        std::fs::write(&path, "body_limit = \"big\"\n").unwrap();
        let msg = Config::from_args(&args).unwrap_err().to_string();
        assert!(msg.contains("body_limit:"), "{msg}");
        std::fs::write(&path, "body_limit = 0\n").unwrap();
        assert_eq!(Config::from_args(&args).unwrap_err().to_string(), "invalid body-limit (SIGIL_BODY_LIMIT): 0 is outside 1..=16777216");
    }
}
