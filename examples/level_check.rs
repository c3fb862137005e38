//! What the top level's check of its search's choices costs and changes
//! (`search::bounded::BoundedCheck`, `level::start_check`), on real
//! positions:
//!
//!     cargo run --release --example level_check -- GAMES SIZE [ITERATIONS] [FROM] [STEP]
//!
//! GAMES as for `knowledge_reach`. Every STEP-th position (default 4) of
//! the SIZE×SIZE games from the FROM-th stone on (default 12) is played as
//! the max level plays it (its proof before the search where it runs, a
//! search of ITERATIONS, default the level's 200,000, with a fixed seed),
//! and then checked: the time of the search and of the check, the solver
//! positions the check took, and how often it changed the move.

use std::time::Instant;

use hexarena::engine::Game;
use hexarena::engine::search::bounded::BoundedProof;
use hexarena::engine::search::endgame::iterations_after;
use hexarena::engine::search::level::start_check;
use hexarena::engine::search::{Level, Searcher};
use hexarena::engine::solver::Verdict;

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

/// Counts over the positions of one band of empty cells.
#[derive(Default, Clone)]
struct Band {
    positions: u32,
    checked: u32,
    search_seconds: f64,
    check_seconds: f64,
    longest_check: f64,
    check_positions: u64,
    /// Checks that refuted at least one choice.
    refuted: u32,
    /// ... and so changed the move played.
    changed: u32,
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: level_check GAMES SIZE [ITERATIONS] [FROM] [STEP]";
    let number = |text: Option<&String>, what: &str, default: u64| match text {
        None => Ok(default),
        Some(t) => t.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| format!("{usage}: {what} `{t}`")),
    };
    let (path, size) = match args {
        [p, s, ..] if args.len() <= 5 => (p, s.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{s}`"))?),
        _ => return Err(usage.into()),
    };
    let iterations = number(args.get(2), "ITERATIONS", Level::Max.iterations())?;
    let from = number(args.get(3), "FROM", 12)? as usize;
    let step = number(args.get(4), "STEP", 4)? as usize;
    let games = games::games(path, size)?;
    let bands = [(0usize, 50usize), (51, 70), (71, 80), (81, 90), (91, 100), (101, 400)];
    let mut tally = vec![Band::default(); bands.len()];
    for game in &games {
        for k in (from..game.moves().len()).step_by(step) {
            let at: Game = game.prefix(k);
            let empty = at.position().empty_cells().count();
            let Some(band) = bands.iter().position(|&(lo, hi)| (lo..=hi).contains(&empty)) else { continue };
            let seed = k as u64;
            let Ok(mut search) = Searcher::of_game(&at, Level::Max.search_config(seed)) else { continue };
            let started = Instant::now();
            let verdict = match Level::Max.proof_positions(&at) {
                Some(positions) => {
                    let mut proof = BoundedProof::new(at.position(), positions);
                    let verdict = proof.finish();
                    if let Some(open) = proof.open_moves() {
                        search.keep_root_moves(&open);
                    }
                    verdict
                }
                None => Verdict::Unknown,
            };
            search.run(iterations_after(&verdict, iterations));
            let t = &mut tally[band];
            t.positions += 1;
            t.search_seconds += started.elapsed().as_secs_f64();
            let Some(mut check) = start_check(&at, &search, &verdict, Level::Max) else { continue };
            let before = search.best_move();
            let started = Instant::now();
            check.finish();
            check.cut(&mut search);
            let took = started.elapsed().as_secs_f64();
            t.checked += 1;
            t.check_seconds += took;
            t.longest_check = t.longest_check.max(took);
            t.check_positions += check.positions();
            if !check.refuted().is_empty() {
                t.refuted += 1;
                t.changed += u32::from(search.best_move() != before);
            }
        }
    }
    println!(
        "{} {size}x{size} games from {path}, every {step}th position from stone {from}: the max level, {iterations} iterations",
        games.len()
    );
    println!(
        "{:>8}  {:>9}  {:>8}  {:>9}  {:>9}  {:>10}  {:>11}  {:>8}  {:>8}",
        "empty", "positions", "checked", "search s", "check s", "longest s", "check pos.", "refuted", "changed"
    );
    for (&(lo, hi), t) in bands.iter().zip(&tally) {
        if t.positions == 0 {
            continue;
        }
        let per = |x: f64, n: u32| if n == 0 { 0.0 } else { x / f64::from(n) };
        println!(
            "{:>8}  {:>9}  {:>8}  {:>9.3}  {:>9.3}  {:>10.3}  {:>11.0}  {:>8}  {:>8}",
            format!("{lo}-{hi}"),
            t.positions,
            t.checked,
            per(t.search_seconds, t.positions),
            per(t.check_seconds, t.checked),
            t.longest_check,
            per(t.check_positions as f64, t.checked),
            t.refuted,
            t.changed
        );
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
