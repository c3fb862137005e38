//! Per-address limits over real sockets: the limit bites for the address
//! that reaches it, with a clear refusal, and a client on another address
//! is not affected.
#![cfg(feature = "ssr")]

mod common;

use std::time::Duration;

use common::start_server_with;
use common::ws::Client;
use hexarena::server::hub::config::HubConfig;
use tokio_tungstenite::tungstenite;

/// The HTTP status an upgrade from this machine's 127.0.0.1 gets, if refused.
async fn refused_status(addr: std::net::SocketAddr, path: &str) -> Option<u16> {
    match tokio_tungstenite::connect_async(format!("ws://{addr}{path}")).await {
        Ok(_) => None,
        Err(tungstenite::Error::Http(response)) => Some(response.status().as_u16()),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

#[tokio::test]
async fn sockets_per_address_are_capped_and_given_back_when_closed() {
    let config = HubConfig { connections_per_address: 3, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut held = Vec::new();
    for path in ["/ws/slots", "/ws/overview", "/ws/play?mode=quick&size=5&name=Ann"] {
        held.push(Client::connect(addr, path).await);
    }
    // The fourth socket from the same address is refused, whatever it is for.
    for path in ["/ws/slots", "/ws/matchmake?board_size=9", "/ws/watch?game=1"] {
        assert_eq!(refused_status(addr, path).await, Some(429), "{path}");
    }
    // Another address is not affected.
    let mut other =
        Client::connect_from(addr, "/ws/play?mode=quick&size=5&name=Bo", "127.0.0.2".parse().unwrap()).await;
    assert_eq!(other.expect("joined").await["player"], 1);
    // A closed socket gives its place back.
    drop(held.pop());
    let mut again = None;
    for _ in 0..50 {
        if refused_status(addr, "/ws/slots").await.is_none() {
            again = Some(());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "the address got its place back");
}

#[tokio::test]
async fn private_rooms_per_address_are_capped() {
    let config = HubConfig { rooms_per_address: 2, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let form = "size=7&series=1&swap=off&time=none&name=Ann";
    for _ in 0..2 {
        let r = common::post_form(addr, "/api/create_room", form).await;
        assert!(r.status == 302 || r.status == 303, "a room: {} {}", r.status, r.body);
    }
    let refused = common::post_form(addr, "/api/create_room", form).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.headers.iter().any(|h| h == "retry-after: 60"), "{:?}", refused.headers);
    assert!(refused.body.contains("private rooms open already"), "{}", refused.body);
    // Someone on another address opens theirs.
    let other = common::post_form_from(addr, "/api/create_room", form, "127.0.0.2".parse().unwrap()).await;
    assert!(other.status == 302 || other.status == 303, "{} {}", other.status, other.body);
}

/// Connects a quick-match player from `local` and returns the first answer.
async fn quick_from(addr: std::net::SocketAddr, query: &str, local: &str) -> (Client, serde_json::Value) {
    let mut c = Client::connect_from(addr, &format!("/ws/play?mode=quick&{query}"), local.parse().unwrap()).await;
    let first = c.next().await.expect("an answer");
    (c, first)
}

#[tokio::test]
async fn waiting_tables_per_address_are_capped() {
    let config = HubConfig { waiting_tables_per_address: 2, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut waiting = Vec::new();
    for size in [5, 6] {
        let (c, first) = quick_from(addr, &format!("size={size}&swap=off&name=Ann"), "127.0.0.1").await;
        assert_eq!(first["type"], "joined", "{first}");
        waiting.push(c);
    }
    let (mut third, refused) = quick_from(addr, "size=7&swap=off&name=Ann", "127.0.0.1").await;
    assert_eq!(refused["payload"]["code"], "too_many_tables", "{refused}");
    assert!(refused["payload"]["message"].as_str().unwrap().contains("2 games waiting"), "{refused}");
    third.closed().await;
    // Someone else opens a table of that kind, and joins one of Ann's.
    let (_bo, first) = quick_from(addr, "size=7&swap=off&name=Bo", "127.0.0.2").await;
    assert_eq!(first["type"], "joined");
    let (_cy, first) = quick_from(addr, "size=5&swap=off&name=Cy", "127.0.0.3").await;
    assert_eq!(first["type"], "joined");
    // Ann's table of size 5 found its opponent, so she may open another.
    let (_ann, first) = quick_from(addr, "size=8&swap=off&name=Ann", "127.0.0.1").await;
    assert_eq!(first["type"], "joined", "{first}");
}

#[tokio::test]
async fn matchmaking_pools_are_capped_but_existing_ones_stay_open() {
    let config = HubConfig { max_pools: 2, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let (_a, first) = quick_from(addr, "size=5&swap=off&name=Ann", "127.0.0.1").await;
    assert_eq!(first["type"], "joined");
    let (_b, first) = quick_from(addr, "size=6&swap=off&name=Bo", "127.0.0.2").await;
    assert_eq!(first["type"], "joined");
    let (_c, refused) = quick_from(addr, "size=7&swap=off&time=3%2B1&name=Cy", "127.0.0.3").await;
    assert_eq!(refused["payload"]["code"], "too_many_pools", "{refused}");
    // A kind of game someone waits for is still open to all.
    let (_d, first) = quick_from(addr, "size=5&swap=off&name=Di", "127.0.0.4").await;
    assert_eq!(first["type"], "joined", "{first}");
}

#[tokio::test]
async fn room_creation_per_minute_is_capped() {
    let config = HubConfig { rooms_per_minute: 2, rooms_per_address: 0, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let form = "size=7&series=1&swap=off&time=none&name=Ann";
    for _ in 0..2 {
        let r = common::post_form(addr, "/api/create_room", form).await;
        assert!(r.status == 302 || r.status == 303, "a room: {} {}", r.status, r.body);
    }
    let refused = common::post_form(addr, "/api/create_room", form).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    let wait: u64 = refused.headers.iter().find_map(|h| h.strip_prefix("retry-after: ")).unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert!(refused.body.contains("created rooms too quickly"), "{}", refused.body);
    let other = common::post_form_from(addr, "/api/create_room", form, "127.0.0.2".parse().unwrap()).await;
    assert!(other.status == 302 || other.status == 303, "{} {}", other.status, other.body);
}

#[tokio::test]
async fn server_function_calls_per_minute_are_capped() {
    let config = HubConfig { api_calls_per_minute: 3, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    for _ in 0..3 {
        assert_eq!(common::get(addr, "/api/statistics").await.status, 200);
    }
    let refused = common::get(addr, "/api/statistics").await;
    assert_eq!(refused.status, 429);
    assert!(refused.headers.iter().any(|h| h.starts_with("retry-after: ")), "{:?}", refused.headers);
    assert!(refused.body.contains("Too many requests"), "{}", refused.body);
    // Pages are not server-function calls, and another address has its own quota.
    assert_eq!(common::get(addr, "/health").await.status, 200);
    let other = common::post_form_from(addr, "/api/live_count", "", "127.0.0.2".parse().unwrap()).await;
    assert!(other.status == 200 || other.status == 302, "{} {}", other.status, other.body);
}

#[tokio::test]
async fn a_flood_of_frames_is_refused_then_closed_and_the_opponent_plays_on() {
    let config = HubConfig { frames_per_sec: 5, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    red.expect("joined").await;
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    red.until("game_start").await;
    blue.until("game_start").await;
    // Blue floods pings: the burst is answered, then refused, then cut off.
    for _ in 0..60 {
        blue.send("ping", serde_json::json!({})).await;
    }
    let (mut pongs, mut refusals) = (0, 0);
    while let Some(m) = blue.next().await {
        match m["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if m["payload"]["code"] == "too_fast" => refusals += 1,
            _ => {}
        }
    }
    assert!((10..=12).contains(&pongs), "the burst (twice the rate) goes through: {pongs}");
    assert!(refusals >= 1, "the flood is told why");
    // Red, at a person's pace, is unaffected: the game waits for Blue.
    let notice = red.until("opponent_disconnected").await;
    assert_eq!(notice["reason"], "waiting_for_reconnect");
    red.send("ping", serde_json::json!({})).await;
    red.until("pong").await;
}

#[tokio::test]
async fn chat_lines_per_second_are_capped() {
    let config = HubConfig { chat_lines_per_sec: 1, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    red.expect("joined").await;
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    red.until("game_start").await;
    for i in 0..6 {
        red.send("chat", serde_json::json!({"message": format!("line {i}")})).await;
    }
    let refused = red.until("error").await;
    assert_eq!(refused["code"], "too_fast", "{refused}");
    let mut heard = Vec::new();
    while heard.len() < 5 {
        heard.push(blue.until("chat").await["message"].as_str().unwrap().to_string());
    }
    assert_eq!(heard, ["line 0", "line 1", "line 2", "line 3", "line 4"], "five at once, the sixth refused");
    // Moves are not chat: Red still plays.
    red.play(0, 0).await;
    assert_eq!(blue.until("move").await["q"], 0);
}

#[tokio::test]
async fn watchers_per_table_are_capped() {
    let config = HubConfig { watchers_per_table: 1, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut red = Client::connect(addr, "/ws/play?mode=quick&size=5&swap=off&name=Rae").await;
    let id = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut first = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    first.until("state").await;
    let mut second = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    let refused = second.until("error").await;
    assert_eq!(refused["code"], "too_many_watchers", "{refused}");
    second.closed().await;
    // The first spectator keeps watching: Blue's arrival reaches them.
    let mut blue = Client::connect(addr, "/ws/play?mode=quick&size=5&swap=off&name=Bo").await;
    blue.expect("joined").await;
    first.until("game_start").await;
}

#[tokio::test]
async fn a_table_nobody_comes_to_expires_and_says_why() {
    let config = HubConfig { wait_expiry: Duration::from_secs(1), ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut ann = Client::connect(addr, "/ws/play?mode=quick&size=5&swap=off&name=Ann").await;
    let id = ann.expect("joined").await["slot_id"].as_u64().unwrap();
    let started = std::time::Instant::now();
    let expired = ann.until("error").await;
    assert_eq!(expired["code"], "table_expired", "{expired}");
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
    ann.closed().await;
    let mut gone = false;
    for _ in 0..50 {
        let slots: serde_json::Value = serde_json::from_str(&common::get(addr, "/slots").await.body).unwrap();
        if !slots.as_array().unwrap().iter().any(|s| s["slot_id"] == id) {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gone, "the expired table is no longer listed");
}

/// An upgrade of `path` sent with an `X-Forwarded-For` header.
async fn upgrade_forwarded(addr: std::net::SocketAddr, path: &str, forwarded: &str) -> Result<Client, u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{addr}{path}").into_client_request().unwrap();
    request.headers_mut().insert("x-forwarded-for", forwarded.parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(Client::wrap(ws)),
        Err(tungstenite::Error::Http(response)) => Err(response.status().as_u16()),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

#[tokio::test]
async fn a_forwarded_address_counts_only_from_a_trusted_proxy() {
    use hexarena::server::client_address::TrustedProxies;
    let trusting = HubConfig {
        connections_per_address: 1,
        trusted_proxies: TrustedProxies::parse("127.0.0.1").unwrap(),
        ..HubConfig::default()
    };
    let addr = start_server_with(trusting).await;
    let _a = upgrade_forwarded(addr, "/ws/slots", "203.0.113.1").await.expect("first client");
    let _b = upgrade_forwarded(addr, "/ws/slots", "203.0.113.2").await.expect("another client behind the proxy");
    assert_eq!(upgrade_forwarded(addr, "/ws/slots", "203.0.113.1").await.err(), Some(429), "the same client again");

    // Without trust, the header is whatever the client wrote: ignored.
    let plain = HubConfig { connections_per_address: 1, ..HubConfig::default() };
    let addr = start_server_with(plain).await;
    let _a = upgrade_forwarded(addr, "/ws/slots", "203.0.113.1").await.expect("first client");
    assert_eq!(upgrade_forwarded(addr, "/ws/slots", "203.0.113.2").await.err(), Some(429), "a forged header");
}

#[tokio::test]
async fn spectators_get_the_series_once_then_only_what_changes() {
    let addr = common::start_server().await;
    let query = "mode=quick&size=3&series=3&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let id = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    let mut watcher = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    let first = watcher.until("state").await;
    assert!(first.get("finished_omitted").is_none(), "a new spectator gets the whole view: {first}");
    // Game 1: Red takes row 0 while Blue plays row 2.
    for (who, q, r) in [(0, 0, 0), (1, 0, 2), (0, 1, 0), (1, 1, 2), (0, 2, 0)] {
        let mover = if who == 0 { &mut red } else { &mut blue };
        mover.play(q, r).await;
        red.until("move").await;
    }
    let after_game = loop {
        let s = watcher.until("state").await;
        if s["game_number"] == 2 {
            break s;
        }
    };
    assert_eq!(after_game["finished"].as_array().map(Vec::len), Some(1), "the finished game, once: {after_game}");
    // Game 2 goes on: Blue moves first; spectators get the view without the series.
    blue.play(1, 1).await;
    let change = loop {
        let s = watcher.until("state").await;
        if s["moves"].as_array().is_some_and(|m| m.len() == 1) {
            break s;
        }
    };
    assert_eq!(change["finished_omitted"], true, "{change}");
    assert_eq!(change["finished"].as_array().map(Vec::len), Some(0));
    // A spectator arriving now gets the whole series.
    let mut late = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    let whole = late.until("state").await;
    assert_eq!(whole["finished"].as_array().map(Vec::len), Some(1), "{whole}");
}

#[tokio::test]
async fn sign_ups_per_minute_are_capped() {
    let url = common::fresh_database(false).await.unwrap();
    let config = HubConfig { registrations_per_minute: 2, ..HubConfig::default() };
    let addr = common::start_server_keeping(&url, None, config).await;
    let body = |name: &str| format!("name={name}&password=hex+on+a+rhombus");
    for name in ["Ann", "Bo"] {
        let r = common::post_form(addr, "/api/signup", &body(name)).await;
        assert!(r.status == 200 || r.status == 302, "{} {}", r.status, r.body);
    }
    let refused = common::post_form(addr, "/api/signup", &body("Cy")).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.headers.iter().any(|h| h.starts_with("retry-after: ")), "{:?}", refused.headers);
    assert!(refused.body.contains("Too many accounts made"), "{}", refused.body);
    let other = common::post_form_from(addr, "/api/signup", &body("Cy"), "127.0.0.2".parse().unwrap()).await;
    assert!(other.status == 200 || other.status == 302, "{} {}", other.status, other.body);
}
