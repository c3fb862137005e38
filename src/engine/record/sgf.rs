//! HexGui-style SGF: `(;FF[4]GM[11]SZ[11];B[f2];W[swap-pieces];B[e7])`.
//!
//! In SGF Black moves first and connects top↔bottom. Our Red moves first
//! and connects left↔right, so Red is `B`, Blue is `W`, and every cell is
//! transposed: our `(q, r)` is written as SGF column `r`, row `q`.

use super::{Record, RecordError, RecordErrorKind};
use crate::engine::cell::{Cell, check_size};
use crate::engine::color::Color;
use crate::engine::game::{Game, Move};

/// SGF's default board side for Hex when `SZ` is absent.
const DEFAULT_SIZE: u8 = 11;

impl Record {
    /// Writes HexGui-compatible SGF.
    pub fn to_sgf(&self) -> String {
        let mut out = format!("(;FF[4]AP[hexarena:{}]GM[11]SZ[{}]", env!("CARGO_PKG_VERSION"), self.size);
        for (i, m) in self.moves.iter().enumerate() {
            let colour = if Game::mover_of(i) == Color::Red { 'B' } else { 'W' };
            let value = match m {
                Move::Place(cell) => cell.transpose().to_string(),
                Move::Swap => "swap-pieces".to_string(),
            };
            out.push_str(&format!(";{colour}[{value}]"));
        }
        out.push(')');
        out
    }

    /// Reads SGF for Hex. Only the main line is read; variations are
    /// skipped. A final `resign` is accepted and ends the move list.
    pub fn from_sgf(text: &str) -> Result<Record, RecordError> {
        let props = Parser { text, pos: 0 }.main_line()?;
        let mut size = DEFAULT_SIZE;
        let mut raw_moves: Vec<(Color, &str, usize)> = Vec::new();
        let mut resigned_at = None;
        for Property { ident, values, offset } in props {
            let single = || values.first().copied().unwrap_or("");
            match ident {
                "GM" if single().trim() != "11" => {
                    return Err(RecordError::at(offset, RecordErrorKind::NotHex(single().to_string())));
                }
                "SZ" => size = parse_size(single(), offset)?,
                "AB" | "AW" | "AE" => {
                    return Err(RecordError::at(
                        offset,
                        RecordErrorKind::Unsupported("a position set up with AB/AW/AE".into()),
                    ));
                }
                "B" | "W" => {
                    if let Some(at) = resigned_at {
                        return Err(RecordError::at(
                            offset,
                            RecordErrorKind::Syntax(format!("no move after the resignation at character {}", at + 1)),
                        ));
                    }
                    let colour = if ident == "B" { Color::Red } else { Color::Blue };
                    let value = single().trim();
                    if value.eq_ignore_ascii_case("resign") {
                        resigned_at = Some(offset);
                    } else {
                        raw_moves.push((colour, value, offset));
                    }
                }
                _ => {}
            }
        }
        check_size(size).map_err(|e| RecordError::at(0, e.into()))?;
        let mut moves = Vec::with_capacity(raw_moves.len());
        for (i, (colour, value, offset)) in raw_moves.into_iter().enumerate() {
            let expected = Game::mover_of(i);
            if colour != expected {
                return Err(RecordError::at(offset, RecordErrorKind::WrongColour { number: i + 1, expected }));
            }
            let m = match value.to_ascii_lowercase().as_str() {
                "swap-pieces" => Move::Swap,
                "swap-sides" => {
                    return Err(RecordError::at(
                        offset,
                        RecordErrorKind::Unsupported("swap-sides (hexarena swaps pieces)".into()),
                    ));
                }
                "" | "pass" => return Err(RecordError::at(offset, RecordErrorKind::Unsupported("a pass".into()))),
                _ => {
                    let cell =
                        Cell::parse(value, size).map_err(|e| RecordError::at(offset, RecordErrorKind::BadCell(e)))?;
                    Move::Place(cell.transpose())
                }
            };
            moves.push((m, offset));
        }
        Record::checked(size, moves)
    }
}

fn parse_size(value: &str, offset: usize) -> Result<u8, RecordError> {
    let bad = || RecordError::at(offset, RecordErrorKind::BadSize(value.to_string()));
    let (w, h) = value.split_once(':').unwrap_or((value, value));
    let w: u8 = w.trim().parse().map_err(|_| bad())?;
    if h.trim().parse::<u8>() != Ok(w) {
        return Err(bad());
    }
    check_size(w).map_err(|_| bad())
}

/// One `IDENT[value][value]` with the offset of its identifier.
struct Property<'a> {
    ident: &'a str,
    values: Vec<&'a str>,
    offset: usize,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn err(&self, expected: &str) -> RecordError {
        RecordError::at(self.pos, RecordErrorKind::Syntax(expected.to_string()))
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}').len();
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn expect(&mut self, byte: u8, what: &str) -> Result<(), RecordError> {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    /// The properties of the first game tree's main line, in order.
    fn main_line(mut self) -> Result<Vec<Property<'a>>, RecordError> {
        let mut props = Vec::new();
        self.expect(b'(', "'(' to open the SGF game tree")?;
        self.tree_body(&mut props, true)?;
        Ok(props)
    }

    /// Reads nodes then sub-trees up to the closing ')'. Only the first
    /// sub-tree continues the main line; `keep` is false for variations.
    fn tree_body(&mut self, props: &mut Vec<Property<'a>>, keep: bool) -> Result<(), RecordError> {
        let mut first_child = true;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b';') => {
                    self.pos += 1;
                    self.node(props, keep)?;
                }
                Some(b'(') => {
                    self.pos += 1;
                    self.tree_body(props, keep && first_child)?;
                    first_child = false;
                }
                Some(b')') => {
                    self.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.err("';', '(' or ')'")),
            }
        }
    }

    fn node(&mut self, props: &mut Vec<Property<'a>>, keep: bool) -> Result<(), RecordError> {
        loop {
            self.skip_ws();
            let start = self.pos;
            let ident_len = self.text[start..].bytes().take_while(|b| b.is_ascii_alphabetic()).count();
            if ident_len == 0 {
                return Ok(());
            }
            self.pos += ident_len;
            // FF[3] allowed lower-case letters inside identifiers; only the
            // capitals name the property.
            let raw = &self.text[start..self.pos];
            let ident = if raw.bytes().all(|b| b.is_ascii_uppercase()) { raw } else { capitals(raw) };
            let mut values = Vec::new();
            loop {
                self.skip_ws();
                if self.peek() != Some(b'[') {
                    break;
                }
                self.pos += 1;
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.err("'[' with a value after the property name"));
            }
            if keep {
                props.push(Property { ident, values, offset: start });
            }
        }
    }

    fn value(&mut self) -> Result<&'a str, RecordError> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b'\\' => self.pos += 2,
                b']' => {
                    let value = &self.text[start..self.pos];
                    self.pos += 1;
                    return Ok(value);
                }
                _ => self.pos += 1,
            }
        }
        self.pos = self.text.len();
        Err(RecordError::at(start, RecordErrorKind::Syntax("']' to close this value".into())))
    }
}

/// The upper-case letters of an old-style identifier (`GaMe` → `GM`). Only
/// the known ones matter, so map them to static strings.
fn capitals(raw: &str) -> &'static str {
    let caps: String = raw.chars().filter(char::is_ascii_uppercase).collect();
    match caps.as_str() {
        "GM" => "GM",
        "SZ" => "SZ",
        "B" => "B",
        "W" => "W",
        "AB" => "AB",
        "AW" => "AW",
        "AE" => "AE",
        _ => "",
    }
}
