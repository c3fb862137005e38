//! Ratings from the archive: each rated game (two accounts) moves both
//! players' overall rating and their rating for the game's size class, as
//! it is archived; [`rebuild`] recomputes every rating from the games in
//! the order they were archived, which gives the same numbers exactly.

use std::collections::HashMap;

use sqlx::{Any, AnyPool, Transaction};

use crate::rating::{Glicko2, RatingClass};
use crate::server::database::{row_chunks, values_placeholders};

/// A rating and how many rated games made it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Held {
    pub rating: Glicko2,
    pub games: i64,
}

/// One rated game, as the ratings need it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    pub id: String,
    pub size: u8,
    pub winner: String,
    pub loser: String,
    pub at_ms: i64,
}

/// The two players' ratings in `class` after `game`, from before it.
fn after(before: [Held; 2]) -> [Held; 2] {
    let (w, l) = Glicko2::after_game(before[0].rating, before[1].rating);
    [Held { rating: w, games: before[0].games + 1 }, Held { rating: l, games: before[1].games + 1 }]
}

async fn held(tx: &mut Transaction<'static, Any>, player: &str, class: RatingClass) -> Result<Held, sqlx::Error> {
    let row: Option<(f64, f64, f64, i64)> = sqlx::query_as(
        "SELECT rating, deviation, volatility, CAST(games AS BIGINT) FROM ratings WHERE player_id = $1 AND class = $2",
    )
    .bind(player.to_string())
    .bind(class.as_str())
    .fetch_optional(&mut **tx)
    .await?;
    Ok(row.map_or_else(Held::default, |(rating, deviation, volatility, games)| Held {
        rating: Glicko2 { rating, deviation, volatility },
        games,
    }))
}

/// Moves the ratings `game` moves, in the archive's transaction.
pub async fn apply(tx: &mut Transaction<'static, Any>, game: &RatedGame) -> Result<(), sqlx::Error> {
    for class in RatingClass::moved_by(game.size) {
        let before = [held(tx, &game.winner, class).await?, held(tx, &game.loser, class).await?];
        let now = after(before);
        for (player, h) in [(&game.winner, now[0]), (&game.loser, now[1])] {
            sqlx::query(
                "INSERT INTO ratings (player_id, class, rating, deviation, volatility, games) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (player_id, class) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games",
            )
            .bind(player.clone())
            .bind(class.as_str())
            .bind(h.rating.rating)
            .bind(h.rating.deviation)
            .bind(h.rating.volatility)
            .bind(h.games as i32)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_changes (player_id, game_id, class, rating, deviation, volatility, at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(player.clone())
            .bind(game.id.clone())
            .bind(class.as_str())
            .bind(h.rating.rating)
            .bind(h.rating.deviation)
            .bind(h.rating.volatility)
            .bind(game.at_ms)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

/// What a rebuild did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rebuilt {
    pub games: usize,
    pub ratings: usize,
}

#[derive(sqlx::FromRow)]
struct GameRow {
    id: String,
    board_size: i32,
    red_player: Option<String>,
    blue_player: Option<String>,
    winner: String,
    finished_at_ms: i64,
}

/// The rated games in the order they were archived (games from before the
/// order was recorded first, by when they finished).
async fn rated_games(tx: &mut Transaction<'static, Any>) -> Result<Vec<RatedGame>, sqlx::Error> {
    let rows: Vec<GameRow> = sqlx::query_as(
        "SELECT id, board_size, red_player, blue_player, winner, finished_at_ms FROM games \
         WHERE rated AND red_player IS NOT NULL AND blue_player IS NOT NULL \
         ORDER BY COALESCE(archived_seq, 0), finished_at_ms, id",
    )
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|g| {
            let (red, blue) = (g.red_player?, g.blue_player?);
            let (winner, loser) = if g.winner == "red" { (red, blue) } else { (blue, red) };
            Some(RatedGame { id: g.id, size: g.board_size.clamp(0, 255) as u8, winner, loser, at_ms: g.finished_at_ms })
        })
        .collect())
}

/// Recomputes every rating and every rating change from the archive, in
/// one transaction.
pub async fn rebuild(pool: &AnyPool) -> Result<Rebuilt, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let games = rated_games(&mut tx).await?;
    let mut current: HashMap<(String, RatingClass), Held> = HashMap::new();
    let mut changes: Vec<(String, String, RatingClass, Held, i64)> = Vec::new();
    for game in &games {
        for class in RatingClass::moved_by(game.size) {
            let before = [
                current.get(&(game.winner.clone(), class)).copied().unwrap_or_default(),
                current.get(&(game.loser.clone(), class)).copied().unwrap_or_default(),
            ];
            let now = after(before);
            for (player, h) in [(&game.winner, now[0]), (&game.loser, now[1])] {
                current.insert((player.clone(), class), h);
                changes.push((player.clone(), game.id.clone(), class, h, game.at_ms));
            }
        }
    }
    sqlx::query("DELETE FROM rating_changes").execute(&mut *tx).await?;
    sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
    let ratings: Vec<_> = current.iter().collect();
    for chunk in row_chunks(&ratings) {
        let sql = format!(
            "INSERT INTO ratings (player_id, class, rating, deviation, volatility, games) VALUES {}",
            values_placeholders(chunk.len(), 6)
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for ((player, class), h) in chunk {
            query = query
                .bind(player.clone())
                .bind(class.as_str())
                .bind(h.rating.rating)
                .bind(h.rating.deviation)
                .bind(h.rating.volatility)
                .bind(h.games as i32);
        }
        query.execute(&mut *tx).await?;
    }
    for chunk in row_chunks(&changes) {
        let sql = format!(
            "INSERT INTO rating_changes (player_id, game_id, class, rating, deviation, volatility, at_ms) VALUES {}",
            values_placeholders(chunk.len(), 7)
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (player, game, class, h, at) in chunk {
            query = query
                .bind(player.clone())
                .bind(game.clone())
                .bind(class.as_str())
                .bind(h.rating.rating)
                .bind(h.rating.deviation)
                .bind(h.rating.volatility)
                .bind(*at);
        }
        query.execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(Rebuilt { games: games.len(), ratings: current.len() })
}

/// Rebuilds when there are rated games but no ratings: the first start
/// after the migration that made ratings per class.
pub async fn rebuild_if_missing(pool: &AnyPool) -> Result<Option<Rebuilt>, sqlx::Error> {
    let ratings: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ratings").fetch_one(pool).await?;
    let rated: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE rated").fetch_one(pool).await?;
    if ratings == 0 && rated > 0 { rebuild(pool).await.map(Some) } else { Ok(None) }
}
