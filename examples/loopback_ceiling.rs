//! The most moves per second this machine can carry over loopback TCP with
//! the socket traffic of one live-play move and nothing else: a client
//! writes its move, the server reads it and writes it to both players, both
//! read it, and the other player answers at once. No WebSocket framing, no
//! JSON, no rules, no journal, one task per game on the server side owning
//! both sockets. Whatever a real server does on top can only be slower, so
//! this bounds what `examples/load.rs` can ever measure here.
//!
//! ```text
//! cargo run --release --features ssr --example loopback_ceiling -- [--games 100] [--seconds 10]
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A move as a client sends it (about the size of hexgame's `move` text).
const MOVE: usize = 40;
/// A move as the server relays it to both seats.
const ECHO: usize = 80;

fn arg(name: &str, default: u64) -> Result<u64, String> {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).ok_or_else(|| format!("{name} needs a whole number")),
    }
}

/// One game: reads whichever seat is to move and writes the move to both.
async fn table(mut seats: [TcpStream; 2], stop: Arc<AtomicBool>) {
    let mut turn = 0;
    let mut buf = [0u8; MOVE];
    let echo = [b'm'; ECHO];
    while !stop.load(Ordering::Relaxed) {
        if seats[turn].read_exact(&mut buf).await.is_err() {
            return;
        }
        for seat in seats.iter_mut() {
            if seat.write_all(&echo).await.is_err() {
                return;
            }
        }
        turn = 1 - turn;
    }
}

/// One player: moves first if `first`, then answers every echo of the
/// opponent's move with its own.
async fn player(mut socket: TcpStream, first: bool, stop: Arc<AtomicBool>, moves: Arc<AtomicU64>) {
    let mine = [b'p'; MOVE];
    let mut buf = [0u8; ECHO];
    let mut my_turn = first;
    while !stop.load(Ordering::Relaxed) {
        if my_turn && socket.write_all(&mine).await.is_err() {
            return;
        }
        if socket.read_exact(&mut buf).await.is_err() {
            return;
        }
        if my_turn {
            moves.fetch_add(1, Ordering::Relaxed);
        }
        my_turn = !my_turn;
    }
}

async fn connect(addr: std::net::SocketAddr) -> std::io::Result<TcpStream> {
    let s = TcpStream::connect(addr).await?;
    s.set_nodelay(true)?;
    Ok(s)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let games = arg("--games", 100)? as usize;
    let seconds = arg("--seconds", 10)?;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));
    let moves = Arc::new(AtomicU64::new(0));
    for _ in 0..games {
        let a = connect(addr).await?;
        let (sa, _) = listener.accept().await?;
        let b = connect(addr).await?;
        let (sb, _) = listener.accept().await?;
        sa.set_nodelay(true)?;
        sb.set_nodelay(true)?;
        tokio::spawn(table([sa, sb], stop.clone()));
        tokio::spawn(player(a, true, stop.clone(), moves.clone()));
        tokio::spawn(player(b, false, stop.clone(), moves.clone()));
    }
    // Let every game get going before counting.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let start_moves = moves.load(Ordering::Relaxed);
    let start = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let n = moves.load(Ordering::Relaxed) - start_moves;
    let elapsed = start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    println!(
        "loopback ceiling: {games} games, {:.0} moves/s over {elapsed:.0} s (1 read + 2 writes on the server, 1 write + 2 reads on the clients per move)",
        n as f64 / elapsed
    );
    Ok(())
}
