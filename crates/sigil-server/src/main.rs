//! `sigil`: the server and its admin commands.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sigil_server::config::{self, Config, LogFormat, ServeArgs, StorageArgs};
use sigil_server::projects::{self, Features};
use sigil_server::{db, directory, AppState};

// Allocation was about 15% of the proxy's CPU under load with glibc's allocator and about 7%
// with mimalloc (perf, make bench-rpc).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "sigil", version, about = "Sigil: self-hosted wallet-connection and sign-in server")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP server.
    Serve(Box<ServeArgs>),
    /// Manage projects (who may use this server).
    #[command(subcommand)]
    Project(ProjectCommand),
    /// Manage the wallet directory.
    #[command(subcommand)]
    Wallets(WalletsCommand),
    /// Manage the embedded wallets' key-encryption key.
    #[command(subcommand)]
    Keys(KeysCommand),
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Print a new random key-encryption key (64 hex digits) for --kek-file.
    NewKek,
    /// Re-encrypt every embedded wallet's keys under a new key-encryption key. Afterwards,
    /// start the server with the new one; the old one can no longer open any key.
    Rotate {
        #[command(flatten)]
        storage: StorageArgs,
        /// File with the key-encryption key the keys are encrypted under now.
        #[arg(long, value_name = "FILE")]
        kek_file: PathBuf,
        /// File with the new key-encryption key.
        #[arg(long, value_name = "FILE")]
        new_kek_file: PathBuf,
    },
}

#[derive(Subcommand)]
enum ProjectCommand {
    /// Create a project and print its new projectId.
    Add {
        #[command(flatten)]
        storage: StorageArgs,
        /// Project name.
        #[arg(long)]
        name: String,
        /// Allowed origin: https://a.com, https://*.a.com or * (repeat or comma-separate).
        #[arg(long = "origin", required = true, value_delimiter = ',')]
        origins: Vec<String>,
        /// Disable analytics for this project.
        #[arg(long)]
        no_analytics: bool,
    },
    /// List projects.
    List {
        #[command(flatten)]
        storage: StorageArgs,
    },
}

#[derive(Subcommand)]
enum WalletsCommand {
    /// Import wallets from a JSON array (logo_file paths are relative to the file). Idempotent.
    Import {
        #[command(flatten)]
        storage: StorageArgs,
        /// The JSON file, e.g. data/wallets.json.
        file: PathBuf,
    },
}

/// Prints to stdout; a closed pipe (e.g. `| head`) ends output quietly instead of panicking.
fn out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn init_logging(filter: &str, format: LogFormat) {
    let builder = tracing_subscriber::fmt().with_env_filter(tracing_subscriber::EnvFilter::new(filter)).with_writer(std::io::stderr);
    match format {
        LogFormat::Json => builder.json().init(),
        LogFormat::Text => builder.init(),
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => {
            let config = Config::from_args(&args)?;
            init_logging(&config.settings.server.log, config.settings.server.log_format);
            let db = db::connect(&config.database_url).await?;
            let listen = config.settings.server.listen;
            tracing::info!(database = %db::redact(&config.database_url), "storage ready");
            let server = sigil_server::start(AppState::new(db.clone(), config), listen).await?;
            tracing::info!(addr = %server.addr, "sigil listening");
            out(&format!("sigil listening on http://{}\n", server.addr));
            sigil_server::shutdown_signal().await;
            tracing::info!("shutting down");
            server.stop().await?;
            db.close().await;
            Ok(())
        }
        Command::Project(ProjectCommand::Add { storage, name, origins, no_analytics }) => {
            let db = db::connect(&config::storage_url(&storage)?).await?;
            let project = projects::create(&db, &name, &origins, Features { analytics: !no_analytics }).await?;
            out(&format!("{}\n", project.id));
            db.close().await;
            Ok(())
        }
        Command::Project(ProjectCommand::List { storage }) => {
            let db = db::connect(&config::storage_url(&storage)?).await?;
            for p in projects::list(&db).await? {
                let origins: Vec<String> = p.allowed_origins.iter().map(|o| o.to_string()).collect();
                out(&format!("{}\t{}\t{}\tanalytics={}\n", p.id, p.name, origins.join(","), p.features.analytics));
            }
            db.close().await;
            Ok(())
        }
        Command::Keys(KeysCommand::NewKek) => {
            out(&format!("{}\n", sigil_server::wallet::keys::Kek::generate_hex()));
            Ok(())
        }
        Command::Keys(KeysCommand::Rotate { storage, kek_file, new_kek_file }) => {
            let read = |path: &PathBuf| -> anyhow::Result<sigil_server::wallet::keys::Kek> {
                let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
                sigil_server::wallet::keys::Kek::from_hex(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
            };
            let (old, new) = (read(&kek_file)?, read(&new_kek_file)?);
            let db = db::connect(&config::storage_url(&storage)?).await?;
            let count = sigil_server::wallet::rotate_keys(&db, &old, &new).await?;
            out(&format!("{count} keys re-encrypted under key-encryption key {}\n", new.id()));
            db.close().await;
            Ok(())
        }
        Command::Wallets(WalletsCommand::Import { storage, file }) => {
            let db = db::connect(&config::storage_url(&storage)?).await?;
            let report = directory::import::import_file(&db, &file).await?;
            out(&report.to_string());
            db.close().await;
            Ok(())
        }
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sigil: {e:#}");
            ExitCode::FAILURE
        }
    }
}
