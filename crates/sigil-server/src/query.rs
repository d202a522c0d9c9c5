//! Query-string parsing that names the parameter when a value is wrong.

use std::collections::HashMap;

use axum::http::Uri;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::ApiError;

/// The parameters every directory request carries.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)] // documentation only: the project gate reads these
pub struct ProjectQuery {
    /// Project id (32 hex), from `sigil project add`.
    #[serde(rename = "projectId")]
    #[param(rename = "projectId")]
    project_id: String,
    /// SDK type, e.g. `sigil`.
    st: Option<String>,
    /// SDK version.
    sv: Option<String>,
}

#[derive(Debug, Default)]
pub struct Params(HashMap<String, String>);

impl Params {
    pub fn from_uri(uri: &Uri) -> Params {
        Params(url::form_urlencoded::parse(uri.query().unwrap_or("").as_bytes()).into_owned().collect())
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A non-empty value, trimmed.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).map(str::trim).filter(|s| !s.is_empty())
    }

    /// An integer within `range`, or `default` when absent.
    pub fn int_in(&self, name: &str, range: std::ops::RangeInclusive<u32>, default: u32) -> Result<u32, ApiError> {
        let Some(raw) = self.text(name) else { return Ok(default) };
        raw.parse::<u32>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| ApiError::invalid_param(name, format!("expected an integer from {} to {}, got '{raw}'", range.start(), range.end())))
    }

    /// A comma-separated list; empty items are dropped; at most `max` items.
    pub fn list(&self, name: &str, max: usize) -> Result<Vec<String>, ApiError> {
        let items: Vec<String> = self.text(name).unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
        if items.len() > max {
            return Err(ApiError::invalid_param(name, format!("at most {max} items")));
        }
        Ok(items)
    }

    /// The SDK type and version (st, sv), validated when given.
    pub fn sdk(&self) -> Result<(Option<String>, Option<String>), ApiError> {
        let check = |name: &str| -> Result<Option<String>, ApiError> {
            match self.text(name) {
                None => Ok(None),
                Some(v) if v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()) => Ok(Some(v.to_owned())),
                Some(_) => Err(ApiError::invalid_param(name, "expected at most 64 printable characters")),
            }
        };
        Ok((check("st")?, check("sv")?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_validates() {
        let p = Params::from_uri(&"/x?page=2&entries=abc&ids=a,%20b,,c&st=sigil".parse().unwrap());
        assert_eq!(p.int_in("page", 1..=1000, 1).unwrap(), 2);
        assert_eq!(p.int_in("missing", 1..=10, 7).unwrap(), 7);
        let err = p.int_in("entries", 1..=100, 40).unwrap_err();
        assert_eq!(err.message, "Invalid parameter 'entries': expected an integer from 1 to 100, got 'abc'");
        assert_eq!(p.list("ids", 10).unwrap(), vec!["a", "b", "c"]);
        assert!(p.list("ids", 2).is_err());
        assert_eq!(p.sdk().unwrap(), (Some("sigil".into()), None));
    }
}
