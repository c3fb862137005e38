//! The tests' brute-force proof of a connection: every line the opponent
//! and the side can play within a carrier, played out with a memo. Both
//! the escape generator and the ladder tests prove their connections with
//! it; only their boards (what "joined" means) differ.

use std::collections::HashMap;
use std::hash::Hash;

use crate::engine::bits::Bits;

/// Which of the opponent's moves a play-out tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Replies {
    /// Every open cell: plain minimax, cheapest on small carriers.
    Every,
    /// Only the cells that meet every threat of the side (see
    /// `must_play`); exact, and what makes the escape windows affordable.
    Forced,
}

/// Whether the side, holding `own`, stays joined whatever the opponent
/// (to move first) plays within `carrier`. `joined(stones)` says whether
/// the side's `stones` make the connection. `most_stones` bounds the
/// search: the side adds at most that many stones before the threats
/// that win at once (which `Forced` counts as won without playing them).
pub(super) struct Playout<B, J> {
    joined: J,
    own: B,
    carrier: B,
    replies: Replies,
    most_stones: u32,
    memo: HashMap<(B, B, bool), bool>,
}

impl<B: Bits + Hash, J: Fn(B) -> bool> Playout<B, J> {
    pub(super) fn new(joined: J, own: B, carrier: B, replies: Replies, most_stones: u32) -> Self {
        Playout { joined, own, carrier, replies, most_stones, memo: HashMap::new() }
    }

    pub(super) fn holds(&mut self) -> bool {
        self.line(B::zero(), B::zero(), true)
    }

    fn line(&mut self, side: B, theirs: B, opponent_moves: bool) -> bool {
        let stones = self.own | side;
        if (self.joined)(stones) {
            return true;
        }
        let open = self.carrier & !side & !theirs;
        if !(self.joined)(stones | open) {
            return false;
        }
        if let Some(&v) = self.memo.get(&(side, theirs, opponent_moves)) {
            return v;
        }
        let v = if opponent_moves {
            let replies = match self.replies {
                Replies::Every => Some(open),
                Replies::Forced => must_play(open, |extra| (self.joined)(stones | extra)),
            };
            match replies {
                None => true,
                Some(replies) => replies.ones().all(|c| self.line(side, theirs | B::single(c), false)),
            }
        } else {
            let threat = self.replies == Replies::Forced && open.ones().any(|c| (self.joined)(stones | B::single(c)));
            threat
                || (side.count() < self.most_stones
                    && open.ones().any(|c| self.line(side | B::single(c), theirs, true)))
        };
        self.memo.insert((side, theirs, opponent_moves), v);
        v
    }
}

/// Where the opponent, to move, must play not to lose at once: a cell of
/// `open` that joins the side by itself must be taken, and a cell after
/// which two cells would join it must be met within those three.
/// `joins(cells)` says whether the side's stones with `cells` added are
/// joined. `None` when no cell meets them all: the side wins.
fn must_play<B: Bits>(open: B, joins: impl Fn(B) -> bool) -> Option<B> {
    let mut must = open;
    for c in open.ones() {
        let cell = B::single(c);
        if joins(cell) {
            must = must & cell;
        } else {
            let threats = (open & !cell).ones().filter(|&t| joins(cell | B::single(t)));
            let threats = threats.fold(B::zero(), |m, t| m | B::single(t));
            if threats.count() >= 2 {
                must = must & (threats | cell);
            }
        }
        if must.is_zero() {
            return None;
        }
    }
    Some(must)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_way_choice_holds_and_a_single_way_does_not() {
        // Joined when the side holds cell 0 or both of cells 1 and 2.
        let joined = |s: u64| s & 1 != 0 || s & 0b110 == 0b110;
        for replies in [Replies::Every, Replies::Forced] {
            // Two cells, either joins: the opponent cannot take both.
            let either = |s: u64| s & 0b11 != 0;
            assert!(Playout::new(either, 0, 0b11, replies, 4).holds(), "{replies:?}");
            // Cell 0 alone, or 1 and 2 both: the opponent takes 0, then
            // one of 1 and 2.
            assert!(!Playout::new(joined, 0, 0b111, replies, 4).holds(), "{replies:?}");
            // With 1 already the side's, 0 and 2 are two ways.
            assert!(Playout::new(joined, 0b010, 0b101, replies, 4).holds(), "{replies:?}");
        }
    }
}
