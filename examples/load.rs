//! Load tool for the live-play server: N pairs of hexgame v1 bots over
//! loopback playing random 11×11 games as fast as they can (or with a think
//! time), measuring each move's round trip (send → the server's echo).
//!
//! ```text
//! cargo run --release --features ssr --example load -- \
//!     --server ws://127.0.0.1:3000 --games 100 --seconds 20 [--subscribers 10] \
//!     [--think-ms 0] [--size 11] [--idle 1000 --server-pid PID]
//! ```
//!
//! `--server` may list several instances of one cluster, comma-separated:
//! bots take them in turn, so about half of the games pair players on
//! different instances.
//!
//! `--subscribers` adds that many `/ws/slots` and as many `/ws/overview`
//! readers. `--idle` opens that many extra connections that sit in started
//! games without moving, and with `--server-pid` prints the server's memory
//! per idle connection (resident set before and after). scripts/load.sh runs
//! the whole comparison against a release server.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::Mutex;
use tokio_tungstenite::connect_async_with_config;

/// Connects with Nagle's algorithm off, as a latency-minded client does,
/// and a small read buffer: tungstenite zeroes its whole read buffer
/// (128 KiB by default) before every socket read, which for thousands of
/// bots reading a few dozen bytes at a time took a seventh of this machine's
/// CPU away from the server being measured.
async fn connect_async(
    url: &str,
) -> Result<
    (
        tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
        tokio_tungstenite::tungstenite::handshake::client::Response,
    ),
    tokio_tungstenite::tungstenite::Error,
> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(READ_BUFFER);
    connect_async_with_config(url, Some(config), true).await
}
use tokio_tungstenite::tungstenite::Message;

/// Bytes a client reads at most per socket read.
const READ_BUFFER: usize = 4096;

struct Args {
    /// Every instance's address; the first takes the subscribers and the
    /// idle connections.
    servers: Vec<String>,
    games: usize,
    seconds: u64,
    subscribers: usize,
    think_ms: u64,
    size: u8,
    idle: usize,
    server_pid: Option<u32>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        servers: vec!["ws://127.0.0.1:3000".into()],
        games: 100,
        seconds: 20,
        subscribers: 0,
        think_ms: 0,
        size: 11,
        idle: 0,
        server_pid: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let num = |v: String| v.parse::<u64>().map_err(|_| format!("{flag}: {v:?} is not a whole number"));
        match flag.as_str() {
            "--server" => a.servers = value()?.split(',').map(|s| s.trim().to_string()).collect(),
            "--games" => a.games = num(value()?)? as usize,
            "--seconds" => a.seconds = num(value()?)?,
            "--subscribers" => a.subscribers = num(value()?)? as usize,
            "--think-ms" => a.think_ms = num(value()?)?,
            "--size" => a.size = num(value()?)? as u8,
            "--idle" => a.idle = num(value()?)? as usize,
            "--server-pid" => a.server_pid = Some(num(value()?)? as u32),
            "--help" | "-h" => return Err("see the top of examples/load.rs".into()),
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(a)
}

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    games: AtomicU64,
    rejected: AtomicU64,
}

/// A tiny xorshift generator per bot; quality is irrelevant here.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// One bot: matchmake, play random legal moves, start again after each
/// series, until `stop`.
async fn bot(
    args: Arc<Args>,
    seed: u64,
    stop: Arc<AtomicBool>,
    totals: Arc<Totals>,
    rtts: Arc<Mutex<Vec<u32>>>,
) -> Result<(), String> {
    let server = &args.servers[seed as usize % args.servers.len()];
    let url = format!("{server}/ws/matchmake?board_size={}&series_length=1&model_name=load", args.size);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = args.size as usize;
    let mut local = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let (mut ws, _) = connect_async(&url).await.map_err(|e| format!("connect {url}: {e}"))?;
        let mut me = 0i64;
        let mut board = vec![false; n * n];
        let mut sent_at: Option<Instant> = None;
        let mut my_turn = false;
        loop {
            if my_turn && sent_at.is_none() && !stop.load(Ordering::Relaxed) {
                if args.think_ms > 0 {
                    // People do not all move on the same beat: between half
                    // and one and a half times the mean.
                    let think = args.think_ms / 2 + rng.below(args.think_ms as usize + 1) as u64;
                    tokio::time::sleep(Duration::from_millis(think)).await;
                }
                let empty: Vec<usize> = (0..n * n).filter(|&i| !board[i]).collect();
                let i = empty[rng.below(empty.len())];
                let text = format!(r#"{{"type":"move","payload":{{"q":{},"r":{}}}}}"#, i % n, i / n);
                sent_at = Some(Instant::now());
                ws.send(Message::text(text)).await.map_err(|e| e.to_string())?;
            }
            let frame = match tokio::time::timeout(Duration::from_secs(30), ws.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => t,
                Ok(Some(Ok(_))) => continue,
                Ok(_) => break,
                Err(_) => return Err("no message for 30 s".into()),
            };
            let m: Value = serde_json::from_str(&frame).map_err(|e| e.to_string())?;
            let p = &m["payload"];
            match m["type"].as_str().unwrap_or("") {
                "joined" => me = p["player"].as_i64().unwrap_or(0),
                "game_start" => {
                    board.iter_mut().for_each(|c| *c = false);
                    my_turn = p["first_turn"].as_i64() == Some(me);
                }
                "move" => {
                    let (q, r) = (p["q"].as_u64().unwrap_or(0) as usize, p["r"].as_u64().unwrap_or(0) as usize);
                    board[r * n + q] = true;
                    if p["player"].as_i64() == Some(me)
                        && let Some(t) = sent_at.take()
                    {
                        local.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        totals.moves.fetch_add(1, Ordering::Relaxed);
                    }
                    my_turn = p["next_turn"].as_i64() == Some(me);
                }
                "move_rejected" => {
                    totals.rejected.fetch_add(1, Ordering::Relaxed);
                    sent_at = None;
                }
                "series_over" => {
                    if me == -1 {
                        totals.games.fetch_add(1, Ordering::Relaxed);
                    }
                    break;
                }
                "opponent_disconnected" | "error" => break,
                _ => {}
            }
            if stop.load(Ordering::Relaxed) && sent_at.is_none() {
                break;
            }
        }
        let _ = ws.close(None).await;
        if local.len() > 4096 {
            rtts.lock().await.append(&mut local);
        }
    }
    rtts.lock().await.append(&mut local);
    Ok(())
}

/// A dashboard reader that just counts what it receives.
async fn subscriber(server: String, path: &'static str, stop: Arc<AtomicBool>, bytes: Arc<AtomicU64>) {
    let Ok((mut ws, _)) = connect_async(&format!("{server}{path}")).await else { return };
    while !stop.load(Ordering::Relaxed) {
        match tokio::time::timeout(Duration::from_millis(200), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => {
                bytes.fetch_add(t.len() as u64, Ordering::Relaxed);
            }
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(_) => break,
        }
    }
}

fn rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// Opens `count` connections seated in started games where nobody moves.
async fn idle_connections(
    args: &Args,
    count: usize,
) -> Vec<tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>> {
    let url = format!("{}/ws/matchmake?board_size=7&series_length=15&model_name=idle", args.servers[0]);
    let mut all = Vec::with_capacity(count);
    for _ in 0..count {
        match connect_async(&url).await {
            Ok((mut ws, _)) => {
                // Read `joined` so the seat is taken before the next arrives.
                let _ = tokio::time::timeout(Duration::from_secs(5), ws.next()).await;
                all.push(ws);
            }
            Err(e) => {
                eprintln!("idle connection {}: {e}", all.len());
                break;
            }
        }
    }
    all
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args = match parse_args() {
        Ok(a) => Arc::new(a),
        Err(e) => {
            eprintln!("load: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if args.idle > 0 {
        let before = args.server_pid.and_then(rss_kb);
        let conns = idle_connections(&args, args.idle).await;
        tokio::time::sleep(Duration::from_secs(2)).await;
        let after = args.server_pid.and_then(rss_kb);
        match (before, after) {
            (Some(b), Some(a)) => println!(
                "idle connections: {} open; server RSS {} KB → {} KB: {:.1} KB per idle connection",
                conns.len(),
                b,
                a,
                (a.saturating_sub(b)) as f64 / conns.len().max(1) as f64
            ),
            _ => println!("idle connections: {} open (give --server-pid to measure memory)", conns.len()),
        }
        drop(conns);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    if args.games == 0 {
        return std::process::ExitCode::SUCCESS;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let totals = Arc::new(Totals::default());
    let rtts = Arc::new(Mutex::new(Vec::new()));
    let feeds = ["/ws/slots", "/ws/overview"];
    let sub_bytes = feeds.map(|_| Arc::new(AtomicU64::new(0)));
    let mut subs = Vec::new();
    for _ in 0..args.subscribers {
        for (path, bytes) in feeds.iter().zip(&sub_bytes) {
            subs.push(tokio::spawn(subscriber(args.servers[0].clone(), path, stop.clone(), bytes.clone())));
        }
    }
    let mut bots = Vec::new();
    for i in 0..args.games * 2 {
        bots.push(tokio::spawn(bot(args.clone(), i as u64 + 1, stop.clone(), totals.clone(), rtts.clone())));
        if i % 50 == 49 {
            tokio::task::yield_now().await;
        }
    }
    // Let every pair find its table before measuring.
    tokio::time::sleep(Duration::from_secs(2)).await;
    rtts.lock().await.clear();
    let (m0, g0) = (totals.moves.load(Ordering::Relaxed), totals.games.load(Ordering::Relaxed));
    let started = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = started.elapsed().as_secs_f64();
    let (m1, g1) = (totals.moves.load(Ordering::Relaxed), totals.games.load(Ordering::Relaxed));
    stop.store(true, Ordering::Relaxed);
    for b in bots {
        if let Ok(Err(e)) = b.await {
            eprintln!("bot: {e}");
        }
    }
    for s in subs {
        let _ = s.await;
    }
    let mut samples = std::mem::take(&mut *rtts.lock().await);
    samples.sort_unstable();
    println!(
        "{} concurrent {}×{} games on {} instance(s), think {} ms (mean), {} /ws/slots + {} /ws/overview \
         subscribers, {:.0} s:",
        args.games,
        args.size,
        args.size,
        args.servers.len(),
        args.think_ms,
        args.subscribers,
        args.subscribers,
        elapsed
    );
    println!(
        "  {:.1} games/s, {:.0} moves/s, move round trip p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples, {} rejected)",
        (g1 - g0) as f64 / elapsed,
        (m1 - m0) as f64 / elapsed,
        percentile(&samples, 0.50),
        percentile(&samples, 0.99),
        percentile(&samples, 1.0),
        samples.len(),
        totals.rejected.load(Ordering::Relaxed)
    );
    if args.subscribers > 0 {
        let rate = |b: &AtomicU64| b.load(Ordering::Relaxed) as f64 / 1024.0 / elapsed;
        println!(
            "  subscribers received {:.1} KB/s in all: /ws/slots {:.1} KB/s, /ws/overview {:.1} KB/s",
            rate(&sub_bytes[0]) + rate(&sub_bytes[1]),
            rate(&sub_bytes[0]),
            rate(&sub_bytes[1])
        );
    }
    std::process::ExitCode::SUCCESS
}
