//! A browser player's socket, `/ws/play`: the seat it asks for in the
//! address (matchmaking, a room by code, or a seat to resume), the secrets
//! in its first frame (never in the address), and the player they prove.

use std::collections::HashMap;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::response::Response;

use super::client_address::ClientAddress;
use super::hub::Hub;
use super::hub::socket::{self, Seating};
use super::hub::table::Arrival;
use super::online::{Params, SocketPermit, integer, label, upgrade};
use crate::online::account::AccountKind;
use crate::online::{Credentials, Dialect, ErrorCode, Refusal, TableOptions, TimeControl};

/// `/ws/play`: a browser player. `mode=quick` (with `size`, `series`,
/// `swap`, `time`), `mode=room&code=…`, or `mode=resume&game=…`; the
/// socket's first frame carries the secrets (see [`Credentials`]).
pub(super) async fn play(
    ws: WebSocketUpgrade,
    State(hub): State<Hub>,
    address: ClientAddress,
    permit: SocketPermit,
    headers: axum::http::HeaderMap,
    Query(params): Params,
) -> Response {
    let mode = browser_mode(&params);
    let name = label(&params, "name");
    // The session cookie: the socket's request is the page's own origin
    // (`same_origin_sockets`), so another site cannot ride on it.
    let session = super::accounts::sessions::from_headers(&headers);
    upgrade(ws).on_upgrade(move |mut socket| async move {
        let _held = permit;
        // Boxed: the handshake and the player check (a database query) are
        // done before the game, and the connection's task need not be
        // sized for them while it lives.
        let seating = Box::pin(async {
            let mode = mode?;
            let credentials = first_frame(&mut socket, hub.config().handshake).await?;
            let who = Who { typed: name, credentials, session };
            browser_seating(&hub, mode, who, address).await
        })
        .await;
        match seating {
            Ok(seating) => socket::play(socket, hub, Dialect::Browser, seating).await,
            Err(e) => {
                hub.metrics().refused(e.code);
                Box::pin(socket::refuse(socket, e)).await
            }
        }
    })
}

/// What a browser asks for in `/ws/play`'s address.
enum BrowserMode {
    Quick(TableOptions),
    Room(String),
    Resume(u64),
}

fn browser_mode(params: &HashMap<String, String>) -> Result<BrowserMode, Refusal> {
    if ["token", "secret", "player"].iter().any(|k| params.contains_key(*k)) {
        return Err(Refusal::bad_request(
            "Send the reconnect token and player secret in the socket's first frame (credentials), \
             never in its address",
        ));
    }
    match params.get("mode").map(String::as_str) {
        Some("quick") => Ok(BrowserMode::Quick(browser_options(params)?)),
        Some("room") => Ok(BrowserMode::Room(params.get("code").cloned().unwrap_or_default())),
        Some("resume") => {
            let id = integer(params, "game")?
                .filter(|&g| g > 0)
                .ok_or_else(|| Refusal::bad_request("game is required to resume"))?;
            Ok(BrowserMode::Resume(id as u64))
        }
        _ => Err(Refusal::bad_request("mode must be quick, room or resume")),
    }
}

/// The browser's first frame, its credentials, within `within`.
async fn first_frame(socket: &mut WebSocket, within: std::time::Duration) -> Result<Credentials, Refusal> {
    let read = async {
        loop {
            match socket.recv().await {
                Some(Ok(Message::Text(text))) => return Credentials::parse(&text).map_err(Refusal::from),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Ok(Message::Binary(_))) => return Err(ErrorCode::InvalidJson.into()),
                Some(Ok(Message::Close(_)) | Err(_)) | None => {
                    return Err(Refusal::bad_request("The socket closed before its credentials frame"));
                }
            }
        }
    };
    tokio::time::timeout(within, read).await.unwrap_or_else(|_| {
        Err(Refusal::bad_request(format!(
            "No credentials frame within {} s of connecting: send it first",
            within.as_secs()
        )))
    })
}

/// What a browser says about who sits down.
struct Who {
    /// The name typed on the page (a guest's).
    typed: Option<String>,
    credentials: Credentials,
    /// The session id of its cookie.
    session: Option<String>,
}

async fn browser_seating(hub: &Hub, mode: BrowserMode, who: Who, address: ClientAddress) -> Result<Seating, Refusal> {
    Ok(match mode {
        BrowserMode::Resume(id) => Seating::Resume(id, who.credentials.token.unwrap_or_default()),
        BrowserMode::Quick(options) => Seating::Quick(options, who_plays(hub, who).await?, address),
        BrowserMode::Room(code) => Seating::Room(code, who_plays(hub, who).await?, address),
    })
}

/// The person at a browser: the account its session cookie is logged in
/// to; or a name registered before accounts whose id and secret this
/// browser kept (until a password is set for it); else a guest under the
/// name they typed (not rated).
async fn who_plays(hub: &Hub, who: Who) -> Result<Arrival, Refusal> {
    let guest = Arrival { name: who.typed, ..Arrival::default() };
    let Some(archive) = hub.archive() else { return Ok(guest) };
    let account = |id: String, name: String| Arrival {
        name: Some(name),
        model: None,
        player_id: Some(id),
        account_kind: AccountKind::Person,
    };
    if let Some(session) = &who.session {
        match super::accounts::sessions::person(archive.pool(), session).await {
            Ok(Some(me)) => return Ok(account(me.id, me.name)),
            // An ended session: the page shows its visitor logged out.
            Ok(None) => {}
            Err(e) => {
                tracing::error!(error = %e, "sessions unreadable");
                return Err(ErrorCode::Unavailable.into());
            }
        }
    }
    let (Some(id), Some(secret)) = (&who.credentials.player, &who.credentials.secret) else { return Ok(guest) };
    match super::identity::verify(archive.pool(), id, secret).await {
        Ok(name) => Ok(account(id.clone(), name)),
        Err(e) => Err(e.refusal()),
    }
}

/// Reads a browser's table options (shared with the create-room action).
pub fn browser_options(params: &HashMap<String, String>) -> Result<TableOptions, Refusal> {
    let size = integer(params, "size")?.unwrap_or(11);
    let series = integer(params, "series")?.unwrap_or(1);
    let swap = match params.get("swap").map(String::as_str) {
        None | Some("") => TableOptions::default_swap(size.clamp(0, 255) as u8),
        Some("1" | "on" | "true" | "yes") => true,
        Some("0" | "off" | "false" | "no") => false,
        Some(other) => return Err(Refusal::bad_request(format!("swap must be on or off, not {other:?}"))),
    };
    let time = TimeControl::parse(params.get("time").map_or("", String::as_str)).map_err(Refusal::bad_request)?;
    TableOptions::browser(size, series, swap, time).map_err(Refusal::bad_request)
}
