//! How far the tree's fast checks see into real games, for several
//! lengths of H-search's connection lists:
//!
//!     cargo run --release --example knowledge_reach -- GAMES SIZE FULL:SEMI:EDGE_SEMI...
//!
//! GAMES is a file of move lists as `learn_patterns play` writes them
//! (`11x11 c4 f6 …`, one game a line), or the records of
//! `scripts/gtp_match.py --records` (read in GTP's orientation). Every position of the SIZE×SIZE
//! games before each move is checked once with each list length; a line
//! per length says how many the checks decide, how many of the open
//! positions' empty cells they keep as moves, and what a check costs.

use hexarena::engine::bench::knowledge_reach;
use hexarena::engine::{ListLimits, Position};

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

/// Before each move: the positions the games' searches faced.
fn positions(path: &str, size: u8) -> Result<Vec<Position>, String> {
    let games = games::games(path, size)?;
    Ok(games.iter().flat_map(|g| (1..g.moves().len()).map(|k| g.prefix(k).position().clone())).collect())
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: knowledge_reach GAMES SIZE FULL:SEMI:EDGE_SEMI...";
    let (path, size) = match args {
        [path, size, _, ..] => (path, size.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{size}`"))?),
        _ => return Err(usage.into()),
    };
    let positions = positions(path, size)?;
    if positions.is_empty() {
        return Err(format!("{path} has no {size}x{size} game"));
    }
    println!("{} positions of {size}x{size} games from {path}", positions.len());
    println!(
        "{:>12}  {:>8}  {:>6}  {:>6}  {:>10}  {:>12}",
        "lists", "decided", "won", "lost", "moves kept", "µs a check"
    );
    for spec in &args[2..] {
        let l =
            ListLimits::parse(spec).ok_or_else(|| format!("{usage}: `{spec}` is not three counts from 1 to 1000"))?;
        let r = knowledge_reach(&positions, l);
        println!(
            "{:>12}  {:>7.1}%  {:>6}  {:>6}  {:>9.1}%  {:>12.0}",
            spec,
            100.0 * r.decided_share(),
            r.won,
            r.lost,
            100.0 * r.kept_share(),
            r.micros_each()
        );
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
