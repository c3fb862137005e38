//! How much the proof before the search settles along real games, with
//! the solver's table started afresh at every move or kept from move to
//! move (as the GTP engine keeps it), how many moves it proves to lose
//! where it settles nothing, and how often the tree's own choice is one of
//! those:
//!
//!     cargo run --release --example proof_reach -- GAMES SIZE NODES [ITERATIONS] [lists=SPEC]
//!
//! GAMES as for `knowledge_reach` (`learn_patterns play`'s move lists or
//! `scripts/gtp_match.py`'s records). Every position before a move of the
//! SIZE×SIZE games that the GTP engine would try to prove (at most
//! `endgame::timed_default`'s empty cells) gets NODES solver positions
//! each way; with ITERATIONS, a fresh tree search of that many iterations
//! (default settings, a fixed seed) says which move it would play. With
//! `lists=SPEC` (as `hexarena gtp --search lists=…` takes it) the solver's
//! H-search uses those rules instead of its default.

use std::time::Instant;

use hexarena::engine::search::endgame::timed_default;
use hexarena::engine::search::{SearchConfig, Searcher};
use hexarena::engine::solver::{Prover, Verdict};
use hexarena::engine::{Cell, Game, ListLimits};

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

/// What one way of proving found over the positions.
#[derive(Default)]
struct Tally {
    won: u32,
    lost: u32,
    /// Undecided positions where some moves were proved to lose.
    cut: u32,
    /// Over the undecided positions: moves the solver's reduction left,
    /// and of them those not proved to lose.
    moves: u64,
    open: u64,
    /// Undecided positions where the tree's choice was proved to lose.
    chose_lost: u32,
    seconds: f64,
    nodes: u64,
}

impl Tally {
    fn add(&mut self, prover: &mut Prover, nodes: u64, candidates: usize, chosen: Option<Cell>) {
        let started = Instant::now();
        let before = prover.nodes();
        let verdict = prover.run(nodes).clone();
        self.seconds += started.elapsed().as_secs_f64();
        self.nodes += prover.nodes() - before;
        match verdict {
            Verdict::Win(_) => self.won += 1,
            Verdict::Loss => self.lost += 1,
            Verdict::Unknown => {
                let open = prover.open_moves().unwrap_or_default();
                self.moves += candidates as u64;
                self.open += open.len() as u64;
                if open.len() < candidates {
                    self.cut += 1;
                    if chosen.is_some_and(|c| !open.contains(&c)) {
                        self.chose_lost += 1;
                    }
                }
            }
        }
    }

    fn line(&self, name: &str) {
        println!(
            "{name:>6}  {:>6}  {:>5}  {:>5}  {:>10}  {:>12.1}%  {:>12}  {:>8.0}",
            self.won + self.lost,
            self.won,
            self.lost,
            self.cut,
            100.0 * self.open as f64 / self.moves.max(1) as f64,
            self.chose_lost,
            self.nodes as f64 / self.seconds.max(1e-9),
        );
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: proof_reach GAMES SIZE NODES [ITERATIONS] [lists=SPEC]";
    let count = |text: &String, what: &str| text.parse::<u64>().map_err(|_| format!("{usage}: {what} `{text}`"));
    let (limits, args) = match args.split_last() {
        Some((last, rest)) if last.starts_with("lists=") => {
            let spec = &last["lists=".len()..];
            (ListLimits::parse(spec).ok_or_else(|| format!("{usage}: lists `{spec}`"))?, rest)
        }
        _ => (ListLimits::default(), args),
    };
    let (path, size, nodes, iterations) = match args {
        [path, size, nodes] => (path, size, count(nodes, "NODES")?, None),
        [path, size, nodes, iterations] => (path, size, count(nodes, "NODES")?, Some(count(iterations, "ITERATIONS")?)),
        _ => return Err(usage.into()),
    };
    let size = size.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{size}`"))?;
    let games = games::games(path, size)?;
    let max_empty = timed_default(size).max_empty;
    let (mut fresh, mut kept, mut positions) = (Tally::default(), Tally::default(), 0);
    for game in &games {
        let mut carried: Option<Prover> = None;
        for k in 1..game.moves().len() {
            let at: Game = game.prefix(k);
            let position = at.position();
            if position.empty_cells().count() > max_empty {
                continue;
            }
            positions += 1;
            let candidates = Prover::with_limits(position, limits).open_moves().map_or(0, |m| m.len());
            let chosen = iterations.and_then(|i| {
                let mut search = Searcher::of_game(&at, SearchConfig::default()).ok()?;
                search.run(i);
                search.best_move()
            });
            fresh.add(&mut Prover::with_limits(position, limits), nodes, candidates, chosen);
            let prover = match carried.as_mut() {
                Some(p) => {
                    p.reroot(position);
                    p
                }
                None => carried.insert(Prover::with_limits(position, limits)),
            };
            kept.add(prover, nodes, candidates, chosen);
        }
    }
    println!("{positions} positions of {} {size}x{size} games from {path}, {nodes} solver positions each", games.len());
    println!(
        "{:>6}  {:>6}  {:>5}  {:>5}  {:>10}  {:>13}  {:>12}  {:>8}",
        "table", "proved", "won", "lost", "some cut", "moves left", "chose a loss", "nodes/s"
    );
    fresh.line("fresh");
    kept.line("kept");
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
