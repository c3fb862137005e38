//! Our move list: `11x11 f6 swap e7`, optionally numbered (`1. f6 2. swap`).

use super::{Record, RecordError, RecordErrorKind};
use crate::engine::cell::check_size;
use crate::engine::game::Move;

impl Record {
    /// `11x11 a1 swap c3`: the size, then each move in board notation.
    pub fn to_text(&self) -> String {
        let mut out = format!("{0}x{0}", self.size);
        for m in &self.moves {
            out.push(' ');
            out.push_str(&m.to_string());
        }
        out
    }

    /// Reads a move list. Separators are spaces, commas or semicolons; move
    /// numbers like `12.` are skipped; a leading `NxN` sets the size,
    /// otherwise the board is `default_size`.
    pub fn from_text(text: &str, default_size: u8) -> Result<Record, RecordError> {
        let mut tokens = tokens(text).peekable();
        let mut size = default_size;
        let head = tokens.peek().map(|&(offset, first)| (offset, first, first.to_ascii_lowercase()));
        if let Some((offset, first, lower)) = &head
            && let Some((w, h)) = lower.split_once('x')
        {
            let bad = || RecordError::at(*offset, RecordErrorKind::BadSize(first.to_string()));
            let w: u8 = w.parse().map_err(|_| bad())?;
            if h.parse::<u8>() != Ok(w) {
                return Err(bad());
            }
            size = w;
            tokens.next();
        }
        check_size(size).map_err(|e| RecordError::at(0, e.into()))?;
        let mut moves = Vec::new();
        for (offset, token) in tokens {
            if is_move_number(token) {
                continue;
            }
            let m = Move::parse(token, size).map_err(|e| RecordError::at(offset, RecordErrorKind::BadCell(e)))?;
            moves.push((m, offset));
        }
        Record::checked(size, moves)
    }
}

fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_sep = |c: char| c.is_whitespace() || c == ',' || c == ';';
    let mut rest = 0;
    std::iter::from_fn(move || {
        let start = rest + text[rest..].find(|c| !is_sep(c))?;
        let len = text[start..].find(is_sep).unwrap_or(text.len() - start);
        rest = start + len;
        Some((start, &text[start..start + len]))
    })
}

fn is_move_number(token: &str) -> bool {
    token.len() > 1 && token.ends_with('.') && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
}
