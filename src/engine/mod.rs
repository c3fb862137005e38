//! The rules of Hex, with no web, server or database dependency.
//!
//! Conventions (README, "Conventions"): Red moves first and connects left↔right,
//! Blue connects top↔bottom; a cell is `(q, r)` with `q` the column and `r`
//! the row; people see `a1` … `s19`. The community's tools (SGF, HexGui,
//! trmph) put the first player on top↔bottom: [`record`] transposes cells on
//! the way in and out so that every game keeps its winner.

// The surface the server, the worker, the command line and the benches
// use; the machinery under it stays private to the engine.
pub mod bench;
pub mod cell;
pub mod patterns;
pub mod record;
pub mod search;
pub mod solver;

mod bits;
mod bitset;
mod color;
mod connections;
mod dead_cells;
mod error;
mod game;
mod playout;
mod position;
mod proof_templates;
mod rng;
mod stones;
mod union_find;
mod weighted_cells;

pub use bitset::Bitset;
pub use cell::{Cell, MAX_SIZE, MIN_SIZE};
pub use color::{ByColor, Color};
pub use connections::{LinkReach, ListLimits};
pub use error::{MoveError, NotationError, SizeError};
pub use game::{Game, Move};
pub use playout::balance;
pub use position::Position;
pub use record::{Record, RecordError, RecordErrorKind, RecordFormat};

#[cfg(test)]
mod known_positions;
#[cfg(test)]
pub(crate) mod properties;
#[cfg(test)]
mod small_boards;
