//! Three real server processes share live play through the Redis server on
//! this machine (a fresh key prefix per test, removed afterwards) and keep
//! their games in a fresh PostgreSQL database: players, rooms and
//! spectators on different instances meet at one table, every instance
//! lists every table, and when the instance that owns a game is killed
//! with SIGKILL another takes it over and both players finish it.
#![cfg(feature = "ssr")]

mod common;

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::ws::{Client, play_moves, until_playing};
use common::{call, form, fresh_database, get, post_form};
use serde_json::Value;

const REDIS: &str = "redis://127.0.0.1:6379/0";

/// One instance; killed when dropped (also when a test fails).
struct Instance {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Instances sharing one prefix and database; the prefix's keys are
/// deleted when it is dropped.
struct TestCluster {
    instances: Vec<Instance>,
    prefix: String,
    database: String,
}

impl Drop for TestCluster {
    fn drop(&mut self) {
        self.instances.clear();
        let prefix = self.prefix.clone();
        let cleaned = std::thread::spawn(move || delete_keys(&prefix)).join();
        if !matches!(cleaned, Ok(Ok(()))) {
            eprintln!("the test's Redis keys under '{}' could not all be deleted", self.prefix);
        }
    }
}

fn delete_keys(prefix: &str) -> redis::RedisResult<()> {
    let client = redis::Client::open(REDIS)?;
    let mut conn = client.get_connection()?;
    let keys: Vec<String> = redis::cmd("KEYS").arg(format!("{prefix}:*")).query(&mut conn)?;
    if !keys.is_empty() {
        redis::cmd("DEL").arg(keys).exec(&mut conn)?;
    }
    Ok(())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

async fn start_instance(database: &str, prefix: &str) -> Instance {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_hexarena"))
        .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{port}"))
        .env("LEPTOS_SITE_ROOT", "target/site")
        .env("LEPTOS_OUTPUT_NAME", "hexarena")
        .env("DATABASE_URL", database)
        .env("HEXARENA_REDIS_URL", REDIS)
        .env("HEXARENA_REDIS_PREFIX", prefix)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start the server binary");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let instance = Instance { child, addr };
    for _ in 0..300 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return instance;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("an instance did not start on port {port}");
}

/// Three instances, or `None` (after a loud message) without Redis or
/// PostgreSQL on this machine.
async fn start_cluster() -> Option<TestCluster> {
    if tokio::net::TcpStream::connect("127.0.0.1:6379").await.is_err() {
        eprintln!("\n!!!!!!!! SKIPPED: no Redis at 127.0.0.1:6379; scripts/test.sh starts the machine's Redis.\n");
        return None;
    }
    let database = fresh_database(true).await?;
    let unique = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let prefix = format!("hexarena-test-{}-{unique}", std::process::id());
    // The first instance migrates the fresh database; the others find it ready.
    let first = start_instance(&database, &prefix).await;
    let mut instances = vec![first];
    for _ in 0..2 {
        instances.push(start_instance(&database, &prefix).await);
    }
    Some(TestCluster { instances, prefix, database })
}

impl TestCluster {
    fn addr(&self, i: usize) -> SocketAddr {
        self.instances[i].addr
    }
}

/// The slot ids `GET /slots` lists on `addr`.
async fn listed(addr: SocketAddr) -> Vec<u64> {
    let slots: Value = serde_json::from_str(&get(addr, "/slots").await.body).expect("JSON");
    slots.as_array().expect("a list").iter().filter_map(|s| s["slot_id"].as_u64()).collect()
}

/// Waits until every instance lists table `id`.
async fn listed_everywhere(cluster: &TestCluster, id: u64) {
    for i in 0..cluster.instances.len() {
        let mut seen = false;
        for _ in 0..100 {
            if listed(cluster.addr(i)).await.contains(&id) {
                seen = true;
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert!(seen, "instance {i} lists table {id}");
    }
}

/// Reads a feed until one of its lists (as `slots_of` finds it in a
/// message) holds table `id`.
async fn feed_lists(feed: &mut Client, id: u64, slots_of: impl Fn(&Value) -> Option<Vec<Value>>) {
    for _ in 0..50 {
        let message = feed.next().await.expect("the feed stays open");
        if slots_of(&message).is_some_and(|slots| slots.iter().any(|s| s["slot_id"].as_u64() == Some(id))) {
            return;
        }
    }
    panic!("the feed never listed table {id}");
}

/// Plays a game on a `size` board that the first mover (Red) wins along
/// r = 0 while Blue plays r = 2; both players (and `watcher`) see every move.
async fn play_out(red: &mut Client, blue: &mut Client, size: i64, mut watcher: Option<&mut Client>) -> usize {
    let mut plies = 0;
    for i in 0..size {
        red.play(i, 0).await;
        plies += 1;
        for c in [&mut *red, &mut *blue] {
            c.until("move").await;
        }
        if let Some(w) = watcher.as_deref_mut() {
            w.until("move").await;
        }
        if i + 1 < size {
            blue.play(i, 2).await;
            plies += 1;
            for c in [&mut *red, &mut *blue] {
                c.until("move").await;
            }
            if let Some(w) = watcher.as_deref_mut() {
                w.until("move").await;
            }
        }
    }
    for c in [&mut *red, &mut *blue] {
        assert_eq!(c.until("game_over").await["winner"], -1);
    }
    plies
}

/// How many moves the archive holds of game `number` of series `id`,
/// waiting for it to be archived.
async fn archived_moves(database: &str, id: u64) -> i64 {
    let pool = hexarena::server::database::open(Some(database), false).await.expect("the test database");
    for _ in 0..100 {
        let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE series_id = $1")
            .bind(id as i64)
            .fetch_one(&pool)
            .await
            .unwrap();
        if games > 0 {
            assert_eq!(games, 1, "series {id} is archived once");
            let moves = sqlx::query_scalar("SELECT COUNT(*) FROM game_moves WHERE game_id = $1")
                .bind(format!("{id}-1"))
                .fetch_one(&pool)
                .await
                .unwrap();
            pool.close().await;
            return moves;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("series {id} was never archived");
}

#[tokio::test]
async fn players_rooms_and_spectators_meet_across_instances() {
    let Some(cluster) = start_cluster().await else { return };

    // Each instance reports its Redis heartbeat to health checks.
    for i in 0..3 {
        let health = get(cluster.addr(i), "/health").await;
        assert_eq!(health.status, 200);
        assert!(health.body.contains(r#""redis":"ok""#), "{}", health.body);
    }

    // Two v1 bots: one matchmakes on instance 0, the other on instance 1.
    let path = |model: &str| format!("/ws/matchmake?board_size=7&series_length=1&model_name={model}");
    let mut red = Client::connect(cluster.addr(0), &path("m1")).await;
    let slot = red.expect("joined").await["slot_id"].as_u64().unwrap();
    listed_everywhere(&cluster, slot).await;
    // The live feeds of the other instances carry it too.
    let mut slots_feed = Client::connect(cluster.addr(1), "/ws/slots").await;
    let mut overview = Client::connect(cluster.addr(2), "/ws/overview").await;
    feed_lists(&mut slots_feed, slot, |m| m.as_array().cloned()).await;
    feed_lists(&mut overview, slot, |m| m["payload"]["slots"].as_array().cloned()).await;
    let mut blue = Client::connect(cluster.addr(1), &path("m2")).await;
    let joined = blue.expect("joined").await;
    assert_eq!((joined["slot_id"].as_u64(), joined["player"].as_i64()), (Some(slot), Some(1)));
    for c in [&mut red, &mut blue] {
        c.until("game_start").await;
    }
    // A spectator on the third instance sees every move.
    let mut watcher = Client::connect(cluster.addr(2), &format!("/ws/watch?game={slot}")).await;
    assert_eq!(watcher.until("state").await["phase"], "playing");
    let plies = play_out(&mut red, &mut blue, 7, Some(&mut watcher)).await;
    assert_eq!(watcher.until("game_over").await["winner"], -1);
    assert_eq!(archived_moves(&cluster.database, slot).await, plies as i64, "every move stored once");

    // Two browser-protocol players on instances 1 and 2.
    let query = "/ws/play?mode=quick&size=5&series=1&swap=off&time=none";
    let mut rae = Client::connect(cluster.addr(1), &format!("{query}&name=Rae")).await;
    let table = rae.expect("joined").await["slot_id"].as_u64().unwrap();
    let mut bo = Client::connect(cluster.addr(2), &format!("{query}&name=Bo")).await;
    assert_eq!(bo.expect("joined").await["slot_id"].as_u64(), Some(table));
    let plies = play_out(&mut rae, &mut bo, 5, None).await;
    assert_eq!(archived_moves(&cluster.database, table).await, plies as i64);

    // A room made on instance 1 is joined through instance 2 by its code.
    let made = post_form(cluster.addr(1), "/api/create_room", "size=7&series=1&swap=off&time=none&name=Ann").await;
    let location = made.headers.iter().find_map(|h| h.strip_prefix("location: ")).expect("a Location").to_string();
    let (page, code) = location.split_once("?join=").expect("a join code");
    let code = code.split('&').next().unwrap().to_uppercase();
    let room: u64 = page.trim_start_matches("/game/").parse().unwrap();
    let mut ann = Client::connect(cluster.addr(1), &format!("/ws/play?mode=room&code={code}&name=Ann")).await;
    assert_eq!(ann.expect("joined").await["slot_id"].as_u64(), Some(room));
    let mut bob = Client::connect(cluster.addr(2), &format!("/ws/play?mode=room&code={code}&name=Bob")).await;
    assert_eq!(bob.expect("joined").await["slot_id"].as_u64(), Some(room));
    assert_eq!(ann.until("game_start").await["board_size"], 7);
    // The game page renders on an instance that does not run it.
    let page = get(cluster.addr(0), &format!("/game/{room}")).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Ann") && page.body.contains("Bob"), "the page shows both players");
    // A wrong code is refused on any instance, and wrong guesses count on
    // every instance: ten (the default limit a minute) spread over three.
    for i in 0..10 {
        let mut eve = Client::connect(cluster.addr(i % 3), "/ws/play?mode=room&code=ZZZZZ9&name=Eve").await;
        assert_eq!(eve.expect("error").await["code"], "no_such_room");
    }
    let mut eve = Client::connect(cluster.addr(2), &format!("/ws/play?mode=room&code={code}&name=Eve")).await;
    assert_eq!(eve.expect("error").await["code"], "too_many_attempts", "even the right code waits");
}

/// Reconnects with `token` through `addr`, retrying while the table is
/// being taken over; returns the seat it resumed.
async fn resume(addr: SocketAddr, id: u64, token: &str) -> (Client, Value) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut c = Client::connect(addr, &format!("/ws/play?mode=resume&game={id}&token={token}")).await;
        match c.next().await {
            Some(m) if m["type"] == "reconnected" => return (c, m["payload"].clone()),
            other => assert!(Instant::now() < deadline, "no take-over within 20 s: last answer {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_killed_owner_s_game_is_taken_over_and_finished() {
    let Some(mut cluster) = start_cluster().await else { return };
    let query = "/ws/play?mode=quick&size=5&series=1&swap=off&time=10%2B2";
    // Red opens the table on instance 0, which owns it; Blue joins through 1.
    let mut red = Client::connect(cluster.addr(0), &format!("{query}&name=Rae")).await;
    let joined = red.expect("joined").await;
    let id = joined["slot_id"].as_u64().unwrap();
    let red_token = joined["reconnect_token"].as_str().unwrap().to_string();
    let mut blue = Client::connect(cluster.addr(1), &format!("{query}&name=Bo")).await;
    let blue_token = blue.expect("joined").await["reconnect_token"].as_str().unwrap().to_string();
    let mut watcher = Client::connect(cluster.addr(2), &format!("/ws/watch?game={id}")).await;
    // Red a1, Blue a3, Red b1: each seen by both before the kill.
    play_moves(&mut red, &mut blue, &[(0, 0, 0), (1, 0, 2), (0, 1, 0)]).await;
    let before = loop {
        let s = watcher.until("state").await;
        if s["moves"].as_array().is_some_and(|m| m.len() == 3) {
            break s;
        }
    };

    let killed = Instant::now();
    cluster.instances[0].child.kill().expect("SIGKILL the owner");
    cluster.instances[0].child.wait().expect("reap it");
    // Blue's socket on instance 1 is told the server restarts and closed.
    assert_eq!(blue.until("error").await["code"], "server_restarting");
    blue.closed().await;
    let (mut blue, seat) = resume(cluster.addr(2), id, &blue_token).await;
    let took = killed.elapsed();
    assert_eq!(seat["player"], 1);
    let (mut red, seat) = resume(cluster.addr(1), id, &red_token).await;
    assert_eq!(seat["player"], -1);
    println!("take-over: Blue resumed through another instance {} ms after the owner was killed", took.as_millis());
    let s = until_playing(&mut red).await;
    assert_eq!(s["moves"], before["moves"], "no move lost");
    let blue_clock = s["seats"][1]["clock_ms"].as_u64().unwrap();
    let blue_before = before["seats"][1]["clock_ms"].as_u64().unwrap();
    assert!(blue_clock.abs_diff(blue_before) < 200, "Blue's clock stood still: {blue_before} then {blue_clock}");
    assert_eq!(s["turn"], 1);
    // Finish: Blue b3, Red c1, Blue c3, Red d1, Blue d3, Red e1 wins.
    play_moves(&mut red, &mut blue, &[(1, 1, 2), (0, 2, 0), (1, 2, 2), (0, 3, 0), (1, 3, 2), (0, 4, 0)]).await;
    assert_eq!(red.until("game_over").await["winner"], -1);
    assert_eq!(archived_moves(&cluster.database, id).await, 9, "every move stored once");
}

#[tokio::test]
async fn a_cluster_will_not_start_on_storage_one_machine_holds_or_without_redis() {
    let run = |database: &str, redis: &str| {
        Command::new(env!("CARGO_BIN_EXE_hexarena"))
            .env("LEPTOS_SITE_ADDR", format!("127.0.0.1:{}", free_port()))
            .env("LEPTOS_SITE_ROOT", "target/site")
            .env("DATABASE_URL", database)
            .env("HEXARENA_REDIS_URL", redis)
            .env("HEXARENA_REDIS_PREFIX", "hexarena-test-refused")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("run the server binary")
    };
    let dir = std::env::temp_dir().join(format!("hexarena-cluster-refused-{}", std::process::id()));
    let sqlite = format!("sqlite://{}?mode=rwc", dir.join("x.db").display());
    let out = run(&sqlite, REDIS);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(said.contains("PostgreSQL") && said.contains("SQLite"), "says why: {said}");
    assert!(!dir.join("x.db").exists(), "nothing was created");

    let out = run("postgres://postgres@127.0.0.1:5432/test", "http://127.0.0.1:6379");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("redis://"));
    if tokio::net::TcpStream::connect("127.0.0.1:5432").await.is_ok() {
        // A Redis nobody listens on: the instance says so and stops.
        let out = run("postgres://postgres@127.0.0.1:5432/test", &format!("redis://127.0.0.1:{}/0", free_port()));
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot join the cluster"));
    }
}

#[tokio::test]
async fn a_stopping_owner_hands_its_game_over_at_once() {
    let Some(cluster) = start_cluster().await else { return };
    let query = "/ws/play?mode=quick&size=5&series=1&swap=off&time=none";
    let mut red = Client::connect(cluster.addr(0), &format!("{query}&name=Rae")).await;
    let joined = red.expect("joined").await;
    let id = joined["slot_id"].as_u64().unwrap();
    let red_token = joined["reconnect_token"].as_str().unwrap().to_string();
    let mut blue = Client::connect(cluster.addr(1), &format!("{query}&name=Bo")).await;
    let blue_token = blue.expect("joined").await["reconnect_token"].as_str().unwrap().to_string();
    red.play(0, 0).await;
    blue.until("move").await;

    // A rolling restart: SIGTERM, as a service manager sends.
    let stopped = Instant::now();
    let pid = cluster.instances[0].child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().expect("kill").success());
    for c in [&mut red, &mut blue] {
        assert_eq!(c.until("error").await["code"], "server_restarting");
    }
    let (mut blue, seat) = resume(cluster.addr(2), id, &blue_token).await;
    let took = stopped.elapsed();
    assert_eq!(seat["player"], 1);
    // The stopping instance removed its heartbeat when it had handed
    // everything to the journal: no waiting for it to expire.
    assert!(took < Duration::from_millis(2_900), "handed over in {} ms", took.as_millis());
    println!("rolling restart: Blue resumed through another instance {} ms after SIGTERM", took.as_millis());
    let (mut red, _) = resume(cluster.addr(1), id, &red_token).await;
    let s = until_playing(&mut red).await;
    assert_eq!(s["moves"].as_array().map(Vec::len), Some(1), "the move before the restart is kept");
    let rest = [(1, 0, 2), (0, 1, 0), (1, 1, 2), (0, 2, 0), (1, 2, 2), (0, 3, 0), (1, 3, 2), (0, 4, 0)];
    play_moves(&mut red, &mut blue, &rest).await;
    assert_eq!(red.until("game_over").await["winner"], -1);
    assert_eq!(archived_moves(&cluster.database, id).await, 9, "every move stored once");
}

#[tokio::test]
async fn failed_logins_count_on_every_instance() {
    let Some(cluster) = start_cluster().await else { return };
    let password = "correct horse battery";
    let signup = form(&[("name", "Ada"), ("password", password)]);
    assert_eq!(call(cluster.addr(0), "/api/signup", &signup, None).await.status, 200);
    let login = |i: usize, password: &'static str| {
        let addr = cluster.addr(i);
        async move { call(addr, "/api/login", &form(&[("name", "Ada"), ("password", password)]), None).await }
    };
    // Five wrong guesses (the default limit per name), spread over the instances …
    for i in 0..5 {
        let wrong = login(i % 3, "guess guess guess").await;
        assert!(wrong.body.contains("Wrong name or password"), "{}", wrong.body);
    }
    // … and even the right password waits, on an instance that saw two.
    let throttled = login(2, password).await;
    assert_eq!(throttled.status, 429, "{}", throttled.body);
    assert!(throttled.body.contains("try again in"), "{}", throttled.body);
}
