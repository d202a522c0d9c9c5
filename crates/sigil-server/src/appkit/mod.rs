//! Existing AppKit sites: what the AppKit client (up to 1.8.0) asks of its API hosts that no
//! other area answers. `GET /appkit/v1/config` (the project's remote features, as the operator
//! allows them and this server serves them) and the image ids that client names networks and
//! connectors by (`ids`, resolved by the directory's image routes).

pub mod ids;
pub mod routes;

use crate::config::Invalid;

/// A remote feature of the AppKit client that this server can serve, by the id its config
/// answer uses. The others (social login and email through the vendor's hosted frame, its
/// branding, email capture, paying from an exchange, its payments and authentication) are
/// always answered off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feature {
    /// The account's history (/v1/account/{address}/history).
    Activity,
    /// Swaps (/v1/convert/*).
    Swap,
    /// Buying crypto (/v1/onramp/*, /v1/generators/onrampurl).
    Onramp,
    /// Several wallets connected at once: the client's alone, nothing served.
    MultiWallet,
}

impl Feature {
    pub const ALL: [Feature; 4] = [Feature::Activity, Feature::Swap, Feature::Onramp, Feature::MultiWallet];

    pub fn id(self) -> &'static str {
        match self {
            Feature::Activity => "activity",
            Feature::Swap => "swap",
            Feature::Onramp => "onramp",
            Feature::MultiWallet => "multi_wallet",
        }
    }
}

/// The setting `appkit_features`: a comma-separated list of feature ids, or `none`.
pub fn parse_features(text: &str) -> Result<Vec<Feature>, Invalid> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            Feature::ALL.into_iter().find(|f| f.id() == name).ok_or_else(|| {
                let known: Vec<&str> = Feature::ALL.iter().map(|f| f.id()).collect();
                Invalid(format!("'{name}' is not one of {} (or none)", known.join(", ")))
            })
        })
        .collect()
}

/// The AppKit routes, under the project gate.
pub fn router() -> utoipa_axum::router::OpenApiRouter<crate::AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(routes::config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_setting() {
        assert_eq!(parse_features("activity, swap").unwrap(), [Feature::Activity, Feature::Swap]);
        assert_eq!(parse_features("none").unwrap(), []);
        assert_eq!(parse_features("").unwrap(), []);
        assert_eq!(parse_features("social_login").unwrap_err().0, "'social_login' is not one of activity, swap, onramp, multi_wallet (or none)");
    }
}
