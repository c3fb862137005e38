//! One table: two seats, a best-of-N series, clocks and the reconnect
//! window, as a plain state machine. Time comes in as milliseconds and
//! tokens are handed in, so every rule here is tested without sockets; the
//! table's task (`actor.rs`) carries out the returned [`Out`]s in order.
//!
//! The machine is here; what it shows the world is in `views.rs` (hexgame's
//! snapshot and messages, the browser's view) and what it keeps in
//! `records.rs` (the journal's header, the archive's record, a restart).

mod effects;
mod records;
mod views;

use crate::engine::{ByColor, Cell, Game, Move, MoveError};
use crate::online::messages::ChatLine;
use crate::online::view::GameResult;
use crate::online::{ErrorCode, GameEnd, Phase, PlayerId, Refusal, ServerMessage, TableOptions};
use crate::server::journal::{Entry, LiveMove};

pub use effects::{Out, To};

/// Milliseconds on the hub's monotonic clock.
pub type Millis = u64;

/// A seated player.
#[derive(Clone, Debug)]
pub struct Seat {
    pub name: Option<String>,
    pub model: Option<String>,
    pub player_id: Option<String>,
    pub token: String,
    pub connected: bool,
    /// When the player dropped, while they are away.
    pub away_since: Option<Millis>,
    /// Clock time left (ms) at the start of the current turn.
    pub clock_ms: u64,
}

/// Who wants a seat.
#[derive(Clone, Debug, Default)]
pub struct Arrival {
    pub name: Option<String>,
    pub model: Option<String>,
    /// A registered person's player id (their secret already checked).
    pub player_id: Option<String>,
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

/// A decided game: who won it and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    pub winner: PlayerId,
    pub end: GameEnd,
}

/// When a move of the current game was made, and the mover's clock after
/// it (timed games).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveStamp {
    pub at: Millis,
    pub clock_ms: Option<u64>,
}

/// A table and its series.
#[derive(Clone, Debug)]
pub struct Table {
    pub id: u64,
    pub options: TableOptions,
    pub room_code: Option<String>,
    seats: ByColor<Option<Seat>>,
    /// The game in play (or just finished); `None` until both seats fill.
    game: Option<Game>,
    game_number: u32,
    score: ByColor<u32>,
    series_winner: Option<PlayerId>,
    /// The current game's result once decided.
    result: Option<Decided>,
    abandoned: bool,
    finished: Vec<GameResult>,
    /// When the side to move started thinking (clocks run from here).
    turn_started: Millis,
    /// When the current game started.
    game_started: Millis,
    move_log: Vec<MoveStamp>,
    reconnect_ms: u64,
    spectators: u32,
}

impl Table {
    /// An empty table.
    pub fn new(id: u64, options: TableOptions, room_code: Option<String>, reconnect_ms: u64) -> Table {
        Table {
            id,
            options,
            room_code,
            seats: ByColor::default(),
            game: None,
            game_number: 1,
            score: ByColor::default(),
            series_winner: None,
            result: None,
            abandoned: false,
            finished: Vec::new(),
            turn_started: 0,
            game_started: 0,
            move_log: Vec::new(),
            reconnect_ms,
            spectators: 0,
        }
    }

    /// Where the table is in its life.
    pub fn phase(&self) -> Phase {
        if self.series_winner.is_some() {
            Phase::Over
        } else if self.abandoned {
            Phase::Abandoned
        } else if self.game.is_none() {
            Phase::Waiting
        } else if self.seats.iter().flatten().any(|s| !s.connected) {
            Phase::Paused
        } else {
            Phase::Playing
        }
    }

    /// Whether a quick-match player may be seated here now.
    pub fn is_open(&self) -> bool {
        self.phase() == Phase::Waiting && self.seats.iter().flatten().all(|s| s.connected)
    }

    /// Whether nobody is seated or connected and nothing is left to wait for.
    pub fn is_deserted(&self) -> bool {
        let nobody = self.seats.iter().flatten().all(|s| !s.connected);
        nobody && (matches!(self.phase(), Phase::Over | Phase::Abandoned) || self.seats.iter().all(Option::is_none))
    }

    pub fn seat(&self, id: PlayerId) -> Option<&Seat> {
        self.seats[id].as_ref()
    }

    /// The seat whose token is `token`, compared in constant time.
    pub fn seat_of_token(&self, token: &str) -> Option<PlayerId> {
        PlayerId::BOTH
            .into_iter()
            .find(|&p| self.seat(p).is_some_and(|s| super::token::constant_time_eq(&s.token, token)))
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
            token,
            connected: true,
            away_since: None,
            clock_ms,
        });
        let both = self.seats.iter().all(Option::is_some);
        if both {
            self.start_game(now);
        }
        // The seat's token is kept before the player is told it.
        let mut out = vec![self.journal_header(), Out::to_seat(id, ServerMessage::Joined(self.joined(id)))];
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
                vec![Out::to_seat(id.opponent(), self.opponent_disconnected("waiting_for_reconnect"))]
            }
            _ => Vec::new(),
        }
    }

    /// A stone from seat `id` at `(q, r)`.
    pub fn play(&mut self, id: PlayerId, q: i64, r: i64, now: Millis) -> Vec<Out> {
        let size = i64::from(self.options.size);
        if let Some(code) = self.cannot_move(id, now) {
            return vec![Out::to_seat(id, ServerMessage::rejected(code))];
        }
        if !(0..size).contains(&q) || !(0..size).contains(&r) {
            return vec![Out::to_seat(id, ServerMessage::rejected(ErrorCode::OffBoard))];
        }
        let cell = Cell::new(q as u8, r as u8);
        self.apply(id, Move::Place(cell), now)
    }

    /// Seat `id` takes over the first stone (swap rule).
    pub fn swap(&mut self, id: PlayerId, now: Millis) -> Vec<Out> {
        if let Some(code) = self.cannot_move(id, now) {
            return vec![Out::to_seat(id, ServerMessage::rejected(code))];
        }
        self.apply(id, Move::Swap, now)
    }

    /// Seat `id` gives up the current game.
    pub fn resign(&mut self, id: PlayerId, now: Millis) -> Vec<Out> {
        match self.phase() {
            Phase::Playing | Phase::Paused if self.result.is_none() => {
                self.charge_clock(now);
                self.finish_game(id.opponent(), GameEnd::Resignation, now)
            }
            Phase::Waiting => vec![Out::to_seat(id, ServerMessage::error(ErrorCode::NotStarted))],
            _ => vec![Out::to_seat(id, ServerMessage::error(ErrorCode::GameFinished))],
        }
    }

    /// A chat line from a player, to the other player and the spectators.
    pub fn chat(&self, id: PlayerId, message: String) -> Vec<Out> {
        if message.trim().is_empty() {
            return Vec::new();
        }
        vec![Out::Send(To::Everyone, ServerMessage::Chat(ChatLine { player: id, message }))]
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
        self.seats.red = Some(Seat { token, connected: true, away_since: None, clock_ms, ..keeper });
        let mut out = vec![self.journal_header()];
        if opponent_here {
            out.push(Out::to_seat(
                id.opponent(),
                ServerMessage::OpponentLeftSlot { message: "Your opponent kept the slot for another match".into() },
            ));
            out.push(Out::Close(id.opponent()));
        }
        out.push(Out::Reseat { from: id, to: PlayerId::Red });
        out.push(Out::to_seat(PlayerId::Red, ServerMessage::SlotKept(self.joined(PlayerId::Red))));
        out.push(Out::to_seat(PlayerId::Red, self.waiting()));
        out.push(Out::Relist);
        out
    }

    /// Spectator count, shown to everyone.
    pub fn set_spectators(&mut self, n: u32) {
        self.spectators = n;
    }

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
                out.insert(at, Out::to_seat(present, self.opponent_disconnected("reconnect_timeout")));
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

    /// Whose turn it is in the current game, while it is undecided.
    pub fn turn(&self) -> Option<PlayerId> {
        let game = self.game.as_ref()?;
        if self.result.is_some() || game.winner().is_some() { None } else { Some(PlayerId::of(game.to_move())) }
    }

    /// Clock time left for `id` at `now`, for timed games.
    pub fn clock_left(&self, id: PlayerId, now: Millis) -> Option<u64> {
        self.options.time_control?;
        let seat = self.seat(id)?;
        let running = self.phase() == Phase::Playing && self.turn() == Some(id);
        Some(if running { seat.clock_ms.saturating_sub(now.saturating_sub(self.turn_started)) } else { seat.clock_ms })
    }

    /// The current game, once started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Games of the series finished so far.
    pub fn finished(&self) -> &[GameResult] {
        &self.finished
    }

    fn base_clock(&self) -> u64 {
        self.options.time_control.map_or(0, |tc| tc.base_ms)
    }

    fn cannot_move(&self, id: PlayerId, now: Millis) -> Option<ErrorCode> {
        match self.phase() {
            Phase::Waiting => return Some(ErrorCode::NotStarted),
            Phase::Paused => return Some(ErrorCode::Paused),
            Phase::Over | Phase::Abandoned => return Some(ErrorCode::GameFinished),
            Phase::Playing => {}
        }
        if self.result.is_some() {
            return Some(ErrorCode::GameFinished);
        }
        if self.turn() != Some(id) {
            return Some(ErrorCode::NotYourTurn);
        }
        if self.clock_left(id, now) == Some(0) {
            return Some(ErrorCode::TimeUp);
        }
        None
    }

    fn apply(&mut self, id: PlayerId, m: Move, now: Millis) -> Vec<Out> {
        // Book the mover's thinking time first (a refused move only moves
        // the booking point; the time left is the same).
        self.charge_clock(now);
        let Some(game) = self.game.as_mut() else { return Vec::new() };
        if let Err(e) = game.play(m) {
            return vec![Out::to_seat(id, ServerMessage::rejected(refusal_of(e)))];
        }
        let winner = game.winner().map(PlayerId::of);
        let stone = game.last_stone().unwrap_or(Cell::new(0, 0));
        if let (Some(tc), Some(seat)) = (self.options.time_control, self.seats[id].as_mut()) {
            seat.clock_ms += tc.increment_ms;
        }
        let clock_ms = self.options.time_control.and(self.seat(id).map(|s| s.clock_ms));
        self.move_log.push(MoveStamp { at: now, clock_ms });
        let journal = Out::Journal(Entry::Move(LiveMove {
            table_id: self.id,
            game_number: self.game_number,
            ply: self.move_log.len() as u32 - 1,
            mv: m,
            at_ms: now,
            clock_ms,
        }));
        let next_turn = if winner.is_some() { None } else { Some(id.opponent()) };
        let announce = Out::Send(To::Everyone, self.move_played(id, stone, next_turn));
        let mut out = vec![journal];
        if let Some(w) = winner {
            // The game's end is journaled with the move, before either is told.
            let mut finish = self.finish_game(w, GameEnd::ConnectedSides, now);
            let entries = finish.iter().take_while(|o| matches!(o, Out::Journal(_))).count();
            out.extend(finish.drain(..entries));
            out.push(announce);
            out.extend(finish);
        } else {
            out.push(announce);
        }
        out
    }

    /// Books the side to move's thinking time since the turn began.
    fn charge_clock(&mut self, now: Millis) {
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

    /// Scores the game, starts the next one unless the series is decided or
    /// forfeited, and says so: the journal entry first, then the messages.
    fn finish_game(&mut self, winner: PlayerId, end: GameEnd, now: Millis) -> Vec<Out> {
        self.result = Some(Decided { winner, end });
        self.score[winner] += 1;
        let decided = self.score[winner] >= self.options.wins_required();
        if decided {
            self.series_winner = Some(winner);
        }
        let mut out = vec![Out::Send(To::Everyone, ServerMessage::GameOver { winner, reason: end })];
        if let Some(result) = self.game_result() {
            out.push(Out::Archive(Box::new(self.archive_record(&result, now))));
            self.finished.push(result);
        }
        if !decided {
            self.game_number += 1;
        }
        out.push(Out::Send(To::Everyone, self.series_update()));
        let journal = if decided {
            out.push(Out::Send(To::Everyone, self.series_over_message(winner)));
            Out::Journal(Entry::Closed(self.id))
        } else if !end.ends_series() {
            self.start_game(now);
            out.push(Out::Send(To::Everyone, self.game_start()));
            self.journal_header()
        } else {
            // A forfeit ends the series (the caller marks it abandoned).
            Out::Journal(Entry::Closed(self.id))
        };
        out.insert(0, journal);
        out
    }

    /// The current game as the series keeps it, once decided.
    fn game_result(&self) -> Option<GameResult> {
        let (game, decided) = (self.game.as_ref()?, self.result?);
        Some(GameResult {
            number: self.game_number,
            first: PlayerId::of(game.first()),
            moves: game.moves().to_vec(),
            winner: decided.winner,
            reason: decided.end,
        })
    }

    /// Starts game `game_number`: odd games player 1 opens, even games player 2.
    fn start_game(&mut self, now: Millis) {
        let first = self.first_of(self.game_number);
        self.game = Game::starting_with(self.options.size, self.options.swap, first.color()).ok();
        self.result = None;
        self.turn_started = now;
        self.game_started = now;
        self.move_log.clear();
        let base = self.base_clock();
        for seat in self.seats.iter_mut().flatten() {
            seat.clock_ms = base;
        }
    }

    fn first_of(&self, game_number: u32) -> PlayerId {
        if game_number % 2 == 1 { PlayerId::Red } else { PlayerId::Blue }
    }

    fn overdue_absentee(&self, now: Millis) -> Option<PlayerId> {
        PlayerId::BOTH
            .into_iter()
            .find(|&id| self.seat(id).and_then(|s| s.away_since).is_some_and(|t| now >= t + self.reconnect_ms))
    }
}

/// What a client is told about a move the rules refuse.
fn refusal_of(e: MoveError) -> Refusal {
    match e {
        MoveError::Occupied(_) => ErrorCode::Occupied.into(),
        MoveError::OffBoard { .. } => ErrorCode::OffBoard.into(),
        MoveError::GameOver => ErrorCode::GameFinished.into(),
        other => Refusal::new(ErrorCode::IllegalMove, capitalised(&other.to_string())),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;
