//! The journal kept in the database (`live_tables`, `live_moves`): a writer
//! task commits whatever has queued up in one transaction.

use serde::Serialize;
use sqlx::{AnyPool, Row};
use tokio::sync::mpsc;

use super::{Batch, Entry, JournalFailure, JournalHealth, LiveHeader, LiveMove, Loaded, Restored};
use crate::engine::{ByColor, Move};
use crate::server::archive::FinishedGame;
use crate::server::database::{row_chunks, values_placeholders};

async fn insert_moves(tx: &mut sqlx::Transaction<'static, sqlx::Any>, moves: &[&Entry]) -> Result<(), sqlx::Error> {
    let sql = format!(
        "INSERT INTO live_moves (table_id, game_number, ply, move, at_ms, clock_ms) VALUES {} \
         ON CONFLICT (table_id, game_number, ply) DO NOTHING",
        values_placeholders(moves.len(), 6)
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for entry in moves {
        if let Entry::Move(m) = entry {
            query = query
                .bind(m.table_id as i64)
                .bind(m.game_number as i32)
                .bind(m.ply as i32)
                .bind(m.mv.to_string())
                .bind(m.at_ms as i64)
                .bind(m.clock_ms.map(|c| c as i64));
        }
    }
    query.execute(&mut **tx).await?;
    Ok(())
}

/// Runs the writer task on `pool`, taking batches from `queue`.
pub fn start(pool: AnyPool, mut queue: mpsc::UnboundedReceiver<Batch>, health: JournalHealth) {
    tokio::spawn(async move {
        let postgres = match pool.acquire().await {
            Ok(conn) => conn.backend_name().eq_ignore_ascii_case("postgresql"),
            Err(_) => false,
        };
        while let Some(first) = queue.recv().await {
            // Group commit: everything queued meanwhile goes in the
            // same transaction.
            let batches = crate::server::batch::gather(first, &mut queue, 512);
            let outcome = write(&pool, &batches, postgres).await.map_err(|e| JournalFailure(e.to_string()));
            health.record(&outcome);
            for b in batches {
                let _ = b.done.send(outcome.clone());
            }
        }
    });
}

async fn write(pool: &AnyPool, batches: &[Batch], postgres: bool) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    if postgres {
        // The journal guards against hexarena stopping, not PostgreSQL: a
        // commit it has accepted survives us without waiting for its disk.
        sqlx::query("SET LOCAL synchronous_commit = off").execute(&mut *tx).await?;
    }
    let entries: Vec<&Entry> = batches.iter().flat_map(|b| &b.entries).collect();
    let mut i = 0;
    while i < entries.len() {
        // A run of moves (from any tables) goes in one multi-row insert.
        let run = entries[i..].iter().take_while(|e| matches!(e, Entry::Move(_))).count();
        if run > 0 {
            for chunk in row_chunks(&entries[i..i + run]) {
                insert_moves(&mut tx, chunk).await?;
            }
            i += run;
            continue;
        }
        match entries[i] {
            Entry::Header(h) => {
                sqlx::query(
                    "INSERT INTO live_tables (id, options, room_code, seats, game_number, red_wins, blue_wins, finished, \
                     updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO UPDATE SET \
                     options = excluded.options, room_code = excluded.room_code, seats = excluded.seats, \
                     game_number = excluded.game_number, red_wins = excluded.red_wins, blue_wins = excluded.blue_wins, \
                     finished = excluded.finished, updated_at_ms = excluded.updated_at_ms",
                )
                .bind(h.id as i64)
                .bind(json(&h.options))
                .bind(h.room_code.clone())
                .bind(json(&h.seats))
                .bind(h.game_number as i32)
                .bind(h.score.red as i32)
                .bind(h.score.blue as i32)
                .bind(json(&h.finished))
                .bind(crate::server::archive::wall_ms() as i64)
                .execute(&mut *tx)
                .await?;
                // Moves of games already finished are in the archive.
                sqlx::query("DELETE FROM live_moves WHERE table_id = $1 AND game_number <> $2")
                    .bind(h.id as i64)
                    .bind(h.game_number as i32)
                    .execute(&mut *tx)
                    .await?;
            }
            Entry::Closed(id) => {
                for table in ["live_moves WHERE table_id", "live_tables WHERE id"] {
                    sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} = $1")))
                        .bind(*id as i64)
                        .execute(&mut *tx)
                        .await?;
                }
            }
            Entry::Finished(game) => {
                sqlx::query(
                    "INSERT INTO live_finished (series_id, number, game) VALUES ($1, $2, $3) \
                     ON CONFLICT (series_id, number) DO NOTHING",
                )
                .bind(game.series_id as i64)
                .bind(game.number as i32)
                .bind(json(&**game))
                .execute(&mut *tx)
                .await?;
            }
            Entry::Archived(key) => {
                sqlx::query("DELETE FROM live_finished WHERE series_id = $1 AND number = $2")
                    .bind(key.series_id as i64)
                    .bind(key.number as i32)
                    .execute(&mut *tx)
                    .await?;
            }
            Entry::Move(_) => {}
        }
        i += 1;
    }
    tx.commit().await
}

/// Everything the journal holds: tables with their current game's moves,
/// and finished games not yet archived.
pub async fn load(pool: &AnyPool) -> Result<Loaded, String> {
    let rows = sqlx::query("SELECT game FROM live_finished ORDER BY series_id, number").fetch_all(pool).await;
    Ok(Loaded { tables: load_tables(pool, None).await?, finished: finished_games(rows)? })
}

/// What the journal holds of table `id`: the table (unless it has
/// closed) and its finished games the archive has not committed; for an
/// instance taking over a table from one that stopped.
pub async fn load_table(pool: &AnyPool, id: u64) -> Result<Loaded, String> {
    let rows = sqlx::query("SELECT game FROM live_finished WHERE series_id = $1 ORDER BY number")
        .bind(id as i64)
        .fetch_all(pool)
        .await;
    Ok(Loaded { tables: load_tables(pool, Some(id)).await?, finished: finished_games(rows)? })
}

/// The finished games in `rows` of `live_finished` (their `game` column).
fn finished_games(rows: Result<Vec<sqlx::any::AnyRow>, sqlx::Error>) -> Result<Vec<FinishedGame>, String> {
    rows.map_err(|e| e.to_string())?
        .iter()
        .map(|row| {
            let text: String = row.try_get("game").map_err(|e| e.to_string())?;
            serde_json::from_str(&text).map_err(|e| format!("a finished game in the journal is unreadable: {e}"))
        })
        .collect()
}

/// Every table the journal holds (or only table `only`), with its current
/// game's moves.
async fn load_tables(pool: &AnyPool, only: Option<u64>) -> Result<Vec<Restored>, String> {
    let columns = "SELECT id, options, room_code, seats, game_number, red_wins, blue_wins, finished FROM live_tables";
    let rows = match only {
        Some(id) => {
            sqlx::query(sqlx::AssertSqlSafe(format!("{columns} WHERE id = $1"))).bind(id as i64).fetch_all(pool).await
        }
        None => sqlx::query(sqlx::AssertSqlSafe(format!("{columns} ORDER BY id"))).fetch_all(pool).await,
    }
    .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for row in rows {
        let id: i64 = row.try_get("id").map_err(|e| e.to_string())?;
        let text = |c: &str| row.try_get::<String, _>(c).map_err(|e| format!("table {id}: {e}"));
        let int = |c: &str| row.try_get::<i64, _>(c).map_err(|e| format!("table {id}: {e}"));
        let bad = |what: &str, e: serde_json::Error| format!("table {id}: unreadable {what}: {e}");
        let header = LiveHeader {
            id: id as u64,
            options: serde_json::from_str(&text("options")?).map_err(|e| bad("options", e))?,
            room_code: row.try_get::<Option<String>, _>("room_code").map_err(|e| e.to_string())?,
            seats: serde_json::from_str(&text("seats")?).map_err(|e| bad("seats", e))?,
            game_number: int("game_number")? as u32,
            score: ByColor { red: int("red_wins")? as u32, blue: int("blue_wins")? as u32 },
            finished: serde_json::from_str(&text("finished")?).map_err(|e| bad("finished games", e))?,
        };
        let moves = sqlx::query(
            "SELECT move, at_ms, clock_ms FROM live_moves WHERE table_id = $1 AND game_number = $2 ORDER BY ply",
        )
        .bind(id)
        .bind(header.game_number as i32)
        .fetch_all(pool)
        .await
        .map_err(|e| e.to_string())?
        .iter()
        .enumerate()
        .map(|(ply, m)| {
            let text: String = m.try_get("move").map_err(|e| e.to_string())?;
            let mv = Move::parse(&text, header.options.size).map_err(|e| format!("table {id}: move {text}: {e}"))?;
            let at: i64 = m.try_get("at_ms").map_err(|e| e.to_string())?;
            let clock: Option<i64> = m.try_get("clock_ms").map_err(|e| e.to_string())?;
            Ok(LiveMove {
                table_id: header.id,
                game_number: header.game_number,
                ply: ply as u32,
                mv,
                at_ms: at.max(0) as u64,
                clock_ms: clock.map(|c| c.max(0) as u64),
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
        out.push(Restored { header, moves });
    }
    Ok(out)
}

/// A JSON column: plain data with string keys, so serialising cannot fail.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
