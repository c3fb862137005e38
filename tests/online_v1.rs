//! hexgame protocol v1 over real sockets against the real router.
#![cfg(feature = "ssr")]

mod common;

use std::time::Duration;

use common::ws::Client;
use common::{get, start_server, start_server_with};
use hexarena::server::hub::config::HubConfig;
use serde_json::{Value, json};

/// Two bots matched on a 7×7 board; returns (red, blue, slot id).
async fn pair(addr: std::net::SocketAddr, series: u8) -> (Client, Client, u64) {
    let mut red =
        Client::connect(addr, &format!("/ws/matchmake?board_size=7&series_length={series}&model_name=m1&username=ann"))
            .await;
    let joined = red.expect("joined").await;
    assert_eq!(joined["player"], -1);
    assert_eq!(joined["color"], "red");
    assert_eq!(joined["protocol_version"], 1);
    assert!(joined["reconnect_token"].as_str().is_some_and(|t| t.len() >= 32));
    let slot = joined["slot_id"].as_u64().unwrap();
    assert_eq!(red.expect("waiting_for_opponent").await, json!({"slot_id": slot, "board_size": 7}));
    let mut blue =
        Client::connect(addr, &format!("/ws/matchmake?board_size=7&series_length={series}&model_name=m2")).await;
    let joined = blue.expect("joined").await;
    assert_eq!((joined["player"].as_i64(), joined["slot_id"].as_u64()), (Some(1), Some(slot)));
    for c in [&mut red, &mut blue] {
        let start = c.expect("game_start").await;
        assert_eq!(start["first_turn"], -1);
        assert_eq!(start["players"], json!([-1, 1]));
        assert_eq!(start["player_models"], json!({"-1": "m1", "1": "m2"}));
        assert_eq!(start["player_usernames"], json!({"-1": "ann"}));
    }
    (red, blue, slot)
}

/// Plays a 7×7 game the first mover wins along its row 0 / column 0.
async fn play_out(first: &mut Client, second: &mut Client, first_is_red: bool) -> Vec<Value> {
    let mut seen = Vec::new();
    for i in 0..7 {
        let (q, r) = if first_is_red { (i, 0) } else { (0, i) };
        first.play(q, r).await;
        for c in [&mut *first, &mut *second] {
            seen.push(c.expect("move").await);
        }
        if i < 6 {
            let (q, r) = if first_is_red { (i, 3) } else { (3, i) };
            second.play(q, r).await;
            for c in [&mut *first, &mut *second] {
                c.expect("move").await;
            }
        }
    }
    seen
}

#[tokio::test]
async fn two_bots_play_a_full_game() {
    let addr = start_server().await;
    let (mut red, mut blue, _) = pair(addr, 1).await;
    let moves = play_out(&mut red, &mut blue, true).await;
    assert_eq!(moves[0], json!({"player": -1, "q": 0, "r": 0, "next_turn": 1}));
    assert_eq!(moves.last().unwrap()["next_turn"], Value::Null);
    for c in [&mut red, &mut blue] {
        assert_eq!(c.expect("game_over").await, json!({"winner": -1, "reason": "connected_sides"}));
        let update = c.expect("series_update").await;
        assert_eq!((update["player_1_wins"].as_u64(), update["wins_required"].as_u64()), (Some(1), Some(1)));
        let over = c.expect("series_over").await;
        assert_eq!(over["winner"], -1);
    }
}

#[tokio::test]
async fn a_series_alternates_the_first_player() {
    let addr = start_server().await;
    let (mut red, mut blue, _) = pair(addr, 3).await;
    play_out(&mut red, &mut blue, true).await;
    for c in [&mut red, &mut blue] {
        c.expect("game_over").await;
        assert_eq!(c.expect("series_update").await["current_game_number"], 2);
        let start = c.expect("game_start").await;
        assert_eq!((start["first_turn"].as_i64(), start["player_1_wins"].as_u64()), (Some(1), Some(1)));
    }
    // Game 2: Blue opens and wins top to bottom down column 0.
    play_out(&mut blue, &mut red, false).await;
    for c in [&mut red, &mut blue] {
        assert_eq!(c.expect("game_over").await["winner"], 1);
        c.expect("series_update").await;
        assert_eq!(c.expect("game_start").await["current_game_number"], 3);
    }
}

#[tokio::test]
async fn bad_moves_and_bad_messages_are_refused_and_change_nothing() {
    let addr = start_server().await;
    let (mut red, mut blue, slot) = pair(addr, 1).await;
    red.play(3, 3).await;
    red.expect("move").await;
    blue.expect("move").await;
    // Each refusal goes to the sender only, with hexgame's text.
    let checks: [(&str, &str, &str); 12] = [
        (r#"{"type":"move","payload":{"q":1,"r":1}}"#, "move_rejected", "Not your turn"),
        ("{nope", "error", "Invalid JSON message"),
        ("[]", "error", "Invalid JSON message"),
        (r#"{"payload":{}}"#, "error", "Missing message type"),
        (r#"{"type":"fly"}"#, "error", "Unknown message type"),
        (r#"{"type":"move","payload":"3,3"}"#, "error", "Invalid payload"),
        (r#"{"type":"move","payload":{"q":"a","r":1}}"#, "move_rejected", "Move coordinates must be integers"),
        (r#"{"type":"move","payload":{"q":1.5,"r":1}}"#, "move_rejected", "Move coordinates must be integers"),
        (r#"{"type":"swap","payload":{}}"#, "error", "Unknown message type"),
        ("", "error", "Invalid JSON message"),
        (r#"{"type":"move","payload":{"q":99999999999999999999,"r":1}}"#, "move_rejected", "Not your turn"),
        (r#"{"type":"ping"}"#, "pong", ""),
    ];
    for (text, kind, reason) in checks {
        red.send_text(text).await;
        let payload = red.expect(kind).await;
        if !reason.is_empty() {
            let got = payload["reason"].as_str().or(payload["message"].as_str());
            assert_eq!(got, Some(reason), "for {text}");
        }
    }
    for (q, r, reason) in [(3, 3, "Cell already occupied"), (7, 0, "Move outside board"), (-1, 2, "Move outside board")]
    {
        blue.play(q, r).await;
        assert_eq!(blue.expect("move_rejected").await["reason"], reason);
    }
    blue.send_text(r#"{"type":"move","payload":{"q":99999999999999999999,"r":1}}"#).await;
    assert_eq!(blue.expect("move_rejected").await["reason"], "Move outside board");
    blue.send_text(&format!(r#"{{"type":"chat","payload":{{"message":"{}"}}}}"#, "x".repeat(5000))).await;
    assert_eq!(blue.expect("error").await["message"], "Message too large");
    // Nothing changed: one stone, Blue to move.
    let slots: Value = serde_json::from_str(&get(addr, "/slots").await.body).unwrap();
    let table = slots.as_array().unwrap().iter().find(|s| s["slot_id"] == slot).unwrap().clone();
    assert_eq!((table["move_count"].as_u64(), table["current_turn"].as_i64()), (Some(1), Some(1)));
    // The game goes on normally afterwards.
    blue.play(0, 0).await;
    assert_eq!(blue.expect("move").await["player"], 1);
    assert_eq!(red.expect("move").await["next_turn"], -1);
}

#[tokio::test]
async fn chat_and_hello_reach_the_right_people() {
    let addr = start_server().await;
    let (mut red, mut blue, _) = pair(addr, 1).await;
    red.send("hello", json!({"protocol_version": 1, "client_name": "t"})).await;
    assert_eq!(red.expect("hello").await["protocol_version"], 1);
    red.send("chat", json!({"message": "good luck\u{0007}"})).await;
    assert_eq!(blue.expect("chat").await, json!({"player": -1, "message": "good luck"}));
    assert_eq!(red.expect("chat").await["message"], "good luck");
}

#[tokio::test]
async fn refused_requests_get_an_error_and_a_close() {
    let addr = start_server().await;
    for (path, message) in [
        ("/ws/matchmake?board_size=8", "Unsupported board size"),
        ("/ws/matchmake?board_size=11&series_length=4", "Unsupported series length"),
        ("/ws/matchmake?board_size=11&first_player=3", "Invalid first_player value"),
        ("/ws/matchmake?board_size=eleven", "board_size must be an integer, not \"eleven\""),
        ("/ws/join-slot?slot_id=999", "Slot does not exist"),
        ("/ws/reconnect?slot_id=999&token=x", "Slot is not available for reconnect"),
    ] {
        let mut c = Client::connect(addr, path).await;
        assert_eq!(c.expect("error").await["message"], message, "{path}");
        assert!(c.next().await.is_none(), "closed after the error");
    }
}

#[tokio::test]
async fn join_slot_takes_a_waiting_table_by_id() {
    let addr = start_server().await;
    let mut red = Client::connect(addr, "/ws/matchmake?board_size=9&series_length=5").await;
    let slot = red.expect("joined").await["slot_id"].as_u64().unwrap();
    red.expect("waiting_for_opponent").await;
    let mut blue = Client::connect(addr, &format!("/ws/join-slot?slot_id={slot}&model_name=joiner")).await;
    let joined = blue.expect("joined").await;
    assert_eq!((joined["board_size"].as_u64(), joined["series_length"].as_u64()), (Some(9), Some(5)));
    assert_eq!(red.expect("game_start").await["wins_required"], 3);
    let mut third = Client::connect(addr, &format!("/ws/join-slot?slot_id={slot}")).await;
    assert_eq!(third.expect("error").await["message"], "Slot is not waiting for an opponent");
}

#[tokio::test]
async fn a_dropped_player_may_reconnect_within_the_window() {
    let addr = start_server().await;
    let mut red = Client::connect(addr, "/ws/matchmake?board_size=7").await;
    let joined = red.expect("joined").await;
    let (slot, token) = (joined["slot_id"].as_u64().unwrap(), joined["reconnect_token"].as_str().unwrap().to_string());
    red.expect("waiting_for_opponent").await;
    let mut blue = Client::connect(addr, "/ws/matchmake?board_size=7").await;
    blue.expect("joined").await;
    red.expect("game_start").await;
    blue.expect("game_start").await;
    red.play(2, 2).await;
    red.expect("move").await;
    blue.expect("move").await;
    red.close().await;
    let notice = blue.expect("opponent_disconnected").await;
    assert_eq!(notice["reason"], "waiting_for_reconnect");
    assert_eq!(notice["reconnect_timeout_seconds"], 30);
    blue.play(4, 4).await;
    assert_eq!(blue.expect("move_rejected").await["reason"], "Game paused for reconnect");
    let mut wrong = Client::connect(addr, &format!("/ws/reconnect?slot_id={slot}&token=not-it")).await;
    assert_eq!(wrong.expect("error").await["message"], "Invalid reconnect token");
    let mut red = Client::connect(addr, &format!("/ws/reconnect?slot_id={slot}&token={token}")).await;
    let back = red.expect("reconnected").await;
    assert_eq!(back["player"], -1);
    assert_eq!(back["slot"]["board"][2][2], -1);
    assert_eq!(back["slot"]["current_turn"], 1);
    assert!(!back.to_string().contains(&token), "the snapshot holds no token");
    assert_eq!(blue.expect("opponent_reconnected").await["player"], -1);
    blue.play(4, 4).await;
    assert_eq!(blue.expect("move").await["q"], 4);
    assert_eq!(red.expect("move").await["r"], 4);
}

#[tokio::test]
async fn after_the_window_the_absent_player_forfeits() {
    let addr = start_server_with(HubConfig { reconnect: Duration::from_secs(1), ..HubConfig::default() }).await;
    let (red, mut blue, _) = pair(addr, 3).await;
    red.close().await;
    assert_eq!(blue.expect("opponent_disconnected").await["reconnect_timeout_seconds"], 1);
    let notice = blue.expect("opponent_disconnected").await;
    assert_eq!(notice["reason"], "reconnect_timeout");
    assert_eq!(blue.expect("game_over").await, json!({"winner": 1, "reason": "forfeit"}));
    blue.expect("series_update").await;
    assert_eq!(blue.expect("series_over").await["winner"], 1);
}

#[tokio::test]
async fn resigning_ends_the_game_for_both() {
    let addr = start_server().await;
    let (mut red, mut blue, _) = pair(addr, 1).await;
    blue.send("resign", json!({})).await;
    for c in [&mut red, &mut blue] {
        assert_eq!(c.expect("game_over").await, json!({"winner": -1, "reason": "resignation"}));
        c.expect("series_update").await;
        c.expect("series_over").await;
    }
}

#[tokio::test]
async fn keep_slot_waits_for_a_new_opponent_in_the_same_slot() {
    let addr = start_server().await;
    let (mut red, mut blue, slot) = pair(addr, 1).await;
    blue.send("resign", json!({})).await;
    for c in [&mut red, &mut blue] {
        c.until("series_over").await;
    }
    blue.send("keep_slot", json!({})).await;
    let kept = blue.expect("slot_kept").await;
    assert_eq!((kept["slot_id"].as_u64(), kept["player"].as_i64()), (Some(slot), Some(-1)));
    blue.expect("waiting_for_opponent").await;
    assert!(red.expect("opponent_left_slot").await["message"].as_str().is_some());
    assert!(red.next().await.is_none(), "the other player is closed");
    let mut newcomer = Client::connect(addr, "/ws/matchmake?board_size=7").await;
    assert_eq!(newcomer.expect("joined").await["slot_id"], slot);
    assert_eq!(blue.expect("game_start").await["current_game_number"], 1);
}

#[tokio::test]
async fn slots_list_live_tables_without_secrets() {
    let addr = start_server().await;
    let (mut red, _blue, slot) = pair(addr, 1).await;
    red.play(1, 2).await;
    red.expect("move").await;
    let r = get(addr, "/slots").await;
    assert_eq!(r.status, 200);
    assert!(!r.body.contains("token"));
    let slots: Value = serde_json::from_str(&r.body).unwrap();
    let s = slots.as_array().unwrap().iter().find(|s| s["slot_id"] == slot).unwrap();
    assert_eq!(s["state"], "full");
    assert_eq!(s["board"][2][1], -1);
    assert_eq!(s["connected_players"], json!([-1, 1]));
    let stats: Value = serde_json::from_str(&get(addr, "/api/statistics").await.body).unwrap();
    assert_eq!(stats["persistence_enabled"], false);
    assert_eq!(stats["totals"]["matches"], 0);
}

#[tokio::test]
async fn the_slots_feed_sends_the_list_then_changes() {
    let addr =
        start_server_with(HubConfig { overview_interval: Duration::from_millis(50), ..HubConfig::default() }).await;
    let mut feed = Client::connect(addr, "/ws/slots").await;
    let first = feed.next().await.unwrap();
    assert_eq!(first, json!([]));
    let mut red = Client::connect(addr, "/ws/matchmake?board_size=11").await;
    let slot = red.expect("joined").await["slot_id"].clone();
    loop {
        let list = feed.next().await.unwrap();
        if let Some(s) = list.as_array().unwrap().iter().find(|s| s["slot_id"] == slot) {
            assert_eq!(s["state"], "waiting");
            break;
        }
    }
}
