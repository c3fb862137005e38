//! Templates: positions the solver proved recently, kept to settle other
//! positions they cover without a search of their own.
//!
//! A proof set only ever admits more stones of the loser outside it, and
//! a stone or a move more never hurts in Hex. So a position that has every
//! winner's stone of a proved one, no loser's stone in its proof set that
//! the proved one lacks, and the same side to move (or the winner to move
//! where the loser was) is won by the same side, with the same proof set.
//! Cousins in the search tree that differ only outside a proof set are
//! thus settled at once (the template matching table of Rasmussen et al.,
//! kept small: the latest templates for each number of stones).

use super::bits::Bits;
use super::color::Color;
use super::stones::Stones;

/// A position proved by search, kept to settle others it covers.
#[derive(Clone, Copy)]
pub(super) struct Template<B: Bits> {
    pub stones: Stones<B>,
    pub winner: Color,
    /// Its proof set, as the position stands.
    pub proof: B,
    /// The most stones the winner needs (as in the table).
    pub need: u32,
}

/// The positions proved most recently, by their number of stones.
pub(super) struct Templates<B: Bits> {
    by_count: Vec<Vec<Template<B>>>,
    next: Vec<usize>,
}

/// Templates kept for each number of stones.
const TEMPLATES_PER_COUNT: usize = 128;

impl<B: Bits> Templates<B> {
    /// Room for positions of up to `cells` stones.
    pub fn new(cells: usize) -> Templates<B> {
        Templates { by_count: vec![Vec::new(); cells + 1], next: vec![0; cells + 1] }
    }

    fn count(s: &Stones<B>) -> usize {
        (s.red | s.blue).count() as usize
    }

    /// Keeps `s`, proved won by `winner` with `proof` within `need`
    /// stones, in place of the oldest of its number of stones.
    pub fn add(&mut self, s: &Stones<B>, winner: Color, proof: B, need: u32) {
        let c = Self::count(s);
        let t = Template { stones: *s, winner, proof, need };
        let list = &mut self.by_count[c];
        if list.len() < TEMPLATES_PER_COUNT {
            list.push(t);
        } else {
            list[self.next[c]] = t;
            self.next[c] = (self.next[c] + 1) % TEMPLATES_PER_COUNT;
        }
    }

    /// A template that covers `s`, among those of as many stones and of
    /// two fewer (one more move each is a common cousin).
    pub fn find(&self, s: &Stones<B>) -> Option<Template<B>> {
        let c = Self::count(s);
        let fewer = if c >= 2 { &self.by_count[c - 2][..] } else { &[] };
        self.by_count[c].iter().chain(fewer).find(|t| covers(t, s)).copied()
    }
}

/// Whether template `t` settles `s` (see the module's text).
pub(super) fn covers<B: Bits>(t: &Template<B>, s: &Stones<B>) -> bool {
    let (w, l) = (t.winner, t.winner.opponent());
    (s.to_move == t.stones.to_move || s.to_move == w)
        && (t.stones.of(w) & !s.of(w)).is_zero()
        && (s.of(l) & t.proof & !t.stones.of(l)).is_zero()
}
