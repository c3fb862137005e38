//! Reading one player's page from the archive.

use std::collections::BTreeMap;

use sqlx::AnyPool;

use super::read::{SUMMARY_COLUMNS, SUMMARY_FROM, summary};
use crate::online::account::SeatKind;
use crate::online::profile::{ClassRating, Profile, RatingPoint, Record, SizeRecord};
use crate::rating::RatingClass;

/// Games listed under "recent".
const RECENT: usize = 20;

#[derive(sqlx::FromRow)]
struct PlayerRow {
    id: String,
    display_name: String,
    kind: String,
    owner: Option<String>,
    description: Option<String>,
    created_at_ms: i64,
}

/// The player called `name` (any case), if one is.
pub async fn profile(pool: &AnyPool, name: &str) -> Result<Option<Profile>, sqlx::Error> {
    let row: Option<PlayerRow> = sqlx::query_as(
        "SELECT p.id, p.display_name, p.kind, o.display_name AS owner, p.description, p.created_at_ms FROM players p \
         LEFT JOIN players o ON o.id = p.owner_id WHERE p.name_key = $1",
    )
    .bind(name.trim().to_lowercase())
    .fetch_optional(pool)
    .await?;
    let Some(PlayerRow { id, display_name: name, kind, owner, description, created_at_ms }) = row else {
        return Ok(None);
    };
    let kind = SeatKind::of_stored(&kind, owner.is_some());
    let ratings: Vec<(String, f64, f64, i64)> =
        sqlx::query_as("SELECT class, rating, deviation, CAST(games AS BIGINT) FROM ratings WHERE player_id = $1")
            .bind(id.clone())
            .fetch_all(pool)
            .await?;
    let mut ratings: Vec<ClassRating> = ratings
        .into_iter()
        .filter_map(|(class, rating, deviation, games)| {
            Some(ClassRating { class: RatingClass::parse(&class)?, rating, deviation, games: games.max(0) as u32 })
        })
        .collect();
    ratings.sort_by_key(|r| r.class);
    let changes: Vec<(String, String, i64, f64, f64)> = sqlx::query_as(
        "SELECT class, game_id, at_ms, rating, deviation FROM rating_changes WHERE player_id = $1 ORDER BY at_ms, game_id",
    )
    .bind(id.clone())
    .fetch_all(pool)
    .await?;
    let mut history: BTreeMap<RatingClass, Vec<RatingPoint>> = BTreeMap::new();
    for (class, game_id, at_ms, rating, deviation) in changes {
        if let Some(class) = RatingClass::parse(&class) {
            history.entry(class).or_default().push(RatingPoint { game_id, at_ms, rating, deviation });
        }
    }
    let results: Vec<(i32, Option<String>, String)> =
        sqlx::query_as("SELECT board_size, red_player, winner FROM games WHERE red_player = $1 OR blue_player = $1")
            .bind(id.clone())
            .fetch_all(pool)
            .await?;
    let (mut as_red, mut as_blue) = (Record::default(), Record::default());
    let mut by_size: BTreeMap<u8, Record> = BTreeMap::new();
    for (size, red, winner) in results {
        let red_seat = red.as_deref() == Some(id.as_str());
        let won = (winner == "red") == red_seat;
        let side = if red_seat { &mut as_red } else { &mut as_blue };
        let size = by_size.entry(size.clamp(0, 255) as u8).or_default();
        for record in [side, size] {
            if won {
                record.won += 1;
            } else {
                record.lost += 1;
            }
        }
    }
    let recent = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {SUMMARY_COLUMNS} {SUMMARY_FROM} WHERE g.red_player = $1 OR g.blue_player = $1 \
         ORDER BY g.finished_at_ms DESC, g.id DESC LIMIT {RECENT}"
    )))
    .bind(id.clone())
    .fetch_all(pool)
    .await?
    .iter()
    .map(summary)
    .collect::<Result<Vec<_>, _>>()?;
    let bots: Vec<String> =
        sqlx::query_scalar("SELECT display_name FROM players WHERE owner_id = $1 ORDER BY created_at_ms, id")
            .bind(id.clone())
            .fetch_all(pool)
            .await?;
    Ok(Some(Profile {
        id,
        name,
        kind,
        owner,
        description,
        created_at_ms,
        ratings,
        history: history.into_iter().collect(),
        as_red,
        as_blue,
        by_size: by_size.into_iter().map(|(size, record)| SizeRecord { size, record }).collect(),
        recent,
        bots,
    }))
}
