//! The `sigil` binary as an operator uses it: admin commands, configuration errors, serving,
//! SIGTERM and data surviving a restart.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn sigil(db: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sigil"));
    c.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("SIGIL_DATABASE_URL", db);
    c
}

fn stdout(c: &mut Command) -> String {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{:?} failed: {}", c, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn get(url: &str) -> (u16, String) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let res = reqwest::get(url).await.unwrap();
        (res.status().as_u16(), res.text().await.unwrap())
    })
}

#[test]
fn admin_commands_serve_and_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("var/sigil.db").display());

    let report = stdout(sigil(&db).args(["wallets", "import"]).arg(common::wallets_file()));
    assert!(
        report.starts_with(
            "793 records: 659 inserted, 0 updated, 0 unchanged, 103 rejected, 31 merged into another (0 stored before, removed); 139 logos written; 27 wallets without a logo file have the icon set's\n"
        ),
        "{report}"
    );
    assert!(report.contains("rejected record #264 (1inch Wallet): no id, and no homepage host to derive one from"));
    // The data names some wallets more than once: one wallet each, and the report says which.
    assert!(report.contains("merged into record #81 (Bitpie): #82 (ee97613a"), "{report}");
    let again = stdout(sigil(&db).args(["wallets", "import"]).arg(common::wallets_file()));
    assert!(
        again.starts_with(
            "793 records: 0 inserted, 0 updated, 659 unchanged, 103 rejected, 31 merged into another (0 stored before, removed); 0 logos written; 27 wallets without a logo file have the icon set's\n"
        ),
        "{again}"
    );

    let id = stdout(sigil(&db).args(["project", "add", "--name", "Shop", "--origin", "https://shop.example", "--origin", "https://*.shop.example"]));
    let id = id.trim();
    assert!(sigil_core::project::is_project_id(id), "{id:?}");
    let list = stdout(sigil(&db).args(["project", "list"]));
    assert_eq!(list, format!("{id}\tShop\thttps://shop.example,https://*.shop.example\tanalytics=true\n"));

    let bad = sigil(&db).args(["project", "add", "--name", "X", "--origin", "shop.example"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid origin 'shop.example'"));

    let port = free_port();
    let mut server = sigil(&db).args(["serve", "--listen", &format!("127.0.0.1:{port}")]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let base = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while get_ok(&format!("{base}/health")).is_none() {
        assert!(started.elapsed() < Duration::from_secs(20), "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (status, body) = get(&format!("{base}/getWallets?projectId={id}&entries=1"));
    assert_eq!(status, 200);
    assert!(body.contains("\"count\":659"), "{body}");

    // SIGTERM: stops cleanly, exit 0.
    let pid = server.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = server.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "server ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");

    // Everything is still there after the restart.
    let list = stdout(sigil(&db).args(["project", "list"]));
    assert!(list.starts_with(id));
}

fn get_ok(url: &str) -> Option<()> {
    std::panic::catch_unwind(|| get(url)).ok().filter(|(s, _)| *s == 200).map(|_| ())
}

#[test]
fn bad_configuration_is_reported_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("s.db").display());
    /// Arguments, environment, and what the error must say.
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (&["serve", "--body-limit", "0"], &[], "invalid body-limit (SIGIL_BODY_LIMIT): 0 is outside 1..=16777216"),
        (&["serve"], &[("SIGIL_DATABASE_URL", "mysql://x")], "'mysql://x' must start with sqlite:// or postgres://"),
        (&["serve", "--listen", "nowhere"], &[], "invalid value 'nowhere' for '--listen <ADDR>'"),
        (&["serve"], &[("SIGIL_LISTEN", "1.2.3.4:99999")], "invalid value '1.2.3.4:99999'"),
        (&["serve", "--public-url", "not a url"], &[], "invalid public-url (SIGIL_PUBLIC_URL)"),
        (&["serve", "--config", "/nonexistent/sigil.toml"], &[], "cannot read configuration file /nonexistent/sigil.toml"),
    ];
    for (args, env, expected) in cases {
        let mut c = sigil(&db);
        c.args(*args);
        for (k, v) in *env {
            c.env(k, v);
        }
        let out = c.output().unwrap();
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?} {env:?}: {err}");
    }
    let help = stdout(sigil(&db).args(["serve", "--help"]));
    for flag in [
        "--config",
        "--database-url",
        "--listen",
        "--public-url",
        "--log",
        "--log-format",
        "--body-limit",
        "--request-timeout",
        "--analytics-events-per-minute",
        "--analytics-errors-per-minute",
        "--trust-proxy-headers",
    ] {
        assert!(help.contains(flag), "--help lacks {flag}");
    }
    assert!(help.contains("SIGIL_DATABASE_URL"));
}
