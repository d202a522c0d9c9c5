//! Deleting what is kept no longer: ended sign-in nonces and sessions a day after they ended,
//! expired relay messages, the embedded wallet's ended sessions, spent codes and old logins and
//! device approvals, analytics events after the configured number of days. Hourly, the first
//! time at start.

use std::time::Duration;

use crate::db::{now_ms, Db};

/// How often the server deletes.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Prunes every PRUNE_EVERY until aborted; a failure is logged and tried again next time.
pub fn spawn(db: Db, analytics_days: u32) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(PRUNE_EVERY);
        loop {
            tick.tick().await;
            let now = now_ms();
            match crate::auth::prune(&db, now).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, "pruned ended sign-in nonces and sessions"),
                Err(e) => tracing::warn!(error = %e, "pruning sign-in nonces and sessions failed"),
            }
            match crate::relay::store::prune(&db, now).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, "pruned expired relay messages"),
                Err(e) => tracing::warn!(error = %e, "pruning relay messages failed"),
            }
            match crate::wallet::prune(&db, now).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, "pruned ended embedded-wallet sessions, codes, logins and device approvals"),
                Err(e) => tracing::warn!(error = %e, "pruning embedded-wallet rows failed"),
            }
            match crate::analytics::prune(&db, now, analytics_days).await {
                Ok(0) => {}
                Ok(n) => tracing::info!(rows = n, days = analytics_days, "pruned old analytics events"),
                Err(e) => tracing::warn!(error = %e, "pruning analytics events failed"),
            }
        }
    })
}
