//! Errors of the rules: each says what was wrong in words a player can act on.

use std::fmt;

use super::cell::{Cell, MAX_SIZE, MIN_SIZE};

/// A board side outside `3..=19`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError(pub u32);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "board size {} is not supported: choose {MIN_SIZE} to {MAX_SIZE}", self.0)
    }
}

impl std::error::Error for SizeError {}

/// Cell notation that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing was given.
    Empty,
    /// The column is not a letter from `a` to `s`.
    BadColumn(char),
    /// The row is not a number from 1 to 19.
    BadRow(String),
    /// A well-formed cell that lies outside this board.
    OffBoard { text: String, size: u8 },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("no cell given: expected a letter and a number, like c3"),
            NotationError::BadColumn(c) => {
                write!(f, "'{c}' is not a column: columns are letters a to s")
            }
            NotationError::BadRow(r) if r.is_empty() => {
                f.write_str("the row number is missing: a cell is a letter and a number, like c3")
            }
            NotationError::BadRow(r) => write!(f, "'{r}' is not a row: rows are numbers 1 to 19"),
            NotationError::OffBoard { text, size } => {
                write!(f, "{text} is off the {size}×{size} board")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// A move the rules do not allow in this position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The cell already holds a stone.
    Occupied(Cell),
    /// The cell lies outside the board.
    OffBoard { cell: Cell, size: u8 },
    /// Someone has already won.
    GameOver,
    /// This game is played without the swap rule.
    SwapRuleOff,
    /// Swap is only possible as the second move.
    SwapOnlySecondMove,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Occupied(cell) => write!(f, "{cell} is already taken"),
            MoveError::OffBoard { cell, size } => {
                write!(f, "({}, {}) is off the {size}×{size} board", cell.q, cell.r)
            }
            MoveError::GameOver => f.write_str("the game is over: no more moves can be played"),
            MoveError::SwapRuleOff => f.write_str("this game is played without the swap rule"),
            MoveError::SwapOnlySecondMove => {
                f.write_str("swap is only allowed as the second move, right after Red's first stone")
            }
        }
    }
}

impl std::error::Error for MoveError {}
