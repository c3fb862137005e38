//! A table's task. It owns the [`Table`] and the connections seated at it,
//! so a move is handled without any lock: the connection's task sends a
//! command, this task applies it and writes each message once, sharing the
//! serialised bytes between recipients.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::conn::{Conn, Frame};
use super::table::{Arrival, Audience, Out, SeatError, Table, To};
use super::{Hub, TableHandle};
use crate::engine::ByColor;
use crate::online::{ClientMessage, Dialect, PlayerId, ServerMessage, SlotSnapshot, TableView};
use crate::online::{ErrorCode, Refusal};
use crate::server::archive::FinishedGame;
use crate::server::journal::{Entry, JournalFailure};

/// What a table's task is asked to do.
pub enum Command {
    /// Seat a new player (boxed: rare and large, while every queue slot
    /// is sized for the largest command).
    Join(Box<JoinRequest>),
    /// Resume a seat with its token.
    Reconnect(Box<ReconnectRequest>),
    /// Add a spectator.
    Watch { conn: Conn },
    /// A message from a seated player's connection (found by its id, as
    /// `keep_slot` may move the player to the other seat).
    FromSeat { conn_id: u64, message: ClientMessage },
    /// A connection closed.
    Gone { conn_id: u64 },
    /// The public snapshot, for `/slots` and the overview; `None` once the
    /// table is only lingering (finished and deserted).
    Snapshot { reply: oneshot::Sender<Option<SlotSnapshot>> },
    /// The browser view, for rendering `/game/:id` on the server.
    View { reply: oneshot::Sender<TableView> },
}

/// A player asking for a seat; `quick` refuses a table whose owner is away.
pub struct JoinRequest {
    pub who: Arrival,
    pub token: String,
    pub conn: Conn,
    pub quick: bool,
    pub reply: oneshot::Sender<Result<PlayerId, (SeatError, Conn)>>,
}

/// A player back with their token.
pub struct ReconnectRequest {
    pub token: String,
    pub conn: Conn,
    pub reply: oneshot::Sender<Result<PlayerId, SeatError>>,
}

/// Runs a table until it is deserted and its linger time has passed.
pub fn run(
    hub: Hub,
    handle: Arc<TableHandle>,
    table: Table,
    commands: mpsc::UnboundedReceiver<Command>,
) -> impl Future<Output = ()> {
    // The table lives on the heap: inline, the task's future would hold it
    // twice (as the argument and as the working copy).
    serve(hub, handle, Box::new(table), commands)
}

async fn serve(
    hub: Hub,
    handle: Arc<TableHandle>,
    mut table: Box<Table>,
    mut commands: mpsc::UnboundedReceiver<Command>,
) {
    let mut seats: ByColor<Option<Conn>> = ByColor::default();
    let mut watchers: Vec<Conn> = Vec::new();
    let now = || hub.now_ms();
    let linger = hub.config().linger;
    // A private room waits this long for its players; a matchmaking table
    // gets its first player at once.
    let room_wait = hub.config().room_wait;
    let mut deserted_since: Option<Instant> = table.room_code.is_some().then(Instant::now);
    // Set when a timer woke the task for nothing: a guard against spinning
    // on a deadline the table does not act on.
    let mut quiet_until: Option<Instant> = None;
    loop {
        let wake = table.next_deadline(now()).map(|t| hub.instant_of(t)).map(|w| quiet_until.map_or(w, |q| w.max(q)));
        // A table that never started has nothing worth showing afterwards.
        let linger = match (table.game(), &table.room_code) {
            (Some(_), _) => linger,
            (None, Some(_)) => room_wait,
            (None, None) => std::time::Duration::ZERO,
        };
        let until_gone = deserted_since.map(|t| t + linger);
        let deadline = [wake, until_gone].into_iter().flatten().min();
        let command = tokio::select! {
            biased;
            c = commands.recv() => match c { Some(c) => Some(c), None => break },
            () = sleep_until(deadline) => None,
        };
        if command.is_none() && until_gone.is_some_and(|t| t <= Instant::now()) {
            break;
        }
        let mut out = Vec::new();
        let mut changed = true;
        match command {
            None => {
                out = table.tick(now());
                quiet_until = out.is_empty().then(|| Instant::now() + std::time::Duration::from_millis(250));
            }
            Some(Command::Join(request)) => {
                let JoinRequest { who, token, conn, quick, reply } = *request;
                if quick && !table.is_open() {
                    let _ = reply.send(Err((SeatError::Full, conn)));
                    continue;
                }
                match table.join(who, token, now()) {
                    Ok((id, o)) => {
                        seats[id] = Some(conn);
                        out = o;
                        let _ = reply.send(Ok(id));
                    }
                    Err(e) => {
                        let _ = reply.send(Err((e, conn)));
                        continue;
                    }
                }
            }
            Some(Command::Reconnect(request)) => {
                let ReconnectRequest { token, conn, reply } = *request;
                match table.reconnect(&token, now()) {
                    Ok((id, o)) => {
                        // A page reload can race its own disconnect: the
                        // newer connection wins and the older one closes.
                        seats[id] = Some(conn);
                        out = o;
                        let _ = reply.send(Ok(id));
                    }
                    Err(e) => {
                        let _ = reply.send(Err(e));
                        continue;
                    }
                }
            }
            Some(Command::Watch { conn }) => {
                watchers.push(conn);
                table.set_spectators(watchers.len() as u32);
            }
            Some(Command::FromSeat { conn_id, message }) => {
                let Some(seat) = seat_of(&seats, conn_id) else {
                    continue; // a connection replaced by a reconnect, or a spectator
                };
                let t = now();
                out = match message {
                    ClientMessage::Move { q, r } => table.play(seat, q, r, t),
                    ClientMessage::BadMove(code) => vec![Out::to_seat(seat, ServerMessage::rejected(code))],
                    ClientMessage::Swap => table.swap(seat, t),
                    ClientMessage::Resign => table.resign(seat, t),
                    ClientMessage::Chat(Some(line)) => {
                        changed = false;
                        table.chat(seat, line)
                    }
                    ClientMessage::KeepSlot => table.keep_slot(seat, hub.new_token()),
                    ClientMessage::Chat(None) | ClientMessage::Hello | ClientMessage::Ping => continue,
                };
                if out.iter().all(|o| matches!(o, Out::Send(To::Seat(_), _))) {
                    changed = false; // only a rejection or an error to the sender
                }
            }
            Some(Command::Gone { conn_id }) => {
                if let Some(id) = seat_of(&seats, conn_id) {
                    seats[id] = None;
                    out = table.disconnect(id, now());
                } else {
                    watchers.retain(|w| w.id != conn_id);
                    table.set_spectators(watchers.len() as u32);
                }
            }
            Some(Command::Snapshot { reply }) => {
                let _ = reply.send((deserted_since.is_none() && table.is_listed()).then(|| table.snapshot()));
                continue;
            }
            Some(Command::View { reply }) => {
                let _ = reply.send(table.view(now()));
                continue;
            }
        }
        let mut outcome = execute(&hub, &table, &mut seats, &mut watchers, out, changed, now()).await;
        // A player whose queue is full is too slow to keep up: their socket
        // is closed and the reconnect window applies as for any drop.
        while let Ok(dropped) = &mut outcome
            && let Some(id) = dropped.pop()
        {
            let out = table.disconnect(id, now());
            let more = execute(&hub, &table, &mut seats, &mut watchers, out, true, now()).await;
            outcome = more.map(|more| [std::mem::take(dropped), more].concat());
        }
        if let Err(failure) = outcome {
            halt(&seats, &watchers, &failure);
            break;
        }
        let was_deserted = deserted_since.is_some();
        if table.is_deserted() && seats.iter().all(Option::is_none) {
            deserted_since.get_or_insert_with(Instant::now);
        } else {
            deserted_since = None;
        }
        // Leaving the live lists (or coming back) is a change too.
        let flipped = was_deserted != deserted_since.is_some();
        if (changed || flipped) && !handle.dirty.swap(true, Ordering::AcqRel) {
            hub.mark_changed(table.id);
        }
    }
    hub.forget(table.id, table.room_code.as_deref());
}

/// Writes a run of journal entries and waits for them to be kept, so
/// nobody hears of a move a crash could lose; then hands the finished
/// games among them to the archive, which marks them archived in the
/// journal once committed.
async fn flush_journal(hub: &Hub, pending: &mut Vec<Entry>) -> Result<(), JournalFailure> {
    if pending.is_empty() {
        return Ok(());
    }
    let entries = std::mem::take(pending);
    let finished: Vec<FinishedGame> = entries
        .iter()
        .filter_map(|e| match e {
            Entry::Finished(game) => Some((**game).clone()),
            _ => None,
        })
        .collect();
    if let Some(journal) = hub.journal() {
        journal.write(entries).await?;
    }
    for game in finished {
        hub.archive_game(game);
    }
    Ok(())
}

/// Stops a table whose journal write failed: what it was about to say is
/// not kept, so it is never said. Everyone is told why, and the table
/// closes; the journal still holds it as it last stood, and a restart
/// resumes it there.
fn halt(seats: &ByColor<Option<Conn>>, watchers: &[Conn], failure: &JournalFailure) {
    eprintln!("hexarena: a table stops: {failure}");
    let message = ServerMessage::error(Refusal::new(
        ErrorCode::Unavailable,
        "The server could not record this game, so it has stopped it here; it resumes from the last move \
         everyone saw once the server recovers",
    ));
    let bytes = Utf8Bytes::from(message.to_json());
    for conn in seats.iter().flatten().chain(watchers) {
        let _ = conn.send(Frame::Text(bytes.clone()));
    }
}

/// The seat whose connection is `conn_id`, if it is seated.
fn seat_of(seats: &ByColor<Option<Conn>>, conn_id: u64) -> Option<PlayerId> {
    PlayerId::BOTH.into_iter().find(|&p| seats[p].as_ref().is_some_and(|c| c.id == conn_id))
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(t) => tokio::time::sleep_until(t).await,
        None => std::future::pending().await,
    }
}

/// Carries out the table's effects in the order it gave them; each run of
/// journal entries is kept before the effects after it. Each message is
/// written once and its bytes shared by every recipient; then, if anything
/// changed, the whole view goes to browser clients and spectators. Returns
/// the seats whose connection was dropped for being too slow.
async fn execute(
    hub: &Hub,
    table: &Table,
    seats: &mut ByColor<Option<Conn>>,
    watchers: &mut Vec<Conn>,
    out: Vec<Out>,
    changed: bool,
    now: u64,
) -> Result<Vec<PlayerId>, JournalFailure> {
    let mut dropped: Vec<PlayerId> = Vec::new();
    let mut pending: Vec<Entry> = Vec::new();
    for o in out {
        if let Out::Journal(entry) = o {
            pending.push(entry);
            continue;
        }
        flush_journal(hub, &mut pending).await?;
        match o {
            Out::Send(to, message) => {
                let bytes = Utf8Bytes::from(message.to_json());
                for id in PlayerId::BOTH {
                    if matches!(to, To::Players | To::Everyone) || to == To::Seat(id) {
                        send(seats, id, &bytes, &mut dropped);
                    }
                }
                if to == To::Everyone {
                    watchers.retain(|w| w.send(Frame::Text(bytes.clone())));
                }
            }
            Out::Close(id) => seats[id] = None,
            Out::Reseat { from, to } => {
                let conn = seats[from].take();
                seats[to] = conn;
            }
            Out::Relist => hub.relist(table.id, table.options),
            Out::Journal(_) => {}
        }
    }
    flush_journal(hub, &mut pending).await?;
    let browsers = seats.iter().flatten().any(|c| c.dialect == Dialect::Browser);
    if changed && (browsers || !watchers.is_empty()) {
        let seated = Utf8Bytes::from(table.state_message(now, Audience::Seated).to_json());
        for id in PlayerId::BOTH {
            if seats[id].as_ref().is_some_and(|c| c.dialect == Dialect::Browser) {
                send(seats, id, &seated, &mut dropped);
            }
        }
        if !watchers.is_empty() {
            // Spectators never get a room's code.
            let public = if !table.is_listed() {
                Utf8Bytes::from(table.state_message(now, Audience::Public).to_json())
            } else {
                seated
            };
            watchers.retain(|w| w.send(Frame::Text(public.clone())));
        }
    }
    Ok(dropped)
}

/// Queues `bytes` for seat `id`; a full queue drops the connection.
fn send(seats: &mut ByColor<Option<Conn>>, id: PlayerId, bytes: &Utf8Bytes, dropped: &mut Vec<PlayerId>) {
    if let Some(conn) = &seats[id]
        && !conn.send(Frame::Text(bytes.clone()))
    {
        seats[id] = None;
        dropped.push(id);
    }
}
