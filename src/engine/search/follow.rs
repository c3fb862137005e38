//! A search that follows one game from move to move and keeps what it
//! learnt: after the opponent's reply, the part of the tree under the two
//! moves played is still good, so the next search starts from it instead of
//! from nothing.

use super::{SearchConfig, SearchError, Searcher};
use crate::engine::cell::Cell;
use crate::engine::game::{Game, Move};

/// The previous search and the game it searched.
#[derive(Default)]
pub struct Following {
    last: Option<Followed>,
}

struct Followed {
    size: u8,
    swap: bool,
    moves: Vec<Move>,
    searcher: Searcher,
}

impl Following {
    /// Nothing searched yet.
    pub fn new() -> Following {
        Following::default()
    }

    /// The search of `game`'s position: the previous tree moved down the
    /// moves played since, when `game` continues that game with stones, or
    /// else a new search with `config`.
    pub fn search(&mut self, game: &Game, config: SearchConfig) -> Result<&mut Searcher, SearchError> {
        let kept = self.last.take().and_then(|mut last| {
            if last.size != game.size() || last.swap != game.swap_allowed() {
                return None;
            }
            let extra = continuation(&last.moves, game.moves())?;
            last.searcher.advance(&extra).then_some(last.searcher)
        });
        let searcher = match kept {
            Some(s) => s,
            None => Searcher::of_game(game, config)?,
        };
        let last = self.last.insert(Followed {
            size: game.size(),
            swap: game.swap_allowed(),
            moves: game.moves().to_vec(),
            searcher,
        });
        Ok(&mut last.searcher)
    }
}

/// The stones played after `old` to reach `new`, when `new` continues `old`
/// with stones only (a swap changes every stone's owner: no tree survives).
pub fn continuation(old: &[Move], new: &[Move]) -> Option<Vec<Cell>> {
    if !new.starts_with(old) {
        return None;
    }
    new[old.len()..]
        .iter()
        .map(|m| match m {
            Move::Place(c) => Some(*c),
            Move::Swap => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> Game {
        let moves: Vec<Move> = moves.iter().map(|m| Move::parse(m, 7).unwrap()).collect();
        Game::with_moves(7, false, &moves).unwrap()
    }

    #[test]
    fn the_tree_is_kept_along_the_game_and_dropped_off_it() {
        let mut f = Following::new();
        let s = f.search(&game(&["d4"]), SearchConfig::default()).unwrap();
        s.run(4_000);
        let (best, done) = (s.best_move().unwrap(), s.iterations());
        // The engine's move and a reply: the tree below both is kept.
        let reply = if best.to_string() == "c5" { "e3" } else { "c5" };
        let next = game(&["d4", &best.to_string(), reply]);
        let kept = f.search(&next, SearchConfig::default()).unwrap().iterations();
        assert!(kept > 0 && kept < done, "{kept} of {done}");
        // A position that does not continue the game starts afresh.
        let other = game(&["a1", "b2"]);
        assert_eq!(f.search(&other, SearchConfig::default()).unwrap().iterations(), 0);
    }

    #[test]
    fn a_swap_or_a_different_game_is_no_continuation() {
        let c = |m: &str| Move::parse(m, 7).unwrap();
        assert_eq!(continuation(&[c("d4")], &[c("d4"), c("c5")]), Some(vec![Cell::parse("c5", 7).unwrap()]));
        assert_eq!(continuation(&[c("d4")], &[c("d4"), Move::Swap]), None);
        assert_eq!(continuation(&[c("d4")], &[c("c5")]), None);
    }
}
