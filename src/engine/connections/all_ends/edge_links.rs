//! Links between two second-row cells that hold "joined, or both joined
//! to the edge".
//!
//! Two cells `s` and `t` on the side's second row towards one edge, each
//! with its two first-row cells free, will both reach that edge whatever
//! the opponent does there (each pair answers an intrusion in place). So
//! they end up joined to each other or both joined to the edge: not a
//! connection between the two groups in H-search's sense, but one that
//! is as good as a connection for joining the side's edges, and it stays
//! so through AND. If `x` is joined to `z`, or both to edge `e`, and `z`
//! to `w`, or both to edge `f`, then `x` and `w` are joined, or both
//! joined to `e` or to `f`, or `z` reaches both edges and the side has
//! won; and between the two edges "joined, or both joined to one edge"
//! is a win. Only the verdict between the edges (and the opponent's
//! must-play cells read from it) rests on the lists being sound, so these
//! links may sit in them beside ordinary full connections; the answers to
//! moves into connections between groups are hints either way.
//!
//! Two cells two apart with the cell between them free are also joined
//! within smaller carriers: the middle cell, one cell's pair and one of
//! the other's two first-row cells (an intrusion on the middle is
//! answered on that one cell, one on the pairs by the middle). MoHex 2.0
//! builds the same links from its second-row ladder patterns
//! (docs/benchmarks.md, 2026-12-04).

use super::super::LinkReach;
use super::super::edge_frame::{EdgeFrame, RowCell};
use crate::engine::bits::{Bits, Masks};
use crate::engine::color::Color;

/// A link between the cells `s` and `t` (each an empty cell or the side's
/// stone) within `carrier`, needing at most `need` stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct EdgeLinkPair<B> {
    pub s: usize,
    pub t: usize,
    pub carrier: B,
    pub need: u32,
}

/// Most stones a link needs: an answer in each pair, or the middle cell
/// and one first-row cell.
const LINK_NEED: u32 = 2;

/// The second-row cell `along` the edge `edge` of `colour` on an `n`×`n`
/// board, if on the board.
pub(super) fn second_row_cell(n: i32, colour: Color, edge: usize, along: i32) -> Option<RowCell> {
    EdgeFrame { n, colour, edge }.cell(along, 1)
}

/// The links of `colour` along both its edges, for cells that are empty
/// or the side's (`own`), with their first-row cells empty, at most
/// `reach` apart.
pub(super) fn second_row_links<B: Bits>(
    m: &Masks<B>,
    colour: Color,
    own: B,
    empty: B,
    reach: LinkReach,
) -> Vec<EdgeLinkPair<B>> {
    let n = i32::from(m.size);
    let mut out = Vec::new();
    if n < 4 {
        return out;
    }
    for edge in 0..2 {
        // The cell `along` the edge on the second row, and its two
        // first-row cells, if all are on the board (towards the second
        // edge, `hi` first: the order the lists' tie-breaks were measured
        // with).
        let at = |along: i32| -> Option<(usize, [usize; 2])> {
            let c = second_row_cell(n, colour, edge, along)?;
            Some((c.cell, if edge == 0 { [c.lo?, c.hi?] } else { [c.hi?, c.lo?] }))
        };
        let free: Vec<(i32, usize, [usize; 2])> = (0..n)
            .filter_map(|along| at(along).map(|(cell, below)| (along, cell, below)))
            .filter(|&(_, cell, below)| (empty.has(cell) || own.has(cell)) && below.iter().all(|&b| empty.has(b)))
            .collect();
        for (i, &(a, s, ps)) in free.iter().enumerate() {
            for &(b, t, pt) in &free[i + 1..] {
                // `free` runs along the edge: the rest are farther still.
                if b - a > i32::from(reach.apart()) {
                    break;
                }
                if b - a < 2 {
                    continue;
                }
                let pairs = B::single(ps[0]) | B::single(ps[1]) | B::single(pt[0]) | B::single(pt[1]);
                out.push(EdgeLinkPair { s, t, carrier: pairs, need: LINK_NEED });
                let middle = at(a + 1).map(|(cell, _)| cell).filter(|&c| empty.has(c));
                if let (2, Some(mid)) = (b - a, middle) {
                    let m = B::single(mid);
                    let (whole_s, whole_t) = (B::single(ps[0]) | B::single(ps[1]), B::single(pt[0]) | B::single(pt[1]));
                    for one in pt {
                        out.push(EdgeLinkPair { s, t, carrier: m | whole_s | B::single(one), need: LINK_NEED });
                    }
                    for one in ps {
                        out.push(EdgeLinkPair { s, t, carrier: m | whole_t | B::single(one), need: LINK_NEED });
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::captured::tests::at;
    use super::*;
    use std::collections::HashMap;

    pub(in crate::engine::connections::all_ends) fn cells(n: u8, b: u128) -> Vec<String> {
        (0..n as usize * n as usize)
            .filter(|i| b >> i & 1 == 1)
            .map(|i| format!("{}{}", (b'a' + (i % n as usize) as u8) as char, i / n as usize + 1))
            .collect()
    }

    #[test]
    fn two_cells_two_apart_get_the_pairs_link_and_four_narrower_ones() {
        let m = Masks::<u128>::new(11);
        let links = second_row_links(&m, Color::Red, 0, m.board, LinkReach::ANY);
        let between: Vec<Vec<String>> = links
            .iter()
            .filter(|l| (l.s, l.t) == (at(11, "b8"), at(11, "b10")))
            .map(|l| cells(11, l.carrier))
            .collect();
        let expected: Vec<Vec<String>> = [
            ["a8", "a9", "a10", "a11"],
            ["a8", "a9", "b9", "a10"],
            ["a8", "a9", "b9", "a11"],
            ["a8", "b9", "a10", "a11"],
            ["a9", "b9", "a10", "a11"],
        ]
        .iter()
        .map(|v| v.iter().map(|c| c.to_string()).collect())
        .collect();
        assert_eq!(between, expected);
        // Farther apart, only the pairs; next to each other, nothing.
        let far: Vec<_> = links.iter().filter(|l| (l.s, l.t) == (at(11, "b2"), at(11, "b9"))).collect();
        assert_eq!(far.len(), 1);
        assert!(!links.iter().any(|l| (l.s, l.t) == (at(11, "b2"), at(11, "b3"))));
    }

    #[test]
    fn a_reach_keeps_only_the_links_of_cells_that_near() {
        let m = Masks::<u128>::new(11);
        let count = |reach: LinkReach, s: &str, t: &str| {
            let links = second_row_links(&m, Color::Red, 0, m.board, reach);
            links.iter().filter(|l| (l.s, l.t) == (at(11, s), at(11, t))).count()
        };
        let three = LinkReach::within(3).unwrap();
        assert_eq!((count(three, "b8", "b10"), count(three, "b2", "b5"), count(three, "b2", "b9")), (5, 1, 0));
        assert_eq!(count(LinkReach::within(2).unwrap(), "b2", "b5"), 0);
        assert_eq!(count(LinkReach::ANY, "b1", "b11"), 0, "b11's first-row pair is off the board");
        assert_eq!(count(LinkReach::ANY, "b1", "b10"), 1);
        assert!(LinkReach::within(1).is_none() && LinkReach::within(u8::MAX).is_none());
    }

    #[test]
    fn a_taken_first_row_cell_or_middle_removes_links() {
        let m = Masks::<u128>::new(11);
        // Blue's bottom edge: c10 over b11 and c11, e10 over d11 and e11.
        let (c10, e10) = (at(11, "c10"), at(11, "e10"));
        let all = second_row_links(&m, Color::Blue, 0, m.board, LinkReach::ANY);
        assert_eq!(all.iter().filter(|l| (l.s, l.t) == (c10, e10)).count(), 5);
        // The middle d10 taken: the pairs' link alone.
        let empty = m.board & !(1u128 << at(11, "d10"));
        let links = second_row_links(&m, Color::Blue, 0, empty, LinkReach::ANY);
        assert_eq!(links.iter().filter(|l| (l.s, l.t) == (c10, e10)).count(), 1);
        // A first-row cell of e10 taken: no link from e10.
        let empty = m.board & !(1u128 << at(11, "e11"));
        let links = second_row_links(&m, Color::Blue, 0, empty, LinkReach::ANY);
        assert!(!links.iter().any(|l| l.s == e10 || l.t == e10));
        // The side's own stone on the second row links like an empty cell.
        let own = 1u128 << e10;
        let links = second_row_links(&m, Color::Blue, own, m.board & !own, LinkReach::ANY);
        assert_eq!(links.iter().filter(|l| (l.s, l.t) == (c10, e10)).count(), 5);
    }

    /// Whether `colour`, holding `s` and `t` and whatever it wins of the
    /// cells `free` (the opponent moving first there and owning every
    /// other cell), ends with `s` and `t` joined or both on its edge
    /// `edge`.
    pub(in crate::engine::connections::all_ends) fn holds(
        n: u8,
        colour: Color,
        ends: (usize, usize),
        edge: usize,
        free: u128,
        mine: u128,
        theirs: bool,
    ) -> bool {
        let game = CarrierGame::new(n, colour, ends, edge);
        game.needed(free, mine, theirs, &mut HashMap::new()).is_some()
    }

    /// The fewest stones `colour` needs in `free` to hold as [`holds`]
    /// asks, against the defence that makes it play the most; None where
    /// it does not hold.
    pub(in crate::engine::connections::all_ends) fn stones_needed(
        n: u8,
        colour: Color,
        ends: (usize, usize),
        edge: usize,
        free: u128,
    ) -> Option<u32> {
        let game = CarrierGame::new(n, colour, ends, edge);
        game.needed(free, 0, true, &mut HashMap::new())
    }

    /// The game inside a carrier. Whether the side holds depends only on
    /// its own stones, and more of them never hurt: a position is settled
    /// as soon as its stones join the ends, or all the free cells together
    /// could not. Every line is still played out: a carrier of 14 cells
    /// takes about a second optimised, each two more cells ten times as
    /// long.
    struct CarrierGame {
        m: Masks<u128>,
        s: usize,
        t: usize,
        first_row: u128,
    }

    impl CarrierGame {
        fn new(n: u8, colour: Color, (s, t): (usize, usize), edge: usize) -> CarrierGame {
            let m = Masks::<u128>::new(n);
            let first_row = match (colour, edge) {
                (Color::Red, 0) => m.left,
                (Color::Red, _) => m.right,
                (Color::Blue, 0) => m.top,
                (Color::Blue, _) => m.bottom,
            };
            CarrierGame { m, s, t, first_row }
        }

        /// As [`stones_needed`], from a position inside the carrier.
        fn needed(
            &self,
            free: u128,
            mine: u128,
            theirs: bool,
            memo: &mut HashMap<(u128, u128, bool), Option<u32>>,
        ) -> Option<u32> {
            if self.settled(mine) {
                return Some(0);
            }
            if !self.settled(mine | free) {
                return None;
            }
            if let Some(&known) = memo.get(&(free, mine, theirs)) {
                return known;
            }
            let cells = (0..128).filter(|i| free >> i & 1 == 1);
            let result = if theirs {
                cells
                    .map(|c| self.needed(free & !(1 << c), mine, false, memo))
                    .try_fold(0, |most, n| Some(most.max(n?)))
            } else {
                cells.filter_map(|c| self.needed(free & !(1 << c), mine | 1 << c, true, memo)).min().map(|n| n + 1)
            };
            memo.insert((free, mine, theirs), result);
            result
        }

        fn settled(&self, mine: u128) -> bool {
            let stones = mine | 1 << self.s | 1 << self.t;
            let from_s = self.m.flood(1 << self.s, stones);
            if from_s >> self.t & 1 == 1 {
                return true;
            }
            let from_t = self.m.flood(1 << self.t, stones);
            from_s & self.first_row != 0 && from_t & self.first_row != 0
        }
    }

    #[test]
    fn every_link_holds_against_every_defence_and_needs_every_cell() {
        for n in [5u8, 7, 11] {
            let m = Masks::<u128>::new(n);
            for colour in [Color::Red, Color::Blue] {
                let links = second_row_links(&m, colour, 0, m.board, LinkReach::ANY);
                assert!(!links.is_empty());
                for l in links {
                    // The edge the two cells lie along: the one whose
                    // first row holds the carrier's first-row cells.
                    let edge = if (colour == Color::Red && l.s % n as usize == 1)
                        || (colour == Color::Blue && l.s / n as usize == 1)
                    {
                        0
                    } else {
                        1
                    };
                    assert!(
                        holds(n, colour, (l.s, l.t), edge, l.carrier, 0, true),
                        "{n} {colour:?} {:?}",
                        cells(n, l.carrier)
                    );
                    for c in (0..128).filter(|i| l.carrier >> i & 1 == 1) {
                        assert!(
                            !holds(n, colour, (l.s, l.t), edge, l.carrier & !(1 << c), 0, true),
                            "{n} {colour:?} {:?} holds without {c}",
                            cells(n, l.carrier)
                        );
                    }
                }
            }
        }
    }
}
