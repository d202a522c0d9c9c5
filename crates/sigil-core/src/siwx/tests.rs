//! Vectors for the sign-in message and its signatures.

use super::*;
use time::format_description::well_known::Rfc3339;

const EIP4361_IMPLICIT_SCHEME: &str = "example.com wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ExampleOrg Terms of Service: https://example.com/tos

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Resources:
- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
- https://example.com/my-web2-claim.json";

const EIP4361_PORT: &str = "example.com:3388 wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ExampleOrg Terms of Service: https://example.com/tos

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Resources:
- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
- https://example.com/my-web2-claim.json";

const EIP4361_EXPLICIT_SCHEME: &str = "https://example.com wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ExampleOrg Terms of Service: https://example.com/tos

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Resources:
- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
- https://example.com/my-web2-claim.json";

const MINIMAL: &str = "example.com wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2


URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z";

const FULL: &str = "example.com wants you to sign in with your Ethereum account:
0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ExampleOrg Terms of Service: https://example.com/tos

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Expiration Time: 2021-10-01T16:25:24Z
Not Before: 2021-09-30T16:30:00.000+02:00
Request ID: req-200
Resources:
- https://example.com/my-web2-claim.json";

fn t(s: &str) -> OffsetDateTime {
    OffsetDateTime::parse(s, &Rfc3339).unwrap()
}

fn err_of(text: &str) -> ParseError {
    SignInMessage::parse(text).expect_err("expected a parse error")
}

fn assert_err(text: &str, line: usize, field: Field) -> ParseError {
    let e = err_of(text);
    assert_eq!((e.line, e.field), (line, field), "wrong error for {text:?}: {e}");
    e
}

// ---- message vectors ----

#[test]
fn eip4361_examples_parse_and_round_trip() {
    for text in [EIP4361_IMPLICIT_SCHEME, EIP4361_PORT, EIP4361_EXPLICIT_SCHEME, MINIMAL, FULL] {
        let m = SignInMessage::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(m.to_string(), text);
        assert_eq!(SignInMessage::parse(&m.to_string()).unwrap(), m);
    }
}

#[test]
fn eip4361_example_fields() {
    let m = SignInMessage::parse(EIP4361_IMPLICIT_SCHEME).unwrap();
    assert_eq!(m.namespace, Namespace::Eip155);
    assert_eq!(m.scheme, None);
    assert_eq!(m.domain, "example.com");
    assert_eq!(m.address, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2");
    assert_eq!(m.statement.as_deref(), Some("I accept the ExampleOrg Terms of Service: https://example.com/tos"));
    assert_eq!(m.uri, "https://example.com/login");
    assert_eq!(m.version, "1");
    assert_eq!(m.chain_id, "1");
    assert_eq!(m.nonce, "32891756");
    assert_eq!(m.issued_at, "2021-09-30T16:25:24Z");
    assert_eq!(m.expiration_time, None);
    assert_eq!(m.not_before, None);
    assert_eq!(m.request_id, None);
    assert_eq!(
        m.resources,
        vec!["ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/".to_owned(), "https://example.com/my-web2-claim.json".to_owned()]
    );
    assert_eq!(m.caip2_chain_id(), "eip155:1");
    assert_eq!(m.caip10_account(), "eip155:1:0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2");

    let port = SignInMessage::parse(EIP4361_PORT).unwrap();
    assert_eq!(port.domain, "example.com:3388");
    let scheme = SignInMessage::parse(EIP4361_EXPLICIT_SCHEME).unwrap();
    assert_eq!(scheme.scheme.as_deref(), Some("https"));
    assert_eq!(scheme.domain, "example.com");

    let full = SignInMessage::parse(FULL).unwrap();
    assert_eq!(full.expiration_time.as_deref(), Some("2021-10-01T16:25:24Z"));
    assert_eq!(full.not_before.as_deref(), Some("2021-09-30T16:30:00.000+02:00"));
    assert_eq!(full.request_id.as_deref(), Some("req-200"));
}

#[test]
fn builder_produces_exact_text() {
    let mut m = SignInMessage::new(
        Namespace::Eip155,
        "example.com",
        "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
        "https://example.com/login",
        "1",
        "32891756",
        "2021-09-30T16:25:24Z",
    );
    assert_eq!(m.to_string(), MINIMAL);
    assert!(m.validate().is_ok());
    m.statement = Some("I accept the ExampleOrg Terms of Service: https://example.com/tos".into());
    m.resources = vec!["ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/".into(), "https://example.com/my-web2-claim.json".into()];
    assert_eq!(m.to_string(), EIP4361_IMPLICIT_SCHEME);
    m.scheme = Some("https".into());
    assert_eq!(m.to_string(), EIP4361_EXPLICIT_SCHEME);
    assert_eq!(m.to_string().parse::<SignInMessage>().unwrap(), m);
}

#[test]
fn request_id_may_be_empty() {
    let text = format!("{MINIMAL}\nRequest ID: ");
    let m = SignInMessage::parse(&text).unwrap();
    assert_eq!(m.request_id.as_deref(), Some(""));
    assert_eq!(m.to_string(), text);
}

#[test]
fn statement_that_looks_like_a_field_round_trips() {
    let text = MINIMAL.replacen("\n\n\nURI", "\n\nURI: https://evil.example\n\nURI", 1);
    let m = SignInMessage::parse(&text).unwrap();
    assert_eq!(m.statement.as_deref(), Some("URI: https://evil.example"));
    assert_eq!(m.uri, "https://example.com/login");
    assert_eq!(m.to_string(), text);
}

#[test]
fn solana_message_round_trips() {
    let key = ed25519_dalek::SigningKey::from_bytes(&[7u8; 32]);
    let address = bs58::encode(key.verifying_key().to_bytes()).into_string();
    let mut m = SignInMessage::new(
        Namespace::Solana,
        "app.example.org",
        address.clone(),
        "https://app.example.org",
        "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        "abcDEF123456",
        "2024-01-01T00:00:00Z",
    );
    m.statement = Some("Sign in to Example".into());
    let text = m.to_string();
    assert!(text.starts_with(&format!("app.example.org wants you to sign in with your Solana account:\n{address}\n\nSign in to Example\n\nURI: ")));
    assert_eq!(SignInMessage::parse(&text).unwrap(), m);
    assert_eq!(m.caip2_chain_id(), "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
    // An EVM address is not a Solana address.
    let bad = text.replace(&address, "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2");
    assert_err(&bad, 2, Field::Address);
}

#[test]
fn header_errors() {
    assert_err("", 1, Field::Header);
    assert_err(&MINIMAL.replace("Ethereum", "Dogecoin"), 1, Field::Header);
    assert_err(&MINIMAL.replace("wants you", "asks you"), 1, Field::Header);
    assert_err(&MINIMAL.replace("account:", "account"), 1, Field::Header);
    assert_err(&MINIMAL.replace("example.com wants", "exa mple.com wants"), 1, Field::Domain);
    assert_err(&MINIMAL.replace("example.com wants", " wants"), 1, Field::Domain);
    assert_err(&MINIMAL.replace("example.com wants", "example.com:80a wants"), 1, Field::Domain);
    assert_err(&MINIMAL.replace("example.com wants", "1http://example.com wants"), 1, Field::Scheme);
    assert_err(&MINIMAL.replace('\n', "\r\n"), 1, Field::Header);
}

#[test]
fn authority_rules() {
    for ok in ["localhost:3000", "[::1]:8080", "[::1]", "user:pw@host.example", "127.0.0.1", "example.com:", "[v1.fe]", "ex%41mple.com"] {
        let text = MINIMAL.replace("example.com wants", &format!("{ok} wants"));
        let m = SignInMessage::parse(&text).unwrap_or_else(|e| panic!("{ok}: {e}"));
        assert_eq!(m.domain, ok);
    }
    for bad in [":80", "[::1", "[::1]x", "a@b@c", "host/path", "ex%4mple.com", "[zz]", "é.com"] {
        let text = MINIMAL.replace("example.com wants", &format!("{bad} wants"));
        assert_err(&text, 1, Field::Domain);
    }
}

#[test]
fn address_errors() {
    // One checksum letter flipped to lower case.
    assert_err(&MINIMAL.replace("0xC02aaA39", "0xc02aaA39"), 2, Field::Address);
    assert_err(&MINIMAL.replace("0xC02aaA39", "0xC02aaA3"), 2, Field::Address);
    assert_err(&MINIMAL.replace("0xC02aaA39", "0XC02aaA39"), 2, Field::Address);
    assert_err(&MINIMAL.replace("0xC02aaA39", "0xG02aaA39"), 2, Field::Address);
    let e = assert_err(&MINIMAL.replace("0xC02aaA39", "0xc02aaA39"), 2, Field::Address);
    assert!(e.reason.contains("EIP-55"), "{e}");
    // All lower-case and all upper-case addresses carry no checksum and are accepted.
    let lower = MINIMAL.replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2");
    assert!(SignInMessage::parse(&lower).is_ok());
    let upper = MINIMAL.replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "0xC02AAA39B223FE8D0A0E5C4F27EAD9083C756CC2");
    assert!(SignInMessage::parse(&upper).is_ok());
}

#[test]
fn eip55_vectors() {
    for addr in [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    ] {
        let mut raw = [0u8; 20];
        hex::decode_to_slice(&addr[2..], &mut raw).unwrap();
        assert_eq!(to_checksum_address(&raw), addr);
        assert!(check_evm_address(addr).is_ok());
    }
    assert!(check_evm_address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD").is_err());
}

#[test]
fn layout_errors() {
    // Missing the blank line after the address.
    assert_err(&MINIMAL.replacen("\n\n\n", "\n", 1), 3, Field::BlankLine);
    // Only one blank line and no statement.
    assert_err(&MINIMAL.replacen("\n\n\n", "\n\n", 1), 4, Field::BlankLine);
    // A statement without the blank line after it.
    let text = EIP4361_IMPLICIT_SCHEME.replacen("tos\n\nURI", "tos\nURI", 1);
    assert_err(&text, 5, Field::BlankLine);
    // Message ends early.
    let cut = MINIMAL.split("\nNonce").next().unwrap();
    let e = assert_err(cut, 8, Field::Nonce);
    assert!(e.reason.contains("ends early"));
    assert_err("example.com wants you to sign in with your Ethereum account:", 2, Field::Address);
    // Trailing newline and trailing garbage.
    let e = assert_err(&format!("{MINIMAL}\n"), 10, Field::Trailing);
    assert!(e.reason.contains("newline"));
    assert_err(&format!("{MINIMAL}\nFoo: bar"), 10, Field::Trailing);
    // Optional fields out of order or repeated.
    let text = format!("{MINIMAL}\nNot Before: 2021-09-30T16:25:24Z\nExpiration Time: 2021-10-01T16:25:24Z");
    assert_err(&text, 11, Field::Trailing);
    let text = format!("{MINIMAL}\nRequest ID: a\nRequest ID: b");
    assert_err(&text, 11, Field::Trailing);
}

#[test]
fn field_errors_name_their_line() {
    assert_err(&EIP4361_IMPLICIT_SCHEME.replace("I accept", "J’accepte"), 4, Field::Statement);
    assert_err(&EIP4361_IMPLICIT_SCHEME.replace("I accept", "I \"accept\""), 4, Field::Statement);
    assert_err(&MINIMAL.replace("URI: https://example.com/login", "URI: not a uri"), 5, Field::Uri);
    assert_err(&MINIMAL.replace("URI: https://example.com/login", "URI: example.com/login"), 5, Field::Uri);
    assert_err(&MINIMAL.replace("URI: https://example.com/login", "URL: https://example.com/login"), 5, Field::Uri);
    assert_err(&EIP4361_IMPLICIT_SCHEME.replace("URI: https://example.com/login", "URI: https://exa mple.com"), 6, Field::Uri);
    assert_err(&MINIMAL.replace("Version: 1", "Version: 2"), 6, Field::Version);
    assert_err(&MINIMAL.replace("Version: 1", "Version:1"), 6, Field::Version);
    assert_err(&MINIMAL.replace("Chain ID: 1", "Chain ID: 0x1"), 7, Field::ChainId);
    assert_err(&MINIMAL.replace("Chain ID: 1", "Chain ID: "), 7, Field::ChainId);
    assert_err(&MINIMAL.replace("Nonce: 32891756", "Nonce: 3289175"), 8, Field::Nonce);
    assert_err(&MINIMAL.replace("Nonce: 32891756", "Nonce: 3289175-6"), 8, Field::Nonce);
    assert_err(&MINIMAL.replace("2021-09-30T16:25:24Z", "2021-09-30 16:25:24"), 9, Field::IssuedAt);
    assert_err(&MINIMAL.replace("2021-09-30T16:25:24Z", "2021-02-30T16:25:24Z"), 9, Field::IssuedAt);
    assert_err(&format!("{MINIMAL}\nExpiration Time: tomorrow"), 10, Field::ExpirationTime);
    assert_err(&format!("{MINIMAL}\nNot Before: 2021-09-30T16:25:24"), 10, Field::NotBefore);
    assert_err(&format!("{MINIMAL}\nRequest ID: a b"), 10, Field::RequestId);
    assert_err(&format!("{MINIMAL}\nRequest ID: a/b"), 10, Field::RequestId);
    assert_err(&format!("{MINIMAL}\nResources:"), 10, Field::Resources);
    assert_err(&format!("{MINIMAL}\nResources:\n- https://a.example\n-https://b.example"), 12, Field::Resources);
    assert_err(&format!("{MINIMAL}\nResources:\n- https://a.example\n- not a uri"), 12, Field::Resources);
    let e = err_of(&MINIMAL.replace("Version: 1", "Version: 2"));
    assert_eq!(e.to_string(), "line 6 (Version): unsupported version '2' (must be 1)");
}

#[test]
fn validate_rejects_fields_that_would_not_round_trip() {
    let base = SignInMessage::parse(MINIMAL).unwrap();
    let mut m = base.clone();
    m.statement = Some(String::new());
    assert_eq!(m.validate().unwrap_err().field, Field::Statement);
    m.statement = Some("two\nlines".into());
    assert_eq!(m.validate().unwrap_err().field, Field::Statement);
    let mut m = base.clone();
    m.resources = vec!["https://a.example\n- https://b.example".into()];
    assert_eq!(m.validate().unwrap_err(), ParseError { line: 11, field: Field::Resources, reason: m.validate().unwrap_err().reason });
    let mut m = base.clone();
    m.version = "2".into();
    assert_eq!(m.validate().unwrap_err().line, 6);
    let mut m = base.clone();
    m.statement = Some("hi".into());
    m.expiration_time = Some("2021-10-01T16:25:24Z".into());
    m.request_id = Some("x y".into());
    assert_eq!(m.validate().unwrap_err().line, 12);
    let mut m = base;
    m.scheme = Some("ht tp".into());
    assert_eq!(m.validate().unwrap_err().field, Field::Scheme);
}

#[test]
fn time_checks() {
    let m = SignInMessage::parse(FULL).unwrap();
    // Not Before is 2021-09-30T14:30:00Z; expiry 2021-10-01T16:25:24Z.
    assert_eq!(m.check_time(t("2021-09-30T14:29:59Z")), Err(TimeError::NotYetValid("2021-09-30T16:30:00.000+02:00".into())));
    // Issued At (16:25:24) may run at most 5 minutes ahead of the checker's clock.
    assert_eq!(m.check_time(t("2021-09-30T14:30:00Z")), Err(TimeError::IssuedInFuture("2021-09-30T16:25:24Z".into())));
    assert_eq!(m.check_time(t("2021-09-30T16:20:23Z")), Err(TimeError::IssuedInFuture("2021-09-30T16:25:24Z".into())));
    assert_eq!(m.check_time(t("2021-09-30T16:20:24Z")), Ok(()));
    assert_eq!(m.check_time(t("2021-10-01T16:25:23Z")), Ok(()));
    assert_eq!(m.check_time(t("2021-10-01T16:25:24Z")), Err(TimeError::Expired("2021-10-01T16:25:24Z".into())));
    assert!(matches!(m.check_time(t("2030-01-01T00:00:00Z")), Err(TimeError::Expired(_))));
    assert_eq!(m.issued_at_time().unwrap(), t("2021-09-30T16:25:24Z"));
    // No bounds: valid from its Issued At on.
    assert_eq!(SignInMessage::parse(MINIMAL).unwrap().check_time(t("2099-01-01T00:00:00Z")), Ok(()));
    let mut bad = SignInMessage::parse(MINIMAL).unwrap();
    bad.expiration_time = Some("soon".into());
    assert!(matches!(bad.check_time(t("2021-10-01T00:00:00Z")), Err(TimeError::InvalidTimestamp { field: Field::ExpirationTime, .. })));
    assert_eq!(format_rfc3339(t("2021-09-30T16:25:24Z")), "2021-09-30T16:25:24Z");
}

#[test]
fn nonce_rule() {
    assert!(is_valid_nonce("32891756"));
    assert!(is_valid_nonce("abcdEFGH1234"));
    assert!(!is_valid_nonce("abc1234"));
    assert!(!is_valid_nonce("abcd_1234"));
    assert!(!is_valid_nonce("ééééééééé"));
}

#[test]
fn serde_uses_spec_field_names() {
    let m = SignInMessage::parse(FULL).unwrap();
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["accountAddress"], "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2");
    assert_eq!(json["chainId"], "1");
    assert_eq!(json["issuedAt"], "2021-09-30T16:25:24Z");
    assert_eq!(json["namespace"], "eip155");
    let back: SignInMessage = serde_json::from_value(json).unwrap();
    assert_eq!(back, m);
}

// ---- signatures ----

const ANVIL_KEY: &str = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const ANVIL_ADDRESS: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

fn anvil_key() -> k256::ecdsa::SigningKey {
    k256::ecdsa::SigningKey::from_slice(&hex::decode(ANVIL_KEY).unwrap()).unwrap()
}

/// `personal_sign` with `v` = recovery id + `v_base` (27 or 0).
fn personal_sign(key: &k256::ecdsa::SigningKey, message: &str, v_base: u8) -> String {
    let (signature, recovery) = key.sign_prehash_recoverable(&eip191_hash(message));
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(recovery.to_byte() + v_base);
    format!("0x{}", hex::encode(bytes))
}

#[test]
fn keccak_and_eip191_hash_vectors() {
    assert_eq!(hex::encode(crate::evm::keccak256(b"")), "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    assert_eq!(hex::encode(eip191_hash("hello world")), "d9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68");
}

#[test]
fn anvil_account_signs_and_verifies() {
    let key = anvil_key();
    let message = SignInMessage::parse(&EIP4361_IMPLICIT_SCHEME.replace("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", ANVIL_ADDRESS)).unwrap();
    let text = message.to_string();
    let sig27 = personal_sign(&key, &text, 27);
    assert_eq!(recover_eip191(&text, &sig27).unwrap(), ANVIL_ADDRESS);
    assert_eq!(verify_eip191(&text, &sig27, ANVIL_ADDRESS), Ok(()));
    assert_eq!(verify_eip191(&text, &sig27, &ANVIL_ADDRESS.to_lowercase()), Ok(()));
    assert_eq!(verify_eip191(&text, sig27.trim_start_matches("0x"), ANVIL_ADDRESS), Ok(()));
    let sig0 = personal_sign(&key, &text, 0);
    assert_eq!(verify_eip191(&text, &sig0, ANVIL_ADDRESS), Ok(()));
    assert_eq!(verify_message(&message, &sig27), Ok(()));
}

#[test]
fn eip191_rejections() {
    let key = anvil_key();
    let text = "example.com wants you to sign in";
    let sig = personal_sign(&key, text, 27);

    // Tampered message: a different key recovers.
    match verify_eip191("example.com wants you to sign out", &sig, ANVIL_ADDRESS) {
        Err(VerifyError::AddressMismatch { expected, recovered }) => {
            assert_eq!(expected, ANVIL_ADDRESS);
            assert_ne!(recovered.to_lowercase(), ANVIL_ADDRESS.to_lowercase());
        }
        other => panic!("{other:?}"),
    }
    // Wrong address.
    assert!(matches!(verify_eip191(text, &sig, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"), Err(VerifyError::AddressMismatch { .. })));
    assert_eq!(verify_eip191(text, &sig, "0x1234"), Err(VerifyError::InvalidAddress("0x1234".into())));
    // Wrong length.
    assert_eq!(verify_eip191(text, &sig[..sig.len() - 2], ANVIL_ADDRESS), Err(VerifyError::InvalidLength { expected: 65, actual: 64 }));
    assert_eq!(verify_eip191(text, &format!("{sig}00"), ANVIL_ADDRESS), Err(VerifyError::InvalidLength { expected: 65, actual: 66 }));
    // Bad hex.
    assert_eq!(verify_eip191(text, &sig.replace(&sig[2..4], "zz"), ANVIL_ADDRESS), Err(VerifyError::InvalidHex));
    assert_eq!(verify_eip191(text, &sig[..sig.len() - 1], ANVIL_ADDRESS), Err(VerifyError::InvalidHex));
    // Bad v.
    for v in ["1d", "02", "ff"] {
        let bad = format!("{}{v}", &sig[..sig.len() - 2]);
        let v = u8::from_str_radix(v, 16).unwrap();
        assert_eq!(verify_eip191(text, &bad, ANVIL_ADDRESS), Err(VerifyError::InvalidRecoveryId(v)));
    }
    // r = 0 is out of range.
    let zero_r = format!("0x{}{}", "00".repeat(32), &sig[66..]);
    assert_eq!(verify_eip191(text, &zero_r, ANVIL_ADDRESS), Err(VerifyError::MalformedSignature));
}

#[test]
fn eip1271_call_data_layout() {
    let hash = eip191_hash("hello world");
    let signature = [0xabu8; 65];
    let data = eip1271_call_data(hash, &signature);
    let bytes = decode_hex(&data).unwrap();
    assert_eq!(bytes.len(), 4 + 32 + 32 + 32 + 96);
    assert_eq!(&data[..10], "0x1626ba7e");
    assert_eq!(&bytes[4..36], &hash);
    assert_eq!(bytes[67], 0x40);
    assert!(bytes[36..67].iter().all(|&b| b == 0));
    assert_eq!(bytes[99], 65);
    assert_eq!(&bytes[100..165], &signature);
    assert!(bytes[165..].iter().all(|&b| b == 0));
    // Empty signature: head and zero length only; a 64-byte one needs no padding.
    assert_eq!(decode_hex(&eip1271_call_data(hash, &[])).unwrap().len(), 100);
    assert_eq!(decode_hex(&eip1271_call_data(hash, &[1; 64])).unwrap().len(), 164);
}

#[test]
fn eip1271_magic_value() {
    let magic = format!("0x1626ba7e{}", "00".repeat(28));
    assert!(is_eip1271_magic(&magic));
    assert!(is_eip1271_magic(&magic[2..]));
    assert!(is_eip1271_magic(&magic.to_uppercase().replacen("0X", "0x", 1)));
    assert!(!is_eip1271_magic("0x1626ba7e"));
    assert!(!is_eip1271_magic(&format!("0xffffffff{}", "00".repeat(28))));
    assert!(!is_eip1271_magic(&format!("0x1626ba7e{}01", "00".repeat(27))));
    assert!(!is_eip1271_magic("0x"));
    assert!(!is_eip1271_magic("nothex"));
}

fn solana_key(seed: u8) -> (ed25519_dalek::SigningKey, String) {
    let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
    let address = bs58::encode(key.verifying_key().to_bytes()).into_string();
    (key, address)
}

#[test]
fn solana_signatures() {
    use ed25519_dalek::Signer as _;
    let (key, address) = solana_key(42);
    let (_, other_address) = solana_key(43);
    let text = "app.example wants you to sign in with your Solana account";
    let sig = key.sign(text.as_bytes()).to_bytes();
    let sig58 = bs58::encode(sig).into_string();
    let sig_hex = hex::encode(sig);

    assert_eq!(verify_solana(text, &sig58, &address), Ok(()));
    assert_eq!(verify_solana(text, &sig_hex, &address), Ok(()));
    assert_eq!(verify_solana(text, &format!("0x{sig_hex}"), &address), Ok(()));
    assert_eq!(verify_solana("app.example wants you to sign in with your Solana account!", &sig58, &address), Err(VerifyError::BadSignature));
    assert_eq!(verify_solana(text, &sig58, &other_address), Err(VerifyError::BadSignature));
    assert_eq!(verify_solana(text, &sig58, "not-base58!"), Err(VerifyError::InvalidPublicKey("not-base58!".into())));
    assert_eq!(verify_solana(text, &sig58, "111"), Err(VerifyError::InvalidPublicKey("111".into())));
    assert_eq!(verify_solana(text, "0OIl", &address), Err(VerifyError::InvalidEncoding));
    assert_eq!(verify_solana(text, &bs58::encode(&sig[..63]).into_string(), &address), Err(VerifyError::InvalidLength { expected: 64, actual: 63 }));
    assert_eq!(verify_solana(text, "0xzz", &address), Err(VerifyError::InvalidHex));
}

#[test]
fn solana_sign_in_message_verifies() {
    use ed25519_dalek::Signer as _;
    let (key, address) = solana_key(9);
    let mut m = SignInMessage::new(
        Namespace::Solana,
        "app.example.org",
        address,
        "https://app.example.org/login",
        "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        "n0nce12345",
        "2024-05-01T12:00:00Z",
    );
    m.request_id = Some("42".into());
    let text = m.to_string();
    let sig = bs58::encode(key.sign(text.as_bytes()).to_bytes()).into_string();
    assert_eq!(verify_message(&m, &sig), Ok(()));
    let mut tampered = m.clone();
    tampered.nonce = "n0nce12346".into();
    assert_eq!(verify_message(&tampered, &sig), Err(VerifyError::BadSignature));
}

// ---- Bitcoin ----

/// BIP-322's own test vectors (simple signatures, P2WPKH).
#[test]
fn bip322_vectors() {
    let address = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";
    let empty =
        "AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=";
    let hello =
        "AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=";
    assert_eq!(verify_bitcoin("", empty, address), Ok(()));
    assert_eq!(verify_bitcoin("Hello World", hello, address), Ok(()));
    // Swapped: each signature is for the other message.
    assert_eq!(verify_bitcoin("Hello World", empty, address), Err(VerifyError::BadSignature));
    assert_eq!(verify_bitcoin("", hello, address), Err(VerifyError::BadSignature));
    assert_eq!(verify_bitcoin("Hello World", "not base64 !", address), Err(VerifyError::InvalidEncoding));
}

/// A legacy (BIP-137) signature, made here with a known key, and a BIP-322 one from the same
/// key through the crate's signer: both verify for their address, neither for another.
#[test]
fn bitcoin_legacy_and_bip322_from_one_key() {
    let wif = "L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k";
    let p2wpkh = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";
    let key = bitcoin::PrivateKey::from_wif(wif).unwrap();
    let p2pkh = bitcoin::Address::p2pkh(key.public_key(&bitcoin::secp256k1::Secp256k1::new()), bitcoin::Network::Bitcoin).to_string();
    let legacy = bip322::sign_legacy_encoded(&p2pkh, "Sign in to Sigil", wif).unwrap();
    assert_eq!(verify_bitcoin("Sign in to Sigil", &legacy, &p2pkh), Ok(()));
    assert_eq!(verify_bitcoin("Sign in to Sigil!", &legacy, &p2pkh), Err(VerifyError::BadSignature));
    let simple = bip322::sign_simple_encoded(p2wpkh, "Sign in to Sigil", &[wif], None).unwrap();
    assert_eq!(verify_bitcoin("Sign in to Sigil", &simple, p2wpkh), Ok(()));
    let other = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    assert_eq!(verify_bitcoin("Sign in to Sigil", &simple, other), Err(VerifyError::BadSignature));
    assert!(check_bitcoin_address(p2wpkh).is_ok() && check_bitcoin_address("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080").is_ok());
    assert!(check_bitcoin_address("bc1qnotanaddress").is_err());
}

/// Legacy (BIP-137) signatures for segwit addresses: the P2WPKH and P2SH-P2WPKH headers, and a
/// P2PKH header used for a segwit address (as Electrum signs); each fails for another message or
/// another address, and a header out of range is refused.
#[test]
fn bitcoin_bip137_for_segwit_addresses() {
    use bitcoin::hashes::Hash;
    use bitcoin::secp256k1::{Message, Secp256k1};
    let secp = Secp256k1::new();
    let key = bitcoin::PrivateKey::from_wif("L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k").unwrap();
    let public = bitcoin::CompressedPublicKey::from_private_key(&secp, &key).unwrap();
    let p2wpkh = bitcoin::Address::p2wpkh(&public, bitcoin::Network::Bitcoin).to_string();
    let nested = bitcoin::Address::p2shwpkh(&public, bitcoin::Network::Bitcoin).to_string();
    let regtest = bitcoin::Address::p2wpkh(&public, bitcoin::Network::Regtest).to_string();
    let sign = |message: &str, base: u8| {
        let digest = Message::from_digest(bitcoin::sign_message::signed_msg_hash(message).to_byte_array());
        let (id, compact) = secp.sign_ecdsa_recoverable(&digest, &key.inner).serialize_compact();
        let mut bytes = vec![base + id.to_i32() as u8];
        bytes.extend_from_slice(&compact);
        bitcoin::base64::Engine::encode(&bitcoin::base64::engine::general_purpose::STANDARD, bytes)
    };
    let m = "Sign in to Sigil";
    assert_eq!(verify_bitcoin(m, &sign(m, 39), &p2wpkh), Ok(()));
    assert_eq!(verify_bitcoin(m, &sign(m, 39), &regtest), Ok(()));
    assert_eq!(verify_bitcoin(m, &sign(m, 35), &nested), Ok(()));
    assert_eq!(verify_bitcoin(m, &sign(m, 31), &p2wpkh), Ok(()));
    assert_eq!(verify_bitcoin("Sign in to Sigil!", &sign(m, 39), &p2wpkh), Err(VerifyError::BadSignature));
    assert_eq!(verify_bitcoin(m, &sign(m, 39), "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4"), Err(VerifyError::BadSignature));
    assert_eq!(verify_bitcoin(m, &sign(m, 43), &p2wpkh), Err(VerifyError::BadSignature));
}

#[test]
fn bitcoin_sign_in_messages_parse_and_verify() {
    let wif = "L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k";
    let address = "bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l";
    let m = SignInMessage::new(
        Namespace::Bip122,
        "localhost:5173",
        address,
        "http://localhost:5173",
        "000000000019d6689c085ae165831e93",
        "abcd1234",
        "2026-11-23T20:00:00Z",
    );
    let text = m.to_string();
    assert!(text.starts_with("localhost:5173 wants you to sign in with your Bitcoin account:\nbc1q9vza"), "{text}");
    let parsed = SignInMessage::parse(&text).unwrap();
    assert_eq!((parsed.namespace, parsed.caip2_chain_id().as_str()), (Namespace::Bip122, "bip122:000000000019d6689c085ae165831e93"));
    let signature = bip322::sign_simple_encoded(address, &text, &[wif], None).unwrap();
    assert_eq!(verify_message(&parsed, &signature), Ok(()));
}
