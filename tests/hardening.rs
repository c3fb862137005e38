//! A hostile client over real sockets: headers dribbled slowly, secrets in
//! the address, a socket that never says who it is; and what the server
//! shows of itself on `/metrics`.
#![cfg(feature = "ssr")]

mod common;

use std::time::{Duration, Instant};

use common::ws::Client;
use common::{get, start_server, start_server_with};
use hexarena::server::hub::config::HubConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[tokio::test]
async fn a_client_dribbling_its_headers_is_cut_off_and_others_are_served() {
    let config = HubConfig { header_read: Duration::from_secs(1), ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let started = Instant::now();
    let dribble = async {
        // One header byte every 200 ms, for ever (as slowloris does).
        loop {
            if slow.write_all(b"X").await.is_err() {
                break;
            }
            let mut byte = [0u8; 1];
            let read = tokio::time::timeout(Duration::from_millis(200), slow.read(&mut byte)).await;
            if let Ok(Ok(0) | Err(_)) = read {
                break;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(5), dribble).await.expect("the server cut the slow client off");
    let after = started.elapsed();
    assert!(after >= Duration::from_millis(800) && after < Duration::from_secs(4), "cut off after {after:?}");
    assert_eq!(get(addr, "/health").await.status, 200, "a normal client is served");
}

#[tokio::test]
async fn browser_secrets_in_the_address_are_refused() {
    let addr = start_server().await;
    let mut c = Client::connect_raw(addr, "/ws/play?mode=resume&game=1&token=abc").await;
    let refused = c.until("error").await;
    assert_eq!(refused["code"], "bad_request", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("first frame"), "{refused}");
    let mut c = Client::connect_raw(addr, "/ws/play?mode=quick&size=5&player=p_1&secret=s").await;
    assert_eq!(c.until("error").await["code"], "bad_request");
}

#[tokio::test]
async fn a_browser_socket_that_never_sends_its_credentials_is_closed() {
    let config = HubConfig { handshake: Duration::from_secs(1), ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut silent = Client::connect_raw(addr, "/ws/play?mode=quick&size=5&name=Ann").await;
    let started = Instant::now();
    let refused = silent.until("error").await;
    assert!(refused["message"].as_str().unwrap().contains("credentials"), "{refused}");
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
    silent.closed().await;
    // A move as the first frame is not credentials either.
    let mut hasty = Client::connect_raw(addr, "/ws/play?mode=quick&size=5&name=Bo").await;
    hasty.play(0, 0).await;
    assert_eq!(hasty.until("error").await["code"], "unknown_type");
    // The browser's way works.
    let mut ann = Client::connect(addr, "/ws/play?mode=quick&size=5&name=Ann").await;
    assert_eq!(ann.expect("joined").await["player"], -1);
}

/// The value of the sample `name` (with its labels) in `/metrics`.
async fn metric(addr: std::net::SocketAddr, name: &str) -> f64 {
    let text = get(addr, "/metrics").await.body;
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("{name} not in /metrics:\n{text}"))
        .parse()
        .expect("a number")
}

#[tokio::test]
async fn metrics_count_tables_connections_moves_and_refusals() {
    let addr = start_server().await;
    let response = get(addr, "/metrics").await;
    assert_eq!(response.status, 200);
    assert!(response.headers.iter().any(|h| h.starts_with("content-type: text/plain; version=0.0.4")));
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    red.expect("joined").await;
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    let _watch = Client::connect(addr, "/ws/overview").await;
    red.play(0, 0).await;
    blue.until("move").await;
    blue.play(0, 0).await;
    assert_eq!(blue.until("move_rejected").await["code"], "occupied");
    assert_eq!(metric(addr, "hexarena_tables").await, 1.0);
    assert_eq!(metric(addr, "hexarena_connections{kind=\"player\"}").await, 2.0);
    assert_eq!(metric(addr, "hexarena_connections{kind=\"feed\"}").await, 1.0);
    assert_eq!(metric(addr, "hexarena_moves_total").await, 1.0);
    assert_eq!(metric(addr, "hexarena_games_started_total").await, 1.0);
    assert_eq!(metric(addr, "hexarena_refusals_total{reason=\"occupied\"}").await, 1.0);
    assert_eq!(metric(addr, "hexarena_judge_violations_total").await, 0.0);
    let text = get(addr, "/metrics").await.body;
    assert!(!text.contains("Rae") && !text.contains("Bo\""), "nothing about players in the metrics");
}
