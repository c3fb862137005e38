//! Silent peers over real sockets: the server pings every socket, and one
//! that answers nothing for two intervals is dropped as disconnected.
#![cfg(feature = "ssr")]

mod common;

use std::time::{Duration, Instant};

use common::start_server_with;
use common::ws::Client;
use hexarena::server::hub::config::HubConfig;

#[tokio::test]
async fn a_player_gone_silent_is_dropped_and_the_opponent_told() {
    let config = HubConfig { ping: Duration::from_secs(1), ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    red.expect("joined").await;
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    red.until("game_start").await;
    // Blue's phone loses its network: its socket stays open but it reads
    // and answers nothing from now on (no pong). Red reads, and so pongs.
    let started = Instant::now();
    let notice = red.until("opponent_disconnected").await;
    assert_eq!(notice["reason"], "waiting_for_reconnect", "{notice}");
    let after = started.elapsed();
    assert!(after >= Duration::from_millis(1500) && after < Duration::from_secs(6), "dropped after {after:?}");
    // Red, who keeps reading (and so answers the server's pings), is still
    // connected well past two intervals.
    let since = Instant::now();
    while since.elapsed() < Duration::from_secs(3) {
        red.send("ping", serde_json::json!({})).await;
        red.until("pong").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    drop(blue);
}
