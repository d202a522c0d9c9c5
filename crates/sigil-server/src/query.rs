//! The query parameters routes share, as typed structs the extractor (`extract::Query`) fills
//! and the OpenAPI document describes, with the checks that name a bad parameter.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::{ApiError, ApiResult};

/// The parameters every project request carries. The project gate reads `projectId`; routes
/// that record the SDK read `st` and `sv` through `sdk()`.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProjectQuery {
    /// Project id (32 hex), from `sigil project add`.
    #[serde(rename = "projectId")]
    #[param(rename = "projectId", required = true)]
    pub project_id: Option<String>,
    /// SDK type, e.g. `sigil`.
    pub st: Option<String>,
    /// SDK version.
    pub sv: Option<String>,
}

impl ProjectQuery {
    /// The SDK type and version (st, sv), checked when given.
    pub fn sdk(&self) -> ApiResult<(Option<String>, Option<String>)> {
        let check = |name: &str, value: &Option<String>| -> ApiResult<Option<String>> {
            match value.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
                None => Ok(None),
                Some(v) if v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()) => Ok(Some(v.to_owned())),
                Some(_) => Err(ApiError::invalid_param(name, "expected at most 64 printable characters")),
            }
        };
        Ok((check("st", &self.st)?, check("sv", &self.sv)?))
    }
}

/// One parameter of a query string, decoded (borrowed when it needs no decoding), as
/// `form_urlencoded` reads it. Read on every proxied call (projectId, chainId): pairs with
/// nothing to decode are compared as they are, rather than each key decoded first.
pub fn param<'a>(query: &'a str, name: &str) -> Option<std::borrow::Cow<'a, str>> {
    let plain = |s: &str| !s.bytes().any(|b| b == b'%' || b == b'+');
    query.split('&').filter(|pair| !pair.is_empty()).find_map(|pair| {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if plain(key) && plain(value) {
            return (key == name).then_some(std::borrow::Cow::Borrowed(value));
        }
        url::form_urlencoded::parse(pair.as_bytes()).next().filter(|(k, _)| k == name).map(|(_, v)| v)
    })
}

/// A non-empty value, trimmed.
pub fn text(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A number within `range`, or `default` when absent.
pub fn within(name: &str, value: Option<u32>, range: std::ops::RangeInclusive<u32>, default: u32) -> ApiResult<u32> {
    match value {
        None => Ok(default),
        Some(n) if range.contains(&n) => Ok(n),
        Some(n) => Err(ApiError::invalid_param(name, format!("expected an integer from {} to {}, got '{n}'", range.start(), range.end()))),
    }
}

/// A comma-separated list; empty items are dropped; at most `max` items.
pub fn list(name: &str, value: &Option<String>, max: usize) -> ApiResult<Vec<String>> {
    let items: Vec<String> = text(value).unwrap_or("").split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
    if items.len() > max {
        return Err(ApiError::invalid_param(name, format!("at most {max} items")));
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::parse_query;

    #[test]
    fn parses_and_checks() {
        let q: ProjectQuery = parse_query("projectId=abc&st=sigil&other=1").unwrap();
        assert_eq!((q.project_id.as_deref(), q.sdk().unwrap()), (Some("abc"), (Some("sigil".into()), None)));
        let q: ProjectQuery = parse_query("st=%01").unwrap();
        assert_eq!(q.sdk().unwrap_err().message, "Invalid parameter 'st': expected at most 64 printable characters");
        assert_eq!(within("entries", Some(0), 1..=100, 40).unwrap_err().message, "Invalid parameter 'entries': expected an integer from 1 to 100, got '0'");
        assert_eq!(within("entries", None, 1..=100, 40).unwrap(), 40);
        assert_eq!(list("ids", &Some("a, b,,c".into()), 10).unwrap(), ["a", "b", "c"]);
        assert!(list("ids", &Some("a,b,c".into()), 2).is_err());
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct Paging {
            page: Option<u32>,
        }
        let err = parse_query::<Paging>("page=abc").unwrap_err();
        assert_eq!(err.message, "Invalid parameter 'page': invalid digit found in string");
    }

    #[test]
    fn param_reads_as_form_urlencoded_does() {
        let queries = [
            "chainId=eip155:1&projectId=abc",
            "projectId=&projectId=b",
            "&&projectId=a%20b&x",
            "project%49d=x&projectId=y",
            "projectId=a+b%2Bc",
            "projectId",
            "x=1&projectId=%ZZ",
            "projectId=%E2%82%AC=1",
            "",
        ];
        for query in queries {
            let expected = url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == "projectId").map(|(_, v)| v);
            assert_eq!(param(query, "projectId"), expected, "{query}");
        }
    }
}
