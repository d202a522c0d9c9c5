//! GET /appkit/v1/config

use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use super::Feature;
use crate::AppState;

/// One remote feature, as the AppKit client reads it: `config` lists the providers (swap,
/// onramp) or is empty; a feature this server does not serve is answered off.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoteFeature {
    pub id: &'static str,
    pub is_enabled: bool,
    pub config: Vec<&'static str>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProjectConfig {
    pub features: Vec<RemoteFeature>,
}

/// The ids of the client's remote features this server never serves.
const CLOSED: [&str; 6] = ["social_login", "reown_branding", "email_capture", "fund_from_exchange", "payments", "reown_authentication"];

/// Whether this server serves `feature` as configured (history on, a chain with a swap source,
/// an onramp provider on).
fn served(state: &AppState, feature: Feature) -> bool {
    match feature {
        Feature::Activity => state.config.settings.history.enabled,
        Feature::Swap => state.rpc.chains().by_id.values().any(|c| c.swap.is_some()),
        Feature::Onramp => !state.onramp.providers().is_empty(),
        Feature::MultiWallet => true,
    }
}

/// The provider names the client knows a feature's providers by.
fn providers(feature: Feature) -> Vec<&'static str> {
    match feature {
        Feature::Swap => vec!["1inch"],
        Feature::Onramp => vec!["meld"],
        Feature::Activity | Feature::MultiWallet => Vec::new(),
    }
}

/// The project's remote features for the AppKit client: on when the operator allows them
/// (`appkit_features`) and this server serves them; the vendor's own features are always off.
#[utoipa::path(get, path = "/appkit/v1/config", tag = "directory",
    params(crate::query::ProjectQuery),
    responses((status = 200, body = ProjectConfig), (status = 400, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn config(State(state): State<AppState>) -> Json<ProjectConfig> {
    // Checked when the configuration was read.
    let allowed = super::parse_features(&state.config.settings.appkit.features).unwrap_or_default();
    let mut features: Vec<RemoteFeature> = Feature::ALL
        .into_iter()
        .map(|f| {
            let on = allowed.contains(&f) && served(&state, f);
            RemoteFeature { id: f.id(), is_enabled: on, config: if on { providers(f) } else { Vec::new() } }
        })
        .collect();
    features.extend(CLOSED.into_iter().map(|id| RemoteFeature { id, is_enabled: false, config: Vec::new() }));
    Json(ProjectConfig { features })
}
