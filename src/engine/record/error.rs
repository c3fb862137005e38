//! Why a record could not be read, and where.

use std::fmt;

use crate::engine::color::Color;
use crate::engine::error::{MoveError, NotationError, SizeError};

/// A record that could not be read: what was wrong and the byte offset in
/// the text where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub offset: usize,
    pub kind: RecordErrorKind,
}

/// What was wrong with a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The text holds nothing.
    Empty,
    /// The text breaks the format's syntax; says what was expected.
    Syntax(String),
    /// The board size is not a number from 3 to 19.
    BadSize(String),
    /// The SGF file is for another game than Hex (`GM` is not 11).
    NotHex(String),
    /// A cell could not be read.
    BadCell(NotationError),
    /// An SGF move by the wrong colour (Black moves first, then White).
    WrongColour { number: usize, expected: Color },
    /// Something valid elsewhere that hexarena does not play (setup stones,
    /// swap-sides, passes).
    Unsupported(String),
    /// A move the rules refuse at that point of the game.
    IllegalMove { number: usize, error: MoveError },
}

impl RecordError {
    pub(crate) fn at(offset: usize, kind: RecordErrorKind) -> RecordError {
        RecordError { offset, kind }
    }
}

impl From<SizeError> for RecordErrorKind {
    fn from(e: SizeError) -> Self {
        RecordErrorKind::BadSize(e.0.to_string())
    }
}

impl fmt::Display for RecordErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordErrorKind::Empty => f.write_str("the record is empty"),
            RecordErrorKind::Syntax(expected) => write!(f, "expected {expected}"),
            RecordErrorKind::BadSize(s) => {
                write!(f, "board size '{s}' is not supported: sizes go from 3 to 19")
            }
            RecordErrorKind::NotHex(gm) => write!(f, "this SGF is for game GM[{gm}], not Hex (GM[11])"),
            RecordErrorKind::BadCell(e) => e.fmt(f),
            RecordErrorKind::WrongColour { number, expected } => {
                let sgf = match expected {
                    Color::Red => "B (Black)",
                    Color::Blue => "W (White)",
                };
                write!(f, "move {number} should be played by {sgf}")
            }
            RecordErrorKind::Unsupported(what) => write!(f, "{what} is not supported"),
            RecordErrorKind::IllegalMove { number, error } => write!(f, "move {number} is illegal: {error}"),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.offset + 1, self.kind)
    }
}

impl std::error::Error for RecordError {}
