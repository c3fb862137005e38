//! Bot accounts: a person makes bots and tokens; the stock hexgame client
//! with `--server ws://HOST/bot/TOKEN` plays as that bot and is rated; a
//! wrong or revoked token is refused with a clear error; a client without
//! a token plays, unrated, as an unverified bot. A custom client may send
//! the token as `Authorization: Bearer`.
#![cfg(feature = "ssr")]

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use common::ws::Client;
use common::{call, form, fresh_database, hexgame_bin, session_cookie, start_server_with_archive};
use serde_json::Value;
use tokio::process::Command;

/// Signs up a person and makes a bot under them; returns the person's
/// cookie, the bot's id and its token.
async fn owner_with_bot(addr: std::net::SocketAddr, person: &str, bot: &str) -> (String, String, String) {
    let made = call(addr, "/api/signup", &form(&[("name", person), ("password", "a bot's keeper 7")]), None).await;
    let cookie = session_cookie(&made).unwrap_or_else(|| panic!("signed up: {}", made.body));
    let answer =
        call(addr, "/api/create_bot", &form(&[("name", bot), ("description", "plays at random")]), Some(&cookie)).await;
    let answer: Value = serde_json::from_str(&answer.body).unwrap_or_else(|e| panic!("{e}: {}", answer.body));
    let shown = &answer["Done"];
    let token = shown["token"].as_str().unwrap_or_else(|| panic!("a token: {answer}")).to_string();
    (cookie, shown["bot_id"].as_str().expect("a bot id").to_string(), token)
}

/// Runs `hexgame random` against `server` (a `ws://` address); its output
/// and whether it succeeded.
async fn random_client(bin: &PathBuf, server: String, seed: u32) -> (bool, String) {
    let child = Command::new(bin)
        .args(["random", "--server", &server, "--board-size", "7", "--series-length", "1"])
        .args(["--seed", &seed.to_string(), "--move-delay", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start hexgame random");
    let out = tokio::time::timeout(Duration::from_secs(60), child.wait_with_output())
        .await
        .expect("hexgame random finishes within 60 s")
        .expect("hexgame random runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

async fn rated_games(url: &str, bot: &str) -> i64 {
    let pool = hexarena::server::database::open(Some(url), false).await.expect("open");
    sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes WHERE player_id = $1 AND class = 'all'")
        .bind(bot.to_string())
        .fetch_one(&pool)
        .await
        .expect("count")
}

async fn wait_for_games(url: &str, games: i64) {
    let pool = hexarena::server::database::open(Some(url), false).await.expect("open");
    for _ in 0..200 {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games").fetch_one(&pool).await.expect("count");
        if n >= games {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the archive never held {games} games");
}

#[tokio::test]
async fn hexgame_clients_play_as_their_bot_accounts_and_are_rated() {
    let Some(bin) = hexgame_bin() else { return };
    let url = fresh_database(false).await.unwrap();
    let addr = start_server_with_archive(&url).await;
    let (_, alpha, alpha_token) = owner_with_bot(addr, "Ann", "Alpha").await;
    let (owner, beta, beta_token) = owner_with_bot(addr, "Bea", "Beta").await;

    let ((a_ok, a), (b_ok, b)) =
        tokio::join!(random_client(&bin, format!("ws://{addr}/bot/{alpha_token}"), 1), async {
            tokio::time::sleep(Duration::from_millis(300)).await;
            random_client(&bin, format!("ws://{addr}/bot/{beta_token}"), 2).await
        });
    assert!(a_ok && b_ok, "{a}\n{b}");
    assert!(a.contains("'type': 'series_over'") && b.contains("'type': 'series_over'"), "{a}\n{b}");
    wait_for_games(&url, 1).await;
    assert_eq!(rated_games(&url, &alpha).await, 1, "rated as the bot Alpha, whatever model it declared");
    assert_eq!(rated_games(&url, &beta).await, 1);
    let stats: Value = serde_json::from_str(&common::get(addr, "/api/statistics").await.body).unwrap();
    let row = stats["leaderboard"].as_array().unwrap().iter().find(|r| r["display_name"] == "Alpha").cloned();
    let row = row.unwrap_or_else(|| panic!("Alpha on the leaderboard: {stats}"));
    assert_eq!(row["kind"], "bot");
    assert!(row["rating"].as_f64().is_some(), "{row}");

    // A wrong token and a revoked one are refused, saying why.
    let (ok, out) = random_client(&bin, format!("ws://{addr}/bot/hxb_not_a_token"), 3).await;
    assert!(out.contains("Unknown bot token"), "ok={ok}: {out}");
    let rotated = call(addr, "/api/rotate_bot_token", &form(&[("bot", &beta)]), Some(&owner)).await;
    assert!(rotated.body.contains("hxb_"), "{}", rotated.body);
    let (ok, out) = random_client(&bin, format!("ws://{addr}/bot/{beta_token}"), 4).await;
    assert!(out.contains("revoked"), "ok={ok}: {out}");

    // Without a token: plays, unrated, as an unverified bot.
    let ((c_ok, c), (d_ok, d)) = tokio::join!(random_client(&bin, format!("ws://{addr}"), 5), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        random_client(&bin, format!("ws://{addr}"), 6).await
    });
    assert!(c_ok && d_ok && c.contains("series_over") && d.contains("series_over"), "{c}\n{d}");
    wait_for_games(&url, 2).await;
    let pool = hexarena::server::database::open(Some(&url), false).await.unwrap();
    let rated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE rated").fetch_one(&pool).await.unwrap();
    assert_eq!(rated, 1, "only the game between the two bot accounts");
    let stored = std::fs::read(url.trim_start_matches("sqlite://").split('?').next().unwrap()).unwrap_or_default();
    let wal = std::fs::read(format!("{}-wal", url.trim_start_matches("sqlite://").split('?').next().unwrap()))
        .unwrap_or_default();
    for token in [&alpha_token, &beta_token] {
        let text = String::from_utf8_lossy(&stored) + String::from_utf8_lossy(&wal);
        assert!(!text.contains(token.as_str()), "a token in the clear");
    }
}

#[tokio::test]
async fn a_custom_client_sends_its_token_as_a_bearer_header() {
    let url = fresh_database(false).await.unwrap();
    let addr = start_server_with_archive(&url).await;
    let (_, _, token) = owner_with_bot(addr, "Cid", "Gamma").await;
    let mut bot = Client::connect_with(addr, "/ws/matchmake?board_size=9&model_name=mine", None, Some(&token)).await;
    let slot = bot.expect("joined").await["slot_id"].as_u64().unwrap();
    let slots: Value = serde_json::from_str(&common::get(addr, "/slots").await.body).unwrap();
    let mine = slots.as_array().unwrap().iter().find(|s| s["slot_id"].as_u64() == Some(slot)).cloned().unwrap();
    assert_eq!(mine["player_usernames"]["-1"], "Gamma", "named as the bot, not as it declared");
    assert_eq!(mine["player_kinds"]["-1"], "bot");
    let mut forged = Client::connect_with(addr, "/ws/matchmake?board_size=9", None, Some("hxb_forged")).await;
    let refused = forged.expect("error").await;
    assert_eq!(refused["code"], "bad_bot_token", "{refused}");
}
