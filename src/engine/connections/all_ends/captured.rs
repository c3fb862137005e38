//! Captured sets of empty ends, which let OR close over an intrusion the
//! side answers in place.
//!
//! Two empty cells `p` and `q` next to each other and to an empty cell
//! `x`, with the three cells beyond them the side's (its stones, or its
//! own edge off the board), form a captured set of `x`: once the side
//! holds `x`, an opponent's stone on `p` is answered on `q`, and then
//! every way of the side's through `p` runs through `x`, `q` or the cells
//! beyond instead (each of `p`'s other neighbours touches one of them), so
//! `p` counts as the side's. Semi connections of a pair that all need
//! cells of such a set still make a full one: the opponent's move there
//! is answered there, and what is left shares no cell (Pawlewicz,
//! Hayward, Henderson and Arneson, "Stronger virtual connections in Hex",
//! 2015, as MoHex 2.0 applies it; docs/benchmarks.md measures it here).

use crate::engine::bits::{Bits, Masks};
use crate::engine::color::Color;

/// The six neighbours of a cell as (column, row) steps, each next to the
/// one before and after it.
const AROUND: [(i32, i32); 6] = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];

/// A captured set of the empty cell `cell` for `colour` (the first found
/// going round it), or nothing.
pub(super) fn captured_set<B: Bits>(m: &Masks<B>, colour: Color, own: B, empty: B, cell: usize) -> B {
    let n = i32::from(m.size);
    let (q, r) = ((cell % m.size as usize) as i32, (cell / m.size as usize) as i32);
    let index = |c: i32, r: i32| ((0..n).contains(&c) && (0..n).contains(&r)).then(|| (r * n + c) as usize);
    // Off the board only beyond the side's own edges: its columns for
    // Red, its rows for Blue. A place past a corner counts too: it lies
    // beyond `p` (or `q`) only when that cell is the corner, whose other
    // neighbours are the two edges, so no cell of the side's needs it.
    let own_edge = |c: i32, r: i32| match colour {
        Color::Red => !(0..n).contains(&c),
        Color::Blue => !(0..n).contains(&r),
    };
    let sides = |c: i32, r: i32| index(c, r).map_or_else(|| own_edge(c, r), |i| own.has(i));
    for i in 0..6 {
        let (a, b) = (AROUND[i], AROUND[(i + 1) % 6]);
        let (Some(p), Some(s)) = (index(q + a.0, r + a.1), index(q + b.0, r + b.1)) else { continue };
        if !empty.has(p) || !empty.has(s) {
            continue;
        }
        let beyond = [(a.0 + a.0, a.1 + a.1), (a.0 + b.0, a.1 + b.1), (b.0 + b.0, b.1 + b.1)];
        if beyond.iter().all(|&(dc, dr)| sides(q + dc, r + dr)) {
            return B::single(p) | B::single(s);
        }
    }
    B::zero()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A cell's index from its name (`c7`), for the tests here and beside.
    pub(in crate::engine::connections::all_ends) fn at(n: u8, cell: &str) -> usize {
        let q = (cell.as_bytes()[0] - b'a') as usize;
        let r: usize = cell[1..].parse().unwrap();
        (r - 1) * n as usize + q
    }

    #[test]
    fn a_second_row_cell_captures_its_two_first_row_cells() {
        let m = Masks::<u128>::new(7);
        // Blue's bottom edge: c6 over b7 and c7.
        let set = captured_set(&m, Color::Blue, 0, m.board, at(7, "c6"));
        assert_eq!(set, 1 << at(7, "b7") | 1 << at(7, "c7"));
        // Red's left edge: b3 over a3 and a4.
        let set = captured_set(&m, Color::Red, 0, m.board, at(7, "b3"));
        assert_eq!(set, 1 << at(7, "a3") | 1 << at(7, "a4"));
        // Not for the other colour, nor on the third row.
        assert_eq!(captured_set(&m, Color::Red, 0, m.board, at(7, "c6")), 0);
        assert_eq!(captured_set(&m, Color::Blue, 0, m.board, at(7, "c5")), 0);
    }

    #[test]
    fn a_second_row_cell_next_to_a_corner_captures_it() {
        // Red's right edge on 11×11: j2 over the corner k1 and k2. A Blue
        // stone on k1 touches only j1 (next to j2) and the edges.
        let m = Masks::<u128>::new(11);
        assert_eq!(captured_set(&m, Color::Red, 0, m.board, at(11, "j2")), 1 << at(11, "k1") | 1 << at(11, "k2"));
        // And Blue's bottom edge at the other corner: b10 over a11, b11.
        assert_eq!(captured_set(&m, Color::Blue, 0, m.board, at(11, "b10")), 1 << at(11, "a11") | 1 << at(11, "b11"));
        // Beyond the opponent's edge nothing is the side's: f2 with f1
        // and g1, Blue's row, captures nothing for Red there.
        let set = captured_set(&m, Color::Red, 0, m.board, at(11, "f2"));
        assert!(set & (1 << at(11, "f1") | 1 << at(11, "g1")) == 0);
    }

    #[test]
    fn three_stones_in_a_row_capture_like_an_edge() {
        let m = Masks::<u128>::new(7);
        let own = 1 << at(7, "b5") | 1 << at(7, "c5") | 1 << at(7, "d5");
        let set = captured_set(&m, Color::Red, own, m.board & !own, at(7, "d3"));
        assert_eq!(set, 1 << at(7, "c4") | 1 << at(7, "d4"));
        // With a gap in the row, nothing.
        let own = own & !(1 << at(7, "c5"));
        assert_eq!(captured_set(&m, Color::Red, own, m.board & !own, at(7, "d3")), 0);
    }
}
