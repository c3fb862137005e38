//! Game records: import and export in three formats, each round-tripping
//! exactly.
//!
//! - [`RecordFormat::Text`]: our move list, `11x11 f6 swap e7 …`, in the
//!   notation players see on the board.
//! - [`RecordFormat::Sgf`]: HexGui-style SGF (`GM[11]`), Black first.
//! - [`RecordFormat::Trmph`]: trmph strings and URLs (`…#11,a1b2c3`).
//!
//! SGF and trmph put the first player on top↔bottom while our Red (first)
//! connects left↔right, so cells are transposed there: a game exported and
//! opened in HexGui shows the same winner.

mod error;
mod sgf;
mod text;
mod trmph;

use std::fmt;

pub use error::{RecordError, RecordErrorKind};

use super::game::{Game, Move};

/// A game as a record holds it: board side and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub size: u8,
    pub moves: Vec<Move>,
}

/// The formats a record can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    Text,
    Sgf,
    Trmph,
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordFormat::Text => "move list",
            RecordFormat::Sgf => "SGF",
            RecordFormat::Trmph => "trmph",
        })
    }
}

impl Record {
    /// The record of `game` so far.
    pub fn from_game(game: &Game) -> Record {
        Record { size: game.size(), moves: game.moves().to_vec() }
    }

    /// Replays the record. The swap rule is on if `swap_allowed` or if the
    /// record itself contains a swap.
    pub fn to_game(&self, swap_allowed: bool) -> Result<Game, RecordError> {
        let swap = swap_allowed || self.moves.contains(&Move::Swap);
        let mut game = Game::new(self.size, swap).map_err(|e| RecordError::at(0, e.into()))?;
        for (i, &m) in self.moves.iter().enumerate() {
            game.play(m).map_err(|error| RecordError::at(0, RecordErrorKind::IllegalMove { number: i + 1, error }))?;
        }
        Ok(game)
    }

    /// Reads a record in any of the formats, recognising which. A bare move
    /// list without a size prefix is read for a `default_size` board.
    pub fn parse(text: &str, default_size: u8) -> Result<(Record, RecordFormat), RecordError> {
        let trimmed = text.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty() {
            return Err(RecordError::at(0, RecordErrorKind::Empty));
        }
        let format = if trimmed.starts_with('(') {
            RecordFormat::Sgf
        } else if trmph::looks_like(trimmed) {
            RecordFormat::Trmph
        } else {
            RecordFormat::Text
        };
        let record = match format {
            RecordFormat::Sgf => Record::from_sgf(text)?,
            RecordFormat::Trmph => Record::from_trmph(text)?,
            RecordFormat::Text => Record::from_text(text, default_size)?,
        };
        Ok((record, format))
    }

    /// Writes the record in `format`.
    pub fn write(&self, format: RecordFormat) -> String {
        match format {
            RecordFormat::Text => self.to_text(),
            RecordFormat::Sgf => self.to_sgf(),
            RecordFormat::Trmph => self.to_trmph(),
        }
    }

    /// Checks a parsed move sequence by replaying it, so an illegal move is
    /// reported at its place in the text.
    fn checked(size: u8, moves: Vec<(Move, usize)>) -> Result<Record, RecordError> {
        let mut game = Game::new(size, true).map_err(|e| RecordError::at(0, e.into()))?;
        for (i, &(m, offset)) in moves.iter().enumerate() {
            game.play(m)
                .map_err(|error| RecordError::at(offset, RecordErrorKind::IllegalMove { number: i + 1, error }))?;
        }
        Ok(Record { size, moves: moves.into_iter().map(|(m, _)| m).collect() })
    }
}

#[cfg(test)]
mod tests;
