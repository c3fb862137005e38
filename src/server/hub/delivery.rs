//! Carrying out a table's effects: journal entries kept before anything
//! that tells of them, messages serialised once and queued for every
//! listener, the `state` view for browsers and spectators (the series'
//! finished games only to those who lack them), and the stop when the
//! journal fails.

use axum::extract::ws::Utf8Bytes;

use super::Hub;
use super::conn::{Conn, Frame};
use super::table::{Audience, Out, Table, To};
use crate::engine::ByColor;
use crate::online::{Dialect, ErrorCode, PlayerId, Refusal, ServerMessage};
use crate::server::archive::FinishedGame;
use crate::server::journal::{Entry, JournalFailure};

/// Who hears a table: its seated connections and its spectators, and how
/// much of the series they already have.
#[derive(Default)]
pub struct Listeners {
    pub seats: ByColor<Option<Conn>>,
    pub watchers: Vec<Conn>,
    /// Finished games of the series every listener has been sent.
    series_sent: usize,
    /// Listeners that have had no `state` yet: they get the whole view.
    fresh: Vec<u64>,
}

impl Listeners {
    /// A connection that needs the whole view next time (a browser's or a
    /// spectator's; hexgame v1 clients get no `state`).
    pub fn arrived(&mut self, conn: &Conn) {
        if conn.dialect == Dialect::Browser {
            self.fresh.push(conn.id);
        }
    }

    /// Sends `state` to browser seats and spectators: the whole view to a
    /// new listener or after a game ended, else the view without the
    /// finished games (a long series is not resent with every move).
    fn send_state(&mut self, table: &Table, now: u64, dropped: &mut Vec<PlayerId>) {
        let whole_for_all = table.finished().len() != self.series_sent;
        let mut cache: [Option<Utf8Bytes>; 4] = Default::default();
        let mut bytes = |whole: bool, audience: Audience| -> Utf8Bytes {
            // Spectators never get a room's code; while nobody waits in a
            // room both audiences see the same.
            let audience = if table.is_listed() { Audience::Seated } else { audience };
            let slot = usize::from(whole) * 2 + usize::from(audience == Audience::Public);
            cache[slot]
                .get_or_insert_with(|| {
                    let message =
                        if whole { table.state_message(now, audience) } else { table.state_change(now, audience) };
                    Utf8Bytes::from(message.to_json())
                })
                .clone()
        };
        for id in PlayerId::BOTH {
            let Some(conn) = self.seats[id].as_ref().filter(|c| c.dialect == Dialect::Browser) else { continue };
            let text = bytes(whole_for_all || self.fresh.contains(&conn.id), Audience::Seated);
            send(&mut self.seats, id, &text, dropped);
        }
        let fresh = &self.fresh;
        self.watchers.retain(|w| w.send(Frame::Text(bytes(whole_for_all || fresh.contains(&w.id), Audience::Public))));
        self.series_sent = table.finished().len();
        self.fresh.clear();
    }
}

/// Writes a run of journal entries and waits for them to be kept, so
/// nobody hears of a move a crash could lose; then hands the finished
/// games among them to the archive, which marks them archived in the
/// journal once committed.
pub async fn flush_journal(hub: &Hub, pending: &mut Vec<Entry>) -> Result<(), JournalFailure> {
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
    for entry in &entries {
        match entry {
            Entry::Move(_) => hub.metrics().moved(),
            Entry::Finished(_) => hub.metrics().game_finished(),
            _ => {}
        }
    }
    if let Some(journal) = hub.journal() {
        let started = std::time::Instant::now();
        let written = journal.write(entries).await;
        hub.metrics().journal_write.observe(started.elapsed());
        if written.is_err() {
            hub.metrics().journal_failed();
        }
        written?;
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
pub fn halt(listeners: &Listeners, failure: &JournalFailure) {
    tracing::error!(%failure, "a table stops: its journal write failed");
    let message = ServerMessage::error(Refusal::new(
        ErrorCode::Unavailable,
        "The server could not record this game, so it has stopped it here; it resumes from the last move \
         everyone saw once the server recovers",
    ));
    let bytes = Utf8Bytes::from(message.to_json());
    for conn in listeners.seats.iter().flatten().chain(&listeners.watchers) {
        let _ = conn.send(Frame::Text(bytes.clone()));
    }
}

/// Carries out the table's effects in the order it gave them; each run of
/// journal entries is kept before the effects after it. Each message is
/// written once and its bytes shared by every recipient; then, if anything
/// changed, the view goes to browser clients and spectators. Returns
/// the seats whose connection was dropped for being too slow.
pub async fn execute(
    hub: &Hub,
    table: &Table,
    listeners: &mut Listeners,
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
                match &message {
                    ServerMessage::GameStart(g) => {
                        hub.metrics().game_started();
                        tracing::info!(table = table.id, game = g.current_game_number, "game started");
                    }
                    ServerMessage::GameOver { winner, reason } => {
                        tracing::info!(table = table.id, ?winner, reason = reason.wire(), "game over");
                    }
                    ServerMessage::Error { code, .. } | ServerMessage::MoveRejected { code, .. } => {
                        hub.metrics().refused(*code);
                        tracing::info!(table = table.id, reason = code.name(), "refused");
                    }
                    _ => {}
                }
                let bytes = Utf8Bytes::from(message.to_json());
                for id in PlayerId::BOTH {
                    if matches!(to, To::Players | To::Everyone) || to == To::Seat(id) {
                        send(&mut listeners.seats, id, &bytes, &mut dropped);
                    }
                }
                if to == To::Everyone {
                    listeners.watchers.retain(|w| w.send(Frame::Text(bytes.clone())));
                }
            }
            Out::Close(id) => listeners.seats[id] = None,
            Out::Reseat { from, to } => {
                let conn = listeners.seats[from].take();
                listeners.seats[to] = conn;
            }
            Out::Relist => hub.relist(table.id, table.options),
            Out::Journal(_) => {}
        }
    }
    flush_journal(hub, &mut pending).await?;
    let browsers = listeners.seats.iter().flatten().any(|c| c.dialect == Dialect::Browser);
    if changed && (browsers || !listeners.watchers.is_empty()) {
        listeners.send_state(table, now, &mut dropped);
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
