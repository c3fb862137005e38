//! The engine answers the same in WebAssembly, where the analysis board's
//! and the engine opponent's Web Worker run it, as natively: for fixed
//! seeds and iteration counts the search's best move, its visit counts and
//! its whole principal variation are the same, and so is the top level's
//! move, which first runs the solver for a bounded number of positions.
//! Both builds check the same recorded answers (written by the native
//! build, `--ignored record`), so passing in both means they agree.
//!
//! Natively: `cargo test --test engine_wasm`. In WebAssembly under Node:
//! `CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner cargo test --target wasm32-unknown-unknown --test engine_wasm`
//! (scripts/test.sh runs both). `scripts/bench-engine-wasm.sh` compares the
//! two builds' speed with the `speed` benchmark below.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::sync::OnceLock;

use hexarena::engine::patterns::{BUILTIN, Patterns};
use hexarena::engine::search::level::choose_move_configured;
use hexarena::engine::search::{Level, SearchConfig, Searcher};
use hexarena::engine::{Game, Move};

/// The settings of the worker's analysis, with the learned patterns' priors
/// read from the file's text as the worker reads the file it fetched
/// (WebAssembly builds have no patterns by default).
fn config(seed: u64) -> SearchConfig {
    static PATTERNS: OnceLock<Patterns> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| Patterns::parse(BUILTIN).expect("the shipped pattern file reads"));
    SearchConfig { seed, patterns: Some(patterns), ..SearchConfig::default() }
}

/// Positions (size, moves), each searched with a seed and an iteration count.
const CASES: [(u8, &str, u64, u64); 5] = [
    (5, "", 1, 3_000), // proved at once: the solver knows 5x5
    (7, "d4 c5", 7, 5_000),
    (9, "e5 d6 f4", 11, 8_000),
    (11, "", 3, 6_000),
    (11, "f6 e7 g5 f4 d8", 5, 10_000),
];

/// What the native build found for each case: best move, its visits, the
/// next two moves' visits and the principal variation.
const RECORDED: [&str; 5] = [
    "c3 1 |  | c3",
    "c4 654 | 70 4 | c4 e4 e3 g2 g1 f2 e2 f1 e1",
    "c5 4594 | 623 407 | c5 d3 d5 e3 b4 b5 c4 d7",
    "e6 1636 | 673 437 | e6 i4 i5 h5 h6 g6 g7 f7",
    "c8 3175 | 1893 818 | c8 c9 f8 e8 f7 g7 a10",
];

fn game(size: u8, moves: &str) -> Game {
    let moves: Vec<Move> = moves.split_whitespace().map(|m| Move::parse(m, size).expect("a move")).collect();
    Game::with_moves(size, false, &moves).expect("a legal game")
}

/// The case's search, as one line.
fn answer(case: (u8, &str, u64, u64)) -> String {
    let (size, moves, seed, iterations) = case;
    let mut searcher = Searcher::of_game(&game(size, moves), config(seed)).expect("a position in play");
    searcher.run(iterations);
    let analysis = searcher.analysis(3);
    let best = &analysis.moves[0];
    let others: Vec<String> = analysis.moves[1..].iter().map(|m| m.visits.to_string()).collect();
    let pv: Vec<String> = best.pv.iter().map(|c| c.to_string()).collect();
    format!("{} {} | {} | {}", best.cell, best.visits, others.join(" "), pv.join(" "))
}

#[test]
fn searches_match_the_recorded_native_ones() {
    for (case, recorded) in CASES.into_iter().zip(RECORDED) {
        assert_eq!(answer(case), recorded, "case {case:?}");
    }
}

/// Positions (size, moves) where the top level's solver works around its
/// search, each with a seed and an iteration count: one the proof before
/// the search decides, one it leaves to the search (whose choices are then
/// checked), and one with no proof before where the check after the
/// search refutes the search's favourite.
const PROVING_CASES: [(u8, &str, u64, u64); 3] = [
    (9, "d5 h2 h3 g3 e6 e5 d6 c5 g5 f6 f5 b7 b6 c6 d4 c4", 2, 300),
    (9, "e5 d6 c7 f4 g3 d4 f5 c6 b8 e4 f3", 4, 3_000),
    (9, "d4 g4 h2 f3 f6 e6 f5 e5 f4 e4", SEED_REFUTED, 300),
];

/// A seed for which the third case's search favours a move the solver
/// proves lost (`level`'s unit tests check the same position).
const SEED_REFUTED: u64 = 0;

/// The top level's move in each proving case, as the native build chose it.
const PROVING_RECORDED: [&str; 3] = ["b8", "d7", "d8"];

/// The top level's move (proof, then search, then check) in a proving case.
fn top_level_move(case: (u8, &str, u64, u64)) -> String {
    let (size, moves, seed, iterations) = case;
    // With the learned patterns in both builds, as `config` (the level's
    // defaults differ: none in WebAssembly).
    let settings = SearchConfig { patterns: config(seed).patterns, ..Level::Max.search_config(seed) };
    let chosen =
        choose_move_configured(&game(size, moves), Level::Max, seed, settings, iterations).expect("a position in play");
    chosen.to_string()
}

#[test]
fn top_level_moves_match_the_recorded_native_ones() {
    for (case, recorded) in PROVING_CASES.into_iter().zip(PROVING_RECORDED) {
        assert_eq!(top_level_move(case), recorded, "case {case:?}");
    }
    // In the third case the check, not the search, chose the move.
    let (size, moves, seed, iterations) = PROVING_CASES[2];
    let settings = SearchConfig { patterns: config(seed).patterns, ..Level::Max.search_config(seed) };
    let mut search = Searcher::of_game(&game(size, moves), settings).expect("a position in play");
    search.run(iterations);
    let favourite = search.best_move().expect("a move").to_string();
    assert_ne!(favourite, PROVING_RECORDED[2], "the search's own choice was played");
}

/// Prints the answers to record (after a deliberate change to the search).
#[test]
#[ignore]
fn record() {
    for case in CASES {
        println!("    \"{}\",", answer(case));
    }
    for case in PROVING_CASES {
        println!("    \"{}\",", top_level_move(case));
    }
}

/// Iterations a second on the empty 11x11 board (a benchmark, run by
/// scripts/bench-engine-wasm.sh for both builds). Both builds search with
/// the learned patterns, as the worker does once it has fetched them: the
/// defaults differ (none in WebAssembly), and the priors cost time.
///
/// The search runs in slices of 2,000 iterations, as the worker runs it
/// (about 40 ms each): V8 runs a WebAssembly function on its baseline
/// code until the function is called again once its optimised code is
/// ready, so one long call would measure the baseline compiler all along,
/// which a worker runs on only for its first slices. Measured twice, each
/// on a fresh search: the first 20,000 iterations of a fresh process, and
/// then 200,000 more.
#[test]
#[ignore]
fn speed() {
    const SLICE: u64 = 2_000;
    for (when, iterations) in [("first", 20_000), ("next", 200_000)] {
        let mut searcher = Searcher::new(game(11, "").position(), config(1)).expect("a position in play");
        let started = now_ms();
        for _ in 0..iterations / SLICE {
            searcher.run(SLICE);
        }
        let seconds = (now_ms() - started) / 1000.0;
        let build = if cfg!(target_arch = "wasm32") { "wasm32 (Node)" } else { "native" };
        let rate = iterations as f64 / seconds;
        let line = format!(
            "engine speed, {build}, {when} {iterations} iterations: {rate:.0} iterations/s on the empty 11x11 board"
        );
        #[cfg(target_arch = "wasm32")]
        wasm_bindgen_test::console_log!("{line}");
        #[cfg(not(target_arch = "wasm32"))]
        println!("{line}");
    }
}

#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}
