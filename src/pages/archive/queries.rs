//! Server functions reading the archive for the pages.

use leptos::prelude::*;

use crate::app_error::AppError;
use crate::online::profile::Profile;
use crate::online::records::{GamePage, GameRecord, Statistics};

/// What a reader is told when the database fails.
#[cfg(feature = "ssr")]
fn unreadable(e: sqlx::Error) -> AppError {
    AppError::Unavailable(format!("The archive cannot be read right now ({e}): try again in a minute"))
}

/// The statistics (`persistence_enabled: false` when nothing is archived).
#[server(endpoint = "archive_statistics")]
pub async fn archive_statistics() -> Result<Statistics, AppError> {
    let hub = AppError::hub()?;
    let Some(archive) = hub.archive() else { return Ok(Statistics::default()) };
    crate::server::archive::read::statistics(archive.pool(), crate::server::archive::wall_ms() as i64)
        .await
        .map_err(unreadable)
}

/// A page of archived games, newest first.
#[server(endpoint = "archived_games")]
pub async fn archived_games(player: Option<String>, size: Option<u8>, page: u32) -> Result<GamePage, AppError> {
    let hub = AppError::hub()?;
    let Some(archive) = hub.archive() else { return Ok(GamePage::default()) };
    crate::server::archive::read::games(archive.pool(), player.as_deref(), size, page).await.map_err(unreadable)
}

/// One archived game.
#[server(endpoint = "archived_game")]
pub async fn archived_game(id: String) -> Result<Option<GameRecord>, AppError> {
    let hub = AppError::hub()?;
    let Some(archive) = hub.archive() else { return Ok(None) };
    crate::server::archive::read::game(archive.pool(), &id).await.map_err(unreadable)
}

/// A player's page: `None` when no player has this name.
#[server(endpoint = "player_profile")]
pub async fn player_profile(name: String) -> Result<Option<Profile>, AppError> {
    let hub = AppError::hub()?;
    let Some(archive) = hub.archive() else { return Ok(None) };
    crate::server::archive::profile::profile(archive.pool(), &name).await.map_err(unreadable)
}
