//! The server's edges as an outside client probes them: slow and half-sent requests, floods of
//! connections under a low file-descriptor limit, and the shapes of what it answers.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Backend, TestServer};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// One plain HTTP/1.1 request on a new connection, with a deadline; the status, or None.
fn status_of(addr: &str, request: &str, deadline: Duration) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.set_read_timeout(Some(deadline)).ok()?;
    s.write_all(request.as_bytes()).ok()?;
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).ok()?;
    std::str::from_utf8(&buf[..n]).ok()?.split(' ').nth(1)?.parse().ok()
}

/// Reads until the server closes the connection; how long that took, or None past `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    s.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(start.elapsed()),
            Ok(_) => continue,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::ConnectionReset) => return Some(start.elapsed()),
            Err(_) => return None,
        }
    }
}

#[test]
fn health_answers_through_a_flood_of_half_sent_requests() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite://{}", dir.path().join("sigil.db").display());
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    // A low descriptor limit, as on many hosts: 300 held connections would exhaust it.
    let mut server = Command::new("sh")
        .args(["-c", &format!("ulimit -n 256 && exec '{}' serve --listen {addr}", env!("CARGO_BIN_EXE_sigil"))])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("SIGIL_DATABASE_URL", &db)
        .env("SIGIL_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let health = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    let started = Instant::now();
    while status_of(&addr, health, Duration::from_secs(1)) != Some(200) {
        assert!(started.elapsed() < Duration::from_secs(20), "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }

    let held: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").unwrap();
            s
        })
        .collect();
    // Well within the 10 s header timeout, so only making room can explain the answer.
    let asked = Instant::now();
    assert_eq!(status_of(&addr, health, Duration::from_secs(5)), Some(200), "/health must answer during the flood");
    assert!(asked.elapsed() < Duration::from_secs(5));
    drop(held);
    let _ = server.kill();
    let _ = server.wait();
}

async fn slow_clients_are_cut_off(b: Backend) {
    let Some(s) = TestServer::start_with(b, &["*"], |c| c.settings.header_timeout = 1).await else { return };
    let addr = s.base.trim_start_matches("http://").to_owned();
    tokio::task::spawn_blocking(move || {
        // Half a request head: closed once the header timeout passes.
        let mut slow = TcpStream::connect(&addr).unwrap();
        slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").unwrap();
        let took = closed_within(&mut slow, Duration::from_secs(5)).expect("a half-sent request is cut off");
        assert!(took >= Duration::from_millis(900), "{took:?}");

        // An idle keep-alive connection after a full answer: closed too.
        let mut idle = TcpStream::connect(&addr).unwrap();
        idle.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut buf = [0u8; 1024];
        let n = idle.read(&mut buf).unwrap();
        assert!(std::str::from_utf8(&buf[..n]).unwrap().starts_with("HTTP/1.1 200"));
        closed_within(&mut idle, Duration::from_secs(5)).expect("an idle keep-alive connection is closed");
    })
    .await
    .unwrap();
    s.stop().await;
}

both_backends!(slow_clients_are_cut_off);
