//! The real server binary is killed with SIGKILL in the middle of a timed
//! game and started again on the same database: both players come back
//! with their tokens, the board and the clocks are as they were, the game
//! is finished, and the archive holds every move exactly once.
#![cfg(feature = "ssr")]

mod common;

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use common::fresh_database;
use common::ws::{Client, play_moves};
use serde_json::Value;

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The server process, killed when dropped (also when a test fails).
struct Server(Child);

impl Server {
    fn kill(&mut self) -> std::io::Result<()> {
        self.0.kill()
    }

    fn wait(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.0.wait()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `target/…/hexarena` on `port` with the database at `url`.
async fn start(url: &str, journal: Option<&str>, port: u16) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_hexarena"));
    if let Some(place) = journal {
        command.env("HEXARENA_JOURNAL", place);
    }
    let child = Server(
        command
            .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
            .env("LEPTOS_SITE_ROOT", "target/site")
            .env("LEPTOS_OUTPUT_NAME", "hexarena")
            .env("DATABASE_URL", url)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start the server binary"),
    );
    for _ in 0..200 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return child;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not start on port {port}");
}

async fn state(c: &mut Client) -> Value {
    c.until("state").await
}

async fn kill_and_restart(url: &str, journal: Option<&str>) {
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = start(url, journal, port).await;

    let query = "mode=quick&size=5&series=1&swap=off&time=10%2B2";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let joined = red.expect("joined").await;
    let id = joined["slot_id"].as_u64().unwrap();
    let red_token = joined["reconnect_token"].as_str().unwrap().to_string();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    let blue_token = blue.expect("joined").await["reconnect_token"].as_str().unwrap().to_string();
    // Red a1, Blue a2, Red b1: each acknowledged to both before the kill.
    play_moves(&mut red, &mut blue, &[(0, 0, 0), (1, 0, 1), (0, 1, 0)]).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let before = loop {
        let s = state(&mut blue).await;
        if s["moves"].as_array().unwrap().len() == 3 {
            break s;
        }
    };
    server.kill().expect("SIGKILL the server");
    server.wait().expect("reap it");
    drop((red, blue));

    let server = start(url, journal, port).await;
    let mut red = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={red_token}")).await;
    assert_eq!(red.expect("reconnected").await["player"], -1);
    let s = state(&mut red).await;
    assert_eq!(s["moves"], before["moves"], "no move lost");
    assert_eq!(s["phase"], "paused", "waiting for Blue");
    let mut blue = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={blue_token}")).await;
    assert_eq!(blue.expect("reconnected").await["player"], 1);
    let s = loop {
        let s = state(&mut blue).await;
        if s["phase"] == "playing" {
            break s;
        }
    };
    // Clocks as the last moves left them: 10 min base + 2 s a move, minus
    // the (short) thinking time; Blue's clock did not run while the server
    // was down.
    let red_clock = s["seats"][0]["clock_ms"].as_u64().unwrap();
    let blue_clock = s["seats"][1]["clock_ms"].as_u64().unwrap();
    assert!((600_000..=604_000).contains(&red_clock), "red clock {red_clock}");
    assert!((599_000..=602_000).contains(&blue_clock), "blue clock {blue_clock}");
    let blue_before = before["seats"][1]["clock_ms"].as_u64().unwrap();
    assert!(blue_clock.abs_diff(blue_before) < 100, "Blue's clock is where it stood: {blue_before} then {blue_clock}");
    assert_eq!(s["turn"], 1);
    // Finish: Blue b2, Red c1, Blue c2, Red d1, Blue d2, Red e1 wins.
    play_moves(&mut red, &mut blue, &[(1, 1, 1), (0, 2, 0), (1, 2, 1), (0, 3, 0), (1, 3, 1), (0, 4, 0)]).await;
    assert_eq!(red.until("game_over").await["winner"], -1);

    let pool = hexarena::server::database::open(Some(url), false).await.unwrap();
    let mut record = None;
    for _ in 0..100 {
        record = hexarena::server::archive::read::game(&pool, &format!("{id}-1")).await.unwrap();
        if record.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let record = record.expect("the game is archived");
    assert_eq!(record.moves, ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1"], "every move exactly once");
    let place = hexarena::server::journal::JournalPlace::choose(journal, url);
    let live = match &place {
        hexarena::server::journal::JournalPlace::File(path) => {
            assert!(path.exists(), "the journal file {} exists", path.display());
            hexarena::server::journal::load_file(path).unwrap().len() as i64
        }
        hexarena::server::journal::JournalPlace::Database => {
            sqlx::query_scalar("SELECT COUNT(*) FROM live_tables").fetch_one(&pool).await.unwrap()
        }
    };
    assert_eq!(live, 0, "a finished series leaves the journal");
    pool.close().await;
    drop(server);
}

#[tokio::test]
async fn a_killed_server_resumes_games_in_sqlite() {
    let url = fresh_database(false).await.unwrap();
    // The default: a journal file beside the database file.
    kill_and_restart(&url, None).await;
}

#[tokio::test]
async fn a_killed_server_resumes_games_journalled_in_the_sqlite_database() {
    let url = fresh_database(false).await.unwrap();
    kill_and_restart(&url, Some("database")).await;
}

#[tokio::test]
async fn a_killed_server_resumes_games_in_postgres() {
    let Some(url) = fresh_database(true).await else { return };
    // The binary migrates the fresh database itself.
    kill_and_restart(&url, None).await;
}

/// Plays a 3×3 series of one to its end, kills the server with SIGKILL the
/// moment `game_over` arrives, restarts it, and checks that the game is in
/// the archive (statistics and the games list) exactly once.
async fn kill_after_game_over(url: &str, journal: Option<&str>) {
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = start(url, journal, port).await;
    let query = "mode=quick&size=3&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let id = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    // Red a1, Blue a2, Red b1, Blue b2, Red c1 joins left and right.
    for (who, q, r) in [(0, 0, 0), (1, 0, 1), (0, 1, 0), (1, 1, 1), (0, 2, 0)] {
        let mover = if who == 0 { &mut red } else { &mut blue };
        mover.play(q, r).await;
        red.until("move").await;
    }
    red.until("game_over").await;
    server.kill().expect("SIGKILL the server");
    server.wait().expect("reap it");
    drop((red, blue));

    let server = start(url, journal, port).await;
    let stats: Value = serde_json::from_str(&common::get(addr, "/api/statistics").await.body).expect("JSON");
    assert_eq!(stats["totals"]["games"], 1, "the game finished before the kill is archived: {stats}");
    let games = common::get(addr, "/games").await;
    assert!(games.body.contains(&format!("{id}-1")), "the games list shows it");
    let pool = hexarena::server::database::open(Some(url), false).await.unwrap();
    let record = hexarena::server::archive::read::game(&pool, &format!("{id}-1")).await.unwrap();
    assert_eq!(record.expect("archived").moves, ["a1", "a2", "b1", "b2", "c1"]);
    pool.close().await;
    drop(server);
}

#[tokio::test]
async fn a_game_finished_just_before_a_kill_is_archived_sqlite_file_journal() {
    let url = fresh_database(false).await.unwrap();
    kill_after_game_over(&url, None).await;
}

#[tokio::test]
async fn a_game_finished_just_before_a_kill_is_archived_database_journal() {
    let url = fresh_database(false).await.unwrap();
    kill_after_game_over(&url, Some("database")).await;
}

#[tokio::test]
async fn a_game_finished_just_before_a_kill_is_archived_postgres() {
    let Some(url) = fresh_database(true).await else { return };
    kill_after_game_over(&url, None).await;
}

/// Plays the first two moves of a game, then stops the real server with
/// SIGTERM: both players are told it is restarting, it exits cleanly, the
/// journal holds no token in clear, and after a start both players resume.
async fn terminate_and_restart(url: &str, journal: Option<&str>) {
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = start(url, journal, port).await;
    let query = "mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let joined = red.expect("joined").await;
    let id = joined["slot_id"].as_u64().unwrap();
    let red_token = joined["reconnect_token"].as_str().unwrap().to_string();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    let blue_token = blue.expect("joined").await["reconnect_token"].as_str().unwrap().to_string();
    for (who, q, r) in [(0, 0, 0), (1, 0, 1)] {
        let mover = if who == 0 { &mut red } else { &mut blue };
        mover.play(q, r).await;
        red.until("move").await;
        blue.until("move").await;
    }
    let pid = server.0.id().to_string();
    let sent = Command::new("kill").args(["-TERM", &pid]).status().expect("run kill");
    assert!(sent.success());
    for player in [&mut red, &mut blue] {
        let notice = player.until("error").await;
        assert_eq!(notice["code"], "server_restarting", "{notice}");
        player.closed().await;
    }
    let mut exited = None;
    for _ in 0..200 {
        if let Some(status) = server.0.try_wait().expect("poll the server") {
            exited = Some(status);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(exited.expect("the server exits within 10 s of SIGTERM").success());
    if let hexarena::server::journal::JournalPlace::File(path) =
        hexarena::server::journal::JournalPlace::choose(journal, url)
    {
        let kept = std::fs::read_to_string(&path).expect("the journal file");
        assert!(kept.contains("\"token_hash\""), "seats are kept by their token's hash");
        assert!(!kept.contains(&red_token) && !kept.contains(&blue_token), "no token in clear in the journal");
    }

    let server = start(url, journal, port).await;
    let mut red = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={red_token}")).await;
    red.expect("reconnected").await;
    let mut blue = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={blue_token}")).await;
    blue.expect("reconnected").await;
    let s = loop {
        let s = state(&mut red).await;
        if s["phase"] == "playing" {
            break s;
        }
    };
    assert_eq!(s["moves"].as_array().unwrap().len(), 2, "both moves kept: {s}");
    red.play(1, 0).await;
    assert_eq!(blue.until("move").await["q"], 1);
    drop(server);
}

#[tokio::test]
async fn sigterm_tells_players_and_keeps_their_game_sqlite_file_journal() {
    let url = fresh_database(false).await.unwrap();
    terminate_and_restart(&url, None).await;
}

#[tokio::test]
async fn sigterm_tells_players_and_keeps_their_game_postgres() {
    let Some(url) = fresh_database(true).await else { return };
    terminate_and_restart(&url, None).await;
}

/// The same for the last game of a series of three: Red wins two 3×3
/// games, the server is killed the moment the second `game_over` arrives,
/// and after a restart both games are in the archive.
#[tokio::test]
async fn the_deciding_game_of_a_series_survives_a_kill() {
    let url = fresh_database(false).await.unwrap();
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut server = start(&url, None, port).await;
    let query = "mode=quick&size=3&series=3&swap=off&time=none";
    let mut red = Client::connect(addr, &format!("/ws/play?{query}&name=Rae")).await;
    let id = red.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut blue = Client::connect(addr, &format!("/ws/play?{query}&name=Bo")).await;
    blue.expect("joined").await;
    // Game 1, Red first: Red takes row 0 while Blue plays row 2.
    // Game 2, Blue first: the same rows.
    let game_one = [(0, 0, 0), (1, 0, 2), (0, 1, 0), (1, 1, 2), (0, 2, 0)];
    let game_two = [(1, 0, 2), (0, 0, 0), (1, 1, 2), (0, 1, 0), (1, 2, 2), (0, 2, 0)];
    for game in [&game_one[..], &game_two[..]] {
        for &(who, q, r) in game {
            let mover = if who == 0 { &mut red } else { &mut blue };
            mover.play(q, r).await;
            red.until("move").await;
        }
        assert_eq!(red.until("game_over").await["winner"], -1);
    }
    server.kill().expect("SIGKILL the server");
    server.wait().expect("reap it");
    drop((red, blue));

    let server = start(&url, None, port).await;
    let stats: Value = serde_json::from_str(&common::get(addr, "/api/statistics").await.body).expect("JSON");
    assert_eq!(stats["totals"]["games"], 2, "both games of the decided series are archived: {stats}");
    let games = common::get(addr, "/games").await;
    assert!(games.body.contains(&format!("{id}-2")), "the deciding game is listed");
    drop(server);
}
