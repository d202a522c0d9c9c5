//! Fetching what a token's metadata points at, which its contract (anyone) chose: `ipfs://`
//! through the configured gateway, `http(s)://`, and `data:` decoded here. Whoever controls
//! the URI must not reach this server's network: hosts that resolve to private, loopback,
//! link-local or other special addresses are refused (each redirect checked again, and the
//! connection made only to the addresses checked, so a second DNS answer changes nothing)
//! unless the settings allow private hosts (development). Bytes are counted while they stream
//! and the whole fetch, redirects included, has one deadline; only allowed media types pass.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use reqwest::header;
use url::Url;

use super::NftSettings;

/// Redirects followed at most.
const MAX_REDIRECTS: usize = 3;

/// What a fetch is for: its size limit and the media types it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    Metadata,
    Image,
}

/// Bytes and the media type they were declared with (lower-case, without parameters; "" when
/// none was).
#[derive(Debug)]
pub struct Fetched {
    pub bytes: Vec<u8>,
    pub declared: String,
}

/// Why a fetch gave nothing. Shown in the 502's message and stored: it names no secret (the
/// URI is the token's own, public on chain, and is not repeated).
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum FetchError {
    #[error("the URI is not one this server fetches (ipfs://, https://, http:// or data:)")]
    Unsupported,
    #[error("the URI's host is a private, loopback or link-local address")]
    PrivateHost,
    #[error("the host could not be resolved or reached")]
    Unreachable,
    #[error("more than {MAX_REDIRECTS} redirects")]
    Redirects,
    #[error("the host answered {0}")]
    Status(u16),
    #[error("larger than {0} bytes")]
    TooLarge(usize),
    #[error("media type {0} is not allowed")]
    MediaType(String),
    #[error("no answer within the time allowed")]
    Timeout,
    #[error("malformed data: URI")]
    BadData,
    #[error("the metadata is not a JSON object")]
    BadJson,
    #[error("the image could not be read")]
    BadImage,
}

/// The HTTP client of metadata fetches: no proxy (the checks are of the real host), no
/// redirects of its own, no decompression, and a resolver that drops refused addresses.
pub fn client(settings: &NftSettings) -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(settings.fetch_timeout)
        .connect_timeout(settings.fetch_timeout)
        .user_agent(concat!("Sigil/", env!("CARGO_PKG_VERSION"), " (NFT metadata)"))
        .dns_resolver(Arc::new(Resolver { allow_private: settings.allow_private_hosts }))
        .build()
        .expect("the NFT metadata client builds")
}

/// Resolves names and keeps only the addresses a fetch may reach.
struct Resolver {
    allow_private: bool,
}

impl reqwest::dns::Resolve for Resolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = resolve(&host, allow_private).await.map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>)?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// `host`'s addresses a fetch may connect to; refused when it has none.
async fn resolve(host: &str, allow_private: bool) -> Result<Vec<SocketAddr>, FetchError> {
    let all: Vec<SocketAddr> = tokio::net::lookup_host((host, 0)).await.map_err(|_| FetchError::Unreachable)?.collect();
    if all.is_empty() {
        return Err(FetchError::Unreachable);
    }
    let allowed: Vec<SocketAddr> = all.into_iter().filter(|a| allow_private || is_public(a.ip())).collect();
    if allowed.is_empty() {
        return Err(FetchError::PrivateHost);
    }
    Ok(allowed)
}

/// Whether `ip` is an ordinary address on the internet: not loopback, private, link-local
/// (cloud metadata services live there), shared, multicast, documentation or otherwise reserved.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public_v4(v4);
            }
            let s = v6.segments();
            // NAT64 (64:ff9b::/96; the local-use 64:ff9b:1::/48 of RFC 8215 read as a /96
            // prefix too, the address in its last 32 bits) and 6to4 (2002::/16) carry an IPv4
            // address.
            if s[0] == 0x64 && s[1] == 0xff9b && (s[2..6] == [0, 0, 0, 0] || s[2] == 1) {
                return is_public_v4(Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8));
            }
            if s[0] == 0x2002 {
                return is_public_v4(Ipv4Addr::new((s[1] >> 8) as u8, s[1] as u8, (s[2] >> 8) as u8, s[2] as u8));
            }
            !(v6.is_unspecified()
                || v6.is_loopback()
                || v6.is_multicast()
                || s[0] & 0xfe00 == 0xfc00 // unique local
                || s[0] & 0xffc0 == 0xfe80 // link-local
                || s[0] & 0xffc0 == 0xfec0 // site-local (deprecated)
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0] == 0x2001 && s[1] == 0) // Teredo
                || (s[0..6] == [0, 0, 0, 0, 0, 0])) // IPv4-compatible (deprecated)
        }
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0 // this network
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b)) // shared (carrier-grade NAT)
        || (a == 169 && b == 254) // link-local, cloud metadata
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 192 && b == 0 && c == 2) // documentation
        || (a == 192 && b == 168)
        || (a == 198 && (18..20).contains(&b)) // benchmarking
        || (a == 198 && b == 51 && c == 100) // documentation
        || (a == 203 && b == 0 && c == 113) // documentation
        || a >= 224) // multicast, reserved, broadcast
}

/// Where an `ipfs://` URI is read: `<gateway><cid>/<path>` (`ipfs://ipfs/<cid>` too).
pub fn gateway_url(uri: &str, gateway: &str) -> Option<String> {
    let rest = uri.strip_prefix("ipfs://")?;
    let rest = rest.strip_prefix("ipfs/").unwrap_or(rest);
    if rest.is_empty() {
        return None;
    }
    let base = if gateway.ends_with('/') { gateway.to_owned() } else { format!("{gateway}/") };
    Some(format!("{base}{rest}"))
}

/// The media types each fetch accepts as declared (images are also sniffed, in images.rs).
fn accepts(want: Want, declared: &str) -> bool {
    if declared.is_empty() || declared == "application/octet-stream" {
        return true;
    }
    match want {
        Want::Metadata => declared == "application/json" || declared == "text/plain" || declared.ends_with("+json"),
        Want::Image => super::images::ALLOWED.contains(&declared),
    }
}

fn limit(settings: &NftSettings, want: Want) -> usize {
    match want {
        Want::Metadata => settings.max_metadata_bytes as usize,
        Want::Image => settings.max_image_bytes as usize,
    }
}

/// Fetches `uri` for `want`, within the settings' deadline, size limit and media types.
pub async fn fetch(client: &reqwest::Client, settings: &NftSettings, uri: &str, want: Want) -> Result<Fetched, FetchError> {
    let uri = uri.trim();
    if let Some(data) = uri.strip_prefix("data:") {
        let fetched = decode_data(data, limit(settings, want))?;
        return if accepts(want, &fetched.declared) { Ok(fetched) } else { Err(FetchError::MediaType(fetched.declared)) };
    }
    let url = match gateway_url(uri, &settings.ipfs_gateway) {
        Some(url) => url,
        None => uri.to_owned(),
    };
    let deadline: Duration = settings.fetch_timeout;
    tokio::time::timeout(deadline, fetch_http(client, settings, &url, want)).await.map_err(|_| FetchError::Timeout)?
}

/// Checks a URL before it is asked: http or https, and a host that may be reached.
async fn check(url: &Url, allow_private: bool) -> Result<(), FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(FetchError::Unsupported);
    }
    match url.host() {
        None => Err(FetchError::Unsupported),
        Some(url::Host::Ipv4(ip)) => (allow_private || is_public(IpAddr::V4(ip))).then_some(()).ok_or(FetchError::PrivateHost),
        Some(url::Host::Ipv6(ip)) => (allow_private || is_public(IpAddr::V6(ip))).then_some(()).ok_or(FetchError::PrivateHost),
        Some(url::Host::Domain(name)) => resolve(name, allow_private).await.map(|_| ()),
    }
}

/// Where a redirect from `from` to `location` goes, checked like the first URL was.
async fn follow(from: &Url, location: &str, allow_private: bool) -> Result<Url, FetchError> {
    let to = from.join(location).map_err(|_| FetchError::Unsupported)?;
    check(&to, allow_private).await?;
    Ok(to)
}

async fn fetch_http(client: &reqwest::Client, settings: &NftSettings, url: &str, want: Want) -> Result<Fetched, FetchError> {
    let max = limit(settings, want);
    let mut url = Url::parse(url).map_err(|_| FetchError::Unsupported)?;
    check(&url, settings.allow_private_hosts).await?;
    for _ in 0..=MAX_REDIRECTS {
        let accept = match want {
            Want::Metadata => "application/json",
            Want::Image => "image/png, image/jpeg, image/gif, image/webp, image/svg+xml",
        };
        let mut res = client.get(url.clone()).header(header::ACCEPT, accept).send().await.map_err(|e| {
            if e.is_timeout() {
                FetchError::Timeout
            } else if std::error::Error::source(&e).and_then(|s| find::<FetchError>(s)).is_some_and(|f| *f == FetchError::PrivateHost) {
                FetchError::PrivateHost
            } else {
                FetchError::Unreachable
            }
        })?;
        let status = res.status();
        if status.is_redirection() {
            let location = res.headers().get(header::LOCATION).and_then(|v| v.to_str().ok()).ok_or(FetchError::Status(status.as_u16()))?;
            url = follow(&url, location, settings.allow_private_hosts).await?;
            continue;
        }
        if !status.is_success() {
            return Err(FetchError::Status(status.as_u16()));
        }
        let declared = media_type(res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or(""));
        if !accepts(want, &declared) {
            return Err(FetchError::MediaType(declared));
        }
        if res.content_length().is_some_and(|n| n > max as u64) {
            return Err(FetchError::TooLarge(max));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = res.chunk().await.map_err(|e| if e.is_timeout() { FetchError::Timeout } else { FetchError::Unreachable })? {
            if bytes.len() + chunk.len() > max {
                return Err(FetchError::TooLarge(max));
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok(Fetched { bytes, declared });
    }
    Err(FetchError::Redirects)
}

/// The first error of type `E` in a chain of sources.
fn find<'a, E: std::error::Error + 'static>(mut e: &'a (dyn std::error::Error + 'static)) -> Option<&'a E> {
    loop {
        if let Some(found) = e.downcast_ref::<E>() {
            return Some(found);
        }
        e = e.source()?;
    }
}

/// `type/subtype`, lower-case, without parameters.
fn media_type(value: &str) -> String {
    value.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
}

/// A `data:` URI's bytes (after `data:`): base64 or percent-encoded text, at most `max` bytes.
pub fn decode_data(data: &str, max: usize) -> Result<Fetched, FetchError> {
    let (head, body) = data.split_once(',').ok_or(FetchError::BadData)?;
    let base64 = head.split(';').any(|p| p.trim().eq_ignore_ascii_case("base64"));
    let declared = media_type(head);
    // A declared type is one word with a slash; "data:,text" is text/plain.
    let declared = if declared.is_empty() { "text/plain".to_owned() } else { declared };
    let bytes = if base64 {
        if body.len() / 4 * 3 > max + 3 {
            return Err(FetchError::TooLarge(max));
        }
        let clean: String = body.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let clean = percent_decode(clean.as_bytes());
        base64::engine::general_purpose::STANDARD
            .decode(clean.as_slice())
            .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(clean.as_slice()))
            .map_err(|_| FetchError::BadData)?
    } else {
        percent_decode(body.as_bytes())
    };
    if bytes.len() > max {
        return Err(FetchError::TooLarge(max));
    }
    Ok(Fetched { bytes, declared })
}

/// `%XX` sequences decoded; anything else (a malformed `%` too) kept as it is.
fn percent_decode(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'%' && i + 2 < input.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(input[i + 1]), hex(input[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(input[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_addresses_are_not_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::a9fe:a9fe",
            "64:ff9b:1:ffff::7f00:1",
            "64:ff9b:1::c0a8:101",
            "2002:0a00:0001::1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["1.1.1.1", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:1.1.1.1", "64:ff9b::101:101", "64:ff9b:1::101:101"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[tokio::test]
    async fn redirects_to_private_hosts_are_refused() {
        let from = Url::parse("https://example.com/token/1.json").unwrap();
        for location in [
            "http://127.0.0.1/",
            "http://localhost:8080/metadata",
            "http://[::1]/",
            "http://169.254.169.254/latest/meta-data/",
            "http://0x7f000001/",
            "http://2130706433/",
            "http://[64:ff9b:1::a9fe:a9fe]/",
            "http://10.0.0.1/x",
        ] {
            assert_eq!(follow(&from, location, false).await.unwrap_err(), FetchError::PrivateHost, "{location}");
        }
        assert_eq!(follow(&from, "file:///etc/passwd", false).await.unwrap_err(), FetchError::Unsupported);
        // Relative and public targets pass (no DNS for an address literal).
        assert_eq!(follow(&from, "http://1.1.1.1/a", false).await.unwrap().as_str(), "http://1.1.1.1/a");
        assert_eq!(follow(&Url::parse("http://1.1.1.1/a/b").unwrap(), "../c", false).await.unwrap().as_str(), "http://1.1.1.1/c");
        // Allowed when private hosts are (development).
        assert!(follow(&from, "http://127.0.0.1/", true).await.is_ok());
    }

    #[test]
    fn ipfs_goes_through_the_gateway() {
        assert_eq!(gateway_url("ipfs://Qm123/1.json", "https://ipfs.io/ipfs/").unwrap(), "https://ipfs.io/ipfs/Qm123/1.json");
        assert_eq!(gateway_url("ipfs://ipfs/Qm123", "http://127.0.0.1:5173/ipfs").unwrap(), "http://127.0.0.1:5173/ipfs/Qm123");
        assert_eq!(gateway_url("ipfs://", "https://g/"), None);
        assert_eq!(gateway_url("https://x/y", "https://g/"), None);
    }

    #[test]
    fn data_uris() {
        let json = decode_data("application/json;base64,eyJuYW1lIjoiQSJ9", 100).unwrap();
        assert_eq!((json.bytes.as_slice(), json.declared.as_str()), (br#"{"name":"A"}"#.as_slice(), "application/json"));
        let text = decode_data("application/json;utf8,{\"name\":\"A%20B\"}", 100).unwrap();
        assert_eq!(text.bytes, br#"{"name":"A B"}"#);
        assert_eq!(decode_data(",hello", 100).unwrap().declared, "text/plain");
        assert_eq!(decode_data("image/png;base64,AAAA", 2).unwrap_err(), FetchError::TooLarge(2));
        assert_eq!(decode_data("no comma", 100).unwrap_err(), FetchError::BadData);
        assert_eq!(decode_data("image/png;base64,!!!", 100).unwrap_err(), FetchError::BadData);
        assert_eq!(percent_decode(b"a%2"), b"a%2");
    }
}
