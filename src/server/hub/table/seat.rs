//! The seats of a table: who sits down, comes back with a token, drops,
//! and keeps the slot for another match.

use super::effects::{Out, To};
use super::{Millis, Table};
use crate::online::account::{AccountKind, SeatKind};
use crate::online::messages::DisconnectReason;
use crate::online::{ErrorCode, Phase, PlayerId, ServerMessage};
use crate::server::hub::token::{constant_time_eq, token_hash};

/// A seated player.
#[derive(Clone, Debug)]
pub struct Seat {
    pub name: Option<String>,
    pub model: Option<String>,
    pub player_id: Option<String>,
    /// What kind of account `player_id` is.
    pub account_kind: AccountKind,
    /// The SHA-256 of the seat's reconnect token: the token itself is told
    /// to its player once and kept nowhere.
    pub token_hash: String,
    pub connected: bool,
    /// When the player dropped, while they are away.
    pub away_since: Option<Millis>,
    /// Clock time left (ms) at the start of the current turn.
    pub clock_ms: u64,
}

impl Seat {
    /// How the seat's player is shown.
    pub fn kind(&self) -> SeatKind {
        SeatKind::of(self.player_id.as_ref().map(|_| self.account_kind), self.model.is_some())
    }
}

/// Who wants a seat.
#[derive(Clone, Debug, Default)]
pub struct Arrival {
    pub name: Option<String>,
    pub model: Option<String>,
    /// The account's player id, proved (a session, a bot token).
    pub player_id: Option<String>,
    pub account_kind: AccountKind,
}

/// Why a seat could not be given or resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatError {
    Full,
    Closed,
    BadToken,
}

impl SeatError {
    /// The code (and with it hexgame's text) for the `error` message.
    pub const fn code(self) -> ErrorCode {
        match self {
            SeatError::Full => ErrorCode::SlotFull,
            SeatError::Closed => ErrorCode::ReconnectClosed,
            SeatError::BadToken => ErrorCode::BadToken,
        }
    }
}

impl Table {
    /// The seat whose token is `token`, compared in constant time.
    pub fn seat_of_token(&self, token: &str) -> Option<PlayerId> {
        let hash = token_hash(token);
        PlayerId::BOTH.into_iter().find(|&p| self.seat(p).is_some_and(|s| constant_time_eq(&s.token_hash, &hash)))
    }

    /// Seats a new player in the first free seat (Red first).
    pub fn join(&mut self, who: Arrival, token: String, now: Millis) -> Result<(PlayerId, Vec<Out>), SeatError> {
        if self.phase() != Phase::Waiting {
            return Err(if self.game.is_some() { SeatError::Full } else { SeatError::Closed });
        }
        let id = if self.seats.red.is_none() { PlayerId::Red } else { PlayerId::Blue };
        if self.seats[id].is_some() {
            return Err(SeatError::Full);
        }
        let clock_ms = self.base_clock();
        self.seats[id] = Some(Seat {
            name: who.name,
            model: who.model,
            player_id: who.player_id,
            account_kind: who.account_kind,
            token_hash: token_hash(&token),
            connected: true,
            away_since: None,
            clock_ms,
        });
        let both = self.seats.iter().all(Option::is_some);
        if both {
            self.start_game(now);
        }
        // The seat's token is kept before the player is told it.
        let mut out = vec![self.journal_header(), Out::to_seat(id, ServerMessage::Joined(self.joined(id, &token)))];
        out.push(if both { Out::Send(To::Everyone, self.game_start()) } else { Out::to_seat(id, self.waiting()) });
        Ok((id, out))
    }

    /// A player comes back with their token.
    pub fn reconnect(&mut self, token: &str, now: Millis) -> Result<(PlayerId, Vec<Out>), SeatError> {
        let id = self.seat_of_token(token).ok_or(SeatError::BadToken)?;
        let was_paused = self.phase() == Phase::Paused;
        if let Some(seat) = self.seats[id].as_mut() {
            seat.connected = true;
            seat.away_since = None;
        }
        if was_paused && self.phase() == Phase::Playing {
            // The clock restarts now: time away is never charged.
            self.turn_started = now;
        }
        let mut out = vec![Out::to_seat(id, self.reconnected(id))];
        match self.seat(id.opponent()) {
            Some(o) if o.connected => {
                out.push(Out::to_seat(id.opponent(), ServerMessage::OpponentReconnected { player: id }))
            }
            _ => out.push(Out::to_seat(id, self.waiting())),
        }
        if self.phase() == Phase::Waiting && self.room_code.is_none() {
            // Matchmaking dropped this table while its owner was away.
            out.push(Out::Relist);
        }
        Ok((id, out))
    }

    /// A seat's connection dropped.
    pub fn disconnect(&mut self, id: PlayerId, now: Millis) -> Vec<Out> {
        let phase = self.phase();
        if !self.seat(id).is_some_and(|s| s.connected) {
            return Vec::new();
        }
        if phase == Phase::Playing {
            // Charge the thinking time so far, then stop the clock.
            self.charge_clock(now);
        }
        let Some(seat) = self.seats[id].as_mut() else { return Vec::new() };
        seat.connected = false;
        seat.away_since = Some(now);
        match phase {
            Phase::Playing | Phase::Paused => {
                vec![Out::to_seat(id.opponent(), self.opponent_disconnected(DisconnectReason::WaitingForReconnect))]
            }
            _ => Vec::new(),
        }
    }

    /// hexgame's `keep_slot`: after a decided series (or with the opponent
    /// gone), the keeper waits here as player 1 for a new opponent.
    pub fn keep_slot(&mut self, id: PlayerId, token: String) -> Vec<Out> {
        let opponent_gone = self.seat(id.opponent()).is_none_or(|s| !s.connected);
        let decided = matches!(self.phase(), Phase::Over | Phase::Abandoned);
        if !decided && !opponent_gone {
            return vec![Out::to_seat(id, ServerMessage::error(ErrorCode::SeriesNotOver))];
        }
        let Some(keeper) = self.seats[id].take() else { return Vec::new() };
        let opponent_here = self.seat(id.opponent()).is_some_and(|s| s.connected);
        let clock_ms = self.base_clock();
        *self = Table::new(self.id, self.options, self.room_code.take(), self.reconnect_ms);
        let hash = token_hash(&token);
        self.seats.red = Some(Seat { token_hash: hash, connected: true, away_since: None, clock_ms, ..keeper });
        let mut out = vec![self.journal_header()];
        if opponent_here {
            out.push(Out::to_seat(
                id.opponent(),
                ServerMessage::OpponentLeftSlot { message: "Your opponent kept the slot for another match".into() },
            ));
            out.push(Out::Close(id.opponent()));
        }
        out.push(Out::Reseat { from: id, to: PlayerId::Red });
        out.push(Out::to_seat(PlayerId::Red, ServerMessage::SlotKept(self.joined(PlayerId::Red, &token))));
        out.push(Out::to_seat(PlayerId::Red, self.waiting()));
        // A private room waits for its code again, never in public matchmaking.
        if self.room_code.is_none() {
            out.push(Out::Relist);
        }
        out
    }
}
