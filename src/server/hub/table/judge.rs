//! The judge: the invariants a table must hold after every action. The
//! table's task asks it after each command in debug builds (so every test
//! and the simulation runner are judged), the table's own tests after
//! every step, and the property tests after every random action.

use std::fmt;

use super::{Millis, Table};
use crate::engine::Color;
use crate::online::{GameEnd, PlayerId};

/// A broken invariant, named for what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A game runs without two seated players.
    GameWithoutBothSeats,
    /// The side to move does not follow from the first player and the
    /// number of moves.
    TurnParity {
        moves: usize,
        to_move: Color,
    },
    /// The move log (times, clocks) and the game's moves disagree.
    MoveLogLength {
        log: usize,
        moves: usize,
    },
    StoneCounts {
        red: usize,
        blue: usize,
    },
    /// The board shows a winner the table has not recorded, or the other way.
    WinnerMismatch {
        board: Option<Color>,
        recorded: Option<PlayerId>,
    },
    /// A game won by connection has no connecting chain.
    NoWinningChain,
    /// A clock holds more time than its time control could ever give.
    ClockOverflow {
        seat: PlayerId,
        clock_ms: u64,
        most: u64,
    },
    /// An untimed game's seat carries clock time.
    ClockInUntimedGame {
        seat: PlayerId,
    },
    /// Two seats share a reconnect token, or a seat has none.
    TokenNotUnique,
    ScoreMismatch {
        seat: PlayerId,
        score: u32,
        wins: u32,
    },
    SeriesWinnerMismatch,
    GameNumber {
        number: u32,
        finished: usize,
    },
    /// A secret (a token or a room's code) in what anyone may see.
    SecretInPublicView {
        what: &'static str,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "table invariant broken: {self:?}")
    }
}

impl std::error::Error for Violation {}

impl Table {
    /// Every invariant, checked at `now`; the first one broken.
    pub fn judge(&self, now: Millis) -> Result<(), Violation> {
        self.judge_game()?;
        self.judge_clocks()?;
        self.judge_tokens()?;
        self.judge_series()?;
        self.judge_public_views(now)
    }

    fn judge_game(&self) -> Result<(), Violation> {
        let Some(game) = self.game.as_ref() else { return Ok(()) };
        if self.seats.iter().any(Option::is_none) {
            return Err(Violation::GameWithoutBothSeats);
        }
        let moves = game.moves().len();
        let expected = if moves % 2 == 0 { game.first() } else { game.first().opponent() };
        if game.to_move() != expected {
            return Err(Violation::TurnParity { moves, to_move: game.to_move() });
        }
        if self.move_log.len() != moves {
            return Err(Violation::MoveLogLength { log: self.move_log.len(), moves });
        }
        let position = game.position();
        let (red, blue) = (position.stones(Color::Red).len(), position.stones(Color::Blue).len());
        if red.abs_diff(blue) > 1 {
            return Err(Violation::StoneCounts { red, blue });
        }
        let board = game.winner();
        let recorded = self.result.map(|d| d.winner);
        let by_connection = self.result.is_some_and(|d| d.end == GameEnd::ConnectedSides);
        let consistent = match board {
            Some(color) => by_connection && recorded == Some(PlayerId::of(color)),
            None => !by_connection,
        };
        if !consistent {
            return Err(Violation::WinnerMismatch { board, recorded });
        }
        if by_connection && game.winning_chain().is_none() {
            return Err(Violation::NoWinningChain);
        }
        Ok(())
    }

    fn judge_clocks(&self) -> Result<(), Violation> {
        let moves_by = |id: PlayerId| {
            self.game.as_ref().map_or(0, |g| (0..g.moves().len()).filter(|&i| PlayerId::of(g.mover(i)) == id).count())
        };
        for id in PlayerId::BOTH {
            let Some(seat) = self.seat(id) else { continue };
            match self.options.time_control {
                None if seat.clock_ms != 0 => return Err(Violation::ClockInUntimedGame { seat: id }),
                None => {}
                Some(tc) => {
                    let most = tc.base_ms.saturating_add(tc.increment_ms.saturating_mul(moves_by(id) as u64));
                    if seat.clock_ms > most {
                        return Err(Violation::ClockOverflow { seat: id, clock_ms: seat.clock_ms, most });
                    }
                }
            }
        }
        Ok(())
    }

    fn judge_tokens(&self) -> Result<(), Violation> {
        let tokens: Vec<&str> = self.seats.iter().flatten().map(|s| s.token_hash.as_str()).collect();
        let empty = tokens.iter().any(|t| t.is_empty());
        let shared = tokens.len() == 2 && tokens[0] == tokens[1];
        if empty || shared { Err(Violation::TokenNotUnique) } else { Ok(()) }
    }

    fn judge_series(&self) -> Result<(), Violation> {
        for id in PlayerId::BOTH {
            let wins = self.finished.iter().filter(|g| g.winner == id).count() as u32;
            if wins != self.score[id] {
                return Err(Violation::ScoreMismatch { seat: id, score: self.score[id], wins });
            }
        }
        let needed = self.options.wins_required();
        let reached = PlayerId::BOTH.into_iter().find(|&id| self.score[id] >= needed);
        if reached != self.series_winner {
            return Err(Violation::SeriesWinnerMismatch);
        }
        // The number of the game in play, or of the last one once the
        // series is won (a forfeit that leaves it undecided counts on).
        let expected = self.finished.len() + usize::from(self.series_winner.is_none());
        if self.game_number as usize != expected {
            return Err(Violation::GameNumber { number: self.game_number, finished: self.finished.len() });
        }
        Ok(())
    }

    fn judge_public_views(&self, now: Millis) -> Result<(), Violation> {
        let mut public = serde_json::to_string(&self.view(now)).unwrap_or_default();
        if self.is_listed() {
            public.push_str(&serde_json::to_string(&self.snapshot()).unwrap_or_default());
        }
        for seat in self.seats.iter().flatten() {
            if public.contains(&seat.token_hash) {
                return Err(Violation::SecretInPublicView { what: "a reconnect token's hash" });
            }
        }
        if let Some(code) = &self.room_code
            && public.contains(&format!("\"{code}\""))
        {
            return Err(Violation::SecretInPublicView { what: "a room's code" });
        }
        Ok(())
    }
}
