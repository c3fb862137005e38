//! The solver's fill-in on positions of real games, one line a position,
//! for `scripts/gtp_fillin.py` to set beside another engine's:
//!
//!     cargo run --release --example fill_in -- GAMES SIZE [EVERY] [FROM] > FILE
//!
//! GAMES is a file of games as `knowledge_reach` reads them (self-play
//! move lists or `scripts/gtp_match.py` records). From each SIZE×SIZE
//! game it takes the position after FROM stones (10 unless told), and
//! after every EVERY-th stone from there (4 unless told), and prints the
//! moves so far (our cells, Red first), then the cells filled for Red,
//! for Blue, and the dead ones, tab-separated, each a comma-separated
//! list.

use hexarena::engine::bench::fill_in;
use hexarena::engine::{Cell, Record};

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

fn number(args: &[String], at: usize, default: usize, what: &str) -> Result<usize, String> {
    match args.get(at) {
        None => Ok(default),
        Some(a) => a.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("{what} `{a}` is not a positive count")),
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: fill_in GAMES SIZE [EVERY] [FROM]";
    let (path, size) = match args {
        [path, size, ..] => (path, size.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{size}`"))?),
        _ => return Err(usage.into()),
    };
    let every = number(args, 2, 4, "EVERY")?;
    let from = number(args, 3, 10, "FROM")?;
    let games = games::games(path, size)?;
    if games.is_empty() {
        return Err(format!("{path} has no {size}x{size} game"));
    }
    let list = |cells: &[Cell]| cells.iter().map(Cell::to_string).collect::<Vec<_>>().join(",");
    for game in &games {
        for k in (from..game.moves().len()).step_by(every) {
            let before = game.prefix(k);
            let moves = Record::from_game(&before).to_text();
            let f = fill_in(before.position());
            println!("{moves}\t{}\t{}\t{}", list(&f.red), list(&f.blue), list(&f.dead));
        }
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
