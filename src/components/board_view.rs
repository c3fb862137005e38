//! What a board shows, taken out of a game so the SVG component does not
//! need to know about move history, swap or replays.

use crate::engine::{Cell, Color, Game};

/// A snapshot of everything the board draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Board side.
    pub size: u8,
    /// The stone on each cell, row by row (index `r * size + q`).
    pub stones: Vec<Option<Color>>,
    /// Where the latest stone went, ringed on the board.
    pub last: Option<Cell>,
    /// The cells of the winning chain, outlined once the game is won.
    pub winning: Vec<Cell>,
    /// The side whose ghost stone follows the pointer; `None` when the
    /// board does not take moves (game over, replay, opponent's turn).
    pub to_move: Option<Color>,
    /// Suggested moves, best first, drawn as numbered markers.
    pub hints: Vec<Cell>,
}

impl BoardView {
    /// The board of `game` as it stands, taking moves if `interactive`.
    pub fn of(game: &Game, interactive: bool) -> BoardView {
        let n = game.size();
        let position = game.position();
        let stones = (0..n as usize * n as usize).map(|i| position.stone(Cell::from_index(i, n))).collect();
        let over = game.winner().is_some();
        BoardView {
            size: n,
            stones,
            last: game.last_stone(),
            winning: game.winning_chain().unwrap_or_default(),
            to_move: (interactive && !over).then(|| game.to_move()),
            hints: Vec::new(),
        }
    }

    /// The rank (0 = best) of `cell` among the hints.
    pub fn hint_rank(&self, cell: Cell) -> Option<usize> {
        self.hints.iter().position(|&c| c == cell)
    }

    /// The stone on `cell`.
    pub fn stone(&self, cell: Cell) -> Option<Color> {
        if cell.is_on(self.size) { self.stones[cell.index(self.size)] } else { None }
    }

    /// Whether `cell` belongs to the winning chain.
    pub fn is_winning(&self, cell: Cell) -> bool {
        self.winning.contains(&cell)
    }

    /// Words a screen reader says for `cell`, e.g. `"c3, Red stone"`.
    pub fn describe(&self, cell: Cell) -> String {
        let what = match self.stone(cell) {
            Some(c) if self.is_winning(cell) => format!("{} stone, winning chain", c.name()),
            Some(c) => format!("{} stone", c.name()),
            None => "empty".to_string(),
        };
        format!("{cell}, {what}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Move;

    #[test]
    fn a_won_game_shows_its_chain_and_takes_no_moves() {
        let mut g = Game::new(3, false).unwrap();
        for m in ["a2", "a1", "b2", "b1", "c2"] {
            g.play(Move::parse(m, 3).unwrap()).unwrap();
        }
        let v = BoardView::of(&g, true);
        assert_eq!(v.to_move, None);
        assert_eq!(v.winning.len(), 3);
        assert_eq!(v.last, Some(Cell::new(2, 1)));
        assert_eq!(v.describe(Cell::new(0, 1)), "a2, Red stone, winning chain");
        assert_eq!(v.describe(Cell::new(2, 2)), "c3, empty");
    }
}
