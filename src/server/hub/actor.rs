//! A table's task. It owns the [`Table`] and the connections seated at it,
//! so a move is handled without any lock: the connection's task sends a
//! command, this task applies it and writes each message once, sharing the
//! serialised bytes between recipients.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;

use super::delivery::{Listeners, execute, halt};
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use super::conn::{Conn, Frame};
use super::table::{Action, Arrival, Out, Replay, SeatError, Table, To};
use super::{Hub, TableHandle, rematch};
use crate::engine::ByColor;
use crate::online::ErrorCode;
use crate::online::{ClientMessage, PlayerId, ServerMessage, SlotSnapshot, TableView};

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
    /// The server is stopping: tell everyone, and stop here. The journal
    /// keeps the table as it stands, and the next start reopens it.
    Shutdown,
    /// Seat both players of a rematch, away until they come with these
    /// tokens (boxed, as `Join`).
    Prepare { seats: Box<ByColor<(Arrival, String)>>, reply: oneshot::Sender<()> },
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
    commands: mpsc::Receiver<Command>,
) -> impl Future<Output = ()> {
    // The table lives on the heap: inline, the task's future would hold it
    // twice (as the argument and as the working copy).
    serve(hub, handle, Box::new(table), commands)
}

async fn serve(hub: Hub, handle: Arc<TableHandle>, mut table: Box<Table>, mut commands: mpsc::Receiver<Command>) {
    let mut listeners = Listeners::default();
    let now = || hub.now_ms();
    let linger = hub.config().linger;
    // A private room waits this long for its players; a matchmaking table
    // gets its first player at once.
    let room_wait = hub.config().room_wait;
    let mut deserted_since: Option<Instant> = table.room_code.is_some().then(Instant::now);
    // Since when someone has sat here waiting for an opponent.
    let mut waiting_since: Option<Instant> = None;
    // Set when a timer woke the task for nothing: a guard against spinning
    // on a deadline the table does not act on.
    let mut quiet_until: Option<Instant> = None;
    let mut recorder = Recorder(hub.config().judge.then(|| Replay::of(&table).map(Box::new)).flatten());
    // A rematch offered after the series, and by whom.
    let mut rematch_offer: Option<PlayerId> = None;
    loop {
        let wake = table.next_deadline(now()).map(|t| hub.instant_of(t)).map(|w| quiet_until.map_or(w, |q| w.max(q)));
        // A table that never started has nothing worth showing afterwards.
        let linger = match (table.game(), &table.room_code) {
            (Some(_), _) => linger,
            (None, Some(_)) => room_wait,
            (None, None) => std::time::Duration::ZERO,
        };
        let until_gone = deserted_since.map(|t| t + linger);
        let expiry = waiting_since.map(|t| t + hub.config().wait_expiry);
        let deadline = [wake, until_gone, expiry].into_iter().flatten().min();
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
            None if expiry.is_some_and(|t| t <= Instant::now()) => {
                recorder.note(now(), Action::Expire);
                out = table.expire();
            }
            None => {
                let t = now();
                recorder.note(t, Action::Tick);
                out = table.tick(t);
                quiet_until = out.is_empty().then(|| Instant::now() + std::time::Duration::from_millis(250));
            }
            Some(Command::Join(request)) => {
                let JoinRequest { who, token, conn, quick, reply } = *request;
                if quick && !table.is_open() {
                    let _ = reply.send(Err((SeatError::Full, conn)));
                    continue;
                }
                let t = now();
                recorder.note(t, Action::Join { token: token.clone() });
                match table.join(who, token, t) {
                    Ok((id, o)) => {
                        listeners.arrived(&conn);
                        listeners.seats[id] = Some(conn);
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
                let t = now();
                recorder.note(t, Action::Reconnect { token: token.clone() });
                match table.reconnect(&token, t) {
                    Ok((id, o)) => {
                        // A page reload can race its own disconnect: the
                        // newer connection wins and the older one closes.
                        listeners.arrived(&conn);
                        listeners.seats[id] = Some(conn);
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
                let most = hub.config().watchers_per_table as usize;
                if most > 0 && listeners.watchers.len() >= most {
                    // The refusal is queued before the connection is let go.
                    let _ = conn.send(Frame::Text(ServerMessage::error(ErrorCode::TooManyWatchers).to_json().into()));
                    continue;
                }
                listeners.arrived(&conn);
                listeners.watchers.push(conn);
                table.set_spectators(listeners.watchers.len() as u32);
            }
            Some(Command::FromSeat { conn_id, message }) => {
                let Some(seat) = seat_of(&listeners.seats, conn_id) else {
                    continue; // a connection replaced by a reconnect, or a spectator
                };
                let t = now();
                out = match message {
                    ClientMessage::Move { q, r } => recorder.act(&mut table, Action::Play { seat, q, r }, t),
                    ClientMessage::Swap => recorder.act(&mut table, Action::Swap { seat }, t),
                    ClientMessage::Resign => recorder.act(&mut table, Action::Resign { seat }, t),
                    ClientMessage::KeepSlot => {
                        recorder.act(&mut table, Action::KeepSlot { seat, token: hub.new_token() }, t)
                    }
                    ClientMessage::Chat(Some(line)) => {
                        changed = false;
                        recorder.note(t, Action::Chat { seat });
                        table.chat(seat, line)
                    }
                    ClientMessage::BadMove(code) => vec![Out::to_seat(seat, ServerMessage::rejected(code))],
                    ClientMessage::Rematch(step) => {
                        changed = false;
                        match rematch::step(&table, &mut rematch_offer, seat, step) {
                            rematch::Turn::Tell(out) => out,
                            rematch::Turn::Agreed => {
                                rematch_offer = None;
                                match rematch::swapped(&table) {
                                    Some(seats) => rematch::news(hub.open_rematch(table.options, seats).await),
                                    None => continue,
                                }
                            }
                        }
                    }
                    ClientMessage::Chat(None) | ClientMessage::Hello | ClientMessage::Ping => continue,
                };
                if out.iter().all(|o| matches!(o, Out::Send(To::Seat(_), _))) {
                    changed = false; // only a rejection or an error to the sender
                }
            }
            Some(Command::Gone { conn_id }) => {
                if let Some(id) = seat_of(&listeners.seats, conn_id) {
                    listeners.seats[id] = None;
                    out = recorder.act(&mut table, Action::Disconnect { seat: id }, now());
                } else {
                    listeners.watchers.retain(|w| w.id != conn_id);
                    table.set_spectators(listeners.watchers.len() as u32);
                }
            }
            Some(Command::Prepare { seats, reply }) => {
                let t = now();
                let ByColor { red, blue } = *seats;
                for (who, token) in [red, blue] {
                    recorder.note(t, Action::Join { token: token.clone() });
                    if let Ok((_, more)) = table.join(who, token, t) {
                        out.extend(more);
                    }
                }
                for seat in PlayerId::BOTH {
                    out.extend(recorder.act(&mut table, Action::Disconnect { seat }, t));
                }
                let _ = reply.send(());
            }
            Some(Command::Snapshot { reply }) => {
                let _ = reply.send((deserted_since.is_none() && table.is_listed()).then(|| table.snapshot()));
                continue;
            }
            Some(Command::View { reply }) => {
                let _ = reply.send(table.view(now()));
                continue;
            }
            Some(Command::Shutdown) => {
                let bytes = Utf8Bytes::from(ServerMessage::error(ErrorCode::ServerRestarting).to_json());
                for conn in listeners.seats.iter().flatten().chain(&listeners.watchers) {
                    let _ = conn.send(Frame::Text(bytes.clone()));
                }
                break;
            }
        }
        let mut outcome = execute(&hub, &table, &mut listeners, out, changed, now()).await;
        // A player whose queue is full is too slow to keep up: their socket
        // is closed and the reconnect window applies as for any drop.
        while let Ok(dropped) = &mut outcome
            && let Some(id) = dropped.pop()
        {
            let out = recorder.act(&mut table, Action::Disconnect { seat: id }, now());
            let more = execute(&hub, &table, &mut listeners, out, true, now()).await;
            outcome = more.map(|more| [std::mem::take(dropped), more].concat());
        }
        if let Err(failure) = outcome {
            halt(&listeners, &failure);
            break;
        }
        if hub.config().judge
            && let Err(violation) = table.judge(now())
        {
            hub.judge_violation(table.id, &violation, recorder.0.as_deref());
        }
        let waits = table.phase() == crate::online::Phase::Waiting && listeners.seats.iter().any(Option::is_some);
        waiting_since = if waits { waiting_since.or_else(|| Some(Instant::now())) } else { None };
        let was_deserted = deserted_since.is_some();
        if table.is_deserted() && listeners.seats.iter().all(Option::is_none) {
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
    hub.forget(table.id, table.room_code.as_deref(), table.options);
}

/// The table's replay while the judge is on: every action, as applied
/// (boxed: most tables never record, and every table's task holds this).
struct Recorder(Option<Box<Replay>>);

impl Recorder {
    fn note(&mut self, at: u64, action: Action) {
        if let Some(replay) = &mut self.0 {
            replay.record(at, action);
        }
    }

    /// Records `action` and applies it.
    fn act(&mut self, table: &mut Table, action: Action, at: u64) -> Vec<Out> {
        let out = table.act(&action, at);
        self.note(at, action);
        out
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
