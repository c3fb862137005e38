//! The lobby's server functions: create a private room, find one by code,
//! list live tables, and read one table for the first render of its page.

use leptos::prelude::*;

use serde::{Deserialize, Serialize};

use crate::app_error::{Answer, AppError};
use crate::online::{SlotSnapshot, TableView};

/// Opens a private room with these options and sends the creator to it.
/// Works without JavaScript too (a plain form post, then a redirect).
#[server(endpoint = "create_room")]
pub async fn create_room(
    size: String,
    series: String,
    swap: Option<String>,
    time: String,
    name: Option<String>,
) -> Result<Answer<()>, AppError> {
    let hub = AppError::hub()?;
    let mut params = std::collections::HashMap::new();
    params.insert("size".to_string(), size);
    params.insert("series".to_string(), series);
    params.insert("swap".to_string(), swap.unwrap_or_else(|| "off".into()));
    params.insert("time".to_string(), time);
    let options = match crate::server::online::browser_options(&params) {
        Ok(options) => options,
        Err(refusal) => return Ok(Answer::Refused(refusal.message)),
    };
    let address = crate::server::client_address::ClientAddress::of_server_fn();
    let table = hub.open_room(options, address).await.map_err(|e| {
        use crate::server::hub::JoinError;
        match e {
            JoinError::TooManyRooms(_) => AppError::too_many(e.refusal().message, 60),
            JoinError::RoomsTooFast(wait) => AppError::too_many(e.refusal().message, wait.seconds()),
            _ => AppError::Unavailable(e.refusal().message),
        }
    })?;
    let code = table.room_code.clone().unwrap_or_default();
    let name = name.map(|n| format!("&name={}", super::live_socket::encode(n.trim()))).unwrap_or_default();
    leptos_axum::redirect(&format!("/game/{}?join={code}{name}", table.id));
    Ok(Answer::Done(()))
}

/// Sends a player to the room with this code.
#[server(endpoint = "join_room")]
pub async fn join_room(code: String, name: Option<String>) -> Result<Answer<()>, AppError> {
    use crate::server::hub::JoinError;
    let hub = AppError::hub()?;
    let id = match hub.find_room(&code, crate::server::client_address::ClientAddress::of_server_fn()).await {
        Ok(id) => id,
        Err(JoinError::NoSuchRoom) => {
            let code = code.trim();
            return Ok(Answer::Refused(format!("No open room has the code “{code}”: check it with your friend")));
        }
        Err(e) => return Ok(Answer::Refused(e.refusal().message)),
    };
    let code = crate::server::hub::room_code::normalise(&code).unwrap_or_default();
    let name = name.map(|n| format!("&name={}", super::live_socket::encode(n.trim()))).unwrap_or_default();
    leptos_axum::redirect(&format!("/game/{id}?join={code}{name}"));
    Ok(Answer::Done(()))
}

/// Every live table, for the overview's first render.
#[server(endpoint = "live_tables")]
pub async fn live_tables() -> Result<Vec<SlotSnapshot>, AppError> {
    Ok(AppError::hub()?.snapshots().await)
}

/// One live table as its page draws it; `None` once it has closed.
#[server(endpoint = "live_table")]
pub async fn live_table(id: u64) -> Result<Option<TableView>, AppError> {
    Ok(AppError::hub()?.view(id).await)
}

/// How many series are being played, and how many players wait for an
/// opponent, for the landing page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveCounts {
    pub playing: usize,
    pub waiting: usize,
}

/// The landing page's live count.
#[server(endpoint = "live_count")]
pub async fn live_count() -> Result<LiveCounts, AppError> {
    use crate::online::SlotState;
    let tables = live_tables().await?;
    let playing = tables.iter().filter(|t| t.state == SlotState::Full && t.series_winner.is_none()).count();
    let waiting = tables.iter().filter(|t| t.state == SlotState::Waiting).count();
    Ok(LiveCounts { playing, waiting })
}
