//! How often the move a tree search would play is one the solver proves
//! lost when it looks at that move alone (the position after it, the
//! opponent to move), beside how often the proof of the whole position
//! (the GTP engine's proof before the search) proves it lost with the same
//! work, and whether the search's next choices survive the same check:
//!
//!     cargo run --release --example move_check -- GAMES SIZE NODES ITERATIONS [FROM]
//!
//! GAMES as for `knowledge_reach`. Every position of the SIZE×SIZE games
//! from the FROM-th stone on (default 12) gets a fresh tree search of
//! ITERATIONS (default settings, a fixed seed); its three most visited
//! moves are each checked with NODES solver positions, and the position
//! itself gets NODES more for the proof before the search.

use std::time::Instant;

use hexarena::engine::search::{SearchConfig, Searcher};
use hexarena::engine::solver::{Prover, Verdict};
use hexarena::engine::{Cell, Game, Position};

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

/// What the solver says of one move, looked at alone.
#[derive(Clone, Copy, PartialEq)]
enum Check {
    Wins,
    Loses,
    Open,
}

fn check(position: &Position, cell: Cell, nodes: u64) -> Check {
    let mut after = position.clone();
    if after.play(cell).is_err() {
        return Check::Open;
    }
    if after.winner().is_some() {
        return Check::Wins;
    }
    match Prover::new(&after).run(nodes) {
        Verdict::Win(_) => Check::Loses,
        Verdict::Loss => Check::Wins,
        Verdict::Unknown => Check::Open,
    }
}

/// Counts over the positions of one band of empty cells.
#[derive(Default, Clone)]
struct Band {
    positions: u32,
    /// The search's move proved lost by its own check.
    first_loses: u32,
    /// ... and by the proof of the whole position (it cut that move).
    root_cut_it: u32,
    /// ... and the second or third choice is not proved lost.
    alternative: u32,
    /// The search's move proved to win.
    first_wins: u32,
    /// The position proved (either way) by the proof before the search.
    root_proved: u32,
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: move_check GAMES SIZE NODES ITERATIONS [FROM]";
    let count = |text: &String, what: &str| text.parse::<u64>().map_err(|_| format!("{usage}: {what} `{text}`"));
    let (path, size, nodes, iterations, from) = match args {
        [p, s, n, i] => (p, s, count(n, "NODES")?, count(i, "ITERATIONS")?, 12),
        [p, s, n, i, f] => (p, s, count(n, "NODES")?, count(i, "ITERATIONS")?, count(f, "FROM")? as usize),
        _ => return Err(usage.into()),
    };
    let size = size.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{size}`"))?;
    let games = games::games(path, size)?;
    let bands = [(0usize, 50usize), (51, 70), (71, 80), (81, 90), (91, 100), (101, 400)];
    let mut tally = vec![Band::default(); bands.len()];
    let started = Instant::now();
    for game in &games {
        for k in from..game.moves().len() {
            let at: Game = game.prefix(k);
            let position = at.position();
            let empty = position.empty_cells().count();
            let Some(band) = bands.iter().position(|&(lo, hi)| (lo..=hi).contains(&empty)) else { continue };
            let Ok(mut search) = Searcher::of_game(&at, SearchConfig::default()) else { continue };
            search.run(iterations);
            let choices: Vec<Cell> = search.analysis(3).moves.iter().map(|m| m.cell).collect();
            let Some(&first) = choices.first() else { continue };
            let t = &mut tally[band];
            t.positions += 1;
            let mut root = Prover::new(position);
            let root_verdict = root.run(nodes).clone();
            if root_verdict != Verdict::Unknown {
                t.root_proved += 1;
            }
            match check(position, first, nodes) {
                Check::Wins => t.first_wins += 1,
                Check::Open => {}
                Check::Loses => {
                    t.first_loses += 1;
                    let cut = match root_verdict {
                        Verdict::Loss => true,
                        Verdict::Win(ref w) => !w.is_empty() && !w.contains(&first),
                        Verdict::Unknown => root.open_moves().is_some_and(|open| !open.contains(&first)),
                    };
                    if cut {
                        t.root_cut_it += 1;
                    }
                    if choices[1..].iter().any(|&c| check(position, c, nodes) != Check::Loses) {
                        t.alternative += 1;
                    }
                }
            }
        }
    }
    println!(
        "{} {size}x{size} games from {path}, from stone {from}: search {iterations} iterations, {nodes} solver positions a check ({:.0} s)",
        games.len(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "{:>8}  {:>9}  {:>12}  {:>14}  {:>13}  {:>10}  {:>12}",
        "empty", "positions", "move loses", "root cut it", "an other not", "move wins", "root proved"
    );
    for (&(lo, hi), t) in bands.iter().zip(&tally) {
        if t.positions > 0 {
            println!(
                "{:>8}  {:>9}  {:>12}  {:>14}  {:>13}  {:>10}  {:>12}",
                format!("{lo}-{hi}"),
                t.positions,
                t.first_loses,
                t.root_cut_it,
                t.alternative,
                t.first_wins,
                t.root_proved
            );
        }
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
