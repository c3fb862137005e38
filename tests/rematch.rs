//! Rematches over real sockets: offered after the series only, declined,
//! then accepted; both players are seated at a new table with the same
//! settings and the colours swapped, and resume there with the tokens the
//! old table's socket told them.
#![cfg(feature = "ssr")]

mod common;

use common::start_server;
use common::ws::Client;
use serde_json::{Value, json};

async fn rematch(c: &mut Client, step: &str) {
    c.send("rematch", json!({"step": step})).await;
}

/// The next `rematch` news, skipping the rest.
async fn news(c: &mut Client) -> Value {
    c.until("rematch").await
}

#[tokio::test]
async fn a_rematch_is_agreed_and_both_play_on_at_a_new_table_with_colours_swapped() {
    let addr = start_server().await;
    let query = "mode=quick&size=3&series=1&swap=off&time=3%2B2";
    let mut ann = Client::connect(addr, &format!("/ws/play?{query}&name=Ann")).await;
    let old = ann.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut bob = Client::connect(addr, &format!("/ws/play?{query}&name=Bob")).await;
    bob.expect("joined").await;

    // Not before the series is over.
    rematch(&mut ann, "offer").await;
    let refused = ann.until("error").await;
    assert_eq!(refused["code"], "series_not_over", "{refused}");

    // Ann (Red) wins along the first row.
    for (mover, q, r) in [(0, 0, 0), (1, 0, 1), (0, 1, 0), (1, 1, 1), (0, 2, 0)] {
        let c = if mover == 0 { &mut ann } else { &mut bob };
        c.play(q, r).await;
        ann.until("move").await;
        bob.until("move").await;
    }
    ann.until("series_over").await;
    bob.until("series_over").await;

    // Bob offers and Ann accepts.
    rematch(&mut bob, "offer").await;
    assert_eq!(news(&mut ann).await, json!({"event": "offered", "by": 1}));
    assert_eq!(news(&mut bob).await, json!({"event": "offered", "by": 1}));
    rematch(&mut ann, "accept").await;
    let (a, b) = (news(&mut ann).await, news(&mut bob).await);
    assert_eq!((a["event"].as_str(), b["event"].as_str()), (Some("ready"), Some("ready")), "{a} {b}");
    let game = a["game"].as_u64().unwrap();
    assert_eq!(b["game"].as_u64(), Some(game));
    assert_ne!(game, old);
    assert_eq!((a["player"].as_i64(), b["player"].as_i64()), (Some(1), Some(-1)), "colours swapped");
    assert_ne!(a["token"], b["token"]);

    // Each resumes at the new table with their token.
    let resume = |token: &Value| format!("/ws/play?mode=resume&game={game}&token={}", token.as_str().unwrap());
    let mut bob2 = Client::connect(addr, &resume(&b["token"])).await;
    assert_eq!(bob2.expect("reconnected").await["player"], -1);
    let mut ann2 = Client::connect(addr, &resume(&a["token"])).await;
    assert_eq!(ann2.expect("reconnected").await["player"], 1);
    let s = ann2.until("state").await;
    assert_eq!((s["seats"][0]["name"].as_str(), s["seats"][1]["name"].as_str()), (Some("Bob"), Some("Ann")));
    assert_eq!(s["time_control"], json!({"base_ms": 180_000, "increment_ms": 2000}), "same settings");
    assert_eq!(s["size"], 3);
    bob2.play(1, 1).await;
    assert_eq!(ann2.until("move").await["player"], -1, "Bob opens as Red");

    // The offer was used: accepting again has nothing to accept.
    rematch(&mut ann, "accept").await;
    assert_eq!(ann.until("error").await["code"], "series_not_over");
    drop((ann, bob));
}

#[tokio::test]
async fn a_declined_rematch_is_told_to_both() {
    let addr = start_server().await;
    let query = "mode=quick&size=3&series=1&swap=off&time=none";
    let mut ann = Client::connect(addr, &format!("/ws/play?{query}&name=Ann")).await;
    ann.expect("joined").await;
    let mut bob = Client::connect(addr, &format!("/ws/play?{query}&name=Bob")).await;
    bob.expect("joined").await;
    ann.send("resign", json!({})).await;
    ann.until("series_over").await;
    bob.until("series_over").await;
    rematch(&mut ann, "offer").await;
    assert_eq!(news(&mut ann).await["event"], "offered");
    news(&mut bob).await;
    rematch(&mut bob, "decline").await;
    assert_eq!(news(&mut ann).await, json!({"event": "declined", "by": 1}));
    // A garbled step is refused as such.
    bob.send("rematch", json!({"step": "maybe"})).await;
    assert_eq!(bob.until("error").await["code"], "invalid_payload");
}
