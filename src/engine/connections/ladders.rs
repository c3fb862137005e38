//! Ladders along the second row that run into an escape.
//!
//! A stone on the second row whose one free link to the edge is the cell
//! ahead of it can be pushed along the row: the opponent takes that cell,
//! the side steps forward, and so on. When the row ahead holds one of the
//! side's stones (on the second row, with its own free cell below, or on
//! the first row), the ladder ends joined. H-search can derive a ladder
//! step by step through its empty-cell ends, but only while its lists
//! keep every step's connections, which in crowded positions they do not
//! (docs/benchmarks.md). So each such ladder is also given to it as a full
//! connection between the ladder's start (a group or an empty cell) and
//! the edge, within the cells the ladder crosses. Whatever the opponent
//! plays there, the side has an answer: a move on the ladder's own
//! first-row cell is answered by the next step, any other by taking that
//! cell.

use super::edge_frame::EdgeFrame;
use super::escapes::{Offset, escapes};
use crate::engine::bits::Bits;
use crate::engine::color::Color;

/// A full connection between `start` (a cell on the second row: a stone
/// of the side or empty) and the side's edge `edge` (0 or 1, as the
/// searches number them), needing the empty cells of `carrier` and at
/// most `need` more stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ladder<B> {
    pub start: usize,
    pub edge: u16,
    pub carrier: B,
    pub need: u32,
}

/// Every second-row ladder of `colour` on an `n`×`n` board that ends in an
/// escape and takes at least one step (a shorter one is a bridge to the
/// edge, which the rules find). `joined` holds the side's stones already
/// joined to each edge.
pub(super) fn second_row<B: Bits>(n: u8, colour: Color, own: B, empty: B, joined: [B; 2]) -> Vec<Ladder<B>> {
    let mut out = Vec::new();
    if n < 3 {
        return out;
    }
    for edge in 0..2u16 {
        let frame = EdgeFrame { n: i32::from(n), colour, edge: usize::from(edge) };
        for along in 0..frame.n {
            let Some(start) = frame.turned(along, 1) else { continue };
            let open = empty.has(start) || (own.has(start) && !joined[edge as usize].has(start));
            if !open {
                continue;
            }
            for step in [1, -1] {
                if let Some((carrier, need)) = walk(frame, along, step, own, empty, joined[edge as usize]) {
                    out.push(Ladder { start, edge, carrier, need });
                }
            }
        }
    }
    out
}

/// Follows the ladder from the second-row cell at `along` in direction
/// `step`: the empty cells it crosses and the stones it takes, if it ends
/// in an escape after at least one step.
fn walk<B: Bits>(frame: EdgeFrame, along: i32, step: i32, own: B, empty: B, joined: B) -> Option<(B, u32)> {
    // The first-row cell ahead of the second-row cell at `a`: beside it
    // and beside the next second-row cell in the ladder's direction.
    let ahead = |a: i32| frame.turned(if step > 0 { a } else { a - 1 }, 0);
    let (mut carrier, mut steps, mut a) = (B::zero(), 0u32, along);
    loop {
        let below = ahead(a)?;
        if own.has(below) {
            return (steps > 0).then_some((carrier, steps));
        }
        if !empty.has(below) {
            return None;
        }
        if let Some((window, need)) = escape_at(frame, a, step, own, empty) {
            return Some((carrier | window, steps + need));
        }
        carrier = carrier | B::single(below);
        let next = frame.turned(a + step, 1)?;
        if own.has(next) {
            if steps == 0 {
                return None;
            }
            if joined.has(next) {
                return Some((carrier, steps));
            }
            // A stone ahead: with it the ladder holds two first-row cells.
            let beyond = ahead(a + step)?;
            return empty.has(beyond).then(|| (carrier | B::single(beyond), steps + 1));
        }
        if !empty.has(next) {
            return None;
        }
        carrier = carrier | B::single(next);
        steps += 1;
        a += step;
    }
}

/// The cells of the first escape (`escapes`) open to a ladder whose head
/// stands at `along` on the second row, and the stones it needs.
fn escape_at<B: Bits>(frame: EdgeFrame, along: i32, step: i32, own: B, empty: B) -> Option<(B, u32)> {
    let at = |o: Offset| frame.turned(along + step * i32::from(o.ahead), i32::from(o.row));
    escapes(step > 0).iter().find_map(|e| {
        own.has(at(e.stone)?).then_some(())?;
        let window =
            e.carrier.iter().try_fold(B::zero(), |w, &o| at(o).filter(|&i| empty.has(i)).map(|i| w | B::single(i)))?;
        Some((window, e.need))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Masks;
    use crate::engine::connections::ListLimits;
    use crate::engine::connections::playout::{Playout, Replies};
    use crate::engine::small_boards::random_stones;
    use crate::engine::solver::{Knowledge, Known};

    /// Blue's column b1 … b6 and f6 on 7×7 against Red's a6, a7 and
    /// c5 … g5: the column's last stone has one link to the bottom, b7,
    /// and a ladder along the sixth row into f6.
    fn column() -> (u128, u128, Masks<u128>) {
        let m = Masks::<u128>::new(7);
        let at = |q: usize, r: usize| 1u128 << (r * 7 + q);
        let blue = (0..6).fold(at(5, 5), |b, r| b | at(1, r));
        let red = at(0, 5) | at(0, 6) | (2..7).fold(0, |b, q| b | at(q, 4));
        (blue, m.board & !blue & !red, m)
    }

    #[test]
    fn ladders_decide_a_position_the_rules_leave_open() {
        // From a self-play game on 11×11, Red to move: after the fill-in,
        // without ladders, the tree's checks keep two moves open.
        let text = "11x11 f5 g7 h4 g5 g4 i4 i3 k2 j3 k3 j4 k4 k1 j2 j1 i2 i1 h2 h1 f2 g2 f3 g3 e5 e6 c7 d6 c6 \
                    c8 d7 d8 e7 e8 f7 g8 f8 d5 c5 d4 c4 e10 d3 i7 f9 f10 g9 g10 h9 h10 i9 i11 e9";
        let known = Knowledge::<u128>::of_record(text, ListLimits::default());
        assert!(matches!(known, Known::Lost { .. }));
    }

    #[test]
    fn a_ladder_escapes_through_a_fourth_row_stone() {
        // Blue's chain ends at c9; pushed along the tenth row towards h8, a
        // fourth-row stone whose way to the edge the ladder crosses, it
        // escapes: MoHex 2.0's connections call this position lost for
        // Red, and so do ours now.
        let text = "11x11 i8 h8 i4 f4 d7 e7 e6 g5 g6 f6 e8 d8 d9 c9";
        let known = Knowledge::<u128>::of_record(text, ListLimits::default());
        assert!(matches!(known, Known::Lost { .. }));
    }

    #[test]
    fn a_ladder_needs_every_cell_up_to_the_escape() {
        let (blue, empty, m) = column();
        let joined = [m.flood(m.top, blue), m.flood(m.bottom, blue)];
        let ladders = second_row(7, Color::Blue, blue, empty, joined);
        let from_b6 = ladders.iter().find(|l| l.start == 5 * 7 + 1 && l.edge == 1).expect("b6's ladder");
        let cells = |list: &[(usize, usize)]| list.iter().fold(0u128, |b, &(q, r)| b | 1 << (r * 7 + q));
        assert_eq!(from_b6.carrier, cells(&[(1, 6), (2, 5), (2, 6), (3, 5), (3, 6), (4, 5), (4, 6), (5, 6)]));
        assert_eq!(from_b6.need, 4);
        // Without room on the first row under the escape, no ladder.
        let ladders = second_row(7, Color::Blue, blue, empty & !(1 << (6 * 7 + 5)), joined);
        assert!(!ladders.iter().any(|l| l.start == 5 * 7 + 1 && l.edge == 1));
    }

    /// Whether the side's `start` group still reaches `edge_row` through
    /// its stones `own`, whatever the opponent (to move) plays in `carrier`.
    fn holds(m: Masks<u128>, own: u128, start: u128, carrier: u128, edge_row: u128) -> bool {
        let joined = |stones: u128| m.flood(start, stones | start) & edge_row != 0;
        Playout::new(joined, own, carrier, Replies::Every, u32::MAX).holds()
    }

    #[test]
    fn a_ladder_into_a_fourth_row_stone_holds_against_every_defence() {
        // 8×8, Blue's second-row stone with its first-row cell behind taken
        // by Red and a fourth-row stone ahead: b7, a8, e5 for a ladder
        // running right, and the board's mirror along the bottom row, g7,
        // g8, f5, for one running left.
        let m = Masks::<u128>::new(8);
        let at = |q: usize, r: usize| 1u128 << (r * 8 + q);
        for (head, behind, escape) in [((1, 6), (0, 7), (4, 4)), ((6, 6), (6, 7), (5, 4))] {
            let (blue, red) = (at(head.0, head.1) | at(escape.0, escape.1), at(behind.0, behind.1));
            let empty = m.board & !blue & !red;
            let joined = [m.flood(m.top, blue), m.flood(m.bottom, blue)];
            let start = head.1 * 8 + head.0;
            let ladders = second_row(8, Color::Blue, blue, empty, joined);
            let l = ladders.iter().find(|l| l.start == start && l.edge == 1).expect("the ladder");
            assert_eq!(l.carrier.count_ones(), 17);
            let group = m.flood(1 << l.start, blue);
            assert!(holds(m, blue, group, l.carrier, m.bottom));
            // Without the fourth-row stone the ladder runs out.
            let alone = second_row(8, Color::Blue, at(head.0, head.1), empty | at(escape.0, escape.1), [0, 0]);
            assert!(!alone.iter().any(|l| l.start == start && l.edge == 1));
        }
    }

    /// The largest carrier the property test plays out in full.
    const MOST_CELLS_PLAYED_OUT: u32 = 16;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// Every ladder found holds against every defence within its
        /// cells, on 4×4 to 8×8.
        #[test]
        #[cfg_attr(debug_assertions, ignore = "an escape's carrier takes seconds optimised: run by the suite's release step")]
        fn every_ladder_holds(
            n in 4u8..=8,
            cells in proptest::collection::vec(0usize..64, 0..40),
            colour_red: bool,
        ) {
            let m = Masks::<u128>::new(n);
            let s = random_stones(n, &cells, true);
            let colour = if colour_red { Color::Red } else { Color::Blue };
            let (own, empty) = (s.of(colour), s.empty_cells(&m));
            let (first, second) = if colour_red { (m.left, m.right) } else { (m.top, m.bottom) };
            let joined = [m.flood(first, own), m.flood(second, own)];
            for l in second_row(n, colour, own, empty, joined) {
                proptest::prop_assert!(l.carrier & !empty == 0, "{:?} claims a taken cell", l);
                proptest::prop_assert!(l.carrier & (1 << l.start) == 0);
                // A ladder into a fourth-row escape (17 cells and more) can
                // take minutes to play out in full: the escapes are proved
                // in `escapes`, and on an open board above.
                if l.carrier.count_ones() > MOST_CELLS_PLAYED_OUT {
                    continue;
                }
                let edge_row = if l.edge == 0 { first } else { second };
                let start = m.flood(1 << l.start, own | 1 << l.start);
                proptest::prop_assert!(holds(m, own, start, l.carrier, edge_row), "{:?} for {:?} does not hold", l, colour);
            }
        }
    }
}
