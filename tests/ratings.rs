//! `hexarena ratings --rebuild` recomputes exactly the ratings the archive
//! made one game at a time: a few hundred random games between accounts,
//! guests and unverified bots, on SQLite and PostgreSQL.
#![cfg(feature = "ssr")]

mod common;

use std::collections::BTreeMap;

use hexarena::engine::ByColor;
use hexarena::online::account::AccountKind;
use hexarena::online::{GameEnd, PlayerId, TableOptions};
use hexarena::server::archive::{FinishedGame, SeatLabel, ratings, write};
use sqlx::AnyPool;

/// A small deterministic generator, so a failure can be replayed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

const ACCOUNTS: [(&str, &str, AccountKind); 6] = [
    ("p_ann", "Ann", AccountKind::Person),
    ("p_bo", "Bo", AccountKind::Person),
    ("p_cy", "Cy", AccountKind::Person),
    ("p_di", "Di", AccountKind::Person),
    ("b_alpha", "Alpha", AccountKind::Bot),
    ("b_beta", "Beta", AccountKind::Bot),
];

async fn add_accounts(pool: &AnyPool) {
    for (id, name, kind) in ACCOUNTS {
        let owner = (kind == AccountKind::Bot).then_some("p_ann");
        sqlx::query(
            "INSERT INTO players (id, display_name, name_key, name_skeleton, kind, owner_id, created_at_ms) \
             VALUES ($1, $2, $3, $3, $4, $5, 0)",
        )
        .bind(id)
        .bind(name)
        .bind(name.to_lowercase())
        .bind(kind.stored())
        .bind(owner)
        .execute(pool)
        .await
        .expect("an account");
    }
}

fn seat(rng: &mut Lcg) -> SeatLabel {
    match rng.below(8) {
        0 => SeatLabel { name: Some("Typed".into()), ..SeatLabel::default() },
        1 => SeatLabel { name: Some("rnd".into()), model: Some("random".into()), ..SeatLabel::default() },
        _ => {
            let (id, name, kind) = ACCOUNTS[rng.below(ACCOUNTS.len() as u64) as usize];
            SeatLabel { name: Some(name.into()), model: None, player_id: Some(id.into()), account_kind: kind }
        }
    }
}

fn game(rng: &mut Lcg, series: u64) -> FinishedGame {
    let size = [5, 7, 9, 11, 13, 19][rng.below(6) as usize];
    let winner = if rng.below(2) == 0 { PlayerId::Red } else { PlayerId::Blue };
    FinishedGame {
        series_id: series,
        room_code: None,
        number: 1,
        options: TableOptions::browser(size, 1, false, None).expect("options"),
        first: PlayerId::Red,
        moves: Vec::new(),
        times: Vec::new(),
        clocks: Vec::new(),
        seats: ByColor { red: seat(rng), blue: seat(rng) },
        winner,
        reason: GameEnd::Resignation,
        started_ms: series * 1000,
        // Some finish at the same moment: the archive's order decides.
        finished_ms: series / 3 * 1000 + 500,
        score: ByColor { red: u32::from(winner == PlayerId::Red), blue: u32::from(winner == PlayerId::Blue) },
        series_winner: Some(winner),
    }
}

type Table = BTreeMap<(String, String), (f64, f64, f64, i64)>;

async fn ratings_table(pool: &AnyPool) -> Table {
    let rows: Vec<(String, String, f64, f64, f64, i64)> =
        sqlx::query_as("SELECT player_id, class, rating, deviation, volatility, CAST(games AS BIGINT) FROM ratings")
            .fetch_all(pool)
            .await
            .expect("ratings");
    rows.into_iter().map(|(p, c, r, d, v, g)| ((p, c), (r, d, v, g))).collect()
}

async fn changes(pool: &AnyPool) -> Vec<(String, String, String, f64)> {
    sqlx::query_as("SELECT player_id, game_id, class, rating FROM rating_changes ORDER BY player_id, game_id, class")
        .fetch_all(pool)
        .await
        .expect("rating changes")
}

async fn rebuild_equals_incremental(postgres: bool) {
    let Some(url) = common::fresh_database(postgres).await else { return };
    let pool = hexarena::server::database::open(Some(&url), true).await.expect("open");
    add_accounts(&pool).await;
    let mut rng = Lcg(2026);
    let games: Vec<FinishedGame> = (1..=300).map(|id| game(&mut rng, id)).collect();
    // In batches, as the archive's writer commits them.
    for batch in games.chunks(7) {
        assert!(write::record_all(&pool, batch).await.is_empty(), "every game written");
    }
    let incremental = ratings_table(&pool).await;
    let incremental_changes = changes(&pool).await;
    let rated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE rated").fetch_one(&pool).await.unwrap();
    let expected = games
        .iter()
        .filter(|g| matches!((g.seats.red.account(), g.seats.blue.account()), (Some(a), Some(b)) if a != b))
        .count();
    assert_eq!(rated as usize, expected, "rated exactly when both seats are two different accounts");
    assert!(rated > 100, "enough rated games to mean something: {rated}");
    let classes: std::collections::BTreeSet<&str> = incremental.keys().map(|(_, c)| c.as_str()).collect();
    assert_eq!(classes.into_iter().collect::<Vec<_>>(), ["all", "large", "medium", "small"]);
    assert!(incremental.keys().all(|(p, _)| !p.starts_with("bot:")), "no rating for anything but accounts");

    let done = ratings::rebuild(&pool).await.expect("rebuild");
    assert_eq!(done.games, rated as usize);
    // The command does the same, from the binary.
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexarena"))
        .args(["ratings", "--rebuild"])
        .env("DATABASE_URL", &url)
        .output()
        .await
        .expect("run hexarena ratings --rebuild");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains(&format!("from {rated} rated games")), "{said}");
    assert_eq!(ratings_table(&pool).await, incremental, "the rebuild gives the same numbers, exactly");
    assert_eq!(changes(&pool).await, incremental_changes);
    // Per class, games add up to the overall count.
    for (id, _, _) in ACCOUNTS {
        let all = incremental.get(&(id.to_string(), "all".to_string())).map_or(0, |r| r.3);
        let by_class: i64 = ["small", "medium", "large"]
            .iter()
            .filter_map(|c| incremental.get(&(id.to_string(), c.to_string())))
            .map(|r| r.3)
            .sum();
        assert_eq!(all, by_class, "{id}");
    }
}

#[tokio::test]
async fn the_rebuild_equals_the_incremental_ratings_on_sqlite() {
    rebuild_equals_incremental(false).await;
}

#[tokio::test]
async fn the_rebuild_equals_the_incremental_ratings_on_postgres() {
    rebuild_equals_incremental(true).await;
}

#[tokio::test]
async fn the_command_refuses_what_it_does_not_know() {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hexarena"))
        .args(["ratings", "--rebuild-everything"])
        .output()
        .await
        .expect("run hexarena ratings");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("usage: hexarena ratings --rebuild"));
}
