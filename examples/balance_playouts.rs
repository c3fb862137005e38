//! Playout weights by simulation balancing (`engine::balance`): positions
//! valued by a deeper search, then weights fitted so that the playouts'
//! average result matches those values.
//!
//!     cargo run --release --example balance_playouts -- label GAMES PLAY_ITERATIONS LABEL_ITERATIONS FILE [THREADS] [SEED] [SIZE]
//!     cargo run --release --example balance_playouts -- fit EPOCHS RATE[:LIMIT] FILE... > playout-balanced.txt
//!
//! `label` plays GAMES self-play games on SIZE (11 unless told) from two
//! random stones, each move the search's best after PLAY_ITERATIONS, cut at
//! the search's first proof, and values four of each game's positions by a
//! search of LABEL_ITERATIONS (its win rate, or 1 and 0 where it proves
//! the result). It appends one line a position to FILE: the record, a
//! tab, the side to move's chance.
//!
//! `fit` holds every tenth position out, takes EPOCHS passes of balancing
//! steps at RATE over the rest, each weight's logarithm kept within LIMIT
//! (7 unless told) (two threads, 32 positions a step), and
//! prints the playout pattern file of the epoch whose held-out error was
//! lowest, with the cap to read it at (`tune_match … playout=CAP:FILE`).
//! Epoch by epoch it reports on stderr the mean squared error of the
//! playouts' estimates (256 playouts a position) against the values, the
//! uniform playouts' first.

use std::io::Write;
use std::time::Instant;

use hexarena::engine::balance::{Balancer, Balancing, MAX_LOG, Sample, Weights};
use hexarena::engine::search::{SearchConfig, Searcher};
use hexarena::engine::{Cell, Game, Move, Record};

/// Positions valued per self-play game.
const PER_GAME: usize = 4;
/// Positions per balancing step.
const BATCH: usize = 32;
/// Playouts per held-out position when the error is measured.
const MEASURE: usize = 256;

#[path = "shared/run.rs"]
mod run;
#[path = "shared/self_play.rs"]
mod self_play;

fn main() -> std::process::ExitCode {
    run::main_with(|args| match args.first().map(String::as_str) {
        Some("label") => label(&args[1..]),
        Some("fit") => fit(&args[1..]),
        _ => Err("usage: balance_playouts label|fit … (see the file's notes)".into()),
    })
}

/// A small generator for choices outside the engine (openings, plies).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One self-play game from two random stones, cut at its first proof.
fn self_play(size: u8, iterations: u64, seed: u64) -> Option<Game> {
    let mut game = Game::new(size, false).ok()?;
    let cells = size as u64 * size as u64;
    let first = mix(seed) % cells;
    let second = (first + 1 + mix(seed ^ 1) % (cells - 1)) % cells;
    for c in [first, second] {
        game.play(Move::Place(Cell::from_index(c as usize, size))).ok()?;
    }
    let mut x = seed;
    self_play::play_on(game, iterations, SearchConfig::default(), || {
        x = mix(x);
        x
    })
}

/// The side to move's chance after `game`'s first `plies` moves, by a
/// search of `iterations`.
fn value_at(game: &Game, plies: usize, iterations: u64, seed: u64) -> Option<(Game, f64)> {
    let mut prefix = Game::new(game.size(), false).ok()?;
    for m in &game.moves()[..plies] {
        prefix.play(*m).ok()?;
    }
    let mut search = Searcher::of_game(&prefix, SearchConfig { seed, ..SearchConfig::default() }).ok()?;
    search.run(iterations);
    let a = search.analysis(1);
    let value = match a.proven {
        Some(p) => f64::from(u8::from(p.winner == a.to_move)),
        None => f64::from(a.win_rate),
    };
    Some((prefix, value))
}

fn label(args: &[String]) -> Result<(), String> {
    let usage = "usage: balance_playouts label GAMES PLAY_ITERATIONS LABEL_ITERATIONS FILE [THREADS] [SEED] [SIZE]";
    let number = |i: usize, what: &str, default: Option<u64>| -> Result<u64, String> {
        match (args.get(i), default) {
            (None, Some(d)) => Ok(d),
            (None, None) => Err(usage.into()),
            (Some(a), _) => a.parse().map_err(|_| format!("{usage}: {what} `{a}` is not a whole number")),
        }
    };
    let games = number(0, "GAMES", None)?;
    let play = number(1, "PLAY_ITERATIONS", None)?;
    let judge = number(2, "LABEL_ITERATIONS", None)?;
    let path = args.get(3).ok_or(usage)?;
    let threads = number(4, "THREADS", Some(1))?.max(1);
    let seed = number(5, "SEED", Some(1))?;
    let size = number(6, "SIZE", Some(11))?;
    let size = u8::try_from(size)
        .ok()
        .filter(|&s| s <= hexarena::engine::balance::MAX_SIZE && Game::new(s, false).is_ok())
        .ok_or_else(|| format!("{usage}: SIZE {size} is not a board the balancer plays"))?;
    let out = self_play::appending(path)?;
    let started = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let out = &out;
            scope.spawn(move || {
                for g in (t..games).step_by(threads as usize) {
                    let game_seed = mix(seed.wrapping_mul(1_000_003).wrapping_add(g));
                    let Some(game) = self_play(size, play, game_seed) else { continue };
                    let plies = game.moves().len();
                    let mut lines = Vec::new();
                    for k in 0..PER_GAME as u64 {
                        let ply = 2 + (mix(game_seed ^ (k + 7)) % (plies.saturating_sub(1) as u64).max(1)) as usize;
                        let Some((prefix, value)) = value_at(&game, ply.min(plies), judge, game_seed ^ k) else {
                            continue;
                        };
                        lines.push(format!("{}\t{value:.4}", Record::from_game(&prefix).to_text()));
                    }
                    if let Ok(mut f) = out.lock() {
                        for l in &lines {
                            let _ = writeln!(f, "{l}");
                        }
                    }
                    eprintln!("game {}: {plies} moves ({:.0} s)", g + 1, started.elapsed().as_secs_f64());
                }
            });
        }
    });
    Ok(())
}

fn samples_of(paths: &[String]) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = |e: String| format!("{path}:{}: {e}", i + 1);
            let (record, value) =
                line.split_once('\t').ok_or_else(|| at("expected a record, a tab and a value".into()))?;
            let value: f64 = value.trim().parse().map_err(|_| at(format!("`{value}` is not a value")))?;
            let game = Record::from_text(record, 11).and_then(|r| r.to_game(false)).map_err(|e| at(e.to_string()))?;
            match Sample::new(game.position(), value) {
                Ok(s) => samples.push(s),
                Err(hexarena::engine::balance::SampleError::Full) => {}
                Err(e) => return Err(at(e.to_string())),
            }
        }
    }
    Ok(samples)
}

/// `work` on each half of `samples` at once (this machine's two cores),
/// given the half's number and a balancer for each board size.
fn on_two_threads<T: Send>(
    samples: &[Sample],
    work: impl Fn(usize, &[Sample], &mut Vec<Balancer>) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let halves: Vec<&[Sample]> = samples.chunks(samples.len().div_ceil(2).max(1)).collect();
    let work = &work;
    let parts: Vec<Result<T, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            halves.iter().enumerate().map(|(t, part)| scope.spawn(move || work(t, part, &mut Vec::new()))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a thread failed".into()))).collect()
    });
    parts.into_iter().collect()
}

/// The mean squared error of the playouts' estimates over `samples`.
fn error(weights: &Weights, samples: &[Sample], seed: u64) -> Result<f64, String> {
    let sums = on_two_threads(samples, |t, part, balancers| {
        let mut rng = hexarena::engine::balance::Rng::new(seed ^ t as u64);
        let mut sum = 0.0;
        for s in part {
            let b = balancer_for(balancers, s.size(), weights)?;
            let e = s.value() - b.estimate(s, MEASURE, &mut rng);
            sum += e * e;
        }
        Ok(sum)
    })?;
    Ok(sums.iter().sum::<f64>() / samples.len().max(1) as f64)
}

/// The balancer for `size` among `balancers`, made with `weights` if new.
fn balancer_for<'a>(balancers: &'a mut Vec<Balancer>, size: u8, weights: &Weights) -> Result<&'a mut Balancer, String> {
    match balancers.iter().position(|b| b.size() == size) {
        Some(i) => Ok(&mut balancers[i]),
        None => {
            balancers.push(Balancer::new(size, weights).map_err(|e| e.to_string())?);
            Ok(balancers.last_mut().expect("just pushed"))
        }
    }
}

fn fit(args: &[String]) -> Result<(), String> {
    let usage = "usage: balance_playouts fit EPOCHS RATE[:LIMIT] FILE...";
    let epochs: usize = args.first().and_then(|a| a.parse().ok()).ok_or(usage)?;
    let (rate, limit) =
        args.get(1).map_or(("", None), |a| a.split_once(':').map_or((a.as_str(), None), |(r, l)| (r, Some(l))));
    let positive = |a: &str| a.parse().ok().filter(|r: &f64| *r > 0.0);
    let rate: f64 = positive(rate).ok_or_else(|| format!("{usage}: RATE `{rate}` is not a positive number"))?;
    let limit: f64 = match limit {
        None => MAX_LOG,
        Some(l) => positive(l)
            .filter(|l| *l <= MAX_LOG)
            .ok_or_else(|| format!("{usage}: LIMIT `{l}` is not a number from 0 to {MAX_LOG}"))?,
    };
    let samples = samples_of(args.get(2..).filter(|p| !p.is_empty()).ok_or(usage)?)?;
    // Every tenth position is held out to choose the epoch by.
    let held: Vec<Sample> = samples.iter().step_by(10).cloned().collect();
    let mut train: Vec<Sample> =
        samples.iter().enumerate().filter(|(i, _)| i % 10 != 0).map(|(_, s)| s.clone()).collect();
    if train.len() < BATCH || held.is_empty() {
        return Err(format!("{} positions are too few to fit and check", samples.len()));
    }
    let how = Balancing { value_playouts: 16, gradient_playouts: 16, rate, limit };
    let mut weights = Weights::uniform();
    let uniform = error(&weights, &held, 1)?;
    eprintln!(
        "{} positions to fit, {} held out; uniform playouts: held-out error {uniform:.5}",
        train.len(),
        held.len()
    );
    let (mut best, mut best_error, mut best_epoch) = (weights.clone(), uniform, 0);
    let started = Instant::now();
    for epoch in 1..=epochs {
        shuffle(&mut train, epoch as u64);
        let mut train_error = 0.0;
        for batch in train.chunks(BATCH) {
            let (step, sq) = batch_step(&weights, batch, how, (epoch as u64) << 32 ^ batch.len() as u64)?;
            train_error += sq;
            weights.apply(&step, how.rate / batch.len() as f64, how.limit);
        }
        let held_error = error(&weights, &held, epoch as u64)?;
        eprintln!(
            "epoch {epoch}: training error {:.5}, held-out {held_error:.5} ({:.0} s)",
            train_error / train.len() as f64,
            started.elapsed().as_secs_f64()
        );
        if held_error < best_error {
            (best, best_error, best_epoch) = (weights.clone(), held_error, epoch);
        }
    }
    let (table, cap) = best.to_patterns();
    let comment = format!(
        "Playout patterns (the six adjacent cells only) of hexarena's engine, by simulation balancing.\n\
         Rebuilt by `examples/balance_playouts.rs fit {epochs} {rate}:{limit}` from {} valued positions;\n\
         epoch {best_epoch}: held-out squared error {best_error:.5} (uniform playouts {uniform:.5}).\n\
         Read with the cap {cap:.3} (tune_match playout={cap:.3}:FILE).\n\
         Each line: a shape in hexadecimal, then its weight's natural logarithm in thousandths.",
        samples.len()
    );
    print!("{}", table.to_text(&comment));
    Ok(())
}

/// One balancing step over `batch`, split between two threads: the summed
/// step and squared errors.
fn batch_step(weights: &Weights, batch: &[Sample], how: Balancing, seed: u64) -> Result<(Vec<f64>, f64), String> {
    let parts = on_two_threads(batch, |t, part, balancers| {
        let mut rng = hexarena::engine::balance::Rng::new(mix(seed ^ t as u64));
        let mut step = vec![0.0; weights.len()];
        let mut sq = 0.0;
        for s in part {
            let b = balancer_for(balancers, s.size(), weights)?;
            sq += b.accumulate(s, how, &mut rng, &mut step);
        }
        Ok((step, sq))
    })?;
    let mut step = vec![0.0; weights.len()];
    let mut sq = 0.0;
    for (s, e) in parts {
        for (a, b) in step.iter_mut().zip(&s) {
            *a += b;
        }
        sq += e;
    }
    Ok((step, sq))
}

fn shuffle(samples: &mut [Sample], seed: u64) {
    let mut x = seed;
    for i in (1..samples.len()).rev() {
        x = mix(x);
        samples.swap(i, (x % (i as u64 + 1)) as usize);
    }
}
