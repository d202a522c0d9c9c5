//! Analytics: whether a project collects events, and POST /e to ingest them.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use sigil_core::errors;
use utoipa::ToSchema;

use crate::db::now_ms;
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::extract::Query;
use crate::guards::ClientAddr;
use crate::limits::EventKind;
use crate::projects::Project;
use crate::query::ProjectQuery;
use crate::AppState;

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsConfig {
    pub is_analytics_enabled: bool,
}

/// Whether the modal should send analytics events for this project.
#[utoipa::path(get, path = "/getAnalyticsConfig", tag = "directory",
    params(crate::query::ProjectQuery),
    responses((status = 200, body = AnalyticsConfig), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn config(Extension(project): Extension<Arc<Project>>) -> Json<AnalyticsConfig> {
    Json(AnalyticsConfig { is_analytics_enabled: project.features.analytics })
}

/// An analytics event as the modal sends it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// UUID chosen by the client; sending the same id twice stores it once.
    pub event_id: String,
    /// Page URL (http or https).
    pub url: String,
    /// Page host.
    pub domain: String,
    /// Milliseconds since the Unix epoch, or an RFC 3339 date-time (the AppKit client's error
    /// events), kept as milliseconds.
    #[serde(deserialize_with = "timestamp_ms")]
    #[schema(value_type = i64)]
    pub timestamp: i64,
    /// Event properties; `type: "error"` marks an error event (at most 5 a minute).
    #[schema(value_type = Object)]
    pub props: serde_json::Map<String, serde_json::Value>,
}

/// A timestamp as a number of milliseconds, or as an RFC 3339 string (out of range: -1, refused
/// by the check that follows).
fn timestamp_ms<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Timestamp {
        Millis(i64),
        Text(String),
    }
    Ok(match Timestamp::deserialize(d)? {
        Timestamp::Millis(ms) => ms,
        Timestamp::Text(text) => sigil_core::siwx::parse_rfc3339(&text).and_then(|t| i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()).unwrap_or(-1),
    })
}

#[derive(Serialize, ToSchema)]
pub struct Accepted {
    pub accepted: bool,
}

// Year 3000 in ms: anything later is a unit mistake, not a clock skew.
const MAX_TIMESTAMP_MS: i64 = 32_503_680_000_000;

fn parse_event(body: &[u8]) -> ApiResult<Event> {
    let event: Event = crate::extract::parse(body)?;
    uuid::Uuid::parse_str(&event.event_id).map_err(|_| ApiError::invalid_param("eventId", "expected a UUID"))?;
    let url = url::Url::parse(&event.url).map_err(|_| ApiError::invalid_param("url", "expected an absolute URL"))?;
    if !matches!(url.scheme(), "http" | "https") || event.url.len() > 2048 {
        return Err(ApiError::invalid_param("url", "expected an http(s) URL of at most 2048 characters"));
    }
    let domain_ok = !event.domain.is_empty() && event.domain.len() <= 253 && event.domain.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    if !domain_ok {
        return Err(ApiError::invalid_param("domain", "expected a host name"));
    }
    if !(1..=MAX_TIMESTAMP_MS).contains(&event.timestamp) {
        return Err(ApiError::invalid_param("timestamp", "expected milliseconds since the Unix epoch"));
    }
    if let Some(t) = event.props.get("type") {
        if !t.is_string() {
            return Err(ApiError::invalid_param("props.type", "expected a string"));
        }
    }
    Ok(event)
}

/// Deletes the events received more than `days` days before `now` (unix ms); returns how many.
pub async fn prune(db: &crate::db::Db, now: i64, days: u32) -> Result<u64, sqlx::Error> {
    let cutoff = now - i64::from(days) * 24 * 60 * 60 * 1000;
    Ok(sqlx::query("DELETE FROM analytics_events WHERE received_at < $1").bind(cutoff).execute(db).await?.rows_affected())
}

/// Ingests one analytics event.
#[utoipa::path(post, path = "/e", tag = "directory",
    params(crate::query::ProjectQuery),
    request_body = Event,
    responses((status = 202, body = Accepted), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 413, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody, description = "Rate limited; see Retry-After")))]
pub async fn ingest(
    State(state): State<AppState>,
    Extension(project): Extension<Arc<Project>>,
    ClientAddr(addr): ClientAddr,
    Query(sdk): Query<ProjectQuery>,
    body: Bytes,
) -> ApiResult<(StatusCode, Json<Accepted>)> {
    if !project.features.analytics {
        return Err(ApiError::new(StatusCode::FORBIDDEN, ErrorCode::AnalyticsDisabled, errors::ANALYTICS_DISABLED));
    }
    let (sdk_type, sdk_version) = sdk.sdk()?;
    let event = parse_event(&body)?;

    let now = Instant::now();
    let limits = &state.config.settings.analytics;
    state.limiter.check(&project.id, addr, EventKind::Any, limits.events_per_minute, now).map_err(ApiError::too_many_requests)?;
    if event.props.get("type").and_then(|t| t.as_str()).is_some_and(|t| t.trim().eq_ignore_ascii_case("error")) {
        if let Err(wait) = state.limiter.check(&project.id, addr, EventKind::Error, limits.errors_per_minute, now) {
            state.limiter.undo(&project.id, addr, EventKind::Any);
            return Err(ApiError::too_many_requests(wait));
        }
    }

    sqlx::query(
        "INSERT INTO analytics_events (event_id, project_id, url, domain, event_timestamp, props, sdk_type, sdk_version, client_address, received_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (project_id, event_id) DO NOTHING",
    )
    .bind(event.event_id.to_ascii_lowercase())
    .bind(&project.id)
    .bind(&event.url)
    .bind(&event.domain)
    .bind(event.timestamp)
    .bind(serde_json::Value::Object(event.props).to_string())
    .bind(sdk_type)
    .bind(sdk_version)
    .bind(addr.to_string())
    .bind(now_ms())
    .execute(&state.db)
    .await?;
    Ok((StatusCode::ACCEPTED, Json(Accepted { accepted: true })))
}

/// Analytics routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(config)).routes(utoipa_axum::routes!(ingest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(v: serde_json::Value) -> Vec<u8> {
        v.to_string().into_bytes()
    }

    #[test]
    fn validates_events() {
        let good = serde_json::json!({"eventId": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "url": "https://a.com/x", "domain": "a.com", "timestamp": 1700000000000i64, "props": {"type": "track", "event": "MODAL_OPEN"}});
        assert!(parse_event(&body(good.clone())).is_ok());
        let with = |k: &str, v: serde_json::Value| {
            let mut e = good.clone();
            e[k] = v;
            parse_event(&body(e)).unwrap_err().message
        };
        assert_eq!(with("eventId", "nope".into()), "Invalid parameter 'eventId': expected a UUID");
        assert_eq!(with("url", "ftp://a.com".into()), "Invalid parameter 'url': expected an http(s) URL of at most 2048 characters");
        assert_eq!(with("domain", "".into()), "Invalid parameter 'domain': expected a host name");
        assert_eq!(with("timestamp", (-1).into()), "Invalid parameter 'timestamp': expected milliseconds since the Unix epoch");
        assert_eq!(with("timestamp", "yesterday".into()), "Invalid parameter 'timestamp': expected milliseconds since the Unix epoch");
        let mut iso = good.clone();
        iso["timestamp"] = "2025-11-20T10:00:00.250Z".into();
        assert_eq!(parse_event(&body(iso)).unwrap().timestamp, 1_763_632_800_250);
        assert!(with("props", "x".into()).starts_with("Invalid request body:"));
        assert!(parse_event(b"{").unwrap_err().message.starts_with("Request body is not valid JSON"));
    }
}
