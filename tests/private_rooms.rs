//! A private room over real sockets, tried as a stranger would: its code
//! reaches only its creator and the players seated through it, and a room
//! that waits is neither listed nor joinable without its code.
#![cfg(feature = "ssr")]

mod common;

use common::ws::Client;
use common::{get, post_form, start_server};
use serde_json::Value;

/// Creates a room by form, as the /play page does; returns (table id, code).
async fn create_room(addr: std::net::SocketAddr) -> (u64, String) {
    let r = post_form(addr, "/api/create_room", "size=7&series=1&swap=off&time=none&name=Ann").await;
    let location = r.headers.iter().find_map(|h| h.strip_prefix("location: ")).expect("a Location").to_string();
    let (path, code) = location.split_once("?join=").expect("a join code");
    let code = code.split('&').next().unwrap().to_uppercase();
    (path.trim_start_matches("/game/").parse().unwrap(), code)
}

/// Every slot id in `GET /slots`.
async fn listed(addr: std::net::SocketAddr) -> Vec<u64> {
    let slots: Value = serde_json::from_str(&get(addr, "/slots").await.body).expect("JSON");
    slots.as_array().expect("a list").iter().filter_map(|s| s["slot_id"].as_u64()).collect()
}

#[tokio::test]
async fn a_waiting_room_is_seen_only_by_its_players() {
    let addr = start_server().await;
    let (id, code) = create_room(addr).await;
    let mut ann = Client::connect(addr, &format!("/ws/play?mode=room&code={code}&name=Ann")).await;
    assert_eq!(ann.expect("joined").await["slot_id"], id);
    assert_eq!(ann.until("state").await["room_code"], code.as_str(), "the creator gets the code to share");

    // A stranger who knows (or guesses) the table's id learns no code …
    let page = get(addr, &format!("/game/{id}")).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains(&code), "the page rendered for a stranger holds the code");
    let mut watcher = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    let first = watcher.until("state").await;
    assert_eq!(first["room_code"], Value::Null, "{first}");
    // … does not see the room listed …
    assert!(!listed(addr).await.contains(&id), "a waiting room is listed in /slots");
    let mut feed = Client::connect(addr, "/ws/slots").await;
    let frame = feed.next().await.expect("a list");
    assert!(!frame.to_string().contains(&format!("\"slot_id\":{id}")), "{frame}");
    // … and cannot take the seat without the code, as hexgame bots could.
    let mut stranger = Client::connect(addr, &format!("/ws/join-slot?slot_id={id}&username=eve")).await;
    assert_eq!(stranger.expect("error").await["message"], "Slot does not exist");

    // With the code, Bob sits down; the game starts and is public from now on.
    let mut bob = Client::connect(addr, &format!("/ws/play?mode=room&code={code}&name=Bob")).await;
    assert_eq!(bob.expect("joined").await["player"], 1);
    loop {
        if watcher.until("state").await["phase"] == "playing" {
            break;
        }
    }
    assert!(listed(addr).await.contains(&id), "a game being played is listed for spectators");
    let page = get(addr, &format!("/game/{id}")).await;
    assert!(!page.body.contains(&code));
}

#[tokio::test]
async fn keep_slot_in_a_room_waits_for_the_code_again() {
    let addr = start_server().await;
    let (id, code) = create_room(addr).await;
    let mut ann = Client::connect(addr, &format!("/ws/play?mode=room&code={code}&name=Ann")).await;
    ann.expect("joined").await;
    let mut bob = Client::connect(addr, &format!("/ws/play?mode=room&code={code}&name=Bob")).await;
    bob.expect("joined").await;
    bob.until("game_start").await;
    bob.send("resign", serde_json::json!({})).await;
    ann.until("series_over").await;
    ann.send("keep_slot", serde_json::json!({})).await;
    ann.until("slot_kept").await;
    // A quick-match player with the same options is not seated at the room.
    let mut quick = Client::connect(addr, "/ws/play?mode=quick&size=7&series=1&swap=off&time=none&name=Cy").await;
    let joined = quick.expect("joined").await;
    assert_ne!(joined["slot_id"], id, "keep_slot put a private room into public matchmaking");
    assert!(!listed(addr).await.contains(&id));
}

#[tokio::test]
async fn guessing_room_codes_is_throttled_per_address() {
    let addr = start_server().await;
    let (id, code) = create_room(addr).await;
    // A person who mistypes is told so; a guesser runs out of tries (10 a
    // minute by default, HEXARENA_ROOM_CODE_GUESSES) …
    for guess in 0..10 {
        let mut c = Client::connect(addr, &format!("/ws/play?mode=room&code=ZZZZZ{}", guess % 8 + 2)).await;
        let refused = c.expect("error").await;
        assert_eq!(refused["code"], "no_such_room", "guess {guess}: {refused}");
    }
    let mut c = Client::connect(addr, &format!("/ws/play?mode=room&code={code}")).await;
    let refused = c.expect("error").await;
    assert_eq!(refused["code"], "too_many_attempts", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("try again in"), "{refused}");
    let form = post_form(addr, "/api/join_room", &format!("code={code}")).await;
    assert!(form.body.contains("Too many wrong room codes"), "the form path counts too: {}", form.body);
    // … while a player on another address joins with the right code.
    let mut ann =
        Client::connect_from(addr, &format!("/ws/play?mode=room&code={code}&name=Ann"), "127.0.0.2".parse().unwrap())
            .await;
    assert_eq!(ann.expect("joined").await["slot_id"], id);
}
