//! The shape around an empty cell: its eighteen neighbours to distance 2,
//! seen by the side to move, as one number.
//!
//! A shape is read as if the mover were Red (a Blue mover's board is read
//! transposed, which turns Blue's goal into Red's), so one table serves
//! both sides. A neighbour off the board counts as a stone of the edge's
//! owner, as in the bridge playouts. The only symmetry of a Hex board that
//! keeps each side's edges is the half turn, so a shape and its half turn
//! are one pattern: [`canonical`] picks one of the two.

use super::super::bits::Bits;
use super::super::cell::Cell;
use super::super::color::Color;
use super::super::position::Position;
use super::super::stones::Stones;

/// Neighbours in a shape.
pub const NEIGHBOURS: usize = 18;

/// The six directions in ring order (each next to the next); the half turn
/// maps direction `k` to `k + 3`.
const RING: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A neighbour's content as the mover sees it (two bits of a shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Point {
    Empty = 0,
    Mine = 1,
    Theirs = 2,
}

/// The offsets of a shape's neighbours from its cell, in the Red-mover
/// frame: three rings of six (adjacent, bridge, two straight steps), each
/// in ring order, so that the half turn rotates every ring by three.
pub(crate) fn offsets() -> [(i8, i8); NEIGHBOURS] {
    std::array::from_fn(|i| {
        let (ring, k) = (i / 6, i % 6);
        let (a, b) = (RING[k], RING[(k + 1) % 6]);
        match ring {
            0 => a,
            1 => (a.0 + b.0, a.1 + b.1),
            _ => (2 * a.0, 2 * a.1),
        }
    })
}

/// Where a neighbour lies off the board: on the mover's edge, or on the
/// opponent's (see [`Shapes::neighbour`]).
pub const MINE_EDGE: u16 = u16::MAX - 1;
pub const THEIRS_EDGE: u16 = u16::MAX;

/// Where each cell's neighbours are on one board size, for either mover.
#[derive(Clone, Debug)]
pub struct Shapes {
    /// `[cell][mover is Blue as 0/1][neighbour]`: a cell index or an edge.
    around: Vec<[[u16; NEIGHBOURS]; 2]>,
    /// The board last loaded, as its mover sees it.
    board: Vec<Point>,
    /// Whether that mover is Blue.
    blue: bool,
}

impl Shapes {
    /// The neighbourhoods of an `n`×`n` board.
    pub fn new(n: u8) -> Shapes {
        let size = n as i16;
        let offsets = offsets();
        let around = (0..n as usize * n as usize)
            .map(|i| {
                let c = Cell::from_index(i, n);
                let (q, r) = (c.q as i16, c.r as i16);
                std::array::from_fn(|blue| {
                    std::array::from_fn(|k| {
                        // In the mover's frame the first coordinate runs
                        // between the mover's own edges.
                        let (dq, dr) = (offsets[k].0 as i16, offsets[k].1 as i16);
                        let (own, other) = if blue == 1 { (r + dq, q + dr) } else { (q + dq, r + dr) };
                        if own < 0 || own >= size {
                            MINE_EDGE
                        } else if other < 0 || other >= size {
                            THEIRS_EDGE
                        } else if blue == 1 {
                            (own * size + other) as u16
                        } else {
                            (other * size + own) as u16
                        }
                    })
                })
            })
            .collect();
        Shapes { around, board: vec![Point::Empty; n as usize * n as usize], blue: false }
    }

    /// Reads `stones` into the scratch board that [`Shapes::loaded`] looks
    /// at: one pass over the stones instead of a set test per neighbour.
    pub fn load<B: Bits>(&mut self, stones: &Stones<B>) {
        let mover = stones.to_move;
        self.fill(mover, stones.of(mover).ones(), stones.of(mover.opponent()).ones());
    }

    /// Reads a rules position (any size) into the scratch board.
    pub fn load_position(&mut self, position: &Position) {
        let mover = position.to_move();
        self.fill(mover, position.stones(mover).iter(), position.stones(mover.opponent()).iter());
    }

    fn fill(&mut self, mover: Color, mine: impl Iterator<Item = usize>, theirs: impl Iterator<Item = usize>) {
        self.board.iter_mut().for_each(|p| *p = Point::Empty);
        for i in mine {
            self.board[i] = Point::Mine;
        }
        for i in theirs {
            self.board[i] = Point::Theirs;
        }
        self.blue = matches!(mover, Color::Blue);
    }

    /// Where neighbour `k` of `cell` lies for a Red mover, or a Blue one if
    /// `blue`: a cell index, [`MINE_EDGE`] or [`THEIRS_EDGE`].
    pub fn neighbour(&self, cell: usize, blue: bool, k: usize) -> u16 {
        self.around[cell][blue as usize][k]
    }

    /// The shape of `cell` on the board last loaded (not made canonical).
    #[inline]
    pub fn loaded(&self, cell: usize) -> u64 {
        let around = &self.around[cell][self.blue as usize];
        let mut code = 0u64;
        for (k, &at) in around.iter().enumerate() {
            let point = match at {
                MINE_EDGE => Point::Mine,
                THEIRS_EDGE => Point::Theirs,
                i => self.board[i as usize],
            };
            code |= (point as u64) << (2 * k);
        }
        code
    }

    /// The shape of `cell` in `stones` for the side to move.
    pub fn shape<B: Bits>(&mut self, stones: &Stones<B>, cell: usize) -> u64 {
        self.load(stones);
        self.loaded(cell)
    }

    /// The canonical pattern of `cell` in `stones` for the side to move.
    pub fn pattern<B: Bits>(&mut self, stones: &Stones<B>, cell: usize) -> u64 {
        canonical(self.shape(stones, cell))
    }
}

/// The bits of a shape's first ring: its six adjacent cells.
pub const ADJACENT: u64 = (1 << 12) - 1;

/// A shape turned by half a turn.
pub fn half_turn(shape: u64) -> u64 {
    // Each ring is twelve bits; its two halves of six swap places.
    const LOW: u64 = 0x03f_03f_03f;
    ((shape & LOW) << 6) | ((shape >> 6) & LOW)
}

/// The pattern a shape belongs to: the smaller of it and its half turn.
#[inline]
pub fn canonical(shape: u64) -> u64 {
    shape.min(half_turn(shape))
}

/// The content of neighbour `k` of a shape.
pub fn point(shape: u64, k: usize) -> Option<Point> {
    match (shape >> (2 * k)) & 3 {
        0 => Some(Point::Empty),
        1 => Some(Point::Mine),
        2 => Some(Point::Theirs),
        _ => None,
    }
}

/// The outer ring of a shape read as "any": every cell coded 3. A pattern
/// with it stands for all the shapes that agree on the first two rings.
pub const ANY_OUTER: u64 = 0xfff << 24;

/// The two outer rings read as "any": a pattern of the adjacent cells.
pub const ANY_BEYOND_ADJACENT: u64 = 0xff_ffff << 12;

/// Whether `shape` is a code some board can produce (no neighbour coded 3,
/// nothing beyond the eighteen neighbours), or such a code with its outer
/// ring, or its two outer rings, read as "any".
pub fn is_valid(shape: u64) -> bool {
    let read = match shape {
        s if s & ANY_BEYOND_ADJACENT == ANY_BEYOND_ADJACENT => s & !ANY_BEYOND_ADJACENT,
        s if s & ANY_OUTER == ANY_OUTER => s & !ANY_OUTER,
        s => s,
    };
    shape >> (2 * NEIGHBOURS) == 0 && (0..NEIGHBOURS).all(|k| point(read, k).is_some())
}

/// The patterns a pattern falls back to when a table does not list it,
/// finest first: the same shape with its outer ring, then its two outer
/// rings, read as "any" (none past the adjacent cells alone).
pub fn coarser(pattern: u64) -> impl Iterator<Item = u64> {
    [ANY_OUTER, ANY_BEYOND_ADJACENT]
        .into_iter()
        .filter(move |&any| pattern & any != any)
        .map(move |any| canonical(pattern | any))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;

    fn stones(text: &str, n: u8) -> Stones<u128> {
        let game = Record::from_text(text, n).unwrap().to_game(false).unwrap();
        Stones::from_position(game.position())
    }

    /// `s` with every stone moved by `map`, colours exchanged if `swap`
    /// (the side to move is kept).
    fn moved(s: &Stones<u128>, n: u8, map: impl Fn(Cell) -> Cell, swap: bool) -> Stones<u128> {
        let mut out = Stones::<u128>::empty();
        out.to_move = s.to_move;
        for i in 0..n as usize * n as usize {
            let t = map(Cell::from_index(i, n)).index(n);
            let (red, blue) = if swap { (s.blue.has(i), s.red.has(i)) } else { (s.red.has(i), s.blue.has(i)) };
            if red {
                out.red |= 1 << t;
            }
            if blue {
                out.blue |= 1 << t;
            }
        }
        out
    }

    #[test]
    fn the_half_turn_maps_each_offset_to_its_opposite() {
        let o = offsets();
        for (i, &(dq, dr)) in o.iter().enumerate() {
            let ring = i / 6;
            let turned = o[ring * 6 + (i % 6 + 3) % 6];
            assert_eq!(turned, (-dq, -dr), "offset {i}");
        }
        // And eighteen distinct cells at distance one or two.
        let mut seen = o.to_vec();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), NEIGHBOURS);
    }

    #[test]
    fn a_shape_and_the_shape_of_the_turned_board_are_one_pattern() {
        // Turning the whole board half a turn turns every shape.
        let n = 7;
        let s = stones("7x7 d4 c5 e3 b2 f6 a7 g1", n);
        let turned = moved(&s, n, |c| Cell::new(n - 1 - c.q, n - 1 - c.r), false);
        let mut shapes = Shapes::new(n);
        for i in 0..49 {
            let c = Cell::from_index(i, n);
            let t = Cell::new(n - 1 - c.q, n - 1 - c.r).index(n);
            assert_eq!(shapes.shape(&turned, t), half_turn(shapes.shape(&s, i)), "cell {c:?}");
            assert_eq!(shapes.pattern(&turned, t), shapes.pattern(&s, i));
        }
    }

    #[test]
    fn colours_and_transposition_give_the_same_pattern_to_either_mover() {
        // Blue to move on a board is Red to move on its transpose with the
        // colours exchanged.
        let n = 6;
        let s = stones("6x6 c3 d4 b5 e2 a1 f3 c6", n);
        assert_eq!(s.to_move, Color::Blue);
        let mut mirror = moved(&s, n, Cell::transpose, true);
        mirror.to_move = Color::Red;
        let mut shapes = Shapes::new(n);
        for i in 0..36 {
            let t = Cell::from_index(i, n).transpose().index(n);
            assert_eq!(shapes.shape(&s, i), shapes.shape(&mirror, t));
        }
    }

    #[test]
    fn edges_count_as_their_owners_stones() {
        // Red to move at a1's corner: left of it (off in q) is Red's edge,
        // above it (off in r) Blue's.
        let mut shapes = Shapes::new(5);
        let s = Stones::<u128>::empty();
        let shape = shapes.shape(&s, 0);
        let o = offsets();
        for (k, &(dq, dr)) in o.iter().enumerate() {
            let expected = if dq < 0 {
                Point::Mine
            } else if dr < 0 {
                Point::Theirs
            } else {
                Point::Empty
            };
            assert_eq!(point(shape, k), Some(expected), "offset {:?}", (dq, dr));
        }
        assert!(is_valid(shape));
        assert!(!is_valid(3) && !is_valid(1 << 36));
    }

    #[test]
    fn a_pattern_falls_back_to_its_inner_rings_and_then_its_adjacent_cells() {
        // Mine at neighbour 0, theirs at bridge point 7, mine at step 14.
        let shape = 0b01 | (0b10 << 14) | (0b01 << 28);
        let levels: Vec<u64> = coarser(shape).collect();
        assert_eq!(levels, vec![canonical(0b01 | (0b10 << 14) | ANY_OUTER), canonical(0b01 | ANY_BEYOND_ADJACENT)]);
        assert!(levels.iter().all(|&p| is_valid(p) && canonical(p) == p));
        // Each level falls back only to coarser ones; the adjacent cells
        // alone to none.
        assert_eq!(coarser(levels[0]).collect::<Vec<_>>(), vec![levels[1]]);
        assert_eq!(coarser(levels[1]).count(), 0);
        // "Any" is a whole ring's: one cell coded 3 is no pattern.
        assert!(!is_valid(shape | (3 << 24)));
        assert!(!is_valid(shape | ANY_OUTER | (3 << 12)));
    }
}
