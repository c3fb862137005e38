//! The lobby's server functions: create a private room, find one by code,
//! list live tables, and read one table for the first render of its page.

use leptos::prelude::*;

use crate::online::{SlotSnapshot, TableView};

/// Opens a private room with these options and sends the creator to it.
/// Works without JavaScript too (a plain form post, then a redirect). A
/// request people can fix (bad options) answers `Some(reason)`, not an error.
#[server(endpoint = "create_room")]
pub async fn create_room(
    size: String,
    series: String,
    swap: Option<String>,
    time: String,
    name: Option<String>,
) -> Result<Option<String>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let mut params = std::collections::HashMap::new();
    params.insert("size".to_string(), size);
    params.insert("series".to_string(), series);
    params.insert("swap".to_string(), swap.unwrap_or_else(|| "off".into()));
    params.insert("time".to_string(), time);
    let options = match crate::server::online::browser_options(&params) {
        Ok(o) => o,
        Err(reason) => return Ok(Some(reason)),
    };
    let table = match hub.open_table(options, true) {
        Ok(t) => t,
        Err(e) => return Ok(Some(e.message())),
    };
    let code = table.room_code.clone().unwrap_or_default();
    let name = name.map(|n| format!("&name={}", super::live_socket::encode(n.trim()))).unwrap_or_default();
    leptos_axum::redirect(&format!("/game/{}?join={code}{name}", table.id));
    Ok(None)
}

/// Sends a player to the room with this code; `Some(reason)` when there is
/// no such room.
#[server(endpoint = "join_room")]
pub async fn join_room(code: String, name: Option<String>) -> Result<Option<String>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let Some(id) = hub.room(&code) else {
        return Ok(Some(format!("No open room has the code “{}”: check it with your friend", code.trim())));
    };
    let code = crate::server::hub::room_code::normalise(&code).unwrap_or_default();
    let name = name.map(|n| format!("&name={}", super::live_socket::encode(n.trim()))).unwrap_or_default();
    leptos_axum::redirect(&format!("/game/{id}?join={code}{name}"));
    Ok(None)
}

/// Every live table, for the overview's first render.
#[server(endpoint = "live_tables")]
pub async fn live_tables() -> Result<Vec<SlotSnapshot>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    Ok(hub.snapshots().await)
}

/// One live table as its page draws it; `None` once it has closed.
#[server(endpoint = "live_table")]
pub async fn live_table(id: u64) -> Result<Option<TableView>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    Ok(hub.view(id).await)
}

/// How many games are being played and how many players wait, for the
/// landing page.
#[server(endpoint = "live_count")]
pub async fn live_count() -> Result<(usize, usize), ServerFnError> {
    let tables = live_tables().await?;
    let playing = tables.iter().filter(|t| t.state == "full" && t.series_winner.is_none()).count();
    let waiting = tables.iter().filter(|t| t.state == "waiting").count();
    Ok((playing, waiting))
}

/// Registers a person under a display name: a new player id and secret
/// for the browser to keep. `Ok(Err(reason))` when the name is refused.
#[server(endpoint = "register_player")]
pub async fn register_player(name: String) -> Result<Result<crate::online::identity::Identity, String>, ServerFnError> {
    use crate::server::hub::Hub;
    let hub = use_context::<Hub>().ok_or_else(|| ServerFnError::new("the game hub is not running"))?;
    let Some(archive) = hub.archive() else {
        return Ok(Err("This server keeps no players, so names cannot be registered".into()));
    };
    match crate::server::identity::register(archive.pool(), &name).await {
        Ok(identity) => Ok(Ok(identity)),
        Err(crate::server::identity::IdentityError::Database(e)) => Err(ServerFnError::new(e.to_string())),
        Err(e) => Ok(Err(e.to_string())),
    }
}
