//! Messages between a page and the engine's Web Worker. Shared by both
//! sides (and compiled on the server, where they are never sent).

use serde::{Deserialize, Serialize};

use crate::engine::search::{Analysis, Level};
use crate::engine::{Game, Move, RecordError};

/// A position as the worker receives it: the moves from the empty board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    pub size: u8,
    pub swap: bool,
    pub moves: Vec<Move>,
}

impl GameSpec {
    /// The spec of `game` as it stands.
    pub fn of(game: &Game) -> GameSpec {
        GameSpec { size: game.size(), swap: game.swap_allowed(), moves: game.moves().to_vec() }
    }

    /// Replays the moves.
    pub fn game(&self) -> Result<Game, RecordError> {
        crate::engine::Record { size: self.size, moves: self.moves.clone() }.to_game(self.swap)
    }
}

/// What a page asks of the worker. A new request replaces the one running.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EngineRequest {
    /// Analyse the position until stopped (or up to `max_playouts`),
    /// reporting after every slice.
    Analyze { job: u64, game: GameSpec, max_playouts: Option<u64> },
    /// Choose the engine's move at `level`.
    Move { job: u64, game: GameSpec, level: Level, seed: u64 },
    /// Measure uniform playouts per second on an empty board.
    Bench { job: u64, size: u8, millis: u32 },
    /// Stop whatever is running.
    Stop,
}

/// What the worker reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EngineUpdate {
    /// The worker has loaded and takes requests.
    Started,
    /// The analysis so far; `done` when the search will not go on.
    Analysis { job: u64, analysis: Analysis, playouts_per_second: f64, done: bool },
    /// Progress of a move search.
    Thinking { job: u64, playouts: u64, budget: u64 },
    /// The engine's move.
    Moved { job: u64, chosen: Move },
    /// A benchmark result.
    Bench { job: u64, size: u8, playouts: u64, millis: f64, per_second: f64 },
    /// The request could not be served.
    Failed { job: u64, reason: String },
}
