//! Speed measurements of the engine, shared by `cargo bench` and
//! `hexarena bench`. They need a clock, so they run natively only.

use std::time::{Duration, Instant};

use super::bits::{Bits, ForWidth, Masks, at_width};
use super::game::{Game, Move};
use super::playout::{BridgePlayouts, UniformPlayouts, members};
use super::rng::Rng;
use super::search::{SearchConfig, Searcher};
use super::solver::published_openings;
use super::stones::Stones;

mod fill_in;
mod knowledge;
pub use fill_in::{FillIn, fill_in};
pub use knowledge::{KnowledgeReach, Verdict, knowledge_reach, verdicts};

/// A measured rate.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Things done.
    pub count: u64,
    /// Wall time they took.
    pub elapsed: Duration,
}

impl Rate {
    /// Things per second.
    pub fn per_second(&self) -> f64 {
        self.count as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Milliseconds from some fixed moment: `Instant` natively, the page's or
/// worker's clock in the browser (where `Instant` does not exist).
pub trait Clock {
    fn now_ms(&self) -> f64;
}

/// The native clock.
pub struct NativeClock(Instant);

impl NativeClock {
    pub fn new() -> NativeClock {
        NativeClock(Instant::now())
    }
}

impl Default for NativeClock {
    fn default() -> Self {
        NativeClock::new()
    }
}

impl Clock for NativeClock {
    fn now_ms(&self) -> f64 {
        self.0.elapsed().as_secs_f64() * 1000.0
    }
}

fn timed(clock: &dyn Clock, min_time: Duration, mut batch: impl FnMut() -> u64) -> Rate {
    let start = clock.now_ms();
    let limit = min_time.as_secs_f64() * 1000.0;
    let mut count = 0;
    while clock.now_ms() - start < limit {
        count += batch();
    }
    Rate { count, elapsed: Duration::from_secs_f64((clock.now_ms() - start).max(0.0) / 1000.0) }
}

/// Times `playout` (which returns whether Red won) from the empty board in
/// batches of `batch`.
fn playouts<B: Bits>(
    clock: &dyn Clock,
    size: u8,
    min_time: Duration,
    batch: u64,
    mut playout: impl FnMut(&Stones<B>, &[u16], &mut Rng) -> bool,
) -> Rate {
    let mut rng = Rng::new(1);
    let s = Stones::<B>::empty();
    let mut empties = Vec::new();
    members(s.empty_cells(&Masks::new(size)), size as usize * size as usize, &mut empties);
    let mut red = 0u64;
    let rate = timed(clock, min_time, || {
        for _ in 0..batch {
            red += playout(&s, &empties, &mut rng) as u64;
        }
        batch
    });
    std::hint::black_box(red);
    rate
}

fn uniform<B: Bits>(clock: &dyn Clock, size: u8, min_time: Duration) -> Rate {
    let mut p = UniformPlayouts::<B>::new(size);
    playouts(clock, size, min_time, 1000, |s, e, rng| p.run(s, e, rng) == super::Color::Red)
}

fn bridge<B: Bits>(clock: &dyn Clock, size: u8, min_time: Duration) -> Rate {
    let mut p = BridgePlayouts::<B>::new(size);
    playouts(clock, size, min_time, 100, |s, e, rng| {
        let full = p.run(s, e, None, rng);
        p.winner(&full) == super::Color::Red
    })
}

/// Bridge-aware playouts that also answer the last stone by the shipped
/// learned answers (`answers=builtin`), below a tree rooted at the empty
/// board.
fn answered<B: Bits>(clock: &dyn Clock, size: u8, min_time: Duration) -> Rate {
    let mut p = BridgePlayouts::<B>::new(size).answer_replies(Some(super::patterns::answers::builtin()), 1.0);
    p.set_root(&Stones::empty());
    playouts(clock, size, min_time, 100, |s, e, rng| {
        let full = p.run(s, e, None, rng);
        p.winner(&full) == super::Color::Red
    })
}

/// Uniform random fill-then-check playouts from the empty board.
pub fn uniform_playouts(size: u8, min_time: Duration) -> Rate {
    uniform_playouts_on(&NativeClock::new(), size, min_time)
}

/// Which playouts a [`PlayoutBench`] times.
#[derive(Clone, Copy)]
enum Policy {
    Uniform,
    Bridge,
}

/// A playout benchmark on one board, run at that board's cell-set width.
struct PlayoutBench<'a> {
    policy: Policy,
    clock: &'a dyn Clock,
    size: u8,
    min_time: Duration,
}

impl ForWidth for PlayoutBench<'_> {
    type Output = Rate;
    fn run<B: Bits + 'static>(self) -> Rate {
        match self.policy {
            Policy::Uniform => uniform::<B>(self.clock, self.size, self.min_time),
            Policy::Bridge => bridge::<B>(self.clock, self.size, self.min_time),
        }
    }
}

/// [`uniform_playouts`] timed by `clock`, for the browser.
pub fn uniform_playouts_on(clock: &dyn Clock, size: u8, min_time: Duration) -> Rate {
    at_width(size, PlayoutBench { policy: Policy::Uniform, clock, size, min_time })
}

/// Bridge-aware playouts (the ones the search uses) from the empty board.
pub fn bridge_playouts(size: u8, min_time: Duration) -> Rate {
    at_width(size, PlayoutBench { policy: Policy::Bridge, clock: &NativeClock::new(), size, min_time })
}

/// The answered playouts' benchmark: apart from [`PlayoutBench`], whose
/// uniform playouts the browser's worker runs, so that the worker's
/// bundle does not take in the answers' file.
struct AnsweredBench {
    size: u8,
    min_time: Duration,
}

impl ForWidth for AnsweredBench {
    type Output = Rate;
    fn run<B: Bits + 'static>(self) -> Rate {
        answered::<B>(&NativeClock::new(), self.size, self.min_time)
    }
}

/// [`bridge_playouts`] answering the last stone as learned (the native
/// engine's `answers=builtin`; the browser's build leaves answers out).
pub fn answered_playouts(size: u8, min_time: Duration) -> Rate {
    at_width(size, AnsweredBench { size, min_time })
}

/// MCTS iterations from the empty board, in one search of `iterations`.
pub fn mcts_iterations(size: u8, iterations: u64) -> Rate {
    let game = Game::new(size, false).unwrap_or_else(|_| unreachable!("bench sizes are valid"));
    let start = Instant::now();
    let mut s = match Searcher::new(game.position(), SearchConfig::default()) {
        Ok(s) => s,
        Err(_) => unreachable!("the empty board is not over"),
    };
    s.run(iterations);
    Rate { count: s.iterations(), elapsed: start.elapsed() }
}

/// Three stones of a typical opening on each board [`report`] measures
/// the search after: on the empty board the priors are off, so its rate
/// says little about a game's moves.
fn opening(size: u8) -> &'static [&'static str] {
    match size {
        7 => &["c5", "d3", "e3"],
        9 => &["c7", "e5", "d4"],
        11 => &["d8", "f6", "e5"],
        13 => &["e10", "g7", "f6"],
        _ => &["e15", "j10", "h9"],
    }
}

/// MCTS iterations after [`opening`]'s stones on an `size`×`size` board
/// (one of [`report`]'s), in one search of `iterations` with the default
/// settings (priors, the fast checks and the answers all on, as in a game).
fn mcts_opening_iterations(size: u8, iterations: u64) -> Rate {
    let moves: Vec<Move> = opening(size)
        .iter()
        .map(|text| Move::parse(text, size).unwrap_or_else(|_| unreachable!("the openings are on their boards")))
        .collect();
    let game = Game::with_moves(size, false, &moves).unwrap_or_else(|_| unreachable!("the openings are legal"));
    let start = Instant::now();
    let mut s = match Searcher::of_game(&game, SearchConfig::default()) {
        Ok(s) => s,
        Err(_) => unreachable!("three stones decide no game"),
    };
    s.run(iterations);
    Rate { count: s.iterations(), elapsed: start.elapsed() }
}

/// The whole table that `cargo bench --bench engine` and `hexarena bench`
/// print: per board size, uniform and bridge playouts/s and MCTS
/// iterations/s from the empty board and after three stones, one core.
pub fn report(quick: bool) -> String {
    let t = Duration::from_millis(if quick { 200 } else { 2000 });
    let mut out = format!(
        "{:>6}  {:>14}  {:>14}  {:>14}  {:>14}  {:>16}\n",
        "board", "uniform/s", "bridge/s", "answered/s", "mcts iter/s", "after 3 stones/s"
    );
    for size in [7u8, 9, 11, 13, 19] {
        let u = uniform_playouts(size, t);
        let b = bridge_playouts(size, t);
        let a = answered_playouts(size, t);
        let iterations = if quick { 5_000 } else { 60_000 };
        let m = mcts_iterations(size, iterations);
        let o = mcts_opening_iterations(size, iterations);
        out.push_str(&format!(
            "{:>6}  {:>14.0}  {:>14.0}  {:>14.0}  {:>14.0}  {:>16.0}\n",
            format!("{size}x{size}"),
            u.per_second(),
            b.per_second(),
            a.per_second(),
            m.per_second(),
            o.per_second()
        ));
    }
    out
}

/// Solves every opening of an `n`×`n` board (Red's first stone, Blue to
/// move) within `budget` positions each, one search after another sharing
/// a table (as [`super::solver::solve_each`]), returning for each opening,
/// row by row, the verdict for Red, the seconds and the positions it took.
pub fn solve_openings(n: u8, budget: u64) -> Vec<OpeningResult> {
    let empty = super::Position::new(n).unwrap_or_else(|_| unreachable!("bench sizes are valid"));
    let mut results = solve_replies(&empty, budget);
    // Solved from the centre out; reported row by row.
    results.sort_by_key(|r| (r.cell.r, r.cell.q));
    results
}

/// As [`solve_openings`] for every move of the side to move in `position`,
/// in the order they were solved (from the centre out).
pub fn solve_replies(position: &super::Position, budget: u64) -> Vec<OpeningResult> {
    use super::solver::{Verdict, solve_each};
    let mut results = Vec::new();
    let mut start = Instant::now();
    solve_each(position, budget, |cell, s| {
        // The verdict is for the side to move after the move.
        let wins = match s.verdict {
            Verdict::Loss => Some(true),
            Verdict::Win(_) => Some(false),
            Verdict::Unknown => None,
        };
        results.push(OpeningResult { cell, wins, seconds: start.elapsed().as_secs_f64(), positions: s.nodes });
        start = Instant::now();
    });
    results
}

/// One opening of [`solve_openings`] (one move of [`solve_replies`]).
#[derive(Clone, Copy, Debug)]
pub struct OpeningResult {
    pub cell: super::Cell,
    /// Whether the move there wins for the side that plays it (Red, for an
    /// opening); `None` when the budget ran out.
    pub wins: Option<bool>,
    pub seconds: f64,
    /// Positions the solver expanded for it: unlike the time, the same on
    /// every machine and every run, so two versions compare exactly.
    pub positions: u64,
}

impl OpeningResult {
    /// One line of a per-move listing: the cell, whether `player` (whoever
    /// plays the move) wins, the seconds and the positions.
    pub fn line(&self, player: &str) -> String {
        let verdict = match self.wins {
            Some(true) => format!("{player} wins"),
            Some(false) => format!("{player} loses"),
            None => "unknown".to_string(),
        };
        format!("{:>4}  {verdict:<11}  {:6.2} s  {:>9} positions", self.cell, self.seconds, self.positions)
    }
}

/// A text summary of [`solve_openings`]: the board of results (R: Red's
/// opening wins, b: it loses, ?: unknown), the time and the positions.
pub fn solver_report(n: u8, budget: u64) -> String {
    openings_report(n, budget, &solve_openings(n, budget))
}

/// The text of [`solver_report`] for results already found.
pub fn openings_report(n: u8, budget: u64, results: &[OpeningResult]) -> String {
    let total: f64 = results.iter().map(|r| r.seconds).sum();
    let max = results.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let positions: u64 = results.iter().map(|r| r.positions).sum();
    let solved = results.iter().filter(|r| r.wins.is_some()).count();
    let mut out = format!(
        "{n}x{n} openings: {solved}/{} classified in {total:.1} s and {positions} positions (slowest {max:.1} s), \
         budget {budget} positions each\n",
        results.len()
    );
    for r in 0..n {
        out.push_str(&" ".repeat(r as usize));
        for q in 0..n {
            let glyph = match results[r as usize * n as usize + q as usize].wins {
                Some(true) => 'R',
                Some(false) => 'b',
                None => '?',
            };
            out.push(glyph);
            out.push(' ');
        }
        out.push('\n');
    }
    if let Some(known) = published_openings(n) {
        let wrong: Vec<String> = results
            .iter()
            .zip(known.iter().flat_map(|row| row.chars()))
            .filter(|(got, expected)| got.wins.is_some_and(|wins| wins != (*expected == 'R')))
            .map(|(got, _)| got.cell.to_string())
            .collect();
        if wrong.is_empty() {
            out.push_str(&format!("all {solved} classified openings agree with the published results\n"));
        } else {
            out.push_str(&format!("DISAGREE with the published results: {}\n", wrong.join(" ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_maps_are_alike_under_a_half_turn() {
        // A position and its half-turn twin have the same winner, so a
        // typing slip in a map shows up here.
        for n in [6u8, 7] {
            let rows = published_openings(n).expect("published");
            let glyph = |q: usize, r: usize| rows[r].as_bytes()[q];
            let n = n as usize;
            assert_eq!(rows.len(), n, "{n}x{n} rows");
            for (r, row) in rows.iter().enumerate() {
                assert_eq!(row.len(), n, "{n}x{n} row {}", r + 1);
                for q in 0..n {
                    assert_eq!(glyph(q, r), glyph(n - 1 - q, n - 1 - r), "{n}x{n} at ({q}, {r})");
                }
            }
        }
    }

    #[test]
    fn replies_are_judged_for_the_side_that_plays_them() {
        // Red's centre wins 3×3: every Blue reply loses. After Red's a1
        // (lost on 3×3), Blue has winning replies, and b2 is one of them.
        let mut p = super::super::Position::new(3).unwrap();
        p.play(super::super::Cell::parse("b2", 3).unwrap()).unwrap();
        let after_centre = solve_replies(&p, 10_000);
        assert_eq!(after_centre.len(), 8);
        assert!(after_centre.iter().all(|r| r.wins == Some(false)), "{after_centre:?}");
        let mut p = super::super::Position::new(3).unwrap();
        p.play(super::super::Cell::parse("a1", 3).unwrap()).unwrap();
        let after_corner = solve_replies(&p, 10_000);
        let b2 = after_corner.iter().find(|r| r.cell.to_string() == "b2").unwrap();
        assert_eq!(b2.wins, Some(true));
        assert!(b2.line("reply").trim_start().starts_with("b2  reply wins"), "{}", b2.line("reply"));
        assert!(after_centre[0].line("reply").contains("reply loses"), "{}", after_centre[0].line("reply"));
    }

    #[test]
    fn the_positions_of_a_map_are_the_same_on_every_run_and_add_up_in_the_report() {
        // What makes two versions of the solver comparable on a busy
        // machine: the positions, unlike the seconds, never vary.
        let (first, second) = (solve_openings(4, 100_000), solve_openings(4, 100_000));
        let counts = |rs: &[OpeningResult]| rs.iter().map(|r| (r.cell, r.positions)).collect::<Vec<_>>();
        assert_eq!(counts(&first), counts(&second));
        let total: u64 = first.iter().map(|r| r.positions).sum();
        assert!(total > 0, "{:?}", counts(&first));
        let report = openings_report(4, 100_000, &first);
        assert!(report.contains(&format!(" and {total} positions ")), "{report}");
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
    fn every_six_by_six_opening_is_classified_as_published() {
        let report = solver_report(6, 2_000_000);
        assert!(report.contains("36/36 classified"), "{report}");
        assert!(report.contains("agree with the published results"), "{report}");
    }
}
