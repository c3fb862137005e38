//! Server functions reading the archive for the pages.

use leptos::prelude::*;

use crate::online::records::{GamePage, GameRecord, Statistics};

/// The statistics (`persistence_enabled: false` when nothing is archived).
#[server(endpoint = "archive_statistics")]
pub async fn archive_statistics() -> Result<Statistics, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let Some(archive) = hub.archive() else { return Ok(Statistics::default()) };
    crate::server::archive::read::statistics(archive.pool(), crate::server::archive::wall_ms() as i64)
        .await
        .map_err(|e| ServerFnError::new(format!("the archive cannot be read: {e}")))
}

/// A page of archived games, newest first.
#[server(endpoint = "archived_games")]
pub async fn archived_games(player: Option<String>, size: Option<u8>, page: u32) -> Result<GamePage, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let Some(archive) = hub.archive() else { return Ok(GamePage::default()) };
    crate::server::archive::read::games(archive.pool(), player.as_deref(), size, page)
        .await
        .map_err(|e| ServerFnError::new(format!("the archive cannot be read: {e}")))
}

/// One archived game.
#[server(endpoint = "archived_game")]
pub async fn archived_game(id: String) -> Result<Option<GameRecord>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let Some(archive) = hub.archive() else { return Ok(None) };
    crate::server::archive::read::game(archive.pool(), &id)
        .await
        .map_err(|e| ServerFnError::new(format!("the archive cannot be read: {e}")))
}
