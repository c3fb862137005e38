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
//!
//! A ladder may also start higher up: a cell on the third or fourth row
//! over a shape of free cells ([`STARTS`]) from which, whatever the
//! opponent plays there, it reaches the edge or a ladder leaves the
//! shape's last second-row cell (its head) along the row. Such a start
//! links to the cells the ladder from the head reaches, and to the one
//! right after the head, which touches the shape but not the start.

use super::super::edge_frame::{EdgeFrame, RowCell};
use super::edge_links::EdgeLinkPair;
use crate::engine::bits::Bits;
use crate::engine::color::Color;

/// Every ladder link of `colour` along both its edges on an `n`×`n`
/// board, with the side's stones `own` and the empty cells `empty`. From
/// the second row each needs as many stones as its ends lie apart along
/// the edge; from further up, what its start's shape needs on top.
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
                        out.push(EdgeLinkPair { s: s.cell, t: far.t, carrier, need: far.need });
                    }
                }
            }
        }
        for shape in &STARTS {
            for (place, forward) in [((|p| p) as fn(Place) -> Place, true), (reversed, false)] {
                // The ladder leaves the shape at the head and runs on along
                // the second row: towards growing places in the turned
                // frame, which are shrinking ones on edge 0.
                let step = if forward == (edge == 1) { 1 } else { -1 };
                for head in 0..n {
                    let at = |p: Place| {
                        let p = place(p);
                        frame.turned(head + p.along, p.depth)
                    };
                    let Some(x) = at(shape.cell).filter(|&x| open(x)) else { continue };
                    let Some(base) = shape
                        .empty
                        .iter()
                        .try_fold(B::zero(), |b, &p| at(p).filter(|&c| empty.has(c)).map(|c| b | B::single(c)))
                    else {
                        continue;
                    };
                    let plain = if edge == 0 { n - 1 - head } else { head };
                    let near = ends.next(plain, step, shape.next);
                    let farther =
                        walks[plain as usize][way(step)].iter().map(|far| Far { need: far.need + shape.need, ..*far });
                    for far in near.into_iter().chain(farther) {
                        out.push(EdgeLinkPair { s: x, t: far.t, carrier: base | far.cells, need: far.need });
                    }
                }
            }
        }
    }
    out
}

/// A place in the turned frame ([`EdgeFrame::turned`]: a cell's
/// neighbours a row nearer at its own place and the one before), counted
/// from a ladder's head.
#[derive(Clone, Copy)]
struct Place {
    along: i32,
    depth: i32,
}

const fn p(along: i32, depth: i32) -> Place {
    Place { along, depth }
}

/// Where a ladder starts off the second row: the start cell and the empty
/// cells its shape needs, placed from the head (the
/// second-row cell at place 0 from which the ladder runs on towards
/// growing places); the stones the side needs to join the head's
/// neighbour along the row (`next`), and on top of the ladder's own to
/// join a cell farther on (`need`). Whatever the opponent plays in the
/// shape, the start reaches the edge or a ladder along the second row
/// leaves the head. MoHex 2.0's ladder patterns hold these shapes
/// (`row2start3`, `row2start4`); its starts on the fourth and fifth rows
/// with wider shapes or a stone of the side's (`row2start5`, `row2start6`)
/// wait for a proof that can check carriers of 17 cells and more
/// (docs/engine-strength.md).
struct Start {
    cell: Place,
    empty: &'static [Place],
    next: u32,
    need: u32,
}

/// Below and behind each start, the first rows widen by a cell a row: the
/// room the opponent's intrusions are answered in.
const STARTS: [Start; 2] = [
    // On the third row over the head and the cell behind it.
    Start { cell: p(0, 2), empty: &[p(-1, 1), p(0, 1), p(-2, 0), p(-1, 0), p(0, 0)], next: 3, need: 1 },
    // On the fourth row, behind the head's column, with the cell ahead.
    Start {
        cell: p(-1, 3),
        empty: &[
            p(0, 3),
            p(-2, 2),
            p(-1, 2),
            p(0, 2),
            p(-3, 1),
            p(-2, 1),
            p(-1, 1),
            p(0, 1),
            p(-4, 0),
            p(-3, 0),
            p(-2, 0),
            p(-1, 0),
            p(0, 0),
        ],
        next: 5,
        need: 4,
    },
];

/// The mirror image along the edge that keeps the head in place: the
/// ladder then runs towards shrinking places.
fn reversed(p: Place) -> Place {
    Place { along: p.depth - 1 - p.along, depth: p.depth }
}

/// The second row along one edge, for the ladders along it.
struct Ends<'a, B> {
    row: &'a [Option<RowCell>],
    own: B,
    empty: B,
}

/// A far end of a ladder: the cell `t`, the stones the side needs to join
/// it (from a second-row start, as many as they lie apart), and the cells
/// it needs besides the start's own.
#[derive(Clone, Copy)]
struct Far<B> {
    t: usize,
    need: u32,
    cells: B,
}

impl<B: Bits> Ends<'_, B> {
    /// The second-row cell next to `a` in direction `step` as an end, if
    /// open with its first-row cell ahead free: where a ladder from a start
    /// off the second row first touches the row beyond its head, joined
    /// with the `need` stones its start says.
    fn next(&self, a: i32, step: i32, need: u32) -> Option<Far<B>> {
        let t = usize::try_from(a + step).ok().and_then(|b| self.row.get(b).copied().flatten())?;
        let ahead = if step > 0 { t.hi } else { t.lo };
        let far = ahead.filter(|&c| self.empty.has(c))?;
        (self.empty.has(t.cell) || self.own.has(t.cell)).then(|| Far { t: t.cell, need, cells: B::single(far) })
    }

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
                out.push(Far { t: t.cell, need: (b - a).unsigned_abs(), cells: strip | B::single(far) });
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
    use super::super::edge_links::tests::{cells, holds, stones_needed};
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
        // The cells just past the head, b7 and b4, touch the start's shape
        // but not c5: the head and the end each take a first-row cell.
        let next = vec![(names(&["a5", "b5", "a6", "b6", "a7", "a8"]), 3)];
        assert_eq!(between(11, &links, "c5", "b7"), next);
        assert_eq!(between(11, &links, "c5", "b4").len(), 1);
        assert!(between(11, &links, "c5", "b6").is_empty(), "b6 is the head");
        // Blue on a6, between b5's and b6's first-row cells: no start.
        let blue = 1u128 << at(11, "a6");
        let links = ladder_links(11, Color::Red, 0, m.board & !blue);
        assert!(!links.iter().any(|l| l.s == at(11, "c5")));
    }

    #[test]
    fn a_fourth_row_cell_starts_a_ladder_in_a_game_against_mohex() {
        // Game 76 of a series against MoHex 2.0 (docs/benchmarks.md,
        // 2026-12-06, second) after ten stones: Red's h4-g5 touches h5, on
        // the fourth row from Red's right edge. Below it the shape down to
        // j6 is free, and the ladder runs on down the j column; MoHex 2.0
        // joins the chain to that edge with these (its `row2start4`).
        let (red, blue) = (["c2", "c8", "g5", "g3", "h4"], ["b10", "d8", "f5", "j2", "d5"]);
        let stones = |names: [&str; 5]| names.iter().fold(0u128, |b, c| b | 1 << at(11, c));
        let m = Masks::<u128>::new(11);
        let own = stones(red);
        let links = ladder_links(11, Color::Red, own, m.board & !own & !stones(blue));
        let shape = ["k2", "j3", "k3", "i4", "j4", "k4", "i5", "j5", "k5", "h6", "i6", "j6", "k6"];
        let next = [&shape[..], &["k7"]].concat();
        assert_eq!(between(11, &links, "h5", "j7"), vec![(names(&next), 5)]);
        let on = [&shape[..], &["j7", "k7", "k8"]].concat();
        assert_eq!(between(11, &links, "h5", "j8"), vec![(names(&on), 6)]);
        // Towards Red's first rows above, Blue's j2 is in the way.
        let h5 = at(11, "h5");
        assert!(links.iter().filter(|l| l.s == h5).all(|l| l.t / 11 >= 6), "every end lies below h5's shape");
        assert_eq!(links.iter().filter(|l| l.s == h5).count(), 5);
    }

    /// How far `cell` lies from the first row `first_row` (0: on it).
    fn depth(m: &Masks<u128>, first_row: u128, cell: usize) -> usize {
        let (mut near, mut depth) = (first_row, 0);
        while near >> cell & 1 == 0 {
            near = m.grow(near);
            depth += 1;
        }
        depth
    }

    /// Whether `l` holds against every defence with the stones it says,
    /// and (if `every` is set) needs every cell of its carrier.
    fn check(n: u8, colour: Color, l: &EdgeLinkPair<u128>, edge: usize, every: bool) {
        let shown = cells(n, l.carrier);
        assert_eq!(stones_needed(n, colour, (l.s, l.t), edge, l.carrier), Some(l.need), "{n} {colour:?} {shown:?}");
        for c in (0..128).filter(|i| every && l.carrier >> i & 1 == 1) {
            let without = l.carrier & !(1 << c);
            assert!(
                !holds(n, colour, (l.s, l.t), edge, without, 0, true),
                "{n} {colour:?} {shown:?} holds without {c}"
            );
        }
    }

    /// Every ladder link from the second and third rows on 5×5, 7×7 and
    /// 11×11 whose carrier holds `cells` cells holds against every
    /// defence, with as many stones as it says, and needs every cell.
    fn every_link_holds(cells_in: std::ops::RangeInclusive<u32>) {
        for n in [5u8, 7, 11] {
            let m = Masks::<u128>::new(n);
            for colour in [Color::Red, Color::Blue] {
                let first_rows = if colour == Color::Red { [m.left, m.right] } else { [m.top, m.bottom] };
                let mut starts = [0; 3];
                for l in ladder_links(n, colour, 0, m.board) {
                    let edge = if l.carrier & first_rows[0] != 0 { 0 } else { 1 };
                    let depth = depth(&m, first_rows[edge], l.s);
                    if depth < 3 && cells_in.contains(&l.carrier.count_ones()) {
                        starts[depth] += 1;
                        check(n, colour, &l, edge, true);
                    }
                }
                assert!(n < 11 || (starts[1] > 0 && starts[2] > 0), "{n} {colour:?}: {starts:?}");
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

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "14 cells and more take minutes unoptimised: run by the suite's release step"
    )]
    fn fourth_row_starts_hold_against_every_defence() {
        // The shapes are the same wherever they lie: on 11×11, Red's links
        // from the fourth row to the cell next to the head (14 cells) along
        // both edges and both ways, and to the one after (16 cells) along
        // one edge both ways, proven every line of play through (the
        // larger ones take some seconds each).
        let (n, colour) = (11, Color::Red);
        let m = Masks::<u128>::new(n);
        let mut seen = std::collections::HashSet::new();
        for l in ladder_links(n, colour, 0, m.board) {
            let edge = if l.carrier & m.left != 0 { 0 } else { 1 };
            let size = l.carrier.count_ones();
            let first_row = if edge == 0 { m.left } else { m.right };
            if depth(&m, first_row, l.s) == 3
                && (size == 14 || (size == 16 && edge == 0))
                && seen.insert((edge, size, l.t > l.s))
            {
                check(n, colour, &l, edge, size == 14);
            }
        }
        assert_eq!(seen.len(), 6);
    }
}
