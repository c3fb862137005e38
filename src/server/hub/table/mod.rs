//! One table: two seats, a best-of-N series, clocks and the reconnect
//! window, as a plain state machine. Time comes in as milliseconds and
//! tokens are handed in, so every rule here is tested without sockets; the
//! table's task (`actor.rs`) carries out the returned [`Out`]s in order.
//!
//! The machine is here, in parts: the rules of play and of a series in
//! this file, the seats in `seat.rs`, time (clocks, the reconnect window)
//! in `clock.rs`. What it shows the world is in `views.rs` (hexgame's
//! snapshot and messages, the browser's view), what it keeps in
//! `records.rs` (the journal's header, the archive's record, a restart).

mod clock;
mod effects;
mod judge;
mod records;
mod replay;
mod seat;
mod views;

use crate::engine::{ByColor, Cell, Game, Move, MoveError};
use crate::online::messages::ChatLine;
use crate::online::view::GameResult;
use crate::online::{ErrorCode, GameEnd, Phase, PlayerId, Refusal, ServerMessage, TableOptions};
use crate::server::journal::{Entry, LiveMove};

pub use effects::{Out, To};
pub use judge::Violation;
pub use replay::{Action, Broken, Replay, Step};
pub use seat::{Arrival, Seat, SeatError};
pub use views::Audience;

/// Milliseconds on the hub's monotonic clock.
pub type Millis = u64;

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

    /// Spectator count, shown to everyone.
    pub fn set_spectators(&mut self, n: u32) {
        self.spectators = n;
    }

    /// Whose turn it is in the current game, while it is undecided.
    pub fn turn(&self) -> Option<PlayerId> {
        let game = self.game.as_ref()?;
        if self.result.is_some() || game.winner().is_some() { None } else { Some(PlayerId::of(game.to_move())) }
    }

    /// The current game, once started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// Games of the series finished so far.
    pub fn finished(&self) -> &[GameResult] {
        &self.finished
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
        // The finished game goes into the journal with the table's next
        // state, and leaves it only once the archive has committed it.
        let mut kept = None;
        if let Some(result) = self.game_result() {
            kept = Some(Out::Journal(Entry::Finished(Box::new(self.archive_record(&result, now)))));
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
        if let Some(kept) = kept {
            out.insert(0, kept);
        }
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
mod machine_tests;
#[cfg(test)]
mod tests;
