//! Rebuilds the engine's learned move patterns (src/engine/patterns/
//! patterns.txt) in two steps: hexarena plays itself, then the weights are
//! fitted to its moves.
//!
//!     cargo run --release --example learn_patterns -- play GAMES ITERATIONS FILE [THREADS] [SEED] [SIZES] [PRIOR_WEIGHT]
//!     cargo run --release --example learn_patterns -- fit FILE... > src/engine/patterns/patterns.txt
//!     cargo run --release --example learn_patterns -- fit-layered FILE... > layered.txt
//!     cargo run --release --example learn_patterns -- fit-playout FILE... > src/engine/patterns/playout.txt
//!     cargo run --release --example learn_patterns -- fit-answers FILE... > src/engine/patterns/answers.txt
//!     cargo run --release --example learn_patterns -- eval PATTERNS FILE...
//!     cargo run --release --example learn_patterns -- eval-answers ANSWERS FILE...
//!
//! `play` appends GAMES self-play games to FILE, one move list per line
//! (`11x11 c4 f6 …`), on the SIZES given as a comma-separated list (9×9,
//! 11×11 and 13×13 unless told) in turn. Each game opens on a
//! random cell, then every move is the engine's best after ITERATIONS
//! iterations (with the patterns it has as priors, at PRIOR_WEIGHT or the
//! engine's default, so each round learns from a stronger player). A game
//! is cut where the search first proves the result: from there on the
//! loser's moves say nothing.
//!
//! `fit` reads the games, makes one competition of each position after the
//! opening (the empty cells, won by the one played), fits the weights by
//! minorization-maximization, together with factors for a cell's nearness
//! to the move just played (the file's `near` line), and prints the
//! pattern file, reporting on
//! stderr how well the weights predict the moves. `fit-layered` does the
//! same in layers: a shape seen too rarely to get a weight of its own
//! weighs as its inner two rings, or its adjacent cells, do where those
//! were seen often enough. `fit-playout` does the
//! same with patterns of the six adjacent cells only: the playouts'
//! weights. `fit-answers` fits the playouts' answers to the last stone
//! (the twelve cells around it, each by its own twelve-cell shape, every
//! cell further away counting as one pattern of weight 1).
//!
//! `eval` reports how well a pattern file (`builtin` for the shipped one)
//! predicts the moves of other games than those it was fitted to: the
//! same figures `fit` prints about its own games; `eval-answers` does the
//! same for an answer file (`builtin` for the shipped one), every cell
//! away from the last stone weighing 1 as in the playouts.

use std::io::Write;
use std::time::Instant;

use hexarena::engine::patterns::mm::{Extent, Fitting, Sample, fit, layer, predict};
use hexarena::engine::patterns::{Patterns, answers};
use hexarena::engine::search::{DEFAULT_PRIOR_WEIGHT, SearchConfig};
use hexarena::engine::{Cell, Game, Move, Record};

#[path = "shared/self_play.rs"]
mod self_play;

const DEFAULT_SIZES: [u8; 3] = [9, 11, 13];

/// Patterns seen fewer times than this among the candidates share the
/// default weight (keeps the file small and its weights trustworthy).
const MIN_SEEN: u32 = 40;

/// One self-play game, cut at its first proof, searched with the
/// patterns' priors at `prior_weight`.
fn self_play(size: u8, iterations: u64, seed: u64, prior_weight: f32) -> Option<Game> {
    let mut game = Game::new(size, false).ok()?;
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 16;
    let opening = Cell::from_index((x % (size as u64 * size as u64)) as usize, size);
    game.play(Move::Place(opening)).ok()?;
    let config = SearchConfig { prior_weight, ..SearchConfig::default() };
    self_play::play_on(game, iterations, config, || {
        x = x.wrapping_add(1);
        seed ^ x
    })
}

fn play(args: &[String]) -> Result<(), String> {
    let usage = "usage: learn_patterns play GAMES ITERATIONS FILE [THREADS] [SEED] [SIZES, as 9,11] [PRIOR_WEIGHT]";
    let games: u64 = args.first().and_then(|a| a.parse().ok()).ok_or(usage)?;
    let iterations: u64 = args.get(1).and_then(|a| a.parse().ok()).ok_or(usage)?;
    let path = args.get(2).ok_or(usage)?;
    let optional = |i: usize, what: &str| -> Result<Option<&String>, String> {
        match args.get(i) {
            Some(a) if a.trim().is_empty() => Err(format!("{usage}: {what} is empty")),
            other => Ok(other),
        }
    };
    let threads: u64 = match optional(3, "THREADS")? {
        None => 1,
        Some(a) => a.parse().ok().filter(|&t| t > 0).ok_or_else(|| format!("{usage}: THREADS `{a}` is not a count"))?,
    };
    let seed: u64 = match optional(4, "SEED")? {
        None => 1,
        Some(a) => a.parse().map_err(|_| format!("{usage}: SEED `{a}` is not a whole number"))?,
    };
    let sizes: Vec<u8> = match optional(5, "SIZES")? {
        None => DEFAULT_SIZES.to_vec(),
        Some(list) => list
            .split(',')
            .map(|s| s.trim().parse::<u8>().ok().filter(|n| Game::new(*n, false).is_ok()))
            .collect::<Option<Vec<u8>>>()
            .ok_or_else(|| format!("{usage}: `{list}` is not a list of board sizes"))?,
    };
    // The shipped file's teacher searched without priors (weight 0); the
    // default teaches with the shipped patterns, a stronger player.
    let prior_weight: f32 = match optional(6, "PRIOR_WEIGHT")? {
        None => DEFAULT_PRIOR_WEIGHT,
        Some(a) => a
            .parse()
            .ok()
            .filter(|w: &f32| w.is_finite() && *w >= 0.0)
            .ok_or_else(|| format!("{usage}: PRIOR_WEIGHT `{a}` is not a weight of 0 or more"))?,
    };
    let out = self_play::appending(path)?;
    let started = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let out = &out;
            let sizes = &sizes;
            scope.spawn(move || {
                for g in (t..games).step_by(threads as usize) {
                    let size = sizes[(g % sizes.len() as u64) as usize];
                    let Some(game) =
                        self_play(size, iterations, seed.wrapping_mul(1_000_003).wrapping_add(g), prior_weight)
                    else {
                        continue;
                    };
                    let line = Record::from_game(&game).to_text();
                    if let Ok(mut f) = out.lock() {
                        let _ = writeln!(f, "{line}");
                    }
                    eprintln!(
                        "game {}: {} moves ({:.0} s)",
                        g + 1,
                        game.moves().len(),
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        }
    });
    Ok(())
}

fn fit_files(paths: &[String], extent: Extent) -> Result<(), String> {
    if paths.is_empty() {
        return Err("usage: learn_patterns fit|fit-layered|fit-playout|fit-answers FILE...".into());
    }
    let (mut samples, games) = samples_of(paths, extent)?;
    if extent == Extent::Layered {
        layer(&mut samples, MIN_SEEN);
    }
    // Nearness to the last move is for the tree's priors; the playouts
    // read the adjacent cells alone.
    let proximity = matches!(extent, Extent::Shape | Extent::Layered);
    let fitted = fit(&samples, Fitting { min_seen: MIN_SEEN, iterations: 60, proximity });
    let last = fitted.log_likelihood.last().copied().unwrap_or(f64::NAN);
    eprintln!(
        "{games} games, {} positions, {} patterns; mean log-likelihood {:.4} → {last:.4}; \
         played move heaviest {:.1}%, in the ten heaviest {:.1}%; nearness factors {:?}",
        samples.len(),
        fitted.patterns.len(),
        fitted.log_likelihood.first().copied().unwrap_or(f64::NAN),
        100.0 * fitted.top_one,
        100.0 * fitted.top_ten,
        fitted.patterns.proximity().map(|p| p.factors),
    );
    let (what, command) = match extent {
        Extent::Shape => ("move patterns", "fit"),
        Extent::Layered => ("move patterns in layers", "fit-layered"),
        Extent::Adjacent => ("playout patterns (the six adjacent cells only)", "fit-playout"),
        Extent::Answer => ("playout answers (the twelve cells around the last stone)", "fit-answers"),
    };
    let table = match extent {
        Extent::Answer => {
            let near = samples.iter().filter(|s| s.chosen != answers::FAR).count();
            eprintln!(
                "the played move was one of the twelve cells around the last stone in {:.1}% of positions",
                100.0 * near as f64 / samples.len().max(1) as f64
            );
            answers::from_fitted(&fitted.patterns).map_err(|e| format!("the fit measured no far cell: {e}"))?
        }
        _ => fitted.patterns,
    };
    let comment = format!(
        "Learned {what} of hexarena's engine (see src/engine/patterns/).\n\
         Rebuilt by `examples/learn_patterns.rs {command}` from {games} self-play games ({} positions);\n\
         the played move had the heaviest pattern in {:.1}% of positions.\n\
         Each line: a shape in hexadecimal, then its weight's natural logarithm in thousandths.",
        samples.len(),
        100.0 * fitted.top_one
    );
    print!("{}", table.to_text(&comment));
    // What was printed must read back as the same table.
    let text = table.to_text("");
    Patterns::parse(&text).map(|_| ()).map_err(|e| format!("the fitted table does not read back: {e}"))
}

/// Loads the games of `paths` as competitions of `extent`.
fn samples_of(paths: &[String], extent: Extent) -> Result<(Vec<Sample>, usize), String> {
    let mut samples = Vec::new();
    let mut games = 0;
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let record = Record::from_text(line, 11).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            let game = record.to_game(false).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
            samples.extend(Sample::of_game(&game, 1, extent));
            games += 1;
        }
    }
    Ok((samples, games))
}

fn eval(args: &[String], extent: Extent) -> Result<(), String> {
    let usage = match extent {
        Extent::Answer => "usage: learn_patterns eval-answers ANSWERS|builtin FILE...",
        _ => "usage: learn_patterns eval PATTERNS|builtin FILE...",
    };
    let path = args.first().ok_or(usage)?;
    if args.len() < 2 {
        return Err(usage.into());
    }
    let read = |path: &str| std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"));
    let patterns = match (extent, path.as_str()) {
        (Extent::Answer, file) => {
            let text = if file == "builtin" { answers::BUILTIN.to_string() } else { read(file)? };
            let table = answers::parse(&text).map_err(|e| format!("{file}: {e}"))?;
            answers::with_far(&table)
        }
        (_, "builtin") => Patterns::builtin().clone(),
        (_, file) => Patterns::parse(&read(file)?).map_err(|e| format!("{file}: {e}"))?,
    };
    let (samples, games) = samples_of(&args[1..], extent)?;
    let p = predict(&samples, &patterns);
    println!(
        "{path} on {games} games, {} positions: mean log-likelihood {:.4}; played move heaviest {:.1}%, \
         in the ten heaviest {:.1}%",
        samples.len(),
        p.log_likelihood,
        100.0 * p.top_one,
        100.0 * p.top_ten
    );
    Ok(())
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("play") => play(&args[1..]),
        Some("fit") => fit_files(&args[1..], Extent::Shape),
        Some("fit-layered") => fit_files(&args[1..], Extent::Layered),
        Some("fit-playout") => fit_files(&args[1..], Extent::Adjacent),
        Some("fit-answers") => fit_files(&args[1..], Extent::Answer),
        Some("eval") => eval(&args[1..], Extent::Shape),
        Some("eval-answers") => eval(&args[1..], Extent::Answer),
        _ => {
            Err("usage: learn_patterns play GAMES ITERATIONS FILE [THREADS] [SEED] [SIZES] [PRIOR_WEIGHT] | fit FILE... | fit-layered FILE... | fit-playout FILE... | fit-answers FILE... | eval PATTERNS FILE... | eval-answers ANSWERS FILE..."
                .into())
        }
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("learn_patterns: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
