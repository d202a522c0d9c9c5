//! Wallet directory ids: the WalletConnect explorer id (64 hex), or for records without one the
//! old registry's v1 rule: sha256 hex of the lower-cased host of the wallet's homepage.

use sha2::{Digest, Sha256};

pub fn is_explorer_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Derives the id from a homepage URL; None when the homepage has no host.
pub fn derive_from_homepage(homepage: &str) -> Option<String> {
    let url = url::Url::parse(homepage.trim()).ok()?;
    let host = url.host_str()?.to_ascii_lowercase();
    if host.is_empty() {
        return None;
    }
    Some(hex::encode(Sha256::digest(host.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_from_lowercased_host() {
        let id = derive_from_homepage("https://MetaMask.io/download").unwrap();
        assert_eq!(id, hex::encode(Sha256::digest(b"metamask.io")));
        assert!(is_explorer_id(&id));
        assert_eq!(derive_from_homepage("not a url"), None);
    }

    #[test]
    fn explorer_id_shape() {
        assert!(is_explorer_id("c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96"));
        assert!(!is_explorer_id("C57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96"));
        assert!(!is_explorer_id("c57ca95b"));
    }
}
