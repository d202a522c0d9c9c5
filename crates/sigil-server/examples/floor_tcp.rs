//! The lowest floor under the JSON-RPC proxy's cost, for make bench-rpc: a TCP relay that
//! copies bytes between each client connection and its own upstream connection, with no HTTP
//! at all. What it costs over calling the node directly is the loopback hop alone (two more
//! socket reads and writes and the wake-ups between them per call).
//!
//! Usage: floor_tcp <listen addr> <upstream host:port>

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let listener = tokio::net::TcpListener::bind(&args[1]).await.expect("listen");
    let upstream = args[2].clone();
    loop {
        let Ok((mut client, _)) = listener.accept().await else { continue };
        let upstream = upstream.clone();
        tokio::spawn(async move {
            let _ = client.set_nodelay(true);
            let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await else { return };
            let _ = server.set_nodelay(true);
            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
        });
    }
}
