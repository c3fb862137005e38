//! Playing strengths, from a beginner's opponent to everything the search
//! has, and the choice of a move (or a swap) at a level.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::bounded::{BoundedCheck, BoundedProof};
use super::endgame::{self, Checking, DEFAULT_CHECKING, DEFAULT_PROVING, Proving};
use super::refute::Refuting;
use super::{Analysis, DEFAULT_PRIOR_WEIGHT, SearchConfig, Searcher};
use crate::engine::cell::Cell;
use crate::engine::game::{Game, Move};
use crate::engine::rng::Rng;
use crate::engine::solver::Verdict;

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A few hundred playouts and a loose choice among the good moves.
    Beginner,
    /// A few thousand playouts, picks among the very best.
    Casual,
    /// Tens of thousands of playouts, always the best move found.
    Strong,
    /// The largest budget; with a time limit, all the time it is given.
    Max,
}

/// The weight of the learned patterns' priors at the easier levels.
pub const LEVEL_PRIOR_WEIGHT: f32 = 1.0;

/// Solver positions before the search at the max level: at most about a
/// fifth of the time its iterations take (docs/benchmarks.md).
pub const MAX_PROOF_POSITIONS: u64 = 10_000;

/// Solver positions for each of the search's choices the max level checks
/// after its search (`endgame::DEFAULT_CHECKING`'s choices): as many as
/// refuted most losing choices of the GTP engine's search; twice as many
/// cost 11×11 moves a third more time (docs/benchmarks.md).
pub const MAX_CHECK_POSITIONS: u64 = 1_000;

/// Every level, weakest first.
pub const LEVELS: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Max];

impl Level {
    /// Iterations per move at this level.
    pub fn iterations(self) -> u64 {
        match self {
            Level::Beginner => 300,
            Level::Casual => 3_000,
            Level::Strong => 30_000,
            Level::Max => 200_000,
        }
    }

    /// The search settings of this level: the learned patterns' priors,
    /// lighter at the easier levels, which are meant to be beaten (weight 3
    /// was measured stronger at their budgets too: docs/benchmarks.md), and
    /// at the engine's default above.
    pub fn search_config(self, seed: u64) -> SearchConfig {
        let prior_weight = match self {
            Level::Beginner | Level::Casual => LEVEL_PRIOR_WEIGHT,
            Level::Strong | Level::Max => DEFAULT_PRIOR_WEIGHT,
        };
        SearchConfig { seed, prior_weight, ..SearchConfig::default() }
    }

    /// The solver positions this level spends looking for a proof before
    /// its search, where one is likely enough (`endgame::DEFAULT_PROVING`'s
    /// empty cells): only at the top level, which is the whole engine. The
    /// easier levels are meant to be caught out, and the strong level's
    /// search was measured to keep its proved wins on its own
    /// (docs/benchmarks.md), so it does not pay for the solver's time.
    /// Every level proves a swap decision where that is cheap enough.
    pub fn proof_positions(self, game: &Game) -> Option<u64> {
        if let Some(positions) = swap_proof_positions(game) {
            return Some(positions);
        }
        match self {
            Level::Beginner | Level::Casual | Level::Strong => None,
            Level::Max => {
                (game.position().empty_cells().count() <= DEFAULT_PROVING.max_empty).then_some(MAX_PROOF_POSITIONS)
            }
        }
    }

    /// The solver positions this level spends on each of its search's
    /// best moves after the search, to refute one that loses
    /// ([`BoundedCheck`]): only the top level, where the GTP engine checks
    /// (`endgame::DEFAULT_CHECKING`'s empty cells), and not on a swap
    /// decision. The easier levels play their search's mistakes.
    pub fn check_positions(self, game: &Game) -> Option<u64> {
        let checks = self == Level::Max
            && !game.can_swap()
            && game.position().empty_cells().count() <= DEFAULT_CHECKING.max_empty;
        checks.then_some(MAX_CHECK_POSITIONS)
    }

    /// How sharply the move is picked by visit count: higher is greedier,
    /// `None` takes the most visited move.
    fn sharpness(self) -> Option<f64> {
        match self {
            Level::Beginner => Some(1.0),
            Level::Casual => Some(3.0),
            Level::Strong | Level::Max => None,
        }
    }

    /// The name used in settings and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a level: choose beginner, casual, strong or max", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        LEVELS
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Whether Blue, on move 2, should take Red's first stone, judged by a
/// search of the position after it (Blue to move). Swapping hands Blue
/// exactly what Red has now, colours exchanged, so it pays when Blue's own
/// chances here are below even: when Red's stone is proved to win, or the
/// search rates Blue's best reply under 50%.
pub fn swap_pays(analysis: &Analysis) -> bool {
    match analysis.proven {
        Some(proof) => proof.winner != analysis.to_move,
        None => analysis.win_rate < 0.5,
    }
}

/// The fewest iterations a swap decision is taken on, at any level: a
/// short search rates its best reply too high (the best of a few noisy
/// averages), and below about this many even a centre opening looked fair
/// to Blue (docs/benchmarks.md).
pub const SWAP_ITERATIONS: u64 = 30_000;

/// The iterations the engine spends on its move in `game` at `level`:
/// the level's, or more when the move may be a swap.
pub fn move_budget(game: &Game, level: Level) -> u64 {
    if game.can_swap() { level.iterations().max(SWAP_ITERATIONS) } else { level.iterations() }
}

/// The solver positions a swap decision in `game` may take: enough for
/// every 6×6 opening, and on 7×7 for most of those the search misjudges,
/// in a few seconds at worst, once a game (docs/benchmarks.md). Larger
/// boards, or no swap to decide: `None`, the search decides.
pub fn swap_proof_positions(game: &Game) -> Option<u64> {
    if !game.can_swap() {
        return None;
    }
    match game.size() {
        ..=6 => Some(20_000),
        7 => Some(100_000),
        _ => None,
    }
}

/// How a timed move in `game` (the GTP engine) shares its time with the
/// solver: as every move late in a game does, except a swap decision on a
/// small board, which gives the solver three quarters, as the search alone
/// misjudges many 7×7 openings that a proof settles (docs/benchmarks.md).
pub fn timed_proving(game: &Game) -> Proving {
    match swap_proof_positions(game) {
        Some(_) => Proving { share: 0.75, max_empty: usize::MAX, check: Checking::OFF, refute: Refuting::OFF },
        None => endgame::timed_default(game.size()),
    }
}

/// Whether Red's first stone in `game` is proved to win (swap) or to lose
/// (keep the move); `None` on larger boards or when the budget runs out.
pub fn proved_swap(game: &Game) -> Option<bool> {
    let positions = swap_proof_positions(game)?;
    match BoundedProof::new(game.position(), positions).finish() {
        Verdict::Win(_) => Some(false),
        Verdict::Loss => Some(true),
        Verdict::Unknown => None,
    }
}

/// Whether Blue takes Red's first stone in `game`, after a search whose
/// result is `analysis` and a proof attempt that found `verdict` (a level's
/// attempt covers the swap, [`swap_proof_positions`]): never where the rule
/// does not allow it; as the solver proved it; else as the search rates it.
pub fn swaps(game: &Game, analysis: &Analysis, verdict: &Verdict) -> bool {
    if !game.can_swap() {
        return false;
    }
    match verdict {
        // Blue to move wins as it stands: Red's stone loses, keep it so.
        Verdict::Win(_) => false,
        Verdict::Loss => true,
        Verdict::Unknown => swap_pays(analysis),
    }
}

/// The engine's move at `level` once the search of `game` is done, with
/// what the solver found before it: the swap where it is allowed and pays,
/// else a proved win's move, else the level's pick of a cell.
pub fn decide(game: &Game, search: &Searcher, verdict: &Verdict, level: Level, seed: u64) -> Option<Move> {
    let analysis = search.analysis(8);
    if swaps(game, &analysis, verdict) {
        return Some(Move::Swap);
    }
    endgame::winning_move(verdict, search).or_else(|| pick(&analysis, level, seed)).map(Move::Place)
}

/// The move the engine plays in `game` at `level`; `None` once the game is
/// over. `seed` varies the choice between games.
pub fn choose_move(game: &Game, level: Level, seed: u64) -> Option<Move> {
    choose_move_with(game, level, seed, move_budget(game, level))
}

/// [`choose_move`] with an explicit iteration budget.
pub fn choose_move_with(game: &Game, level: Level, seed: u64, iterations: u64) -> Option<Move> {
    choose_move_configured(game, level, seed, level.search_config(seed), iterations)
}

/// [`choose_move_with`] searching with `config` (the level's own but for
/// what the caller changed, such as the worker's fetched patterns, which
/// a WebAssembly build lacks by default).
pub fn choose_move_configured(
    game: &Game,
    level: Level,
    seed: u64,
    config: SearchConfig,
    iterations: u64,
) -> Option<Move> {
    if game.winner().is_some() {
        return None;
    }
    let position = game.position();
    let mut searcher = Searcher::of_game(game, config).ok()?;
    let verdict = match level.proof_positions(game) {
        Some(positions) => {
            let mut proof = BoundedProof::new(position, positions);
            let verdict = proof.finish();
            // The search chooses among the moves not proved to lose.
            if let Some(open) = proof.open_moves() {
                searcher.keep_root_moves(&open);
            }
            verdict
        }
        None => Verdict::Unknown,
    };
    searcher.run(endgame::iterations_after(&verdict, iterations));
    if let Some(mut check) = start_check(game, &searcher, &verdict, level) {
        check.finish();
        check.cut(&mut searcher);
    }
    decide(game, &searcher, &verdict, level, seed)
}

/// The check of `search`'s choices in `game` at `level`, once the search
/// is done, where the level checks and the solver proved nothing before
/// (a proved win's move is sound; with a proved loss every move loses).
pub fn start_check(game: &Game, search: &Searcher, verdict: &Verdict, level: Level) -> Option<BoundedCheck> {
    let positions = level.check_positions(game).filter(|_| *verdict == Verdict::Unknown)?;
    Some(BoundedCheck::new(game.position(), search, DEFAULT_CHECKING.choices, positions))
}

/// The cell a `level` player picks from a finished search's `analysis`:
/// the best move, or at the easier levels one of the good ones at random
/// (never past a proved win or into a proved loss).
pub fn pick(analysis: &Analysis, level: Level, seed: u64) -> Option<Cell> {
    let best = analysis.moves.first()?;
    let chosen = match level.sharpness() {
        Some(power) if best.proven.is_none() => {
            let mut rng = Rng::new(seed ^ 0x9e37_79b9);
            let weights: Vec<f64> = analysis
                .moves
                .iter()
                .map(|m| if m.proven.is_some() { 0.0 } else { (m.visits as f64 + 1.0).powf(power) })
                .collect();
            let total: f64 = weights.iter().sum();
            let mut x = rng.unit() * total;
            let mut chosen = best;
            for (m, w) in analysis.moves.iter().zip(weights) {
                if x < w {
                    chosen = m;
                    break;
                }
                x -= w;
            }
            chosen
        }
        _ => best,
    };
    Some(chosen.cell)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;
    use crate::engine::color::Color;
    use crate::engine::search::Proof;
    use crate::engine::solver::solve;

    #[test]
    fn levels_parse_and_print() {
        for l in LEVELS {
            assert_eq!(l.as_str().parse::<Level>(), Ok(l));
        }
        assert_eq!("MAX".parse::<Level>(), Ok(Level::Max));
        assert!("grandmaster".parse::<Level>().is_err());
    }

    fn analysis(to_move: Color, win_rate: f32, proven: Option<Proof>) -> Analysis {
        Analysis {
            size: 9,
            to_move,
            playouts: 1000,
            moves: Vec::new(),
            win_rate,
            proven,
            solved: None,
            solved_within: None,
        }
    }

    #[test]
    fn a_swap_pays_when_the_reply_is_rated_or_proved_worse_than_even() {
        assert!(swap_pays(&analysis(Color::Blue, 0.42, None)));
        assert!(!swap_pays(&analysis(Color::Blue, 0.58, None)));
        // A proof outweighs the estimate, either way.
        let red_wins = Proof { winner: Color::Red, winner_moves: 9 };
        let blue_wins = Proof { winner: Color::Blue, winner_moves: 9 };
        assert!(swap_pays(&analysis(Color::Blue, 0.9, Some(red_wins))));
        assert!(!swap_pays(&analysis(Color::Blue, 0.1, Some(blue_wins))));
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "seconds unoptimised; scripts/test.sh runs it in release")]
    fn small_boards_swap_exactly_as_the_published_6x6_map_says() {
        let map = crate::engine::solver::published_openings(6).expect("published");
        for (r, row) in map.iter().enumerate() {
            for (q, verdict) in row.bytes().enumerate() {
                let mut g = Game::new(6, true).unwrap();
                g.play(Move::Place(Cell::new(q as u8, r as u8))).unwrap();
                assert_eq!(proved_swap(&g), Some(verdict == b'R'), "{}", Cell::new(q as u8, r as u8));
            }
        }
        // Past the solved sizes the search decides.
        let mut g = Game::new(8, true).unwrap();
        g.play(Move::Place(Cell::new(0, 0))).unwrap();
        assert_eq!(proved_swap(&g), None);
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "seconds unoptimised; scripts/test.sh runs it in release")]
    fn small_boards_swap_as_the_published_7x7_map_says_where_the_search_misjudged() {
        // The 7×7 openings on which a 30,000-iteration search swapped
        // wrongly and the solver's proof decides right (docs/benchmarks.md).
        let map = crate::engine::solver::published_openings(7).expect("published");
        for name in ["c2", "e2", "b3", "f3", "c4", "e4"] {
            let opening = Cell::parse(name, 7).unwrap();
            let red_wins = map[opening.r as usize].as_bytes()[opening.q as usize] == b'R';
            let mut g = Game::new(7, true).unwrap();
            g.play(Move::Place(opening)).unwrap();
            assert_eq!(proved_swap(&g), Some(red_wins), "{name}");
            let expected = if red_wins { Some(Move::Swap) } else { None };
            let chosen = choose_move(&g, Level::Beginner, 1);
            assert_eq!(chosen.filter(|m| *m == Move::Swap), expected, "{name}: {chosen:?}");
        }
    }

    #[test]
    fn only_the_top_level_looks_for_a_proof_and_only_late() {
        let game = |text: &str| Record::from_text(text, 9).unwrap().to_game(false).unwrap();
        let late = game(WON_9X9);
        for level in [Level::Beginner, Level::Casual, Level::Strong] {
            assert_eq!(level.proof_positions(&late), None, "{level}");
        }
        assert_eq!(Level::Max.proof_positions(&late), Some(MAX_PROOF_POSITIONS));
        let early = game("9x9 e5 d6 c7 f4 g3 d4 f5 c6 b8 e4");
        assert_eq!(Level::Max.proof_positions(&early), None);
        // Any level proves a swap decision on a small board.
        let seven = Game::with_moves(7, true, &[Move::parse("c2", 7).unwrap()]).unwrap();
        assert_eq!(Level::Beginner.proof_positions(&seven), Some(100_000));
    }

    #[test]
    fn only_the_top_level_checks_its_choices_and_not_a_swap() {
        let nine = Record::from_text("9x9 e5 d6 c7", 9).unwrap().to_game(false).unwrap();
        for level in [Level::Beginner, Level::Casual, Level::Strong] {
            assert_eq!(level.check_positions(&nine), None, "{level}");
        }
        assert_eq!(Level::Max.check_positions(&nine), Some(MAX_CHECK_POSITIONS));
        // On 11×11 from the twenty-first stone (at most 100 empty cells).
        let eleven = |stones: usize| {
            let cells = (0..stones).map(|i| Move::Place(Cell::from_index(i * 2, 11))).collect::<Vec<_>>();
            Game::with_moves(11, false, &cells).unwrap()
        };
        assert_eq!(Level::Max.check_positions(&eleven(20)), None);
        assert_eq!(Level::Max.check_positions(&eleven(21)), Some(MAX_CHECK_POSITIONS));
        let swap = Game::with_moves(9, true, &[Move::parse("e5", 9).unwrap()]).unwrap();
        assert_eq!(Level::Max.check_positions(&swap), None);
        // Nothing to check after a proof: its win is kept, or all is lost.
        let search = Searcher::of_game(&nine, Level::Max.search_config(1)).unwrap();
        assert!(start_check(&nine, &search, &Verdict::Unknown, Level::Max).is_some());
        assert!(start_check(&nine, &search, &Verdict::Loss, Level::Max).is_none());
        assert!(start_check(&nine, &search, &Verdict::Unknown, Level::Strong).is_none());
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "seconds unoptimised; scripts/test.sh runs it in release")]
    fn the_top_level_does_not_play_a_choice_the_solver_refutes() {
        // A self-play position (71 empty cells: no proof before the
        // search) where a short search may favour a losing move.
        let game = Record::from_text(super::super::endgame::tests::CHECKED, 9).unwrap().to_game(false).unwrap();
        let p = game.position();
        assert_eq!(Level::Max.proof_positions(&game), None);
        let loses = |cell: Cell, budget: u64| {
            let mut after = p.clone();
            after.play(cell).unwrap();
            matches!(solve(&after, budget).verdict, Verdict::Win(_))
        };
        const ITERATIONS: u64 = 300;
        let favourite = |seed: u64| {
            let mut search = Searcher::of_game(&game, Level::Max.search_config(seed)).unwrap();
            search.run(ITERATIONS);
            search.best_move().unwrap()
        };
        let played = |seed: u64| match choose_move_with(&game, Level::Max, seed, ITERATIONS) {
            Some(Move::Place(cell)) => cell,
            other => panic!("seed {seed}: {other:?}"),
        };
        // Seed 0's search favours a losing move: another is played.
        let losing = favourite(0);
        assert!(loses(losing, 20_000), "the search's {losing} does not lose: nothing to check");
        let instead = played(0);
        assert_ne!(instead, losing);
        assert!(!loses(instead, 100_000), "{instead} loses too");
        // Seed 1's favourite is not refuted: the check leaves it.
        let kept = favourite(1);
        assert!(!loses(kept, 20_000));
        assert_eq!(played(1), kept);
    }

    /// Red to move wins (b8 and d3 both keep it).
    const WON_9X9: &str = "9x9 d5 h2 h3 g3 e6 e5 d6 c5 g5 f6 f5 b7 b6 c6 d4 c4";

    #[test]
    fn the_top_level_keeps_a_proved_win_even_on_a_tiny_search() {
        // Ten iterations cannot tell the two winning cells from the other
        // sixty-three; the proof can.
        let game = Record::from_text(WON_9X9, 9).unwrap().to_game(false).unwrap();
        for seed in 1..=4 {
            let Some(Move::Place(cell)) = choose_move_with(&game, Level::Max, seed, 10) else { panic!("no cell") };
            let mut after = game.clone();
            after.play(Move::Place(cell)).unwrap();
            assert_eq!(solve(after.position(), 2_000_000).verdict, Verdict::Loss, "seed {seed}: {cell} lets Blue win");
        }
    }

    #[test]
    fn a_timed_swap_decision_on_a_small_board_gives_the_solver_most_of_the_time() {
        let opening = [Move::parse("c2", 7).unwrap()];
        let seven = Game::with_moves(7, true, &opening).unwrap();
        let second = std::time::Duration::from_secs(1);
        assert_eq!(timed_proving(&seven).time(seven.position(), second), second.mul_f32(0.75));
        // Without the swap rule, or on a board too big to prove an
        // opening, the move is like any other: too early to try.
        let no_rule = Game::with_moves(7, false, &opening).unwrap();
        assert_eq!(timed_proving(&no_rule), DEFAULT_PROVING);
        let nine = Game::with_moves(9, true, &[Move::parse("e5", 9).unwrap()]).unwrap();
        assert_eq!(timed_proving(&nine).time(nine.position(), second), std::time::Duration::ZERO);
    }

    #[test]
    fn a_proof_decides_the_swap_over_the_search() {
        let mut g = Game::new(9, true).unwrap();
        g.play(Move::parse("e5", 9).unwrap()).unwrap();
        // The search rates Blue's reply under even: a swap, unless proved.
        let rated = analysis(Color::Blue, 0.3, None);
        assert!(swaps(&g, &rated, &Verdict::Unknown));
        assert!(!swaps(&g, &rated, &Verdict::Win(Vec::new())));
        let fair = analysis(Color::Blue, 0.6, None);
        assert!(swaps(&g, &fair, &Verdict::Loss));
        let no_rule = Game::with_moves(9, false, &[Move::parse("e5", 9).unwrap()]).unwrap();
        assert!(!swaps(&no_rule, &rated, &Verdict::Loss));
    }

    #[test]
    fn the_engine_swaps_a_centre_opening_and_answers_a_corner_one() {
        for level in [Level::Beginner, Level::Casual] {
            let mut g = Game::new(9, true).unwrap();
            g.play(Move::parse("e5", 9).unwrap()).unwrap();
            assert_eq!(choose_move(&g, level, 1), Some(Move::Swap), "{level}");
            // The acute corner loses for the side that takes it.
            let mut g = Game::new(9, true).unwrap();
            g.play(Move::parse("a1", 9).unwrap()).unwrap();
            assert!(matches!(choose_move(&g, level, 1), Some(Move::Place(_))), "{level}");
        }
        let mut g = Game::new(11, true).unwrap();
        g.play(Move::parse("f6", 11).unwrap()).unwrap();
        assert_eq!(choose_move(&g, Level::Casual, 1), Some(Move::Swap));
        // With no swap rule there is nothing to decide.
        let mut g = Game::new(9, false).unwrap();
        g.play(Move::parse("e5", 9).unwrap()).unwrap();
        assert!(matches!(choose_move(&g, Level::Beginner, 1), Some(Move::Place(_))));
    }
}
