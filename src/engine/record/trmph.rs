//! trmph strings and URLs: `https://trmph.com/hex/board#11,a1b2c3`.
//!
//! trmph's first player connects top↔bottom, so cells are transposed like
//! in SGF. It has no swap token: a swap is written as the second player
//! taking the very cell of the first stone.

use super::{Record, RecordError, RecordErrorKind};
use crate::engine::cell::{Cell, check_size};
use crate::engine::game::Move;

const URL_PREFIX: &str = "https://trmph.com/hex/board#";

/// Whether `text` looks like trmph rather than a move list: a URL with a
/// `#`, or `N,` followed by cells.
pub(super) fn looks_like(text: &str) -> bool {
    if text.contains("/hex/board#") {
        return true;
    }
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && text.as_bytes().get(digits) == Some(&b',')
}

impl Record {
    /// A trmph URL for this game.
    pub fn to_trmph(&self) -> String {
        let mut out = format!("{URL_PREFIX}{},", self.size);
        for m in &self.moves {
            let cell = match m {
                Move::Place(cell) => *cell,
                // The swapper takes the first stone's own cell.
                Move::Swap => match self.moves.first() {
                    Some(Move::Place(first)) => *first,
                    _ => continue,
                },
            };
            out.push_str(&cell.transpose().to_string());
        }
        out
    }

    /// Reads a trmph URL or its fragment (`11,a1b2c3`).
    pub fn from_trmph(text: &str) -> Result<Record, RecordError> {
        let start = text.find('#').map_or(text.len() - text.trim_start().len(), |i| i + 1);
        let body = text[start..].trim_end();
        let comma = body
            .find(',')
            .ok_or_else(|| RecordError::at(start, RecordErrorKind::Syntax("the board size then ','".into())))?;
        let size_text = &body[..comma];
        let size: u8 = size_text
            .parse()
            .ok()
            .filter(|&s| check_size(s).is_ok())
            .ok_or_else(|| RecordError::at(start, RecordErrorKind::BadSize(size_text.to_string())))?;
        let cells = &body[comma + 1..];
        let base = start + comma + 1;
        let bytes = cells.as_bytes();
        let mut moves: Vec<(Move, usize)> = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let from = i;
            if !bytes[i].is_ascii_alphabetic() {
                return Err(RecordError::at(base + i, RecordErrorKind::Syntax("a column letter".into())));
            }
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let cell = Cell::parse(&cells[from..i], size)
                .map_err(|e| RecordError::at(base + from, RecordErrorKind::BadCell(e)))?
                .transpose();
            let m = match moves.as_slice() {
                [(Move::Place(first), _)] if *first == cell => Move::Swap,
                _ => Move::Place(cell),
            };
            moves.push((m, base + from));
        }
        Record::checked(size, moves)
    }
}
