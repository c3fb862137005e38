//! A position as search code holds it: each side's stones as a cell set of
//! the width the board needs (see [`super::bits`]), and the side to move.
//! The rules' [`super::Position`] is the checked, any-size form people's
//! games use; this is the copyable form the playouts, the tree search and
//! the solver work on.

use super::bits::{Bits, Masks};
use super::color::Color;

/// A position as search code holds it: both sides' stones as bit sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stones<B: Bits> {
    pub red: B,
    pub blue: B,
    pub to_move: Color,
}

impl<B: Bits> Stones<B> {
    /// The empty board, Red to move.
    pub fn empty() -> Stones<B> {
        Stones { red: B::zero(), blue: B::zero(), to_move: Color::Red }
    }

    /// The stones and side to move of `position` (whose board must fit `B`).
    pub fn from_position(position: &super::position::Position) -> Stones<B> {
        let mut s = Stones::empty();
        for i in position.stones(Color::Red).iter() {
            s.red = s.red | B::single(i);
        }
        for i in position.stones(Color::Blue).iter() {
            s.blue = s.blue | B::single(i);
        }
        s.to_move = position.to_move();
        s
    }

    /// The stones of `colour`.
    #[inline]
    pub fn of(&self, colour: Color) -> B {
        match colour {
            Color::Red => self.red,
            Color::Blue => self.blue,
        }
    }

    /// Empty cells of the board.
    #[inline]
    pub fn empty_cells(&self, masks: &Masks<B>) -> B {
        masks.board & !(self.red | self.blue)
    }

    /// Puts the side to move's stone on `index` and passes the turn.
    #[inline]
    pub fn play(&mut self, index: usize) {
        let bit = B::single(index);
        match self.to_move {
            Color::Red => self.red = self.red | bit,
            Color::Blue => self.blue = self.blue | bit,
        }
        self.to_move = self.to_move.opponent();
    }

    /// Whether `colour` has joined its edges.
    #[inline]
    pub fn has_won(&self, masks: &Masks<B>, colour: Color) -> bool {
        match colour {
            Color::Red => masks.red_connects(self.red),
            Color::Blue => masks.blue_connects(self.blue),
        }
    }

    /// Empty cells where `colour` would win at once.
    pub fn winning_cells(&self, masks: &Masks<B>, colour: Color) -> B {
        let (own, first, second) = match colour {
            Color::Red => (self.red, masks.left, masks.right),
            Color::Blue => (self.blue, masks.top, masks.bottom),
        };
        let empty = self.empty_cells(masks);
        let near_first = masks.grow(masks.flood(first, own)) | first;
        let near_second = masks.grow(masks.flood(second, own)) | second;
        empty & near_first & near_second
    }
}
