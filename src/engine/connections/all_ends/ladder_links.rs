//! Ladder links: a second-row cell joined to another farther along the
//! same edge by the ladder between them.
//!
//! A cell `s` on the side's second row (empty or the side's stone) with
//! at least one free first-row cell, and a second-row cell `t` (empty or
//! the side's stone) however far along the edge with both its first-row
//! cells free, the second- and first-row cells between them free too. Holding both, the
//! side ends with them joined or both joined to the edge, the relation
//! [`super::edge_links`] keeps: `t` reaches the edge through its pair; an
//! intrusion on the first-row cell `s`'s chain hangs on is answered by
//! stepping along the second row towards `t` (the last step touches it),
//! and any other intrusion between them by taking that first-row cell.
//! This is where a ladder begins: the opponent has taken the start's
//! other first-row cell, so the pair links, which need both, never form
//! there. MoHex 2.0 builds these links from its second-row ladder
//! patterns with an empty second-row cell at the end (`row2end2b`), and
//! they make half the lead of its connections over ours in deciding our
//! games (docs/benchmarks.md, 2026-12-05).

use super::super::edge_frame::{EdgeFrame, RowCell};
use super::edge_links::EdgeLinkPair;
use crate::engine::bits::Bits;
use crate::engine::color::Color;

/// Every ladder link of `colour` along both its edges on an `n`×`n`
/// board, with the side's stones `own` and the empty cells `empty`. Each
/// needs as many stones as its ends lie apart along the edge, one more
/// from the third row.
pub(super) fn ladder_links<B: Bits>(n: u8, colour: Color, own: B, empty: B) -> Vec<EdgeLinkPair<B>> {
    let n = i32::from(n);
    let mut out = Vec::new();
    if n < 4 {
        return out;
    }
    let open = |c: usize| empty.has(c) || own.has(c);
    for edge in 0..2 {
        let frame = EdgeFrame { n, colour, edge };
        let row: Vec<Option<RowCell>> = (0..n).map(|along| frame.cell(along, 1)).collect();
        let ends = Ends { row: &row, own, empty };
        // Each open second-row cell's ladders, towards growing places and
        // back, walked once: the third-row starts run on from them too.
        let walks: Vec<[Vec<Far<B>>; 2]> = (0..n)
            .map(|a| match row[a as usize] {
                Some(s) if open(s.cell) => [ends.from(a, 1), ends.from(a, -1)],
                _ => [Vec::new(), Vec::new()],
            })
            .collect();
        let way = |step: i32| usize::from(step < 0);
        for (a, s) in row.iter().enumerate() {
            let Some(s) = *s else { continue };
            if !open(s.cell) {
                continue;
            }
            let ones: Vec<usize> = [s.lo, s.hi].into_iter().flatten().filter(|&c| empty.has(c)).collect();
            for step in [1i32, -1] {
                for far in &walks[a][way(step)] {
                    for &one in &ones {
                        let carrier = B::single(one) | far.cells;
                        out.push(EdgeLinkPair { s: s.cell, t: far.t, carrier, need: far.apart });
                    }
                }
            }
        }
        for along in 0..n {
            let Some(x) = frame.cell(along, 2).filter(|x| open(x.cell)) else { continue };
            let [lo, hi] = frame.below(along);
            for (step, head, other) in [(1, hi, lo), (-1, lo, hi)] {
                let cell = |a: i32| usize::try_from(a).ok().and_then(|a| row.get(a).copied().flatten());
                let (Some(h), Some(o)) = (cell(head), cell(other)) else { continue };
                let ahead = if step > 0 { h.hi } else { h.lo };
                let firsts = [o.lo, o.hi, ahead];
                if !empty.has(h.cell) || !empty.has(o.cell) || !firsts.iter().all(|c| c.is_some_and(|c| empty.has(c))) {
                    continue;
                }
                let base =
                    firsts.iter().flatten().fold(B::single(h.cell) | B::single(o.cell), |b, &c| b | B::single(c));
                // `head` is on the board and empty, so its walks were taken.
                for far in &walks[head as usize][way(step)] {
                    out.push(EdgeLinkPair { s: x.cell, t: far.t, carrier: base | far.cells, need: far.apart + 1 });
                }
            }
        }
    }
    out
}

/// The second row along one edge, for the ladders along it.
struct Ends<'a, B> {
    row: &'a [Option<RowCell>],
    own: B,
    empty: B,
}

/// A far end of a ladder: the cell `t`, how far along it lies, and the
/// cells the ladder needs besides its start's first-row cell.
struct Far<B> {
    t: usize,
    apart: u32,
    cells: B,
}

impl<B: Bits> Ends<'_, B> {
    /// The ends a ladder from the second-row cell at `a` reaches in
    /// direction `step`: each at least two cells on, with both its
    /// first-row cells free, across free cells.
    fn from(&self, a: i32, step: i32) -> Vec<Far<B>> {
        let (own, empty) = (self.own, self.empty);
        // The first-row cell of a second-row cell ahead in the ladder's
        // direction (shared with the next one).
        let ahead = |c: RowCell| if step > 0 { c.hi } else { c.lo };
        let at = |b: i32| usize::try_from(b).ok().and_then(|b| self.row.get(b).copied().flatten());
        let mut out = Vec::new();
        let Some(mut prev) = at(a + step) else { return out };
        let mut strip = B::zero();
        let mut b = a + 2 * step;
        while let Some(t) = at(b) {
            // `prev` lies between: the ladder steps onto it.
            let Some(under) = ahead(prev).filter(|&c| empty.has(c) && empty.has(prev.cell)) else {
                break;
            };
            strip = strip | B::single(prev.cell) | B::single(under);
            if let (true, Some(far)) = (empty.has(t.cell) || own.has(t.cell), ahead(t).filter(|&c| empty.has(c))) {
                out.push(Far { t: t.cell, apart: (b - a).unsigned_abs(), cells: strip | B::single(far) });
            }
            prev = t;
            b += step;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::captured::tests::at;
    use super::super::edge_links::tests::{cells, holds};
    use super::*;
    use crate::engine::bits::Masks;

    /// The carriers of the links from `s` to `t`, as cell names.
    fn between(n: u8, links: &[EdgeLinkPair<u128>], s: &str, t: &str) -> Vec<(Vec<String>, u32)> {
        links.iter().filter(|l| (l.s, l.t) == (at(n, s), at(n, t))).map(|l| (cells(n, l.carrier), l.need)).collect()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn a_start_with_one_first_row_cell_links_to_far_cells_either_way() {
        // Red's left edge, Blue on a8: b8 keeps a9 alone.
        let m = Masks::<u128>::new(11);
        let blue = 1u128 << at(11, "a8");
        let links = ladder_links(11, Color::Red, 0, m.board & !blue);
        // Towards b10: a9, then the step b9 with a10, and b10's a11.
        assert_eq!(between(11, &links, "b8", "b10"), vec![(names(&["a9", "b9", "a10", "a11"]), 2)]);
        // Towards b5: a9 is behind; the steps b7, b6 with a7, a6, and b5's a5.
        assert_eq!(between(11, &links, "b8", "b5"), vec![(names(&["a5", "a6", "b6", "a7", "b7", "a9"]), 3)]);
        // Next to each other: no link; b11 has one first-row cell.
        assert!(between(11, &links, "b8", "b9").is_empty() && between(11, &links, "b8", "b11").is_empty());
        // A free start links through either of its first-row cells.
        let open = ladder_links(11, Color::Red, 0, m.board);
        assert_eq!(between(11, &open, "b2", "b6").len(), 2);
    }

    #[test]
    fn a_taken_cell_between_ends_the_ladder() {
        // Blue's bottom edge, Red on d11 (under d10 and e10) and g10.
        let m = Masks::<u128>::new(11);
        let red = 1u128 << at(11, "d11") | 1u128 << at(11, "g10");
        let links = ladder_links(11, Color::Blue, 0, m.board & !red);
        // d10 keeps c11: leftwards it steps on c10 over b11 to b10's a11,
        // rightwards (c11 behind it) on e10 over e11 to f10's f11.
        assert_eq!(between(11, &links, "d10", "b10"), vec![(names(&["c10", "a11", "b11", "c11"]), 2)]);
        assert_eq!(between(11, &links, "d10", "f10"), vec![(names(&["e10", "c11", "e11", "f11"]), 2)]);
        assert!(between(11, &links, "c10", "e10").is_empty(), "d10's step needs d11");
        assert!(between(11, &links, "e10", "h10").is_empty(), "g10 is Red's");
        assert!(between(11, &links, "e10", "g10").is_empty(), "g10 is no end");
        assert!(between(11, &links, "d10", "a10").is_empty(), "a10 has one first-row cell");
        assert_eq!(between(11, &links, "h10", "j10").len(), 2);
        // The side's stone as the start: the same links as an empty cell.
        let blue = 1u128 << at(11, "d10");
        let own = ladder_links(11, Color::Blue, blue, m.board & !red & !blue);
        assert_eq!(between(11, &own, "d10", "b10"), between(11, &links, "d10", "b10"));
    }

    #[test]
    fn a_third_row_cell_starts_a_ladder_through_either_cell_below() {
        // Red's left edge: c5 over b5 and b6, with a5, a6, a7 free; the
        // ladder from b6 runs on to b8, the one from b5 back to b3.
        let m = Masks::<u128>::new(11);
        let links = ladder_links(11, Color::Red, 0, m.board);
        let on = vec![(names(&["a5", "b5", "a6", "b6", "a7", "b7", "a8", "a9"]), 3)];
        assert_eq!(between(11, &links, "c5", "b8"), on);
        let back = vec![(names(&["a3", "a4", "b4", "a5", "b5", "a6", "b6", "a7"]), 3)];
        assert_eq!(between(11, &links, "c5", "b3"), back);
        assert!(between(11, &links, "c5", "b7").is_empty(), "b7 is next to b6");
        // Blue on a6, between b5's and b6's first-row cells: no start.
        let blue = 1u128 << at(11, "a6");
        let links = ladder_links(11, Color::Red, 0, m.board & !blue);
        assert!(!links.iter().any(|l| l.s == at(11, "c5")));
    }

    /// Every ladder link on 5×5, 7×7 and 11×11 whose carrier holds `cells`
    /// cells holds against every defence and needs every cell, from the
    /// second row and from the third.
    fn every_link_holds(cells_in: std::ops::RangeInclusive<u32>) {
        for n in [5u8, 7, 11] {
            let m = Masks::<u128>::new(n);
            for colour in [Color::Red, Color::Blue] {
                let first_rows = if colour == Color::Red { [m.left, m.right] } else { [m.top, m.bottom] };
                let links = ladder_links(n, colour, 0, m.board);
                let mut starts = [0, 0];
                for l in links.into_iter().filter(|l| cells_in.contains(&l.carrier.count_ones())) {
                    let edge = if l.carrier & first_rows[0] != 0 { 0 } else { 1 };
                    // From the second row: its first-row cell and two cells
                    // a step; from the third, the cell below and its pair too.
                    let second = m.grow(1 << l.s) & first_rows[edge] != 0;
                    starts[usize::from(!second)] += 1;
                    let extra = if second { 0 } else { 2 };
                    assert_eq!(2 * l.need + extra, l.carrier.count_ones(), "{n} {colour:?}");
                    let shown = cells(n, l.carrier);
                    assert!(holds(n, colour, (l.s, l.t), edge, l.carrier, 0, true), "{n} {colour:?} {shown:?}");
                    for c in (0..128).filter(|i| l.carrier >> i & 1 == 1) {
                        let without = l.carrier & !(1 << c);
                        assert!(
                            !holds(n, colour, (l.s, l.t), edge, without, 0, true),
                            "{n} {colour:?} {shown:?} holds without {c}"
                        );
                    }
                }
                assert!(n < 11 || (starts[0] > 0 && starts[1] > 0), "{n} {colour:?}: {starts:?}");
            }
        }
    }

    #[test]
    fn every_short_ladder_link_holds_against_every_defence_and_needs_every_cell() {
        every_link_holds(4..=8);
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "ten cells take minutes unoptimised: run by the suite's release step")]
    fn longer_ladder_links_hold_against_every_defence_and_need_every_cell() {
        every_link_holds(9..=10);
    }
}
