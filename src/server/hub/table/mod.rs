//! One table: two seats, a best-of-N series, clocks and the reconnect
//! window, as a plain state machine. Time comes in as milliseconds and
//! tokens are handed in, so every rule here is tested without sockets; the
//! table's task (`actor.rs`) turns the returned [`Out`]s into frames.

use std::collections::BTreeMap;

use crate::engine::{Cell, Game, Move, MoveError};
use crate::online::messages::{ChatLine, GameStart, Joined, MovePlayed, Reconnected, SeriesOver, SeriesScore};
use crate::online::view::GameResult;
use crate::online::{Phase, PlayerId, SeatView, ServerMessage, SlotSnapshot, TableOptions, TableView};
use crate::server::archive::{FinishedGame, SeatLabel};
use crate::server::journal::{Entry, LiveHeader, LiveMove, Restored, SavedSeat};

/// Milliseconds on the hub's monotonic clock.
pub type Millis = u64;

/// Who a message goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Seat(PlayerId),
    /// Both seated players.
    Players,
    /// Players and spectators.
    Everyone,
}

/// What the table asks its task to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    Send(To, ServerMessage),
    /// Close this seat's connection (after its last message).
    Close(PlayerId),
    /// The table waits for an opponent again (after `keep_slot`): list it
    /// in its matchmaking pool.
    Relist,
    /// The player in seat `from` now sits in seat `to` (`keep_slot` makes
    /// the keeper player 1); later messages use the new seat.
    Reseat {
        from: PlayerId,
        to: PlayerId,
    },
    /// A game ended: keep it in the archive.
    Archive(Box<FinishedGame>),
    /// Keep this in the journal before anyone is told (see `journal.rs`).
    Journal(Entry),
}

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
    /// Text for the `error` message.
    pub const fn message(self) -> &'static str {
        match self {
            SeatError::Full => "Slot is already full",
            SeatError::Closed => "Slot is not available for reconnect",
            SeatError::BadToken => "Invalid reconnect token",
        }
    }
}

/// A table and its series.
#[derive(Clone, Debug)]
pub struct Table {
    pub id: u64,
    pub options: TableOptions,
    pub room_code: Option<String>,
    seats: [Option<Seat>; 2],
    /// The game in play (or just finished); `None` until both seats fill.
    game: Option<Game>,
    game_number: u32,
    score: [u32; 2],
    series_winner: Option<PlayerId>,
    /// The current game's result once decided.
    result: Option<(PlayerId, &'static str)>,
    abandoned: bool,
    finished: Vec<GameResult>,
    /// When the side to move started thinking (clocks run from here).
    turn_started: Millis,
    /// When the current game started, and each of its moves' time and the
    /// mover's clock after it.
    game_started: Millis,
    move_log: Vec<(Millis, Option<u64>)>,
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
            seats: [None, None],
            game: None,
            game_number: 1,
            score: [0, 0],
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
        self.seats[id.index()].as_ref()
    }

    /// The seat whose token is `token`, compared in constant time.
    pub fn seat_of_token(&self, token: &str) -> Option<PlayerId> {
        PlayerId::BOTH.into_iter().find(|&p| self.seat(p).is_some_and(|s| constant_time_eq(&s.token, token)))
    }

    /// Seats a new player in the first free seat (Red first).
    pub fn join(&mut self, who: Arrival, token: String, now: Millis) -> Result<(PlayerId, Vec<Out>), SeatError> {
        if self.phase() != Phase::Waiting {
            return Err(if self.game.is_some() { SeatError::Full } else { SeatError::Closed });
        }
        let id = if self.seats[0].is_none() { PlayerId::Red } else { PlayerId::Blue };
        if self.seats[id.index()].is_some() {
            return Err(SeatError::Full);
        }
        let clock_ms = self.options.time_control.map_or(0, |tc| tc.base_ms);
        self.seats[id.index()] = Some(Seat {
            name: who.name,
            model: who.model,
            player_id: who.player_id,
            token,
            connected: true,
            away_since: None,
            clock_ms,
        });
        let mut out = vec![Out::Send(To::Seat(id), ServerMessage::Joined(self.joined(id)))];
        if self.seats.iter().all(Option::is_some) {
            self.start_game(now);
            out.push(Out::Send(To::Everyone, self.game_start()));
        } else {
            out.push(Out::Send(To::Seat(id), self.waiting()));
        }
        out.push(self.journal_header());
        Ok((id, out))
    }

    /// A player comes back with their token.
    pub fn reconnect(&mut self, token: &str, now: Millis) -> Result<(PlayerId, Vec<Out>), SeatError> {
        let id = self.seat_of_token(token).ok_or(SeatError::BadToken)?;
        let was_paused = self.phase() == Phase::Paused;
        if let Some(seat) = self.seats[id.index()].as_mut() {
            seat.connected = true;
            seat.away_since = None;
        }
        if was_paused && self.phase() == Phase::Playing {
            // The clock restarts now: time away is never charged.
            self.turn_started = now;
        }
        let snapshot = Box::new(self.snapshot());
        let mut out = vec![Out::Send(
            To::Seat(id),
            ServerMessage::Reconnected(Reconnected {
                slot_id: self.id,
                player: id,
                color: id.color().as_str().into(),
                board_size: self.options.size,
                series_length: self.options.series_length,
                protocol_version: crate::online::PROTOCOL_VERSION,
                slot: snapshot,
            }),
        )];
        match self.seat(id.opponent()) {
            Some(o) if o.connected => {
                out.push(Out::Send(To::Seat(id.opponent()), ServerMessage::OpponentReconnected { player: id }))
            }
            _ => out.push(Out::Send(To::Seat(id), self.waiting())),
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
        let Some(seat) = self.seats[id.index()].as_mut() else { return Vec::new() };
        if !seat.connected {
            return Vec::new();
        }
        if phase == Phase::Playing {
            // Charge the thinking time so far, then stop the clock.
            self.charge_clock(now);
        }
        let Some(seat) = self.seats[id.index()].as_mut() else { return Vec::new() };
        seat.connected = false;
        seat.away_since = Some(now);
        match phase {
            Phase::Playing | Phase::Paused => vec![Out::Send(
                To::Seat(id.opponent()),
                ServerMessage::OpponentDisconnected {
                    message: "Your opponent disconnected".into(),
                    reason: "waiting_for_reconnect".into(),
                    reconnect_timeout_seconds: self.reconnect_ms / 1000,
                },
            )],
            _ => Vec::new(),
        }
    }

    /// A stone from seat `id` at `(q, r)`.
    pub fn play(&mut self, id: PlayerId, q: i64, r: i64, now: Millis) -> Vec<Out> {
        let reject = |reason: &str| vec![Out::Send(To::Seat(id), ServerMessage::rejected(reason))];
        let size = i64::from(self.options.size);
        if let Some(reason) = self.cannot_move(id, now) {
            return reject(reason);
        }
        if !(0..size).contains(&q) || !(0..size).contains(&r) {
            return reject("Move outside board");
        }
        let cell = Cell::new(q as u8, r as u8);
        self.apply(id, Move::Place(cell), now)
    }

    /// Seat `id` takes over the first stone (swap rule).
    pub fn swap(&mut self, id: PlayerId, now: Millis) -> Vec<Out> {
        if let Some(reason) = self.cannot_move(id, now) {
            return vec![Out::Send(To::Seat(id), ServerMessage::rejected(reason))];
        }
        self.apply(id, Move::Swap, now)
    }

    /// Seat `id` gives up the current game.
    pub fn resign(&mut self, id: PlayerId, now: Millis) -> Vec<Out> {
        match self.phase() {
            Phase::Playing | Phase::Paused if self.result.is_none() => {
                self.charge_clock(now);
                self.finish_game(id.opponent(), "resignation", now)
            }
            Phase::Waiting => vec![Out::Send(To::Seat(id), ServerMessage::error("Game has not started"))],
            _ => vec![Out::Send(To::Seat(id), ServerMessage::error("Game already finished"))],
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
            return vec![Out::Send(
                To::Seat(id),
                ServerMessage::error("Series is not over and opponent is still connected"),
            )];
        }
        let Some(keeper) = self.seats[id.index()].take() else { return Vec::new() };
        let mut out = Vec::new();
        if self.seat(id.opponent()).is_some_and(|s| s.connected) {
            out.push(Out::Send(
                To::Seat(id.opponent()),
                ServerMessage::OpponentLeftSlot { message: "Your opponent kept the slot for another match".into() },
            ));
            out.push(Out::Close(id.opponent()));
        }
        let clock_ms = self.options.time_control.map_or(0, |tc| tc.base_ms);
        *self = Table::new(self.id, self.options, self.room_code.take(), self.reconnect_ms);
        self.seats[0] = Some(Seat { token, connected: true, away_since: None, clock_ms, ..keeper });
        let joined = self.joined(PlayerId::Red);
        out.push(Out::Reseat { from: id, to: PlayerId::Red });
        out.push(Out::Send(To::Seat(PlayerId::Red), ServerMessage::SlotKept(joined)));
        out.push(Out::Send(To::Seat(PlayerId::Red), self.waiting()));
        out.push(Out::Relist);
        out.push(self.journal_header());
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
                out.push(Out::Send(
                    To::Seat(present),
                    ServerMessage::OpponentDisconnected {
                        message: "Your opponent disconnected".into(),
                        reason: "reconnect_timeout".into(),
                        reconnect_timeout_seconds: self.reconnect_ms / 1000,
                    },
                ));
                out.extend(self.finish_game(present, "forfeit", now));
                if self.series_winner.is_none() {
                    // The series cannot go on without the absent player.
                    self.abandoned = true;
                    out.push(Out::Send(To::Everyone, self.series_over_message(present)));
                }
            }
        } else if self.phase() == Phase::Waiting {
            // A room or quick-match seat whose owner never came back.
            for id in PlayerId::BOTH {
                if self.seat(id).and_then(|s| s.away_since).is_some_and(|t| now >= t + self.reconnect_ms) {
                    self.seats[id.index()] = None;
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
            out.extend(self.finish_game(turn.opponent(), "timeout", now));
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

    fn cannot_move(&self, id: PlayerId, now: Millis) -> Option<&'static str> {
        match self.phase() {
            Phase::Waiting => return Some("Game has not started"),
            Phase::Paused => return Some("Game paused for reconnect"),
            Phase::Over | Phase::Abandoned => return Some("Game already finished"),
            Phase::Playing => {}
        }
        if self.result.is_some() {
            return Some("Game already finished");
        }
        if self.turn() != Some(id) {
            return Some("Not your turn");
        }
        if self.clock_left(id, now) == Some(0) {
            return Some("Time is up");
        }
        None
    }

    fn apply(&mut self, id: PlayerId, m: Move, now: Millis) -> Vec<Out> {
        // Book the mover's thinking time first (a refused move only moves
        // the booking point; the time left is the same).
        self.charge_clock(now);
        let Some(game) = self.game.as_mut() else { return Vec::new() };
        if let Err(e) = game.play(m) {
            let reason = match e {
                MoveError::Occupied(_) => "Cell already occupied".to_string(),
                MoveError::OffBoard { .. } => "Move outside board".to_string(),
                MoveError::GameOver => "Game already finished".to_string(),
                other => capitalised(&other.to_string()),
            };
            return vec![Out::Send(To::Seat(id), ServerMessage::rejected(reason))];
        }
        let winner = game.winner().map(PlayerId::of);
        let stone = game.last_stone().unwrap_or(Cell::new(0, 0));
        if let (Some(tc), Some(seat)) = (self.options.time_control, self.seats[id.index()].as_mut()) {
            seat.clock_ms += tc.increment_ms;
        }
        let clock = self.options.time_control.and(self.seat(id).map(|s| s.clock_ms));
        self.move_log.push((now, clock));
        let journal = Out::Journal(Entry::Move(LiveMove {
            table_id: self.id,
            game_number: self.game_number,
            ply: self.move_log.len() as u32 - 1,
            mv: m,
            at_ms: now,
            clock_ms: clock,
        }));
        let next_turn = if winner.is_some() { None } else { Some(id.opponent()) };
        let mut out = vec![
            journal,
            Out::Send(To::Everyone, ServerMessage::Move(MovePlayed { player: id, q: stone.q, r: stone.r, next_turn })),
        ];
        if let Some(w) = winner {
            out.extend(self.finish_game(w, "connected_sides", now));
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
            && let Some(seat) = self.seats[turn.index()].as_mut()
        {
            seat.clock_ms = left;
        }
        self.turn_started = now;
    }

    fn finish_game(&mut self, winner: PlayerId, reason: &'static str, now: Millis) -> Vec<Out> {
        self.result = Some((winner, reason));
        self.score[winner.index()] += 1;
        let mut out = vec![Out::Send(To::Everyone, ServerMessage::GameOver { winner, reason: reason.into() })];
        let wins_required = self.options.wins_required();
        let decided = self.score[winner.index()] >= wins_required;
        if decided {
            self.series_winner = Some(winner);
        }
        if let Some(game) = &self.game {
            self.finished.push(GameResult {
                number: self.game_number,
                first: PlayerId::of(game.first()),
                moves: game.moves().to_vec(),
                winner,
                reason: reason.into(),
            });
            out.push(Out::Archive(Box::new(FinishedGame {
                series_id: self.id,
                room_code: self.room_code.clone(),
                number: self.game_number,
                options: self.options,
                first: PlayerId::of(game.first()),
                moves: game.moves().to_vec(),
                times: self.move_log.iter().map(|(t, _)| *t).collect(),
                clocks: self.move_log.iter().map(|(_, c)| *c).collect(),
                seats: PlayerId::BOTH.map(|p| {
                    self.seat(p).map_or(SeatLabel::default(), |s| SeatLabel {
                        name: s.name.clone(),
                        model: s.model.clone(),
                        player_id: s.player_id.clone(),
                    })
                }),
                winner,
                reason,
                started_ms: self.game_started,
                finished_ms: now,
                score: self.score,
                series_winner: self.series_winner.or(if reason == "forfeit" { Some(winner) } else { None }),
            })));
        }
        if !decided {
            self.game_number += 1;
        }
        out.push(Out::Send(
            To::Everyone,
            ServerMessage::SeriesUpdate(SeriesScore {
                player_1_wins: self.score[0],
                player_2_wins: self.score[1],
                current_game_number: self.game_number,
                wins_required,
                series_length: self.options.series_length,
            }),
        ));
        if decided {
            out.push(Out::Send(To::Everyone, self.series_over_message(winner)));
            out.push(Out::Journal(Entry::Closed(self.id)));
        } else if reason != "forfeit" {
            self.start_game(now);
            out.push(Out::Send(To::Everyone, self.game_start()));
            out.push(self.journal_header());
        } else {
            // A forfeit ends the series (the caller marks it abandoned).
            out.push(Out::Journal(Entry::Closed(self.id)));
        }
        out
    }

    /// The table's header as the journal keeps it.
    fn journal_header(&self) -> Out {
        Out::Journal(Entry::Header(Box::new(LiveHeader {
            id: self.id,
            options: self.options,
            room_code: self.room_code.clone(),
            seats: PlayerId::BOTH.map(|p| {
                self.seat(p).map(|s| SavedSeat {
                    name: s.name.clone(),
                    model: s.model.clone(),
                    player_id: s.player_id.clone(),
                    token: s.token.clone(),
                })
            }),
            game_number: self.game_number,
            score: self.score,
            finished: self.finished.clone(),
        })))
    }

    /// A table read back from the journal after a restart: the current
    /// game replayed, both players away since `now` (their reconnect window
    /// starts again), clocks as the last moves left them.
    pub fn restore(saved: Restored, reconnect_ms: u64, now: Millis) -> Table {
        let h = saved.header;
        let mut t = Table::new(h.id, h.options, h.room_code, reconnect_ms);
        t.game_number = h.game_number.max(1);
        t.score = h.score;
        t.finished = h.finished;
        let base = h.options.time_control.map_or(0, |tc| tc.base_ms);
        for (i, seat) in h.seats.into_iter().enumerate() {
            t.seats[i] = seat.map(|s| Seat {
                name: s.name,
                model: s.model,
                player_id: s.player_id,
                token: s.token,
                connected: false,
                away_since: Some(now),
                clock_ms: base,
            });
        }
        if t.seats.iter().all(Option::is_some) {
            t.start_game(now);
            for (mv, at, clock) in saved.moves {
                let Some(game) = t.game.as_mut() else { break };
                let mover = PlayerId::of(game.to_move());
                if game.play(mv).is_err() {
                    break;
                }
                t.move_log.push((at, clock));
                if let (Some(c), Some(seat)) = (clock, t.seats[mover.index()].as_mut()) {
                    seat.clock_ms = c;
                }
            }
            t.turn_started = now;
        }
        t
    }

    fn series_over_message(&self, winner: PlayerId) -> ServerMessage {
        ServerMessage::SeriesOver(SeriesOver {
            winner,
            player_1_wins: self.score[0],
            player_2_wins: self.score[1],
            wins_required: self.options.wins_required(),
            series_length: self.options.series_length,
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
        let base = self.options.time_control.map_or(0, |tc| tc.base_ms);
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

    fn joined(&self, id: PlayerId) -> Joined {
        Joined {
            slot_id: self.id,
            player: id,
            color: id.color().as_str().into(),
            board_size: self.options.size,
            series_length: self.options.series_length,
            reconnect_token: self.seat(id).map(|s| s.token.clone()).unwrap_or_default(),
            protocol_version: crate::online::PROTOCOL_VERSION,
        }
    }

    fn waiting(&self) -> ServerMessage {
        ServerMessage::WaitingForOpponent { slot_id: self.id, board_size: self.options.size }
    }

    fn labels(&self) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
        let mut models = BTreeMap::new();
        let mut names = BTreeMap::new();
        for id in PlayerId::BOTH {
            if let Some(seat) = self.seat(id) {
                if let Some(m) = &seat.model {
                    models.insert(id.key().to_string(), m.clone());
                }
                if let Some(n) = &seat.name {
                    names.insert(id.key().to_string(), n.clone());
                }
            }
        }
        (models, names)
    }

    fn game_start(&self) -> ServerMessage {
        let (player_models, player_usernames) = self.labels();
        ServerMessage::GameStart(GameStart {
            slot_id: self.id,
            board_size: self.options.size,
            series_length: self.options.series_length,
            players: PlayerId::BOTH,
            first_turn: self.first_of(self.game_number),
            current_game_number: self.game_number,
            player_1_wins: self.score[0],
            player_2_wins: self.score[1],
            wins_required: self.options.wins_required(),
            player_models,
            player_usernames,
        })
    }

    /// hexgame's public snapshot of this table.
    pub fn snapshot(&self) -> SlotSnapshot {
        let seated: Vec<PlayerId> = PlayerId::BOTH.into_iter().filter(|&p| self.seat(p).is_some()).collect();
        let connected: Vec<PlayerId> =
            seated.iter().copied().filter(|&p| self.seat(p).is_some_and(|s| s.connected)).collect();
        let disconnected = seated.iter().copied().filter(|p| !connected.contains(p)).collect();
        let (player_models, player_usernames) = self.labels();
        let game = self.game.as_ref();
        let board = game.map(|g| {
            let n = self.options.size;
            (0..n)
                .map(|r| {
                    (0..n)
                        .map(|q| match g.position().stone(Cell::new(q, r)) {
                            Some(c) => PlayerId::of(c).number(),
                            None => 0,
                        })
                        .collect()
                })
                .collect()
        });
        SlotSnapshot {
            slot_id: self.id,
            state: if self.game.is_some() { "full" } else { "waiting" }.into(),
            board_size: self.options.size,
            series_length: self.options.series_length,
            player_count: seated.len() as u8,
            connected_player_count: connected.len() as u8,
            players: seated,
            player_models,
            player_usernames,
            connected_players: connected,
            disconnected_players: disconnected,
            current_turn: game.map(|g| PlayerId::of(g.to_move())),
            winner: self.result.map(|(w, _)| w),
            move_count: game.map_or(0, |g| g.moves().len() as u32),
            board,
            wins_required: self.options.wins_required(),
            current_game_number: self.game_number,
            player_1_wins: self.score[0],
            player_2_wins: self.score[1],
            series_winner: self.series_winner,
            spectators: self.spectators,
            swap: self.options.swap,
            time_control: self.options.time_control,
            last_move: game.and_then(Game::last_stone).map(|c| [c.q, c.r]),
        }
    }

    /// The view a browser draws.
    pub fn view(&self, now: Millis) -> TableView {
        let seats = PlayerId::BOTH.map(|id| {
            self.seat(id).map(|s| SeatView {
                name: s.name.clone(),
                model: s.model.clone(),
                connected: s.connected,
                clock_ms: self.clock_left(id, now),
            })
        });
        let game = self.game.as_ref();
        let first = game.map_or(PlayerId::Red, |g| PlayerId::of(g.first()));
        let running =
            if self.options.time_control.is_some() && self.phase() == Phase::Playing { self.turn() } else { None };
        let reconnect_seconds_left = if self.phase() == Phase::Paused {
            self.seats
                .iter()
                .flatten()
                .filter_map(|s| s.away_since)
                .map(|t| (t + self.reconnect_ms).saturating_sub(now).div_ceil(1000))
                .min()
        } else {
            None
        };
        TableView {
            id: self.id,
            phase: self.phase(),
            size: self.options.size,
            swap: self.options.swap,
            series_length: self.options.series_length,
            wins_required: self.options.wins_required(),
            game_number: self.game_number,
            score: self.score,
            series_winner: self.series_winner,
            first,
            moves: game.map(|g| g.moves().to_vec()).unwrap_or_default(),
            turn: self.turn(),
            winner: self.result.map(|(w, _)| w),
            reason: self.result.map(|(_, r)| r.to_string()),
            seats,
            spectators: self.spectators,
            time_control: self.options.time_control,
            clock_running: running,
            reconnect_seconds_left,
            room_code: if self.phase() == Phase::Waiting { self.room_code.clone() } else { None },
            finished: self.finished.clone(),
        }
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Compares secrets without stopping at the first difference.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
