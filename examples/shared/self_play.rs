//! Self-play for the examples that learn from the engine's own games:
//! playing a game on with the search, and the file the games go to.

use std::fs::File;
use std::sync::Mutex;

use hexarena::engine::search::{SearchConfig, Searcher};
use hexarena::engine::{Game, Move};

/// Plays `game` on, each move the search's best after `iterations` with
/// `config` and the seed `next_seed` gives for that move, until the game
/// ends or the search first proves its result (from there on the loser's
/// moves say nothing).
pub fn play_on(
    mut game: Game,
    iterations: u64,
    config: SearchConfig,
    mut next_seed: impl FnMut() -> u64,
) -> Option<Game> {
    while game.winner().is_none() {
        let mut search = Searcher::of_game(&game, SearchConfig { seed: next_seed(), ..config }).ok()?;
        search.run(iterations);
        if search.proven().is_some() {
            break;
        }
        game.play(Move::Place(search.best_move()?)).ok()?;
    }
    Some(game)
}

/// The file at `path`, opened to append to from several threads.
pub fn appending(path: &str) -> Result<Mutex<File>, String> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map(Mutex::new)
        .map_err(|e| format!("cannot open {path}: {e}"))
}
