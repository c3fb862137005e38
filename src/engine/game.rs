//! A game: its options, the moves played so far, and the current position.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::cell::Cell;
use super::color::Color;
use super::error::{MoveError, NotationError, SizeError};
use super::position::Position;

/// One move: a stone on a cell, or Blue taking over Red's first stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    Place(Cell),
    /// The pie rule: Red's first stone becomes Blue's, mirrored to Blue's
    /// side (`(q, r)` → `(r, q)`), as HexGui and Little Golem do.
    Swap,
}

impl Move {
    /// Reads `c3` or `swap` (also `swap-pieces`) for a board of side `size`.
    pub fn parse(text: &str, size: u8) -> Result<Move, NotationError> {
        let t = text.trim();
        if t.eq_ignore_ascii_case("swap") || t.eq_ignore_ascii_case("swap-pieces") {
            Ok(Move::Swap)
        } else {
            Cell::parse(t, size).map(Move::Place)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => cell.fmt(f),
            Move::Swap => f.write_str("swap"),
        }
    }
}

impl Default for Game {
    /// An empty 11×11 board with the swap rule.
    fn default() -> Self {
        Game { swap_allowed: true, first: Color::Red, moves: Vec::new(), position: Position::default() }
    }
}

/// A game of Hex with its history, so it can be undone, recorded and
/// replayed.
///
/// ```
/// use hexarena::engine::{Cell, Color, Game, Move};
/// let mut game = Game::new(9, true).unwrap();
/// game.play(Move::Place(Cell::new(2, 6))).unwrap(); // Red c7
/// game.play(Move::Swap).unwrap(); // Blue takes it, now on g3
/// assert_eq!(game.position().stone(Cell::new(6, 2)), Some(Color::Blue));
/// assert_eq!(game.to_move(), Color::Red);
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    swap_allowed: bool,
    /// Who moves first: Red, except in the even games of an online series,
    /// where the first move alternates while each seat keeps its colour.
    first: Color,
    moves: Vec<Move>,
    position: Position,
}

impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        self.size() == other.size()
            && self.swap_allowed == other.swap_allowed
            && self.first == other.first
            && self.moves == other.moves
    }
}

impl Eq for Game {}

impl Game {
    /// A new game on a `size`×`size` board, with or without the swap rule.
    pub fn new(size: u8, swap_allowed: bool) -> Result<Game, SizeError> {
        Game::starting_with(size, swap_allowed, Color::Red)
    }

    /// A new game in which `first` makes the first move. Each colour still
    /// connects its own edges; with swap, the second player may take over
    /// the first stone (mirrored, as in [`Move::Swap`]).
    pub fn starting_with(size: u8, swap_allowed: bool, first: Color) -> Result<Game, SizeError> {
        let mut position = Position::new(size)?;
        position.set_to_move(first);
        Ok(Game { swap_allowed, first, moves: Vec::new(), position })
    }

    /// The game that plays `moves` in order on a new board, stopping at the
    /// first move that is not legal (callers that need to know use
    /// [`super::Record::to_game`]).
    pub fn with_moves(size: u8, swap_allowed: bool, moves: &[Move]) -> Result<Game, SizeError> {
        Game::starting_with_moves(size, swap_allowed, Color::Red, moves)
    }

    /// Like [`Game::with_moves`] for a game that `first` starts.
    pub fn starting_with_moves(size: u8, swap_allowed: bool, first: Color, moves: &[Move]) -> Result<Game, SizeError> {
        let mut game = Game::starting_with(size, swap_allowed, first)?;
        for &m in moves {
            if game.play(m).is_err() {
                break;
            }
        }
        Ok(game)
    }

    /// The same game after only its first `count` moves.
    pub fn prefix(&self, count: usize) -> Game {
        let mut position = Position::empty_like(&self.position);
        position.set_to_move(self.first);
        let mut game = Game { swap_allowed: self.swap_allowed, first: self.first, moves: Vec::new(), position };
        for &m in self.moves.iter().take(count) {
            // These moves were legal in this order when first played.
            let _ = game.play(m);
        }
        game
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.position.size()
    }

    /// The colour that made (or makes) the first move.
    pub fn first(&self) -> Color {
        self.first
    }

    /// Whether the second player may swap as the second move.
    pub fn swap_allowed(&self) -> bool {
        self.swap_allowed
    }

    /// Moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Color {
        self.position.to_move()
    }

    /// The winner, once someone has connected their edges.
    pub fn winner(&self) -> Option<Color> {
        self.position.winner()
    }

    /// The winner's shortest connecting chain, once the game is won.
    pub fn winning_chain(&self) -> Option<Vec<Cell>> {
        self.position.winning_chain()
    }

    /// Whether the next move may be a swap.
    pub fn can_swap(&self) -> bool {
        self.check_swap().is_ok()
    }

    fn check_swap(&self) -> Result<Cell, MoveError> {
        if self.winner().is_some() {
            return Err(MoveError::GameOver);
        }
        if !self.swap_allowed {
            return Err(MoveError::SwapRuleOff);
        }
        match self.moves.as_slice() {
            [Move::Place(first)] => Ok(*first),
            _ => Err(MoveError::SwapOnlySecondMove),
        }
    }

    /// Plays `m` for the side to move. An illegal move changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        match m {
            Move::Place(cell) => self.position.play(cell)?,
            Move::Swap => {
                let first = self.check_swap()?;
                let mut position = Position::new(self.size()).map_err(|_| MoveError::GameOver)?;
                position.put(first.transpose(), self.first.opponent());
                position.set_to_move(self.first);
                self.position = position;
            }
        }
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let last = *self.moves.last()?;
        *self = self.prefix(self.moves.len() - 1);
        Some(last)
    }

    /// The cell where the latest stone went (after a swap: the mirrored
    /// stone), for marking the last move on a board.
    pub fn last_stone(&self) -> Option<Cell> {
        match self.moves.last()? {
            Move::Place(cell) => Some(*cell),
            Move::Swap => match self.moves.first()? {
                Move::Place(cell) => Some(cell.transpose()),
                Move::Swap => None,
            },
        }
    }

    /// The player who made move number `index` (from 0) in a game Red starts.
    pub fn mover_of(index: usize) -> Color {
        if index.is_multiple_of(2) { Color::Red } else { Color::Blue }
    }

    /// The player who made (or makes) move number `index` (from 0) in this game.
    pub fn mover(&self, index: usize) -> Color {
        if index.is_multiple_of(2) { self.first } else { self.first.opponent() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Move {
        Move::parse(s, 19).unwrap()
    }

    #[test]
    fn swap_mirrors_the_first_stone_and_gives_red_the_move() {
        let mut g = Game::new(5, true).unwrap();
        g.play(cell("b4")).unwrap();
        assert!(g.can_swap());
        g.play(Move::Swap).unwrap();
        assert_eq!(g.position().stone(Cell::new(1, 3)), None);
        assert_eq!(g.position().stone(Cell::new(3, 1)), Some(Color::Blue));
        assert_eq!(g.to_move(), Color::Red);
        assert_eq!(g.last_stone(), Some(Cell::new(3, 1)));
        // b4's mirror d2 is now Blue's; Red may play b4 again.
        g.play(cell("b4")).unwrap();
    }

    #[test]
    fn a_game_blue_starts_alternates_from_blue_and_swaps_to_red() {
        let mut g = Game::starting_with(5, true, Color::Blue).unwrap();
        assert_eq!(g.to_move(), Color::Blue);
        g.play(cell("b4")).unwrap();
        assert_eq!(g.position().stone(Cell::new(1, 3)), Some(Color::Blue));
        assert_eq!(g.mover(1), Color::Red);
        g.play(Move::Swap).unwrap();
        assert_eq!(g.position().stone(Cell::new(3, 1)), Some(Color::Red));
        assert_eq!(g.to_move(), Color::Blue);
        let replayed = g.prefix(2);
        assert_eq!(replayed, g);
        assert_eq!(replayed.to_move(), Color::Blue);
        assert_eq!(g.prefix(0).to_move(), Color::Blue);
    }

    #[test]
    fn swap_is_refused_at_any_other_time_or_when_off() {
        let mut g = Game::new(5, true).unwrap();
        assert_eq!(g.play(Move::Swap), Err(MoveError::SwapOnlySecondMove));
        g.play(cell("a1")).unwrap();
        g.play(cell("a2")).unwrap();
        assert_eq!(g.play(Move::Swap), Err(MoveError::SwapOnlySecondMove));
        let mut off = Game::new(5, false).unwrap();
        off.play(cell("a1")).unwrap();
        assert_eq!(off.play(Move::Swap), Err(MoveError::SwapRuleOff));
        assert_eq!(off.moves().len(), 1);
    }

    #[test]
    fn undo_restores_the_previous_position_including_a_swap() {
        let mut g = Game::new(5, true).unwrap();
        g.play(cell("c2")).unwrap();
        g.play(Move::Swap).unwrap();
        g.play(cell("a1")).unwrap();
        assert_eq!(g.undo(), Some(cell("a1")));
        assert_eq!(g.undo(), Some(Move::Swap));
        assert_eq!(g.position().stone(Cell::new(2, 1)), Some(Color::Red));
        assert_eq!(g.to_move(), Color::Blue);
        assert_eq!(g.undo(), Some(cell("c2")));
        assert_eq!(g.undo(), None);
    }

    #[test]
    fn undo_after_a_win_reopens_the_game() {
        let mut g = Game::new(3, false).unwrap();
        for m in ["a2", "a1", "b2", "b1", "c2"] {
            g.play(cell(m)).unwrap();
        }
        assert_eq!(g.winner(), Some(Color::Red));
        g.undo();
        assert_eq!(g.winner(), None);
        assert_eq!(g.to_move(), Color::Red);
    }
}
