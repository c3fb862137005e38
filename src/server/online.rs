//! The live-play endpoints: hexgame protocol v1 (`/ws/matchmake`,
//! `/ws/join-slot`, `/ws/reconnect`, `/slots`, `/ws/slots`,
//! `/api/statistics`) and our browser protocol's spectators and feeds
//! (`/ws/watch`, `/ws/overview`); a browser player's `/ws/play` is in
//! `browser_play.rs`.

use std::collections::HashMap;

use axum::Json;
use axum::Router;
use axum::extract::FromRequestParts;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::json;

use super::client_address::ClientAddress;
use super::hub::Hub;
use super::hub::admission::{Permit, TooMany};
use super::hub::liveness::{Liveness, Pulse};
use super::hub::socket::{self, Seating};
use super::hub::table::Arrival;
use super::metrics::ConnectionKind;
use crate::online::account::AccountKind;
use crate::online::{Dialect, ErrorCode, Refusal, TableOptions};

pub use super::browser_play::browser_options;

/// hexgame protocol v1's routes; served at the root and again under
/// `/bot/{token}`, where a bot account's token in the server address makes
/// the unchanged hexgame clients authenticate.
fn v1_routes() -> Router<Hub> {
    Router::new()
        .route("/ws/matchmake", get(matchmake))
        .route("/ws/join-slot", get(join_slot))
        .route("/ws/reconnect", get(reconnect))
        .route("/slots", get(slots))
        .route("/ws/slots", get(slots_feed))
        .route("/api/statistics", get(statistics))
}

/// The live-play routes, ready to merge into the app's router.
pub fn routes<S: Clone + Send + Sync + 'static>(hub: Hub) -> Router<S> {
    Router::new()
        .merge(v1_routes())
        .nest("/bot/{token}", v1_routes())
        .route("/ws/play", get(super::browser_play::play))
        .route("/ws/watch", get(watch))
        .route("/ws/overview", get(overview_feed))
        .route_layer(axum::middleware::from_fn(super::security::same_origin_sockets))
        .with_state(hub)
}

pub(super) type Params = Query<HashMap<String, String>>;

/// A place for one more socket from the client's address, held for as long
/// as the socket lives; past `HEXARENA_MAX_CONNECTIONS_PER_ADDRESS` the
/// upgrade is refused with 429 before it costs anything.
pub(super) struct SocketPermit(#[allow(dead_code)] Permit);

impl FromRequestParts<Hub> for SocketPermit {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, hub: &Hub) -> Result<SocketPermit, Response> {
        hub.admit_socket(ClientAddress::of(parts)).map(SocketPermit).map_err(|TooMany(limit)| {
            hub.metrics().refused(ErrorCode::TooManyRequests);
            let message = format!("Too many connections from your address (at most {limit}): close some and try again");
            (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, "10")], message).into_response()
        })
    }
}

/// Small buffers keep an idle connection cheap (they grow for a large frame
/// and shrink back); frames above 64 KiB end the
/// connection, frames above 4 KiB get hexgame's "Message too large".
pub(super) fn upgrade(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(1024).write_buffer_size(1024).max_message_size(64 << 10).max_frame_size(64 << 10)
}

/// A whole number from the query, or the error text hexgame would give.
pub(super) fn integer(params: &HashMap<String, String>, key: &str) -> Result<Option<i64>, Refusal> {
    match params.get(key) {
        None => Ok(None),
        Some(v) => {
            v.trim().parse().map(Some).map_err(|_| Refusal::bad_request(format!("{key} must be an integer, not {v:?}")))
        }
    }
}

/// The `slot_id` of a v1 request; a missing or non-positive one is
/// refused with `missing` (hexgame's answer for that endpoint).
fn slot_id(params: &HashMap<String, String>, missing: ErrorCode) -> Result<u64, Refusal> {
    match integer(params, "slot_id")? {
        Some(id) if id > 0 => Ok(id as u64),
        _ => Err(missing.into()),
    }
}

/// A display label as hexgame cleans it: printable, trimmed, at most 80 characters.
pub(super) fn label(params: &HashMap<String, String>, key: &str) -> Option<String> {
    let cleaned: String = params.get(key)?.chars().filter(|c| !c.is_control()).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.chars().take(80).collect())
}

/// A bot account's token, from the address (`/bot/TOKEN/ws/…`, where
/// hexgame's clients put it) or an `Authorization: Bearer` header.
pub(super) struct BotToken(Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for BotToken {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<BotToken, Self::Rejection> {
        let in_path = match axum::extract::RawPathParams::from_request_parts(parts, state).await {
            Ok(params) => params.iter().find(|(k, _)| *k == "token").map(|(_, v)| v.to_string()),
            Err(_) => None,
        };
        let bearer = || {
            let value = parts.headers.get(header::AUTHORIZATION)?.to_str().ok()?;
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
        };
        Ok(BotToken(in_path.or_else(bearer)))
    }
}

/// Who a v1 connection is: the bot account its token proves (rated as that
/// bot, whatever names it declares), or, without a token, the names it
/// declares, unverified and unrated.
async fn arrival(hub: &Hub, params: &HashMap<String, String>, token: BotToken) -> Result<Arrival, Refusal> {
    let declared = Arrival {
        name: label(params, "username").or_else(|| label(params, "name")),
        model: label(params, "model_name"),
        ..Arrival::default()
    };
    let Some(token) = token.0 else { return Ok(declared) };
    let Some(archive) = hub.archive() else {
        return Err(Refusal::new(ErrorCode::BadBotToken, "This server keeps no accounts: connect without a token"));
    };
    match super::accounts::bots::authenticate(archive.pool(), &token).await {
        Ok(Ok(bot)) => Ok(Arrival {
            name: Some(bot.name),
            model: declared.model,
            player_id: Some(bot.id),
            account_kind: AccountKind::Bot,
        }),
        Ok(Err(refused)) => Err(Refusal::new(ErrorCode::BadBotToken, refused.to_string())),
        Err(e) => {
            tracing::error!(error = %e, "bot tokens unreadable");
            Err(ErrorCode::Unavailable.into())
        }
    }
}

fn v1_options(params: &HashMap<String, String>) -> Result<TableOptions, Refusal> {
    let size = integer(params, "board_size")?.ok_or_else(|| Refusal::bad_request("board_size is required"))?;
    let series = integer(params, "series_length")?.unwrap_or(1);
    if let Some(first) = integer(params, "first_player")?
        && first != -1
        && first != 1
    {
        return Err(Refusal::bad_request("Invalid first_player value"));
    }
    TableOptions::v1(size, series).map_err(Refusal::bad_request)
}

/// Upgrades to a player's socket: seated as `seating` says, or told why not.
/// Requests are read before the upgrade, so a connection keeps only what
/// it needs (idle connections are many).
fn seat(
    ws: WebSocketUpgrade,
    hub: Hub,
    dialect: Dialect,
    seating: Result<Seating, Refusal>,
    permit: SocketPermit,
) -> Response {
    upgrade(ws).on_upgrade(move |socket| async move {
        let _held = permit;
        match seating {
            Ok(seating) => socket::play(socket, hub, dialect, seating).await,
            Err(e) => {
                hub.metrics().refused(e.code);
                Box::pin(socket::refuse(socket, e)).await
            }
        }
    })
}

async fn matchmake(
    ws: WebSocketUpgrade,
    State(hub): State<Hub>,
    address: ClientAddress,
    permit: SocketPermit,
    token: BotToken,
    Query(params): Params,
) -> Response {
    let seating = match v1_options(&params) {
        Ok(options) => arrival(&hub, &params, token).await.map(|who| Seating::Quick(options, who, address)),
        Err(e) => Err(e),
    };
    seat(ws, hub, Dialect::V1, seating, permit)
}

async fn join_slot(
    ws: WebSocketUpgrade,
    State(hub): State<Hub>,
    permit: SocketPermit,
    token: BotToken,
    Query(params): Params,
) -> Response {
    let seating = match slot_id(&params, ErrorCode::NoSuchSlot) {
        Ok(id) => arrival(&hub, &params, token).await.map(|who| Seating::Table(id, who)),
        Err(e) => Err(e),
    };
    seat(ws, hub, Dialect::V1, seating, permit)
}

async fn reconnect(
    ws: WebSocketUpgrade,
    State(hub): State<Hub>,
    permit: SocketPermit,
    Query(params): Params,
) -> Response {
    let token = params.get("token").cloned().unwrap_or_default();
    let seating = slot_id(&params, ErrorCode::ReconnectClosed).map(|id| Seating::Resume(id, token));
    seat(ws, hub, Dialect::V1, seating, permit)
}

/// `GET /slots`: every live table, fresh.
async fn slots(State(hub): State<Hub>) -> Json<Vec<crate::online::SlotSnapshot>> {
    Json(hub.snapshots().await)
}

/// `GET /api/statistics`: hexgame's shape (plus ratings and games per
/// day); `persistence_enabled: false` and empty when the hub keeps no
/// archive, as hexgame-server answers without a database.
async fn statistics(State(hub): State<Hub>) -> Response {
    use axum::response::IntoResponse;
    let Some(archive) = hub.archive() else {
        return Json(crate::online::records::Statistics::default()).into_response();
    };
    match super::archive::read::statistics(archive.pool(), super::archive::wall_ms() as i64).await {
        Ok(stats) => Json(stats).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "statistics unreadable");
            (
                axum::http::StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"error": "The statistics are unavailable right now"})),
            )
                .into_response()
        }
    }
}

/// `/ws/slots`: the whole list now, then again whenever tables change, at
/// most once per `HEXARENA_SLOTS_FEED_MS` (a slow reader skips to the latest).
async fn slots_feed(ws: WebSocketUpgrade, State(hub): State<Hub>, permit: SocketPermit) -> Response {
    upgrade(ws).on_upgrade(move |mut socket: WebSocket| async move {
        let _held = permit;
        let _counted = hub.metrics().connection(ConnectionKind::Feed);
        let mut feed = hub.feeds().slots.subscribe();
        let mut liveness = Liveness::new(hub.config().ping);
        let first = serde_json::to_string(&hub.snapshots().await).unwrap_or_else(|_| "[]".into());
        if !liveness.write(&mut socket, Message::Text(first.into())).await {
            return;
        }
        feed.borrow_and_update();
        loop {
            tokio::select! {
                changed = feed.changed() => {
                    if changed.is_err() { break }
                    let list = feed.borrow_and_update().clone();
                    if !liveness.write(&mut socket, Message::Text(list)).await { break }
                    tokio::time::sleep(hub.config().slots_feed_interval).await;
                }
                () = liveness.tick() => if liveness.pulse(&mut socket).await == Pulse::Gone { break },
                () = hub.closing() => {
                    let _ = liveness.write(&mut socket, Message::Close(None)).await;
                    break;
                }
                incoming = socket.recv() => {
                    liveness.heard();
                    if let Some(Ok(Message::Close(_)) | Err(_)) | None = incoming { break }
                }
            }
        }
    })
}

/// `/ws/overview`: every table once, then only changes.
async fn overview_feed(ws: WebSocketUpgrade, State(hub): State<Hub>, permit: SocketPermit) -> Response {
    upgrade(ws).on_upgrade(move |mut socket: WebSocket| async move {
        let _held = permit;
        let _counted = hub.metrics().connection(ConnectionKind::Feed);
        // Subscribed before asking for the list, so no change after it is missed.
        let mut feed = hub.feeds().changes.subscribe();
        let Some(base) = hub.feeds().base().await else { return };
        let mut held = base.seq;
        let mut liveness = Liveness::new(hub.config().ping);
        if !liveness.write(&mut socket, Message::Text(base.text)).await {
            return;
        }
        loop {
            tokio::select! {
                update = feed.recv() => {
                    let update = match update {
                        Ok(update) if update.seq <= held => continue,
                        Ok(update) => update,
                        // Too slow: skip what was missed and start again from the whole list.
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                            let Some(base) = hub.feeds().base().await else { break };
                            base
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                    };
                    held = update.seq;
                    if !liveness.write(&mut socket, Message::Text(update.text)).await { break }
                }
                () = liveness.tick() => if liveness.pulse(&mut socket).await == Pulse::Gone { break },
                () = hub.closing() => {
                    let _ = liveness.write(&mut socket, Message::Close(None)).await;
                    break;
                }
                incoming = socket.recv() => {
                    liveness.heard();
                    if let Some(Ok(Message::Close(_)) | Err(_)) | None = incoming { break }
                }
            }
        }
    })
}

/// `/ws/watch?game=…`: a spectator.
async fn watch(ws: WebSocketUpgrade, State(hub): State<Hub>, permit: SocketPermit, Query(params): Params) -> Response {
    let game = integer(&params, "game");
    upgrade(ws).on_upgrade(move |socket| async move {
        let _held = permit;
        match game {
            Ok(Some(id)) if id > 0 => socket::watch(socket, hub, id as u64).await,
            Ok(_) => Box::pin(socket::refuse(socket, Refusal::bad_request("game is required"))).await,
            Err(e) => Box::pin(socket::refuse(socket, e)).await,
        }
    })
}
