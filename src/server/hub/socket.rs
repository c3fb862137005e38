//! One task per WebSocket: it reads the client's frames, answers what needs
//! no table (ping, hello, unreadable input), forwards the rest to the
//! table's task, and writes whatever the table queued for it.

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::SinkExt;
use tokio::time::Instant;

use super::conn::Frame;
use super::liveness::{Liveness, Pulse};
use super::rate::{Rates, Verdict};
use super::table::Arrival;
use super::{Hub, JoinError, NotQueued, TableLink};
use crate::online::{
    ClientMessage, Dialect, ErrorCode, PlayerId, Refusal, ServerMessage, TableOptions, parse_client_message,
};
use crate::server::client_address::ClientAddress;
use crate::server::metrics::ConnectionKind;

/// Frames a seated player may have queued before being dropped as too slow.
pub const PLAYER_QUEUE: usize = 256;
/// Frames a spectator may have queued before being dropped.
pub const WATCHER_QUEUE: usize = 64;
/// Policy-violation close code, as hexgame sends after a refused join.
const POLICY: u16 = 1008;

/// How a player takes a seat.
pub enum Seating {
    /// Matchmaking in the pool of these options, from this address.
    Quick(TableOptions, Arrival, ClientAddress),
    /// A table by id (hexgame's `/ws/join-slot`).
    Table(u64, Arrival),
    /// A private room by code, from this address (wrong codes count).
    Room(String, Arrival, ClientAddress),
    /// Back to a seat with its token.
    Resume(u64, String),
}

/// Sends one error and closes, for a request refused before any seat.
pub async fn refuse(mut socket: WebSocket, refusal: impl Into<Refusal>) {
    let _ = socket.send(Message::Text(ServerMessage::error(refusal).to_json().into())).await;
    let _ = socket.send(Message::Close(Some(CloseFrame { code: POLICY, reason: Utf8Bytes::from_static("") }))).await;
}

/// Seats the player, then relays until the socket closes.
pub async fn play(socket: WebSocket, hub: Hub, dialect: Dialect, seating: Seating) {
    if hub.is_closing() {
        hub.metrics().refused(ErrorCode::ServerRestarting);
        // Boxed like every stage here: inline, every connection's task would
        // be sized for this rare refusal as long as it lives.
        return Box::pin(refuse(socket, ErrorCode::ServerRestarting)).await;
    }
    let _counted = hub.metrics().connection(ConnectionKind::Player);
    let (conn, rx) = hub.new_conn(dialect, PLAYER_QUEUE);
    let conn_id = conn.id;
    // The seating and relaying futures are boxed one after the other: inline,
    // the task would be sized for all of them for as long as the connection
    // lives, and idle connections are many.
    let seated: Result<(TableLink, PlayerId), JoinError> = Box::pin(async {
        match seating {
            Seating::Quick(options, who, address) => hub.quick_match(options, who, conn, address).await,
            Seating::Table(id, who) => hub.join_table(id, who, conn).await,
            Seating::Room(code, who, address) => hub.join_room(&code, who, conn, address).await,
            Seating::Resume(id, token) => hub.reconnect(id, token, conn).await,
        }
    })
    .await;
    match seated {
        Ok((table, seat)) => {
            tracing::info!(conn = conn_id, table = table.id(), ?seat, ?dialect, "seated");
            Box::pin(relay(socket, rx, &table, conn_id, dialect, true, &hub)).await;
            tracing::info!(conn = conn_id, table = table.id(), "player left");
        }
        Err(e) => {
            hub.metrics().refused(e.code());
            tracing::info!(conn = conn_id, reason = e.code().name(), "seat refused");
            Box::pin(refuse(socket, e.refusal())).await
        }
    }
}

/// Adds a spectator to table `id` and relays its view.
pub async fn watch(socket: WebSocket, hub: Hub, id: u64) {
    if hub.is_closing() {
        hub.metrics().refused(ErrorCode::ServerRestarting);
        return Box::pin(refuse(socket, ErrorCode::ServerRestarting)).await;
    }
    let _counted = hub.metrics().connection(ConnectionKind::Spectator);
    let (conn, rx) = hub.new_conn(Dialect::Browser, WATCHER_QUEUE);
    let conn_id = conn.id;
    match hub.watch(id, conn).await {
        Some(table) => Box::pin(relay(socket, rx, &table, conn_id, Dialect::Browser, false, &hub)).await,
        None => {
            hub.metrics().refused(ErrorCode::NoLiveGame);
            Box::pin(refuse(socket, ErrorCode::NoLiveGame)).await
        }
    }
}

async fn relay(
    mut socket: WebSocket,
    mut rx: tokio::sync::mpsc::Receiver<Frame>,
    table: &TableLink,
    conn_id: u64,
    dialect: Dialect,
    seated: bool,
    hub: &Hub,
) {
    let mut liveness = Liveness::new(hub.config().ping);
    let mut rates = Rates::new(hub.config(), Instant::now());
    loop {
        tokio::select! {
            frame = rx.recv() => {
                let Some(Frame::Text(text)) = frame else {
                    // The table let go of this connection.
                    let _ = liveness.write(&mut socket, Message::Close(None)).await;
                    break;
                };
                // Everything already queued goes out in one flush, within
                // the write deadline: a client that does not read is gone.
                let write = async {
                    socket.feed(Message::Text(text)).await?;
                    while let Ok(Frame::Text(text)) = rx.try_recv() {
                        socket.feed(Message::Text(text)).await?;
                    }
                    socket.flush().await
                };
                // Boxed, as in `Liveness::write`: idle sockets do not carry it.
                if !matches!(Box::pin(tokio::time::timeout(liveness.write_deadline(), write)).await, Ok(Ok(()))) {
                    break;
                }
            }
            () = liveness.tick() => {
                if liveness.pulse(&mut socket).await == Pulse::Gone {
                    break;
                }
            }
            incoming = socket.recv() => {
                liveness.heard();
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let answer = Message::Text(ServerMessage::error(ErrorCode::InvalidJson).to_json().into());
                        if liveness.write(&mut socket, answer).await { continue } else { break }
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let parsed: Result<ClientMessage, Refusal> = match rates.frame(Instant::now()) {
                    Verdict::Take => parse_client_message(&text, dialect).map_err(Refusal::from),
                    Verdict::Refuse(code) => Err(code.into()),
                    Verdict::Close => break,
                };
                let parsed = match parsed.map(|m| (rates.message(&m, Instant::now()), m)) {
                    Ok((Verdict::Take, m)) => Ok(m),
                    Ok((Verdict::Refuse(code), _)) => Err(code.into()),
                    Ok((Verdict::Close, _)) => break,
                    Err(e) => Err(e),
                };
                let answer = match parsed {
                    Err(e) => {
                        hub.metrics().refused(e.code);
                        tracing::info!(conn = conn_id, reason = e.code.name(), "frame refused");
                        Some(ServerMessage::error(e))
                    }
                    Ok(ClientMessage::Ping) => Some(ServerMessage::Pong {}),
                    Ok(ClientMessage::Hello) => Some(ServerMessage::Hello { protocol_version: crate::online::PROTOCOL_VERSION }),
                    Ok(_) if !seated => {
                        hub.metrics().refused(ErrorCode::SpectatorCannotAct);
                        Some(ServerMessage::error(ErrorCode::SpectatorCannotAct))
                    }
                    Ok(message) => {
                        match table.from_seat(conn_id, message, dialect, &text).await {
                            Ok(()) => None,
                            Err(NotQueued::Busy) => Some(ServerMessage::error(ErrorCode::TooFast)),
                            Err(NotQueued::Closed) => Some(ServerMessage::error(ErrorCode::GameClosed)),
                        }
                    }
                };
                if let Some(answer) = answer && !liveness.write(&mut socket, Message::Text(answer.to_json().into())).await {
                    break;
                }
            }
        }
    }
    table.gone(conn_id).await;
}
