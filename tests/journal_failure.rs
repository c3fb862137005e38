//! A journal that stops working, over real sockets: the table stops
//! before announcing a move it could not keep, everyone at it is told,
//! and `/health` says the server is failing.
#![cfg(feature = "ssr")]

mod common;

use common::ws::Client;
use common::{fresh_database, get, start_server_with_journal};

#[tokio::test]
async fn a_move_the_journal_cannot_keep_is_never_announced() {
    let url = fresh_database(false).await.unwrap();
    let addr = start_server_with_journal(&url, Some("database")).await;
    assert_eq!(get(addr, "/health").await.body, r#"{"status":"ok","database":"ok","journal":"ok"}"#);
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let id = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    red.play(0, 0).await;
    assert_eq!(blue.until("move").await["q"], 0, "a kept move is announced");
    red.until("move").await;
    let mut watcher = Client::connect(addr, &format!("/ws/watch?game={id}")).await;
    watcher.until("state").await;

    // The journal's table goes away under the server's feet.
    let pool = hexarena::server::database::open(Some(&url), false).await.unwrap();
    sqlx::query("DROP TABLE live_moves").execute(&pool).await.unwrap();
    blue.play(1, 1).await;
    for (who, c) in [("blue", &mut blue), ("red", &mut red), ("the spectator", &mut watcher)] {
        loop {
            let m = c.next().await.unwrap_or_else(|| panic!("{who}'s connection closed without a word"));
            assert_ne!(m["type"], "move", "{who} heard of a move that was not kept: {m}");
            if m["type"] == "error" {
                assert_eq!(m["payload"]["code"], "unavailable", "{m}");
                break;
            }
        }
        assert!(c.next().await.is_none(), "{who}'s connection closes");
    }
    let health = get(addr, "/health").await;
    assert_eq!(health.status, 503);
    assert_eq!(health.body, r#"{"status":"failing","database":"ok","journal":"failing"}"#);
    pool.close().await;
}
