//! Property tests for the parser: it never panics, valid messages round-trip, and every
//! accepted text re-serializes to itself.

use proptest::prelude::*;
use proptest::test_runner::Config;

use super::*;

fn config(cases: u32) -> Config {
    // No regression files: the crate folder stays untouched by test runs.
    Config { cases, failure_persistence: None, ..Config::default() }
}

fn evm_address() -> impl Strategy<Value = String> {
    prop_oneof![any::<[u8; 20]>().prop_map(|a| to_checksum_address(&a)), any::<[u8; 20]>().prop_map(|a| format!("0x{}", hex::encode(a))),]
}

fn solana_address() -> impl Strategy<Value = String> {
    any::<[u8; 32]>().prop_map(|k| bs58::encode(k).into_string())
}

fn timestamp() -> impl Strategy<Value = String> {
    (0i64..4_102_444_800, 0u32..1_000_000_000, prop::bool::ANY).prop_map(|(secs, nanos, utc)| {
        let t = OffsetDateTime::from_unix_timestamp(secs).unwrap().replace_nanosecond(nanos).unwrap();
        if utc {
            format_rfc3339(t)
        } else {
            format_rfc3339(t.to_offset(time::UtcOffset::from_hms(5, 30, 0).unwrap()))
        }
    })
}

fn uri() -> impl Strategy<Value = String> {
    prop_oneof![
        "https://[a-z]{1,10}\\.(com|org|io)(:[0-9]{1,4})?(/[a-zA-Z0-9._~-]{0,10}){0,3}(\\?[a-z]=[0-9]{1,3})?",
        "ipfs://[a-z2-7]{10,40}/?",
        "urn:[a-z]{3,8}:[a-zA-Z0-9:._-]{1,20}",
    ]
}

prop_compose! {
    fn valid_message()(
        solana in prop::bool::ANY,
        evm in evm_address(),
        sol in solana_address(),
        scheme in prop::option::of("(https|http|[a-z][a-z0-9+.-]{0,6})"),
        domain in "([a-z0-9-]{1,12}\\.){0,2}[a-z]{2,6}(:[0-9]{0,5})?|\\[::1\\](:[0-9]{1,5})?",
        statement in prop::option::of("[A-Za-z0-9 :/?#\\[\\]@!$&'()*+,;=._~-]{1,60}"),
        uri in uri(),
        evm_chain in "[0-9]{1,10}",
        sol_chain in "[a-zA-Z0-9_-]{1,32}",
        nonce in "[A-Za-z0-9]{8,24}",
        issued_at in timestamp(),
        expiration_time in prop::option::of(timestamp()),
        not_before in prop::option::of(timestamp()),
        request_id in prop::option::of("[A-Za-z0-9:@!$&'()*+,;=._~-]{0,16}"),
        resources in prop::collection::vec(uri(), 0..4),
    ) -> SignInMessage {
        let (namespace, address, chain_id) = if solana {
            (Namespace::Solana, sol, sol_chain)
        } else {
            (Namespace::Eip155, evm, evm_chain)
        };
        SignInMessage {
            namespace,
            scheme,
            domain,
            address,
            statement: statement.filter(|s| !s.is_empty()),
            uri,
            version: "1".to_owned(),
            chain_id,
            nonce,
            issued_at,
            expiration_time,
            not_before,
            request_id,
            resources,
        }
    }
}

/// Text made of message fragments, so random inputs get past the first lines now and then.
fn message_like() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("example.com wants you to sign in with your Ethereum account:".to_owned()),
        Just("example.com wants you to sign in with your Solana account:".to_owned()),
        Just("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2".to_owned()),
        Just("URI: https://example.com".to_owned()),
        Just("Version: 1".to_owned()),
        Just("Chain ID: 1".to_owned()),
        Just("Nonce: 12345678".to_owned()),
        Just("Issued At: 2021-09-30T16:25:24Z".to_owned()),
        Just("Expiration Time: 2021-09-30T16:25:24Z".to_owned()),
        Just("Not Before: 2021-09-30T16:25:24Z".to_owned()),
        Just("Request ID: x".to_owned()),
        Just("Resources:".to_owned()),
        Just("- https://example.com".to_owned()),
        Just(String::new()),
        ".{0,20}",
    ];
    prop::collection::vec(fragment, 0..16).prop_map(|parts| parts.join("\n"))
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Insert(usize, char),
    Replace(usize, char),
    SwapLines(usize, usize),
    DuplicateLine(usize),
    DeleteLine(usize),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let ch = prop_oneof![Just('\n'), Just(' '), Just(':'), Just('-'), Just('0'), Just('x'), Just('A'), Just('%'), Just('\r'), Just('é'), any::<char>(),];
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Mutation::Insert(i, c)),
        (any::<usize>(), ch).prop_map(|(i, c)| Mutation::Replace(i, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        any::<usize>().prop_map(Mutation::DeleteLine),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<&str> = text.split('\n').collect();
    let n = chars.len().max(1);
    let l = lines.len();
    match *m {
        Mutation::Delete(i) => {
            if !chars.is_empty() {
                chars.remove(i % n);
            }
        }
        Mutation::Insert(i, c) => chars.insert(i % (chars.len() + 1), c),
        Mutation::Replace(i, c) => {
            if !chars.is_empty() {
                chars[i % n] = c;
            }
        }
        Mutation::SwapLines(a, b) => {
            lines.swap(a % l, b % l);
            return lines.join("\n");
        }
        Mutation::DuplicateLine(i) => {
            lines.insert(i % l, lines[i % l]);
            return lines.join("\n");
        }
        Mutation::DeleteLine(i) => {
            lines.remove(i % l);
            return lines.join("\n");
        }
        Mutation::Truncate(i) => chars.truncate(i % n),
    }
    chars.into_iter().collect()
}

/// Whatever the parser accepts must be a valid message that renders back to the same text.
fn check_accepted(text: &str) -> Result<(), TestCaseError> {
    if let Ok(m) = SignInMessage::parse(text) {
        prop_assert_eq!(m.to_string(), text);
        prop_assert!(m.validate().is_ok());
        prop_assert_eq!(SignInMessage::parse(&m.to_string()), Ok(m));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1000))]

    #[test]
    fn valid_messages_round_trip(m in valid_message()) {
        prop_assert_eq!(m.validate(), Ok(()));
        let text = m.to_string();
        let parsed = SignInMessage::parse(&text);
        prop_assert_eq!(parsed.as_ref(), Ok(&m), "text:\n{}", text);
        prop_assert_eq!(parsed.unwrap().to_string(), text);
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check_accepted(&s)?;
    }

    #[test]
    fn message_like_strings_never_panic(s in message_like()) {
        check_accepted(&s)?;
    }

    #[test]
    fn mutated_messages_never_panic(m in valid_message(), mutations in prop::collection::vec(mutation(), 1..4)) {
        let mut text = m.to_string();
        for mutation in &mutations {
            text = apply(&text, mutation);
        }
        check_accepted(&text)?;
        if let Err(e) = SignInMessage::parse(&text) {
            // Errors point at a line of the input (or the one just past its end).
            prop_assert!(e.line >= 1 && e.line <= text.split('\n').count() + 1, "{}", e);
        }
    }
}
