//! Time at a table: the clocks of timed games, the reconnect window, and
//! what happens when either runs out.

use super::effects::{Out, To};
use super::{Millis, Table};
use crate::online::messages::DisconnectReason;
use crate::online::{ErrorCode, GameEnd, Phase, PlayerId, ServerMessage};
use crate::server::journal::Entry;

impl Table {
    /// Applies whatever time has made happen: a flag fall, a reconnect
    /// window running out.
    pub fn tick(&mut self, now: Millis) -> Vec<Out> {
        let mut out = Vec::new();
        if self.phase() == Phase::Paused && self.result.is_none() {
            if let Some(absent) = self.overdue_absentee(now) {
                let present = absent.opponent();
                out.extend(self.finish_game(present, GameEnd::Forfeit, now));
                // The notice goes right after the journal entries (the
                // series cannot go on without the absent player).
                let at = out.iter().take_while(|o| matches!(o, Out::Journal(_))).count();
                out.insert(at, Out::to_seat(present, self.opponent_disconnected(DisconnectReason::ReconnectTimeout)));
                if self.series_winner.is_none() {
                    self.abandoned = true;
                    out.push(Out::Send(To::Everyone, self.series_over_message(present)));
                }
            }
        } else if self.phase() == Phase::Waiting {
            // A room or quick-match seat whose owner never came back.
            for id in PlayerId::BOTH {
                if self.seat(id).and_then(|s| s.away_since).is_some_and(|t| now >= t + self.reconnect_ms) {
                    self.seats[id] = None;
                    out.push(if self.seats.iter().all(Option::is_none) {
                        Out::Journal(Entry::Closed(self.id))
                    } else {
                        self.journal_header()
                    });
                }
            }
        }
        if self.phase() == Phase::Playing
            && self.result.is_none()
            && let Some(turn) = self.turn()
            && self.clock_left(turn, now) == Some(0)
        {
            self.charge_clock(now);
            out.extend(self.finish_game(turn.opponent(), GameEnd::Timeout, now));
        }
        out
    }

    /// Closes a table that has waited too long for its players: whoever
    /// sits there is told why, and the journal lets it go.
    pub fn expire(&mut self) -> Vec<Out> {
        if self.phase() != Phase::Waiting {
            return Vec::new();
        }
        let mut out = vec![
            Out::Journal(Entry::Closed(self.id)),
            Out::Send(To::Players, ServerMessage::error(ErrorCode::TableExpired)),
        ];
        for id in PlayerId::BOTH {
            if self.seats[id].take().is_some() {
                out.push(Out::Close(id));
            }
        }
        out
    }

    /// The next moment [`Table::tick`] may have something to do.
    pub fn next_deadline(&self, now: Millis) -> Option<Millis> {
        let mut next: Option<Millis> = None;
        let mut consider = |t: Millis| next = Some(next.map_or(t, |n: Millis| n.min(t)));
        // The reconnect window matters only while a game waits for the
        // player or a seat is held for them; after the series it is moot
        // (and a deadline that [`Table::tick`] ignores would wake the task
        // forever).
        let window_matters = match self.phase() {
            Phase::Waiting => true,
            Phase::Paused => self.result.is_none(),
            _ => false,
        };
        for seat in self.seats.iter().flatten().filter(|_| window_matters) {
            if let Some(t) = seat.away_since {
                consider(t + self.reconnect_ms);
            }
        }
        if self.phase() == Phase::Playing
            && self.result.is_none()
            && let Some(turn) = self.turn()
            && let Some(left) = self.clock_left(turn, now)
        {
            consider(now + left);
        }
        next
    }

    /// Clock time left for `id` at `now`, for timed games.
    pub fn clock_left(&self, id: PlayerId, now: Millis) -> Option<u64> {
        self.options.time_control?;
        let seat = self.seat(id)?;
        let running = self.phase() == Phase::Playing && self.turn() == Some(id);
        Some(if running { seat.clock_ms.saturating_sub(now.saturating_sub(self.turn_started)) } else { seat.clock_ms })
    }

    pub(super) fn base_clock(&self) -> u64 {
        self.options.time_control.map_or(0, |tc| tc.base_ms)
    }

    /// Books the side to move's thinking time since the turn began.
    pub(super) fn charge_clock(&mut self, now: Millis) {
        if self.options.time_control.is_none() {
            return;
        }
        if let Some(turn) = self.turn()
            && let Some(left) = self.clock_left(turn, now)
            && let Some(seat) = self.seats[turn].as_mut()
        {
            seat.clock_ms = left;
        }
        self.turn_started = now;
    }

    pub(super) fn overdue_absentee(&self, now: Millis) -> Option<PlayerId> {
        PlayerId::BOTH
            .into_iter()
            .find(|&id| self.seat(id).and_then(|s| s.away_since).is_some_and(|t| now >= t + self.reconnect_ms))
    }
}
