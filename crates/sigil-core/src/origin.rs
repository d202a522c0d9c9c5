//! Allowed-origin rules for projects: `*`, exact origins (`https://a.com`, `http://localhost:3000`)
//! and one-level-or-deeper wildcards (`https://*.a.com`, which does not match `https://a.com`).

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OriginPattern {
    Any,
    Exact(String),
    /// scheme, host suffix (starting with '.'), optional port
    Wildcard {
        scheme: String,
        suffix: String,
        port: Option<u16>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid origin '{0}': expected '*', scheme://host[:port] or scheme://*.host[:port] with no path")]
pub struct InvalidOrigin(pub String);

/// Normalises an origin string (`scheme://host[:port]`): lower-case, default port removed.
/// Returns None when it is not a bare origin.
pub fn normalize_origin(s: &str) -> Option<String> {
    let url = url::Url::parse(s).ok()?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return None;
    }
    if url.path() != "/" || url.query().is_some() || url.fragment().is_some() || !url.username().is_empty() || url.password().is_some() {
        return None;
    }
    // url::Url keeps a trailing slash as path "/"; reject explicit paths other than empty.
    let rest = s.split_once("://")?.1;
    if rest.contains('/') && !rest.ends_with('/') {
        return None;
    }
    Some(url.origin().ascii_serialization())
}

impl FromStr for OriginPattern {
    type Err = InvalidOrigin;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s == "*" {
            return Ok(OriginPattern::Any);
        }
        let err = || InvalidOrigin(s.to_owned());
        if let Some((scheme, rest)) = s.split_once("://*.") {
            // Validate the remainder as a host by parsing a concrete origin built from it.
            let probe = normalize_origin(&format!("{scheme}://x.{rest}")).ok_or_else(err)?;
            let url = url::Url::parse(&probe).map_err(|_| err())?;
            let host = url.host_str().ok_or_else(err)?;
            let suffix = host.strip_prefix('x').ok_or_else(err)?.to_owned();
            if suffix.len() < 2 || url.host_str().map(|h| h.contains('*')).unwrap_or(true) {
                return Err(err());
            }
            return Ok(OriginPattern::Wildcard { scheme: url.scheme().to_owned(), suffix, port: url.port() });
        }
        if s.contains('*') {
            return Err(err());
        }
        normalize_origin(s).map(OriginPattern::Exact).ok_or_else(err)
    }
}

impl fmt::Display for OriginPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OriginPattern::Any => f.write_str("*"),
            OriginPattern::Exact(o) => f.write_str(o),
            OriginPattern::Wildcard { scheme, suffix, port } => {
                write!(f, "{scheme}://*{suffix}")?;
                if let Some(p) = port {
                    write!(f, ":{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl OriginPattern {
    /// Whether the request origin `origin` (as sent in the Origin header) is allowed. Only a
    /// web origin can be: never `null` (sandboxed frames, file pages) or other strings.
    pub fn matches(&self, origin: &str) -> bool {
        match self {
            OriginPattern::Any => normalize_origin(origin).is_some(),
            OriginPattern::Exact(allowed) => normalize_origin(origin).as_deref() == Some(allowed.as_str()),
            OriginPattern::Wildcard { scheme, suffix, port } => {
                let Some(norm) = normalize_origin(origin) else { return false };
                let Ok(url) = url::Url::parse(&norm) else { return false };
                let Some(host) = url.host_str() else { return false };
                url.scheme() == scheme && url.port() == *port && host.len() > suffix.len() && host.ends_with(suffix.as_str())
            }
        }
    }
}

/// True when any of `patterns` allows `origin`.
pub fn is_allowed(patterns: &[OriginPattern], origin: &str) -> bool {
    patterns.iter().any(|p| p.matches(origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> OriginPattern {
        s.parse().unwrap()
    }

    #[test]
    fn exact_origins() {
        let pat = p("https://a.com");
        assert!(pat.matches("https://a.com"));
        assert!(pat.matches("https://A.com"));
        assert!(pat.matches("https://a.com:443"));
        assert!(!pat.matches("http://a.com"));
        assert!(!pat.matches("https://b.a.com"));
        assert!(!pat.matches("https://a.com.evil.org"));
        assert!(p("http://localhost:3000").matches("http://localhost:3000"));
        assert!(!p("http://localhost:3000").matches("http://localhost:3001"));
    }

    #[test]
    fn wildcard_origins() {
        let pat = p("https://*.a.com");
        assert_eq!(pat.to_string(), "https://*.a.com");
        assert!(pat.matches("https://app.a.com"));
        assert!(pat.matches("https://x.y.a.com"));
        assert!(!pat.matches("https://a.com"));
        assert!(!pat.matches("https://evila.com"));
        assert!(!pat.matches("http://app.a.com"));
        assert!(!pat.matches("https://app.a.com:8443"));
        assert!(p("http://*.localhost:8080").matches("http://x.localhost:8080"));
    }

    #[test]
    fn any_origin() {
        assert!(p("*").matches("https://whatever.example"));
        for not_a_web_origin in ["null", "file://", "file:///etc/passwd", "chrome-extension://abc", "hello", "", "https://a.com/path"] {
            assert!(!p("*").matches(not_a_web_origin), "{not_a_web_origin:?}");
        }
    }

    #[test]
    fn rejects_bad_patterns() {
        for bad in ["", "a.com", "https://a.com/path", "ftp://a.com", "https://*a.com", "https://a.*.com", "https://*.", "https://a.com?x=1"] {
            assert!(bad.parse::<OriginPattern>().is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn trailing_slash_is_tolerated() {
        assert_eq!(p("https://a.com/"), OriginPattern::Exact("https://a.com".into()));
    }
}
