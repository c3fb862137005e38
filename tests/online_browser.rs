//! Our browser protocol over real sockets: full-table `state` messages,
//! swap, clocks, spectators, private rooms and resuming a seat.
#![cfg(feature = "ssr")]

mod common;

use common::ws::Client;
use common::{get, post_form, start_server, start_server_with};
use serde_json::{Value, json};

/// The next `state` message's payload.
async fn state(c: &mut Client) -> Value {
    c.until("state").await
}

/// Two browser players matched with `query`; returns (red, blue, game id, red's token).
async fn pair(addr: std::net::SocketAddr, query: &str) -> (Client, Client, u64, String) {
    let mut red = Client::connect(addr, &format!("/ws/play?mode=quick&{query}&name=Ann")).await;
    let joined = red.expect("joined").await;
    let id = joined["slot_id"].as_u64().unwrap();
    let token = joined["reconnect_token"].as_str().unwrap().to_string();
    let mut blue = Client::connect(addr, &format!("/ws/play?mode=quick&{query}&name=Bob")).await;
    assert_eq!(blue.expect("joined").await["slot_id"], id);
    for c in [&mut red, &mut blue] {
        loop {
            let s = state(c).await;
            if s["phase"] == "playing" {
                break;
            }
        }
    }
    (red, blue, id, token)
}

#[tokio::test]
async fn every_change_brings_the_whole_table_to_players() {
    let addr = start_server().await;
    let (mut red, mut blue, id, _) = pair(addr, "size=9&series=1&swap=on&time=none").await;
    red.play(2, 6).await;
    let s = state(&mut blue).await;
    assert_eq!(s["id"], id);
    assert_eq!(s["moves"], json!([{"Place": {"q": 2, "r": 6}}]));
    assert_eq!(s["turn"], 1);
    assert_eq!(s["seats"][0]["name"], "Ann");
    assert!(!s.to_string().contains("token"));
    blue.send("swap", json!({})).await;
    let s = loop {
        let s = state(&mut red).await;
        if s["moves"].as_array().unwrap().len() == 2 {
            break s;
        }
    };
    assert_eq!(s["moves"][1], "Swap");
    assert_eq!(s["turn"], -1);
}

#[tokio::test]
async fn a_spectator_gets_the_position_then_every_move() {
    let addr = start_server().await;
    let (mut red, mut blue, id, _) = pair(addr, "size=7&series=1&swap=off&time=none").await;
    red.play(3, 3).await;
    state(&mut blue).await;
    let mut watcher = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    let s = state(&mut watcher).await;
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    assert_eq!(s["spectators"], 1);
    for (i, (q, r)) in [(0, 0), (1, 1), (0, 1)].into_iter().enumerate() {
        let mover = if i % 2 == 0 { &mut blue } else { &mut red };
        mover.play(q, r).await;
        assert_eq!(
            watcher.expect("move").await,
            json!({"player": if i % 2 == 0 { 1 } else { -1 }, "q": q, "r": r, "next_turn": if i % 2 == 0 { -1 } else { 1 }})
        );
        let s = state(&mut watcher).await;
        assert_eq!(s["moves"].as_array().unwrap().len(), i + 2);
    }
    // A spectator cannot play or chat.
    watcher.play(5, 5).await;
    assert_eq!(watcher.until("error").await["message"], "Spectators cannot move or chat");
    let mut missing = Client::connect(addr, "/ws/watch?game=999999").await;
    assert!(missing.expect("error").await["message"].as_str().unwrap().contains("No live game"));
}

#[tokio::test]
async fn the_clock_flags_a_player_who_runs_out_of_time() {
    let addr = start_server().await;
    // 0.02 minutes = 1.2 s, no increment.
    let (mut red, mut blue, _, _) = pair(addr, "size=7&series=1&swap=off&time=0.02%2B0").await;
    let over = blue.until("game_over").await;
    assert_eq!(over, json!({"winner": 1, "reason": "timeout"}));
    let s = state(&mut red).await;
    assert_eq!(s["phase"], "over");
    assert_eq!(s["seats"][0]["clock_ms"], 0);
    red.play(0, 0).await;
    assert_eq!(red.until("move_rejected").await["reason"], "Game already finished");
}

#[tokio::test]
async fn a_reload_resumes_the_seat_with_its_token() {
    let addr = start_server().await;
    let (mut red, mut blue, id, token) = pair(addr, "size=11&series=1&swap=off&time=5%2B3").await;
    red.play(5, 5).await;
    state(&mut blue).await;
    red.close().await;
    let s = state(&mut blue).await;
    assert_eq!(s["phase"], "paused");
    assert_eq!(s["seats"][0]["connected"], false);
    let mut red = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={token}")).await;
    assert_eq!(red.expect("reconnected").await["player"], -1);
    let s = state(&mut red).await;
    assert_eq!(s["phase"], "playing");
    assert_eq!(s["moves"].as_array().unwrap().len(), 1);
    // The same token works again after another reload.
    red.close().await;
    let mut red = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={token}")).await;
    red.expect("reconnected").await;
    let mut thief = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token=guess")).await;
    assert_eq!(thief.expect("error").await["message"], "Invalid reconnect token");
}

#[tokio::test]
async fn a_private_room_is_created_by_form_and_joined_by_code() {
    let addr = start_server().await;
    let r = post_form(addr, "/api/create_room", "size=7&series=3&swap=off&time=none&name=Ann").await;
    assert!(r.status == 302 || r.status == 303, "a redirect, got {} {}", r.status, r.body);
    let location = r.headers.iter().find_map(|h| h.strip_prefix("location: ")).expect("a Location").to_string();
    let (path, code) = location.split_once("?join=").expect("a join code");
    let code = code.split('&').next().unwrap().to_uppercase();
    let id: u64 = path.trim_start_matches("/game/").parse().unwrap();
    let page = get(addr, &format!("/game/{id}")).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("data-testid=\"game-status\""));
    let mut ann = Client::connect(addr, &format!("/ws/play?mode=room&code={code}&name=Ann")).await;
    assert_eq!(ann.expect("joined").await["slot_id"], id);
    let s = state(&mut ann).await;
    assert_eq!(s["room_code"], code.as_str());
    let mut bob = Client::connect(addr, &format!("/ws/play?mode=room&code={}&name=Bob", code.to_lowercase())).await;
    assert_eq!(bob.expect("joined").await["player"], 1);
    let s = state(&mut bob).await;
    assert_eq!(s["phase"], "playing");
    assert_eq!(s["series_length"], 3);
    assert_eq!(s["room_code"], Value::Null);
    let mut late = Client::connect(addr, &format!("/ws/play?mode=room&code={code}")).await;
    assert_eq!(late.expect("error").await["message"], "Slot is already full");
    let mut wrong = Client::connect(addr, "/ws/play?mode=room&code=ZZZZZZ").await;
    assert!(wrong.expect("error").await["message"].as_str().unwrap().starts_with("No room has this code"));
    let bad = post_form(addr, "/api/create_room", "size=42&series=1&time=none").await;
    assert!(bad.body.contains("Board size 42 is not supported") || bad.status >= 300, "{}", bad.body);
}

#[tokio::test]
async fn bad_browser_requests_are_explained() {
    let addr = start_server().await;
    for (query, message) in [
        ("mode=quick&size=2", "Board size 2 is not supported: choose 3 to 19"),
        ("mode=quick&size=9&series=2", "A series of 2 games is not supported: choose an odd number from 1 to 15"),
        ("mode=quick&size=9&time=forever", "“forever” is not a time control: write minutes+seconds, like 5+3, or none"),
        ("mode=quick&size=9&swap=maybe", "swap must be on or off, not \"maybe\""),
        ("mode=dance", "mode must be quick, room or resume"),
        ("mode=resume", "game is required to resume"),
    ] {
        let mut c = Client::connect(addr, &format!("/ws/play?{query}")).await;
        assert_eq!(c.expect("error").await["message"], message, "{query}");
        assert!(c.next().await.is_none());
    }
}

#[tokio::test]
async fn pages_of_live_games_render_on_the_server() {
    let addr = start_server().await;
    let (mut red, _blue, id, _) = pair(addr, "size=5&series=1&swap=off&time=none").await;
    red.play(0, 0).await;
    let page = get(addr, &format!("/game/{id}")).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.body.matches("data-cell=").count(), 25);
    assert!(page.body.contains(r#"data-cell="a1""#));
    assert!(page.body.contains("Bob · guest to move (Blue)"), "status rendered on the server, the guest marked");
    let gone = get(addr, "/game/987654").await;
    assert!(gone.body.contains("This game is not live"));
    let overview = get(addr, "/overview").await;
    assert!(overview.body.contains(&format!(r#"data-game="{id}""#)));
    let play = get(addr, "/play").await;
    assert!(play.body.contains(r#"action="/play/online""#));
}

/// The tables an `/ws/overview` subscriber holds, kept up to date from
/// its messages; returns the raw length of each change message seen.
struct Overview {
    client: Client,
    tables: std::collections::BTreeMap<u64, hexarena::online::SlotSnapshot>,
    seq: u64,
    change_sizes: Vec<usize>,
}

impl Overview {
    async fn connect(addr: std::net::SocketAddr) -> Overview {
        let mut o = Overview {
            client: Client::connect(addr, "/ws/overview").await,
            tables: Default::default(),
            seq: 0,
            change_sizes: vec![],
        };
        let first = o.read().await;
        assert!(first.full, "the first message is the whole list");
        o
    }

    async fn read(&mut self) -> hexarena::online::view::OverviewUpdate {
        let m = self.client.expect("slots").await;
        let update: hexarena::online::view::OverviewUpdate =
            serde_json::from_value(m.clone()).expect("an overview update");
        if update.full {
            self.tables = update.slots.iter().map(|s| (s.slot_id, s.clone())).collect();
        } else {
            assert!(update.seq > self.seq, "updates are numbered in order: {} after {}", update.seq, self.seq);
            self.change_sizes.push(m.to_string().len());
            for s in &update.slots {
                self.tables.insert(s.slot_id, s.clone());
            }
            for patch in &update.changed {
                let held = self.tables.get_mut(&patch.slot_id).expect("a patch for a table the subscriber holds");
                patch.apply(held).expect("the patch applies");
            }
            for id in &update.removed {
                self.tables.remove(id);
            }
        }
        self.seq = update.seq;
        update
    }

    /// Reads until table `id` has made `moves` moves.
    async fn until_moves(&mut self, id: u64, moves: u32) -> hexarena::online::SlotSnapshot {
        loop {
            if let Some(s) = self.tables.get(&id)
                && s.move_count >= moves
            {
                return s.clone();
            }
            self.read().await;
        }
    }
}

#[tokio::test]
async fn the_overview_sends_the_list_then_small_patches_that_rebuild_every_table() {
    use hexarena::server::hub::config::HubConfig;
    let addr = start_server_with(HubConfig {
        overview_interval: std::time::Duration::from_millis(30),
        ..HubConfig::default()
    })
    .await;
    let mut early = Overview::connect(addr).await;
    let (mut red, mut blue, id, _) = pair(addr, "size=7&series=1&swap=off&time=none").await;
    let moves = [(0, 0), (6, 6), (1, 0), (5, 6), (2, 0), (4, 6)];
    let mut late = None;
    for (i, &(q, r)) in moves.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 { (&mut red, &mut blue) } else { (&mut blue, &mut red) };
        mover.play(q, r).await;
        // Each move seen by the overview before the next, so each is its own patch.
        early.until_moves(id, i as u32 + 1).await;
        state(other).await;
        if i == 2 {
            // A subscriber arriving mid-game starts from a list consistent with what follows.
            late = Some(Overview::connect(addr).await);
        }
    }
    let mut late = late.unwrap();
    let slots: Value = serde_json::from_str(&get(addr, "/slots").await.body).unwrap();
    let fresh: Vec<hexarena::online::SlotSnapshot> = serde_json::from_value(slots).unwrap();
    let fresh = fresh.into_iter().find(|s| s.slot_id == id).unwrap();
    assert_eq!(early.until_moves(id, 6).await, fresh);
    assert_eq!(late.until_moves(id, 6).await, fresh);
    let board = fresh.board.as_ref().unwrap();
    assert_eq!((board[0][2], board[6][4]), (-1, 1));
    // A change for one move is its stone and a few counters, not the table.
    let smallest = early.change_sizes.iter().min().unwrap();
    assert!(*smallest < 200, "a one-move change took {smallest} bytes");
}
