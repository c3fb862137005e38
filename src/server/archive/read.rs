//! Reading the archive: statistics in hexgame's shape, the list of games,
//! one game in full.

use std::collections::{BTreeMap, HashMap};

use sqlx::AnyPool;
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::engine::Color;
use crate::online::GameEnd;
use crate::online::account::{SeatKind, seat_label};
use crate::online::records::{
    DayCount, GamePage, GameRecord, GameSummary, LeaderboardRow, RecentMatch, Statistics, day_of, iso_time,
};

pub use crate::online::records::PAGE_SIZE;

fn text(row: &AnyRow, column: &str) -> Result<Option<String>, sqlx::Error> {
    row.try_get::<Option<String>, _>(column)
}

fn int(row: &AnyRow, column: &str) -> Result<i64, sqlx::Error> {
    row.try_get::<i64, _>(column)
}

/// A column no version of hexarena writes this way: the row is refused
/// rather than shown wrong.
fn undecodable(column: &str, value: &str) -> sqlx::Error {
    sqlx::Error::ColumnDecode { index: column.to_string(), source: format!("unexpected value {value:?}").into() }
}

fn colour(row: &AnyRow, column: &str) -> Result<Color, sqlx::Error> {
    let value: String = row.try_get(column)?;
    match value.as_str() {
        "red" => Ok(Color::Red),
        "blue" => Ok(Color::Blue),
        _ => Err(undecodable(column, &value)),
    }
}

fn game_end(row: &AnyRow, column: &str) -> Result<GameEnd, sqlx::Error> {
    let value: String = row.try_get(column)?;
    GameEnd::from_stored(&value).ok_or_else(|| undecodable(column, &value))
}

/// A player of record, as the leaderboard shows them.
struct Known {
    name: String,
    kind: SeatKind,
    rating: Option<f64>,
    deviation: Option<f64>,
}

/// The leaderboard's `kind`: `human` and `bot` for accounts (rated),
/// `guest` and `unverified` for the others.
fn kind_name(kind: SeatKind) -> &'static str {
    match kind {
        SeatKind::Person => "human",
        SeatKind::Bot => "bot",
        SeatKind::Guest => "guest",
        SeatKind::UnverifiedBot => "unverified",
    }
}

/// Everything `/statistics` and `/api/statistics` show. `now_ms` fixes the
/// 30-day window of the per-day counts.
pub async fn statistics(pool: &AnyPool, now_ms: i64) -> Result<Statistics, sqlx::Error> {
    let series = sqlx::query(
        "SELECT id, board_size, series_length, games_played, winner, red_player, blue_player, red_username, red_model, \
         blue_username, blue_model, red_wins, blue_wins, finished_at_ms FROM series WHERE winner IS NOT NULL \
         ORDER BY finished_at_ms DESC, id DESC",
    )
    .fetch_all(pool)
    .await?;
    let players: HashMap<String, Known> = sqlx::query(
        "SELECT p.id, p.display_name, p.kind, p.owner_id, r.rating, r.deviation FROM players p \
         LEFT JOIN ratings r ON r.player_id = p.id AND r.class = 'all'",
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| {
        let kind: String = r.try_get("kind")?;
        let owner: Option<String> = r.try_get("owner_id")?;
        let seat = SeatKind::of_stored(&kind, owner.is_some());
        Ok((
            r.try_get::<String, _>("id")?,
            Known {
                name: r.try_get("display_name")?,
                kind: seat,
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
            },
        ))
    })
    .collect::<Result<_, sqlx::Error>>()?;

    let mut stats = Statistics { persistence_enabled: true, ..Statistics::default() };
    let mut board: BTreeMap<(Option<String>, String, Option<String>), LeaderboardRow> = BTreeMap::new();
    for row in &series {
        let games_played = int(row, "games_played")?;
        stats.totals.matches += 1;
        stats.totals.games += games_played.max(0) as u64;
        *stats.board_sizes.entry(int(row, "board_size")?.to_string()).or_default() += 1;
        *stats.series_lengths.entry(int(row, "series_length")?.to_string()).or_default() += 1;
        let winner = text(row, "winner")?.unwrap_or_default();
        let wins = [int(row, "red_wins")?.max(0) as u64, int(row, "blue_wins")?.max(0) as u64];
        for (i, side) in ["red", "blue"].into_iter().enumerate() {
            stats.totals.model_entries += 1;
            let player = text(row, &format!("{side}_player"))?;
            let model = text(row, &format!("{side}_model"))?;
            let username = text(row, &format!("{side}_username"))?;
            let known = player.as_ref().and_then(|p| players.get(p));
            let kind = known.map_or(SeatKind::of(None, model.is_some()), |k| k.kind);
            let model_name = model
                .clone()
                .unwrap_or_else(|| if kind == SeatKind::Person { "human".into() } else { "unknown".into() });
            let entry =
                board.entry((player.clone(), model_name.clone(), username.clone())).or_insert_with(|| LeaderboardRow {
                    model_name,
                    username: username.clone(),
                    matches: 0,
                    wins: 0,
                    losses: 0,
                    games_won: 0,
                    games_lost: 0,
                    win_rate: 0.0,
                    player_id: player.clone(),
                    display_name: known
                        .map_or_else(|| username.clone().unwrap_or_else(|| "Anonymous".into()), |k| k.name.clone()),
                    kind: kind_name(kind).into(),
                    rating: known.and_then(|k| k.rating),
                    deviation: known.and_then(|k| k.deviation),
                });
            entry.matches += 1;
            entry.games_won += wins[i];
            entry.games_lost += wins[1 - i];
            if winner == side {
                entry.wins += 1;
            } else {
                entry.losses += 1;
            }
        }
    }
    let mut leaderboard: Vec<LeaderboardRow> = board.into_values().collect();
    for row in &mut leaderboard {
        row.win_rate =
            if row.matches > 0 { (row.wins as f64 / row.matches as f64 * 10_000.0).round() / 10_000.0 } else { 0.0 };
    }
    leaderboard.sort_by(|a, b| {
        let ra = a.rating.unwrap_or(f64::MIN);
        let rb = b.rating.unwrap_or(f64::MIN);
        rb.total_cmp(&ra).then(b.wins.cmp(&a.wins)).then(b.win_rate.total_cmp(&a.win_rate))
    });
    stats.totals.models = leaderboard.len() as u64;
    stats.leaderboard = leaderboard;

    for row in series.iter().take(20) {
        let kind_of = |side: &str| -> Result<SeatKind, sqlx::Error> {
            let known = text(row, &format!("{side}_player"))?.and_then(|p| players.get(&p).map(|k| k.kind));
            Ok(known.unwrap_or(SeatKind::of(None, text(row, &format!("{side}_model"))?.is_some())))
        };
        let id = int(row, "id")?.max(0) as u64;
        let games_played = int(row, "games_played")?.max(0) as u32;
        stats.recent_matches.push(RecentMatch {
            id,
            slot_id: id,
            board_size: int(row, "board_size")? as u8,
            series_length: int(row, "series_length")? as u8,
            games_played,
            winner: if text(row, "winner")?.as_deref() == Some("red") { -1 } else { 1 },
            player_1_model: text(row, "red_model")?,
            player_2_model: text(row, "blue_model")?,
            player_1_username: text(row, "red_username")?,
            player_2_username: text(row, "blue_username")?,
            player_1_kind: kind_of("red")?,
            player_2_kind: kind_of("blue")?,
            player_1_wins: int(row, "red_wins")? as u32,
            player_2_wins: int(row, "blue_wins")? as u32,
            completed_at: iso_time(row.try_get::<Option<i64>, _>("finished_at_ms")?.unwrap_or(0)),
            games: (1..=games_played).map(|n| format!("{id}-{n}")).collect(),
        });
    }

    // Games per day over the last 30 days, empty days included.
    let since = (now_ms.div_euclid(86_400_000) - 29) * 86_400_000;
    let finished: Vec<i64> = sqlx::query_scalar("SELECT finished_at_ms FROM games WHERE finished_at_ms >= $1")
        .bind(since)
        .fetch_all(pool)
        .await?;
    let mut per_day: BTreeMap<String, u64> = (0..30).map(|d| (day_of(since + d * 86_400_000), 0)).collect();
    for t in finished {
        *per_day.entry(day_of(t)).or_default() += 1;
    }
    stats.games_per_day = per_day.into_iter().map(|(day, games)| DayCount { day, games }).collect();
    Ok(stats)
}

pub(super) const SUMMARY_COLUMNS: &str = "g.id, g.series_id, g.number, g.board_size, g.winner, g.reason, g.finished_at_ms, \
    g.started_at_ms, g.first_player, CASE WHEN g.swap_allowed THEN 1 ELSE 0 END AS swap, \
    r.display_name AS red_name, b.display_name AS blue_name, s.red_username, s.red_model, s.blue_username, \
    s.blue_model, \
    (SELECT COUNT(*) FROM game_moves m WHERE m.game_id = g.id) AS move_count";

pub(super) const SUMMARY_FROM: &str = "FROM games g LEFT JOIN players r ON r.id = g.red_player \
    LEFT JOIN players b ON b.id = g.blue_player LEFT JOIN series s ON s.id = g.series_id";

/// A side's name in a game's summary: the account's, or else the name the
/// seat typed or declared, marked as a guest's or an unverified bot's.
fn side_name(row: &AnyRow, side: &str) -> Result<Option<String>, sqlx::Error> {
    if let Some(account) = text(row, &format!("{side}_name"))? {
        return Ok(Some(account));
    }
    let (username, model) = (text(row, &format!("{side}_username"))?, text(row, &format!("{side}_model"))?);
    let kind = SeatKind::of(None, model.is_some());
    Ok(seat_label(username.as_deref(), model.as_deref()).map(|label| kind.decorate(label)))
}

pub(super) fn summary(row: &AnyRow) -> Result<GameSummary, sqlx::Error> {
    Ok(GameSummary {
        id: row.try_get("id")?,
        series_id: int(row, "series_id")?.max(0) as u64,
        number: int(row, "number")?.max(0) as u32,
        board_size: int(row, "board_size")?.clamp(0, 255) as u8,
        red: side_name(row, "red")?,
        blue: side_name(row, "blue")?,
        winner: colour(row, "winner")?,
        reason: game_end(row, "reason")?,
        moves: int(row, "move_count")?.max(0) as u32,
        finished_at_ms: int(row, "finished_at_ms")?,
    })
}

/// Archived games, newest first, optionally only those of a player (by
/// display name, any case) or a board size; page `page` (from 1).
pub async fn games(pool: &AnyPool, player: Option<&str>, size: Option<u8>, page: u32) -> Result<GamePage, sqlx::Error> {
    let player_key = player.map(|p| p.trim().to_lowercase()).filter(|p| !p.is_empty());
    // Both filters are always bound; a NULL parameter means "any".
    let filter = "WHERE ($1 IS NULL OR LOWER(r.display_name) = $1 OR LOWER(b.display_name) = $1) \
                  AND ($2 IS NULL OR g.board_size = $2)";
    let size = size.map(i32::from);
    let total: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) {SUMMARY_FROM} {filter}")))
        .bind(player_key.clone())
        .bind(size)
        .fetch_one(pool)
        .await?;
    let offset = i64::from(page.max(1) - 1) * i64::from(PAGE_SIZE);
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {SUMMARY_COLUMNS} {SUMMARY_FROM} {filter} ORDER BY g.finished_at_ms DESC, g.id DESC LIMIT {PAGE_SIZE} OFFSET {offset}"
    )))
    .bind(player_key)
    .bind(size)
    .fetch_all(pool)
    .await?;
    Ok(GamePage { games: rows.iter().map(summary).collect::<Result<_, _>>()?, total: total.max(0) as u64 })
}

/// One archived game with its moves.
pub async fn game(pool: &AnyPool, id: &str) -> Result<Option<GameRecord>, sqlx::Error> {
    let Some(row) =
        sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {SUMMARY_COLUMNS} {SUMMARY_FROM} WHERE g.id = $1")))
            .bind(id.to_string())
            .fetch_optional(pool)
            .await?
    else {
        return Ok(None);
    };
    let moves = sqlx::query("SELECT move, played_at_ms FROM game_moves WHERE game_id = $1 ORDER BY ply")
        .bind(id.to_string())
        .fetch_all(pool)
        .await?;
    Ok(Some(GameRecord {
        summary: summary(&row)?,
        swap: int(&row, "swap")? != 0,
        first: colour(&row, "first_player")?,
        moves: moves.iter().map(|m| m.try_get::<String, _>("move")).collect::<Result<_, _>>()?,
        played_at_ms: moves.iter().map(|m| int(m, "played_at_ms")).collect::<Result<_, _>>()?,
        started_at_ms: int(&row, "started_at_ms")?,
    }))
}
