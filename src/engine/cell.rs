//! Cells, their neighbours and their names (`a1` … `s19`).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::error::{NotationError, SizeError};

/// Smallest board side hexarena plays.
pub const MIN_SIZE: u8 = 3;
/// Largest board side hexarena plays (`s19`).
pub const MAX_SIZE: u8 = 19;

/// Checks that `size` is a playable board side.
pub fn check_size(size: u8) -> Result<u8, SizeError> {
    if (MIN_SIZE..=MAX_SIZE).contains(&size) { Ok(size) } else { Err(SizeError(size as u32)) }
}

/// The six neighbour offsets `(dq, dr)` on the rhombus.
pub const NEIGHBOUR_OFFSETS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A cell: `q` is the column (letter), `r` the row (number), both from 0.
///
/// ```
/// use hexarena::engine::Cell;
/// let c = Cell::parse("c3", 5).unwrap();
/// assert_eq!((c.q, c.r), (2, 2));
/// assert_eq!(c.to_string(), "c3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Cell {
    pub q: u8,
    pub r: u8,
}

impl Cell {
    /// The cell in column `q`, row `r`.
    pub const fn new(q: u8, r: u8) -> Cell {
        Cell { q, r }
    }

    /// Whether the cell lies on a board of side `size`.
    pub const fn is_on(self, size: u8) -> bool {
        self.q < size && self.r < size
    }

    /// Row-major index on a board of side `size`.
    #[inline]
    pub const fn index(self, size: u8) -> usize {
        self.r as usize * size as usize + self.q as usize
    }

    /// Inverse of [`Cell::index`].
    #[inline]
    pub const fn from_index(index: usize, size: u8) -> Cell {
        Cell::new((index % size as usize) as u8, (index / size as usize) as u8)
    }

    /// The mirror image across the short diagonal: `(q, r)` ↔ `(r, q)`.
    /// It keeps adjacency and swaps the roles of the two pairs of edges,
    /// which is how a swapped stone and the community's orientation map.
    pub const fn transpose(self) -> Cell {
        Cell::new(self.r, self.q)
    }

    /// Steps between two cells of the hex grid: 1 for neighbours, 2 for a
    /// bridge's two ends.
    #[inline]
    pub const fn distance(self, other: Cell) -> u32 {
        let (dq, dr) = (self.q as i32 - other.q as i32, self.r as i32 - other.r as i32);
        (dq.unsigned_abs() + dr.unsigned_abs() + (dq + dr).unsigned_abs()) / 2
    }

    /// Neighbours that lie on a board of side `size`.
    pub fn neighbours(self, size: u8) -> impl Iterator<Item = Cell> {
        NEIGHBOUR_OFFSETS.iter().filter_map(move |&(dq, dr)| {
            let q = self.q as i16 + dq as i16;
            let r = self.r as i16 + dr as i16;
            let s = size as i16;
            (0..s).contains(&q).then_some(())?;
            (0..s).contains(&r).then_some(())?;
            Some(Cell::new(q as u8, r as u8))
        })
    }

    /// Parses `a1`-style notation (case-insensitive) for a board of side
    /// `size`.
    pub fn parse(text: &str, size: u8) -> Result<Cell, NotationError> {
        let cell = Cell::parse_unbounded(text)?;
        if cell.is_on(size) { Ok(cell) } else { Err(NotationError::OffBoard { text: text.to_string(), size }) }
    }

    /// Parses notation without checking it against a board size; columns
    /// `a`–`s` and rows `1`–`19` only.
    pub fn parse_unbounded(text: &str) -> Result<Cell, NotationError> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars.next().ok_or(NotationError::Empty)?;
        let lower = letter.to_ascii_lowercase();
        if !lower.is_ascii_lowercase() || lower > column_letter(MAX_SIZE - 1) {
            return Err(NotationError::BadColumn(letter));
        }
        let digits = chars.as_str();
        let row: u8 = match digits.parse::<u8>() {
            Ok(row) if (1..=MAX_SIZE).contains(&row) && !digits.starts_with('0') => row,
            _ => return Err(NotationError::BadRow(digits.to_string())),
        };
        Ok(Cell::new(lower as u8 - b'a', row - 1))
    }
}

/// The letter naming column `q` (`0` → `a`).
pub const fn column_letter(q: u8) -> char {
    (b'a' + q) as char
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letter(self.q), self.r + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_on_every_cell() {
        for size in MIN_SIZE..=MAX_SIZE {
            for i in 0..size as usize * size as usize {
                let cell = Cell::from_index(i, size);
                assert_eq!(Cell::parse(&cell.to_string(), size), Ok(cell));
                assert_eq!(cell.index(size), i);
            }
        }
        assert_eq!(Cell::parse("S19", 19), Ok(Cell::new(18, 18)));
    }

    #[test]
    fn bad_notation_is_rejected_with_the_reason() {
        assert_eq!(Cell::parse("", 5), Err(NotationError::Empty));
        assert_eq!(Cell::parse("t1", 19), Err(NotationError::BadColumn('t')));
        assert_eq!(Cell::parse("?1", 19), Err(NotationError::BadColumn('?')));
        assert_eq!(Cell::parse("a0", 19), Err(NotationError::BadRow("0".into())));
        assert_eq!(Cell::parse("a01", 19), Err(NotationError::BadRow("01".into())));
        assert_eq!(Cell::parse("a", 19), Err(NotationError::BadRow("".into())));
        assert_eq!(Cell::parse("a20", 19), Err(NotationError::BadRow("20".into())));
        assert_eq!(Cell::parse("f1", 5), Err(NotationError::OffBoard { text: "f1".into(), size: 5 }));
    }

    #[test]
    fn corners_have_the_right_number_of_neighbours() {
        // The acute corners (a1, e5) touch two cells, the obtuse ones three.
        let n = |q, r| Cell::new(q, r).neighbours(5).count();
        assert_eq!((n(0, 0), n(4, 4), n(4, 0), n(0, 4), n(2, 2)), (2, 2, 3, 3, 6));
    }

    #[test]
    fn sizes_outside_three_to_nineteen_are_refused() {
        assert!(check_size(2).is_err() && check_size(20).is_err());
        assert_eq!(check_size(11), Ok(11));
    }
}
