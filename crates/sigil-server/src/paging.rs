//! Opaque cursors of paged routes (NFTs, history): the text of where the next page starts (a
//! position such as `12.3.4097`, a signature), base64url without padding. Each route checks the
//! text it gets back.

use base64::Engine;

/// A cursor holding `text`.
pub fn encode(text: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(text)
}

/// The text a cursor holds; None when it is not base64url of UTF-8.
pub fn decode(cursor: &str) -> Option<String> {
    String::from_utf8(base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor).ok()?).ok()
}

/// A part of a position: 1 to 19 decimal digits (no sign), as an i64.
pub fn number(part: &str) -> Option<i64> {
    (!part.is_empty() && part.len() <= 19 && part.bytes().all(|b| b.is_ascii_digit())).then(|| part.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip() {
        assert_eq!(decode(&encode("12.3.4097")).as_deref(), Some("12.3.4097"));
        assert_eq!(decode("!!"), None);
        assert_eq!(decode("_w"), None, "not UTF-8");
        assert_eq!((number("0"), number("9223372036854775807")), (Some(0), Some(i64::MAX)));
        for bad in ["", "-1", "+1", "1.5", "9223372036854775808", "00000000000000000001"] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }
}
