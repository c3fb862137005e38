//! The rules of Hex, with no web, server or database dependency.
//!
//! Conventions (see PRODUCT.md): Red moves first and connects left↔right,
//! Blue connects top↔bottom; a cell is `(q, r)` with `q` the column and `r`
//! the row; people see `a1` … `s19`. The community's tools (SGF, HexGui,
//! trmph) put the first player on top↔bottom: [`record`] transposes cells on
//! the way in and out so that every game keeps its winner.

pub mod bench;
pub mod bits;
pub mod bitset;
pub mod cell;
pub mod color;
pub mod connections;
pub mod dead_cells;
pub mod error;
pub mod game;
pub mod playout;
pub mod position;
mod proof_templates;
pub mod record;
pub mod rng;
pub mod search;
pub mod solver;
mod union_find;

pub use bitset::Bitset;
pub use cell::{Cell, MAX_SIZE, MIN_SIZE};
pub use color::Color;
pub use error::{MoveError, NotationError, SizeError};
pub use game::{Game, Move};
pub use position::Position;
pub use record::{Record, RecordError, RecordErrorKind, RecordFormat};

#[cfg(test)]
mod known_positions;
#[cfg(test)]
pub(crate) mod properties;
