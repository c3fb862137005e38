//! The archive on a real SQLite file and a real PostgreSQL database: games
//! played over sockets are stored with every move, series and ratings, and
//! read back as statistics, lists and records.
#![cfg(feature = "ssr")]

mod common;

use std::time::Duration;

use common::ws::Client;
use common::{fresh_database, get, start_server_with_archive};
use hexarena::engine::Color;
use serde_json::Value;

/// Two v1 bots play a best-of-3 on 7×7 that player 1 wins 2–0 by rows and
/// columns; returns the series (table) id.
async fn play_series(addr: std::net::SocketAddr) -> u64 {
    let mut red =
        Client::connect(addr, "/ws/matchmake?board_size=7&series_length=3&model_name=alpha&username=ann").await;
    let slot = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut blue = Client::connect(addr, "/ws/matchmake?board_size=7&series_length=3&model_name=beta").await;
    blue.expect("joined").await;
    for game in 0..2 {
        for c in [&mut red, &mut blue] {
            c.until("game_start").await;
        }
        // Game 1 Red opens; game 2 Blue opens and Red still wins.
        let mut turn_red = game == 0;
        let mut red_q = 0;
        let mut blue_q = 0;
        loop {
            if turn_red {
                red.play(red_q, 0).await;
                red_q += 1;
            } else {
                blue.play(blue_q, 3).await;
                blue_q += 1;
            }
            let m = red.expect("move").await;
            blue.expect("move").await;
            if m["next_turn"].is_null() {
                break;
            }
            turn_red = !turn_red;
        }
        for c in [&mut red, &mut blue] {
            assert_eq!(c.expect("game_over").await["winner"], -1);
        }
    }
    for c in [&mut red, &mut blue] {
        c.until("series_over").await;
    }
    slot
}

/// Polls `/api/statistics` until the archive has caught up with `matches`.
async fn statistics(addr: std::net::SocketAddr, matches: u64) -> Value {
    for _ in 0..100 {
        let stats: Value = serde_json::from_str(&get(addr, "/api/statistics").await.body).unwrap();
        if stats["totals"]["matches"].as_u64() == Some(matches) {
            return stats;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the archive never recorded {matches} matches");
}

async fn archive_round_trip(url: &str) {
    let addr = start_server_with_archive(url).await;
    let slot = play_series(addr).await;
    let stats = statistics(addr, 1).await;
    assert_eq!(stats["persistence_enabled"], true);
    assert_eq!(stats["totals"]["games"], 2);
    assert_eq!(stats["totals"]["model_entries"], 2);
    assert_eq!(stats["board_sizes"]["7"], 1);
    assert_eq!(stats["series_lengths"]["3"], 1);
    let leaders = stats["leaderboard"].as_array().unwrap();
    assert_eq!(leaders.len(), 2);
    let alpha = leaders.iter().find(|r| r["model_name"] == "alpha").unwrap();
    assert_eq!(
        (alpha["username"].as_str(), alpha["wins"].as_u64(), alpha["games_won"].as_u64()),
        (Some("ann"), Some(1), Some(2))
    );
    assert_eq!(alpha["win_rate"], 1.0);
    // Bots without a token are listed by their declared names, unrated.
    assert!(alpha["rating"].is_null(), "an unverified bot is not rated: {alpha}");
    assert_eq!(alpha["kind"], "unverified");
    let beta = leaders.iter().find(|r| r["model_name"] == "beta").unwrap();
    assert!(beta["rating"].is_null());
    assert_eq!(leaders[0]["model_name"], "alpha", "unrated, ordered by wins");
    let recent = &stats["recent_matches"][0];
    assert_eq!((recent["slot_id"].as_u64(), recent["winner"].as_i64()), (Some(slot), Some(-1)));
    assert_eq!(recent["games"], serde_json::json!([format!("{slot}-1"), format!("{slot}-2")]));
    assert!(recent["completed_at"].as_str().unwrap().ends_with('Z'));
    let today: u64 = stats["games_per_day"].as_array().unwrap().iter().map(|d| d["games"].as_u64().unwrap()).sum();
    assert_eq!(today, 2);

    // The stored game has every move once, in order, with its time.
    let pool = hexarena::server::database::open(Some(url), false).await.unwrap();
    let record = hexarena::server::archive::read::game(&pool, &format!("{slot}-2")).await.unwrap().expect("game 2");
    assert_eq!(record.first, Color::Blue);
    assert_eq!(record.summary.red.as_deref(), Some("ann (alpha) · unverified bot"), "never passes for an account");
    assert_eq!(stats["recent_matches"][0]["player_1_kind"], "unverified_bot");
    assert_eq!(record.summary.winner, Color::Red);
    assert_eq!(record.moves.len(), 14, "Blue opened: seven stones each");
    assert_eq!(record.moves[0], "a4");
    assert!(record.played_at_ms.windows(2).all(|w| w[0] <= w[1]));
    let page = hexarena::server::archive::read::games(&pool, None, Some(7), 1).await.unwrap();
    assert_eq!(page.total, 2);
    assert_eq!(hexarena::server::archive::read::games(&pool, None, Some(9), 1).await.unwrap().total, 0);
    let matchmade: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM series WHERE room_code IS NULL").fetch_one(&pool).await.unwrap();
    assert_eq!(matchmade, 1, "a matchmaking series has no room");
    let history: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes").fetch_one(&pool).await.unwrap();
    assert_eq!(history, 0, "no game between two accounts, no rating change");
    pool.close().await;

    // A second server on the same database numbers new tables after it.
    let again = start_server_with_archive(url).await;
    let mut c = Client::connect(again, "/ws/matchmake?board_size=9").await;
    assert!(c.expect("joined").await["slot_id"].as_u64().unwrap() > slot);
}

#[tokio::test]
async fn finished_games_are_archived_in_sqlite() {
    let url = fresh_database(false).await.unwrap();
    archive_round_trip(&url).await;
}

#[tokio::test]
async fn finished_games_are_archived_in_postgres() {
    let Some(url) = fresh_database(true).await else { return };
    archive_round_trip(&url).await;
}

/// Signs `name` up through the server function, as the login page does;
/// returns the session cookie.
async fn sign_up(addr: std::net::SocketAddr, name: &str) -> String {
    let r = common::call(addr, "/api/signup", &common::form(&[("name", name), ("password", "hex on a rhombus")]), None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    common::session_cookie(&r).unwrap_or_else(|| panic!("no session: {}", r.body))
}

#[tokio::test]
async fn games_between_two_accounts_are_rated() {
    let url = fresh_database(false).await.unwrap();
    let addr = start_server_with_archive(&url).await;
    let ann = sign_up(addr, "Ann").await;
    let bo = sign_up(addr, "Bo Peep").await;

    // They meet in a private room.
    let created = common::post_form(addr, "/api/create_room", "size=3&series=1&swap=off&time=none").await;
    let location = created.headers.iter().find_map(|h| h.strip_prefix("location: ")).expect("a redirect").to_string();
    let code = location.split("join=").nth(1).and_then(|c| c.split('&').next()).expect("a code").to_uppercase();
    let q = format!("/ws/play?mode=room&code={code}");
    let mut thief = Client::connect(addr, &format!("{q}&player=p_0123&secret=guess")).await;
    assert!(thief.expect("error").await["message"].as_str().unwrap().contains("log in on /login"));
    let mut red = Client::connect_with(addr, &format!("{q}&name=Impostor"), Some(&ann), None).await;
    red.expect("joined").await;
    let mut blue = Client::connect_with(addr, &q, Some(&bo), None).await;
    blue.expect("joined").await;
    let s = blue.until("state").await;
    assert_eq!(s["seats"][0]["name"], "Ann", "the account's name, not the typed one");
    assert_eq!(s["seats"][0]["kind"], "person");
    for (who, q, r) in [(0, 0, 0), (1, 0, 2), (0, 1, 0), (1, 1, 2), (0, 2, 0)] {
        let mover = if who == 0 { &mut red } else { &mut blue };
        mover.play(q, r).await;
        red.until("move").await;
        blue.until("move").await;
    }
    let stats = statistics(addr, 1).await;
    let row = |name: &str| {
        stats["leaderboard"].as_array().unwrap().iter().find(|r| r["display_name"] == name).cloned().unwrap()
    };
    assert_eq!(row("Ann")["kind"], "human");
    assert!(row("Ann")["rating"].as_f64().unwrap() > 1500.0);
    assert!(row("Bo Peep")["rating"].as_f64().unwrap() < 1500.0);
    assert!(!stats.to_string().contains(ann.trim_start_matches("hexarena_session=")), "sessions never leave");
    let pool = hexarena::server::database::open(Some(&url), false).await.unwrap();
    let room: Option<String> = sqlx::query_scalar("SELECT room_code FROM series").fetch_one(&pool).await.unwrap();
    assert_eq!(room.as_deref(), Some(code.as_str()), "the series remembers its room");
}
