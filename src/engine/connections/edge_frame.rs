//! Where cells lie towards one of a side's edges, by their place along
//! the edge and their depth: the geometry the second-row ladders and the
//! links along the edge share.

use crate::engine::color::Color;

/// A cell `depth` rows from one of the side's edges (0: on its first
/// row), with its two neighbours a row nearer: `lo` shared with the cell
/// before it along the edge, `hi` with the one after (None where off the
/// board).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::engine::connections) struct RowCell {
    pub cell: usize,
    pub lo: Option<usize>,
    pub hi: Option<usize>,
}

/// Where cells lie towards the edge `edge` (0 or 1, as the searches
/// number them) of `colour` on an `n`×`n` board, by their place along the
/// edge and their depth.
#[derive(Clone, Copy, Debug)]
pub(in crate::engine::connections) struct EdgeFrame {
    pub n: i32,
    pub colour: Color,
    pub edge: usize,
}

impl EdgeFrame {
    /// The cell `along` the edge at `depth`, if on the board.
    pub fn index(self, along: i32, depth: i32) -> Option<usize> {
        let n = self.n;
        let (c, r) = match (self.colour, self.edge) {
            (Color::Red, 0) => (depth, along),
            (Color::Red, _) => (n - 1 - depth, along),
            (Color::Blue, 0) => (along, depth),
            (Color::Blue, _) => (along, n - 1 - depth),
        };
        ((0..n).contains(&c) && (0..n).contains(&r)).then(|| (r * n + c) as usize)
    }

    /// The places along the edge of a cell's `lo` and `hi` neighbours a
    /// row nearer.
    pub fn below(self, along: i32) -> [i32; 2] {
        if self.edge == 0 { [along, along + 1] } else { [along - 1, along] }
    }

    /// The cell `along` the edge at `depth` (at least 1) with its two
    /// neighbours a row nearer, if on the board.
    pub fn cell(self, along: i32, depth: i32) -> Option<RowCell> {
        let [lo, hi] = self.below(along);
        Some(RowCell { cell: self.index(along, depth)?, lo: self.index(lo, depth - 1), hi: self.index(hi, depth - 1) })
    }

    /// The cell `along` the edge at `depth`, the places along edge 0
    /// counted from its far end: the frame turned half a turn there, so
    /// that on both edges a cell's neighbours a row nearer lie at its own
    /// place and the one before, and one table of shapes (the ladders'
    /// escapes) serves both edges.
    pub fn turned(self, along: i32, depth: i32) -> Option<usize> {
        self.index(if self.edge == 0 { self.n - 1 - along } else { along }, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Masks;

    /// Every frame of both sides on a few boards.
    fn frames() -> impl Iterator<Item = (Masks<u128>, EdgeFrame)> {
        [4u8, 7, 11].into_iter().flat_map(|n| {
            [Color::Red, Color::Blue].into_iter().flat_map(move |colour| {
                (0..2).map(move |edge| (Masks::<u128>::new(n), EdgeFrame { n: i32::from(n), colour, edge }))
            })
        })
    }

    /// The cells at `depth` whose place `place` gives, that touch `cell`.
    fn touching(m: &Masks<u128>, cell: usize, depth: i32, place: impl Fn(i32, i32) -> Option<usize>) -> Vec<i32> {
        (0..i32::from(m.size)).filter(|&a| place(a, depth).is_some_and(|c| m.grow(1 << cell) >> c & 1 == 1)).collect()
    }

    #[test]
    fn depth_zero_is_the_sides_edge_row() {
        for (m, f) in frames() {
            let row = match (f.colour, f.edge) {
                (Color::Red, 0) => m.left,
                (Color::Red, _) => m.right,
                (Color::Blue, 0) => m.top,
                (Color::Blue, _) => m.bottom,
            };
            let cells = (0..f.n).map(|a| f.index(a, 0).expect("on the board")).fold(0u128, |b, c| b | 1 << c);
            assert_eq!(cells, row, "{f:?}");
            assert_eq!((f.index(-1, 0), f.index(f.n, 0), f.index(0, f.n)), (None, None, None));
        }
    }

    #[test]
    fn a_cells_neighbours_a_row_nearer_are_its_lo_and_hi() {
        for (m, f) in frames() {
            for (along, depth) in (0..f.n).flat_map(|a| (1..f.n).map(move |d| (a, d))) {
                let c = f.cell(along, depth).expect("on the board");
                let [lo, hi] = f.below(along);
                let expected: Vec<i32> = [lo, hi].into_iter().filter(|&a| (0..f.n).contains(&a)).collect();
                assert_eq!(touching(&m, c.cell, depth - 1, |a, d| f.index(a, d)), expected, "{f:?} {along} {depth}");
                assert_eq!((c.lo, c.hi), (f.index(lo, depth - 1), f.index(hi, depth - 1)));
            }
        }
    }

    #[test]
    fn turned_a_cell_lies_over_its_own_place_and_the_one_before_on_both_edges() {
        for (m, f) in frames() {
            for (along, depth) in (0..f.n).flat_map(|a| (1..f.n).map(move |d| (a, d))) {
                let cell = f.turned(along, depth).expect("on the board");
                let expected: Vec<i32> = [along - 1, along].into_iter().filter(|&a| a >= 0).collect();
                assert_eq!(touching(&m, cell, depth - 1, |a, d| f.turned(a, d)), expected, "{f:?} {along} {depth}");
            }
        }
    }
}
