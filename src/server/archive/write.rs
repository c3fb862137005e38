//! Writing a finished game: players, series, game, moves and the rating
//! change, in one transaction.

use sqlx::{Any, AnyPool, Transaction};

use crate::server::database::{row_chunks, values_placeholders};

use super::FinishedGame;
use super::ratings::RatedGame;
use crate::engine::ByColor;
use crate::online::PlayerId;

fn colour(p: PlayerId) -> &'static str {
    p.color().as_str()
}

/// Writes `games` in one transaction; if that fails, each in its own, so
/// one bad game costs only itself. Returns the games that were not written.
pub async fn record_all<'a>(pool: &AnyPool, games: &'a [FinishedGame]) -> Vec<(&'a FinishedGame, sqlx::Error)> {
    if games.len() > 1 {
        let together = async {
            let mut tx = pool.begin().await?;
            for game in games {
                record(&mut tx, game).await?;
            }
            tx.commit().await
        };
        if together.await.is_ok() {
            return Vec::new();
        }
    }
    let mut failed = Vec::new();
    for game in games {
        let alone = async {
            let mut tx = pool.begin().await?;
            record(&mut tx, game).await?;
            tx.commit().await
        };
        if let Err(e) = alone.await {
            failed.push((game, e));
        }
    }
    failed
}

/// Writes `game` (times already wall-clock) and, when both seats were
/// accounts, their new ratings, in `tx`.
pub async fn record(tx: &mut Transaction<'static, Any>, game: &FinishedGame) -> Result<(), sqlx::Error> {
    // A game archived before a crash kept it from leaving the journal is
    // written once only.
    let game_id = format!("{}-{}", game.series_id, game.number);
    let stored: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE id = $1").bind(game_id).fetch_one(&mut **tx).await?;
    if stored > 0 {
        return Ok(());
    }
    let mut keys: ByColor<Option<String>> = game.seats.as_ref().map(|s| s.account().map(str::to_string));
    for key in keys.iter_mut() {
        if let Some(id) = key.clone()
            && !is_player(tx, &id).await?
        {
            // An account the archive does not know cannot be referenced:
            // the game is kept, as if the seat had been a guest's.
            tracing::warn!(player = %id, "finished game names an unknown account; archived without it");
            *key = None;
        }
    }
    let id_of = |seat: PlayerId| keys[seat].clone();
    let tc = game.options.time_control;
    sqlx::query(
        "INSERT INTO series (id, board_size, swap_allowed, series_length, base_ms, increment_ms, red_player, blue_player, \
         red_username, red_model, blue_username, blue_model, red_wins, blue_wins, games_played, winner, started_at_ms, \
         finished_at_ms, room_code) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
         $18, $19) \
         ON CONFLICT (id) DO UPDATE SET red_wins = excluded.red_wins, blue_wins = excluded.blue_wins, \
         games_played = excluded.games_played, winner = excluded.winner, finished_at_ms = excluded.finished_at_ms",
    )
    .bind(game.series_id as i64)
    .bind(i32::from(game.options.size))
    .bind(game.options.swap)
    .bind(i32::from(game.options.series_length))
    .bind(tc.map(|t| t.base_ms as i64))
    .bind(tc.map(|t| t.increment_ms as i64))
    .bind(id_of(PlayerId::Red))
    .bind(id_of(PlayerId::Blue))
    .bind(game.seats.red.name.clone())
    .bind(game.seats.red.model.clone())
    .bind(game.seats.blue.name.clone())
    .bind(game.seats.blue.model.clone())
    .bind(game.score.red as i32)
    .bind(game.score.blue as i32)
    .bind(game.number as i32)
    .bind(game.series_winner.map(|w| colour(w).to_string()))
    .bind(game.started_ms as i64)
    .bind(game.series_winner.map(|_| game.finished_ms as i64))
    .bind(game.room_code.clone())
    .execute(&mut **tx)
    .await?;

    let rated = matches!((&keys.red, &keys.blue), (Some(a), Some(b)) if a != b);
    let game_id = format!("{}-{}", game.series_id, game.number);
    sqlx::query(
        "INSERT INTO games (id, series_id, number, board_size, swap_allowed, first_player, red_player, blue_player, \
         winner, reason, rated, started_at_ms, finished_at_ms, archived_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
         $10, $11, $12, $13, (SELECT COALESCE(MAX(archived_seq), 0) + 1 FROM games))",
    )
    .bind(game_id.clone())
    .bind(game.series_id as i64)
    .bind(game.number as i32)
    .bind(i32::from(game.options.size))
    .bind(game.options.swap)
    .bind(colour(game.first))
    .bind(id_of(PlayerId::Red))
    .bind(id_of(PlayerId::Blue))
    .bind(colour(game.winner))
    .bind(game.reason.stored())
    .bind(rated)
    .bind(game.started_ms as i64)
    .bind(game.finished_ms as i64)
    .execute(&mut **tx)
    .await?;
    let plies: Vec<usize> = (0..game.moves.len()).collect();
    for chunk in row_chunks(&plies) {
        let sql = format!(
            "INSERT INTO game_moves (game_id, ply, move, played_at_ms, clock_ms) VALUES {}",
            values_placeholders(chunk.len(), 5)
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for &ply in chunk {
            query = query
                .bind(game_id.clone())
                .bind(ply as i32)
                .bind(game.moves[ply].to_string())
                .bind(game.times.get(ply).copied().unwrap_or(game.finished_ms) as i64)
                .bind(game.clocks.get(ply).copied().flatten().map(|c| c as i64));
        }
        query.execute(&mut **tx).await?;
    }
    if let (true, Some(red), Some(blue)) = (rated, &keys.red, &keys.blue) {
        let (winner, loser) = if game.winner == PlayerId::Red { (red, blue) } else { (blue, red) };
        let rated = RatedGame {
            id: game_id,
            size: game.options.size,
            winner: winner.clone(),
            loser: loser.clone(),
            at_ms: game.finished_ms as i64,
        };
        super::ratings::apply(tx, &rated).await?;
    }
    Ok(())
}

async fn is_player(tx: &mut Transaction<'static, Any>, id: &str) -> Result<bool, sqlx::Error> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE id = $1")
        .bind(id.to_string())
        .fetch_one(&mut **tx)
        .await?;
    Ok(count > 0)
}
