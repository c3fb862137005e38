//! A Hex position: stones, the side to move, and incremental connectivity.

use std::collections::VecDeque;

use super::bitset::Bitset;
use super::cell::{Cell, check_size};
use super::color::Color;
use super::error::{MoveError, SizeError};
use super::union_find::{Edge, UnionFind};

/// Stones on an n×n board with the side to move. Connectivity to the edges
/// is kept in a union-find as stones are added, so [`Position::winner`] is
/// free. Removing stones is done by rebuilding (see [`super::Game::undo`]).
///
/// ```
/// use hexarena::engine::{Cell, Color, Position};
/// // Red connects left (column a) to right (column c) along row 2.
/// let mut p = Position::new(3).unwrap();
/// for (q, r) in [(0, 1), (0, 0), (1, 1), (1, 0), (2, 1)] {
///     p.play(Cell::new(q, r)).unwrap();
/// }
/// assert_eq!(p.winner(), Some(Color::Red));
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    size: u8,
    red: Bitset,
    blue: Bitset,
    to_move: Color,
    winner: Option<Color>,
    links: UnionFind,
}

impl Default for Position {
    /// The empty 11×11 board, Red to move.
    fn default() -> Self {
        Position {
            size: 11,
            red: Bitset::EMPTY,
            blue: Bitset::EMPTY,
            to_move: Color::Red,
            winner: None,
            links: UnionFind::new(),
        }
    }
}

impl Position {
    /// The empty board of side `size`, Red to move.
    pub fn new(size: u8) -> Result<Position, SizeError> {
        Ok(Position { size: check_size(size)?, ..Position::default() })
    }

    /// The empty board of `other`'s size, Red to move.
    pub(crate) fn empty_like(other: &Position) -> Position {
        Position { size: other.size, ..Position::default() }
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// Whose turn it is (meaningless once someone has won).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// The winner, if either side connects its two edges.
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The stone on `cell`, if any.
    pub fn stone(&self, cell: Cell) -> Option<Color> {
        let i = cell.index(self.size);
        if !cell.is_on(self.size) {
            None
        } else if self.red.contains(i) {
            Some(Color::Red)
        } else if self.blue.contains(i) {
            Some(Color::Blue)
        } else {
            None
        }
    }

    /// The cells holding `color`'s stones.
    pub fn stones(&self, color: Color) -> &Bitset {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }

    /// Every cell without a stone, row by row.
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + '_ {
        let n = self.size as usize;
        let taken = self.red.union(&self.blue);
        (0..n * n).filter(move |&i| !taken.contains(i)).map(|i| Cell::from_index(i, self.size))
    }

    /// Plays the side to move's stone on `cell` and passes the turn.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if self.winner.is_some() {
            return Err(MoveError::GameOver);
        }
        if !cell.is_on(self.size) {
            return Err(MoveError::OffBoard { cell, size: self.size });
        }
        if self.stone(cell).is_some() {
            return Err(MoveError::Occupied(cell));
        }
        self.put(cell, self.to_move);
        self.to_move = self.to_move.opponent();
        Ok(())
    }

    /// Puts a stone without turn or emptiness checks; the caller keeps the
    /// position consistent (used for swap and for rebuilding).
    pub(crate) fn put(&mut self, cell: Cell, color: Color) {
        let n = self.size;
        let i = cell.index(n);
        match color {
            Color::Red => self.red.insert(i),
            Color::Blue => self.blue.insert(i),
        }
        for nb in cell.neighbours(n) {
            if self.stone(nb) == Some(color) {
                self.links.union(i, nb.index(n));
            }
        }
        let (low, high, coord) = match color {
            Color::Red => (Edge::Left, Edge::Right, cell.q),
            Color::Blue => (Edge::Top, Edge::Bottom, cell.r),
        };
        if coord == 0 {
            self.links.union(i, UnionFind::edge(low));
        }
        if coord == n - 1 {
            self.links.union(i, UnionFind::edge(high));
        }
        if self.links.connected(UnionFind::edge(low), UnionFind::edge(high)) {
            self.winner = Some(color);
        }
    }

    pub(crate) fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// Whether `cell` lies on one of `color`'s two edges: `(first, second)`
    /// for left/right (Red) or top/bottom (Blue).
    fn on_edges(&self, cell: Cell, color: Color) -> (bool, bool) {
        let coord = match color {
            Color::Red => cell.q,
            Color::Blue => cell.r,
        };
        (coord == 0, coord == self.size - 1)
    }

    /// The winner found by a flood fill from scratch, ignoring the
    /// incremental state. Slow; a reference for tests and for checking
    /// positions that came from outside.
    pub fn winner_by_flood_fill(&self) -> Option<Color> {
        [Color::Red, Color::Blue].into_iter().find(|&c| self.shortest_chain(c).is_some())
    }

    /// When someone has won: a shortest chain of the winner's stones from
    /// one of their edges to the other, in order from the first edge. Every
    /// consecutive pair is adjacent.
    pub fn winning_chain(&self) -> Option<Vec<Cell>> {
        self.shortest_chain(self.winner?)
    }

    /// Breadth-first search through `color`'s stones, from every stone on
    /// the first edge, stopping at the first stone reaching the second edge.
    fn shortest_chain(&self, color: Color) -> Option<Vec<Cell>> {
        let n = self.size;
        let stones = self.stones(color);
        let mut came_from: Vec<Option<usize>> = vec![None; n as usize * n as usize];
        let mut seen = Bitset::EMPTY;
        let mut queue = VecDeque::new();
        for i in stones.iter() {
            let cell = Cell::from_index(i, n);
            if self.on_edges(cell, color).0 {
                seen.insert(i);
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            let cell = Cell::from_index(i, n);
            if self.on_edges(cell, color).1 {
                let mut chain = vec![cell];
                let mut at = i;
                while let Some(prev) = came_from[at] {
                    chain.push(Cell::from_index(prev, n));
                    at = prev;
                }
                chain.reverse();
                return Some(chain);
            }
            for nb in cell.neighbours(n) {
                let j = nb.index(n);
                if stones.contains(j) && !seen.contains(j) {
                    seen.insert(j);
                    came_from[j] = Some(i);
                    queue.push_back(j);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(size: u8, cells: &[&str]) -> Position {
        let mut p = Position::new(size).unwrap();
        for c in cells {
            p.play(Cell::parse(c, size).unwrap()).unwrap();
        }
        p
    }

    #[test]
    fn a_move_on_a_taken_cell_or_off_board_changes_nothing() {
        let mut p = play_all(5, &["c3"]);
        let before = (p.red, p.blue, p.to_move);
        assert_eq!(p.play(Cell::new(2, 2)), Err(MoveError::Occupied(Cell::new(2, 2))));
        assert_eq!(p.play(Cell::new(5, 0)), Err(MoveError::OffBoard { cell: Cell::new(5, 0), size: 5 }));
        assert_eq!((p.red, p.blue, p.to_move), before);
    }

    #[test]
    fn blue_wins_top_to_bottom_with_the_chain_in_order() {
        // Blue's column b from row 1 to row 3; Red plays elsewhere.
        let mut p = play_all(3, &["a1", "b1", "a3", "b2", "c1", "b3"]);
        assert_eq!(p.winner(), Some(Color::Blue));
        let chain: Vec<String> = p.winning_chain().unwrap().iter().map(|c| c.to_string()).collect();
        assert_eq!(chain, ["b1", "b2", "b3"]);
        assert_eq!(p.play(Cell::new(2, 2)), Err(MoveError::GameOver));
    }

    #[test]
    fn the_zigzag_diagonal_connects_but_the_other_diagonal_does_not() {
        // (+1,-1) is a neighbour direction, (+1,+1) is not.
        let mut p = Position::new(3).unwrap();
        for (q, r) in [(0, 2), (1, 1), (2, 0)] {
            p.put(Cell::new(q, r), Color::Red);
        }
        assert_eq!(p.winner(), Some(Color::Red));
        let mut p = Position::new(3).unwrap();
        for (q, r) in [(0, 0), (1, 1), (2, 2)] {
            p.put(Cell::new(q, r), Color::Red);
        }
        assert_eq!(p.winner(), None);
        assert_eq!(p.winner_by_flood_fill(), None);
    }

    #[test]
    fn the_chain_skips_dead_ends() {
        // Red's group on 4×4 has a branch (b3) that the shortest chain avoids.
        let mut p = Position::new(4).unwrap();
        for c in ["a2", "b2", "b3", "c2", "d2"] {
            p.put(Cell::parse(c, 4).unwrap(), Color::Red);
        }
        let chain: Vec<String> = p.winning_chain().unwrap().iter().map(|c| c.to_string()).collect();
        assert_eq!(chain, ["a2", "b2", "c2", "d2"]);
    }
}
