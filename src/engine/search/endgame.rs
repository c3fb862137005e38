//! Proving the position at the root with part of a move's time.
//!
//! The tree search proves a position only once its tree reaches the end
//! of every line, which on 9×9 comes many moves after the solver could
//! prove it: in self-play positions with fourteen stones, the solver most
//! often settles the game within a few thousand positions, while the
//! search's first proof came ten or more moves later. In between, a search
//! can let a won game slip. So a move's time is shared: first the solver
//! (a [`Prover`] run in slices, until it decides or its share is spent),
//! then the tree search with what is left. A proved win is kept by playing
//! a winning move, the one the search likes best; a proved loss or no
//! proof leaves the choice to the search.

use std::time::Duration;

use super::bounded::BoundedCheck;
use super::refute::{self, Refuting, refuting_limits};
use super::{Analysis, Searcher};
use crate::engine::cell::Cell;
use crate::engine::position::Position;
use crate::engine::solver::{FastChecks, Prover, Verdict};

/// When and how long to look for a proof.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proving {
    /// The share of a move's time the solver may take (0: never).
    pub share: f32,
    /// The solver is tried only with at most this many empty cells: with
    /// more, a proof within a move is too rare to pay for its time.
    pub max_empty: usize,
    /// The look at the search's own choice before it is played.
    pub check: Checking,
    /// The fast checks' look at the search's best moves, before the
    /// solver's.
    pub refute: Refuting,
}

/// How the search's choice is checked before it is played: the solver
/// looks at the position after it alone, where a losing move is often
/// refuted within about a thousand solver positions while the proof of the whole
/// position, spread over every move, settles nothing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Checking {
    /// The share of a move's time kept back from the search (0: never).
    pub share: f32,
    /// Checked only with at most this many empty cells.
    pub max_empty: usize,
    /// At most this many of the search's choices, best first.
    pub choices: usize,
}

impl Checking {
    /// No check.
    pub const OFF: Checking = Checking { share: 0.0, max_empty: 0, choices: 0 };

    /// The time kept for the check of a move of `time` in `position`.
    pub fn time(&self, position: &Position, time: Duration) -> Duration {
        if self.share <= 0.0 || self.choices == 0 || position.empty_cells().count() > self.max_empty {
            return Duration::ZERO;
        }
        time.mul_f32(self.share.min(1.0))
    }
}

impl std::str::FromStr for Checking {
    type Err = String;

    /// `SHARE[:MAX_EMPTY[:CHOICES]]`: a share of the move from 0 to 0.9,
    /// every position and three choices unless given.
    fn from_str(text: &str) -> Result<Checking, String> {
        let bad = || format!("`{text}` is not SHARE[:MAX_EMPTY[:CHOICES]] (a share from 0 to 0.9, counts from 1)");
        let mut parts = text.split(':');
        let share = parts.next().and_then(|p| p.parse::<f32>().ok()).filter(|s| (0.0..=0.9).contains(s));
        let count = |part: Option<&str>, default: usize| match part {
            None => Some(default),
            Some(p) => p.parse::<usize>().ok().filter(|&n| n > 0),
        };
        let max_empty = count(parts.next(), usize::MAX);
        let choices = count(parts.next(), 3);
        match (share, max_empty, choices, parts.next()) {
            (Some(share), Some(max_empty), Some(choices), None) => Ok(Checking { share, max_empty, choices }),
            _ => Err(bad()),
        }
    }
}

/// The GTP engine's check: a fifth of the move for the search's three
/// best moves, once at most 100 cells are empty (all of 9×9; 11×11 waits
/// for its proof's 91). The measurements behind it are in
/// docs/benchmarks.md.
pub const DEFAULT_CHECKING: Checking = Checking { share: 0.2, max_empty: 100, choices: 3 };

/// What the GTP engine does on 9×9 and most boards. The measurements
/// behind it are in docs/benchmarks.md.
pub const DEFAULT_PROVING: Proving =
    Proving { share: 0.25, max_empty: 70, check: DEFAULT_CHECKING, refute: Refuting::OFF };

/// On 11×11 the proof starts from the thirtieth stone (91 empty cells)
/// instead of the fifty-first: the games against MoHex are decided there,
/// and a quarter of a move often settles such positions. The check waits
/// for the same stone: from the 21st it scored worse against MoHex
/// (docs/benchmarks.md).
const ELEVEN_MAX_EMPTY: usize = 91;

/// What the GTP engine does on an `n`×`n` board.
pub fn timed_default(n: u8) -> Proving {
    match n {
        11 => Proving {
            max_empty: ELEVEN_MAX_EMPTY,
            check: Checking { max_empty: ELEVEN_MAX_EMPTY, ..DEFAULT_CHECKING },
            ..DEFAULT_PROVING
        },
        _ => DEFAULT_PROVING,
    }
}

/// Iterations of the tree search that rank the winning moves once a win
/// is proved (the rest of the move's time is not needed).
const RANKING_ITERATIONS: u64 = 2_000;

/// Positions the solver searches between two looks at the clock.
pub(super) const SLICE: u64 = 256;

impl Proving {
    /// The time the solver may take of a move's `time` in `position`
    /// (zero when it is not worth trying).
    pub fn time(&self, position: &Position, time: Duration) -> Duration {
        if self.share <= 0.0 || position.empty_cells().count() > self.max_empty {
            return Duration::ZERO;
        }
        time.mul_f32(self.share.min(1.0))
    }
}

/// The solver's search kept from one move of a game to the next, as the
/// tree is ([`super::Following`]): the positions below the new root were
/// often searched, some proved, a move or two before.
#[derive(Default)]
pub struct Proofs {
    prover: Option<Prover>,
    checks: Option<FastChecks>,
    /// Moves the fast checks' look took from the root so far.
    refuted: u64,
    /// Positions the look proved won and cut to their winning moves.
    won: u64,
}

impl Proofs {
    /// Nothing searched yet.
    pub fn new() -> Proofs {
        Proofs::default()
    }

    /// Looks for a proof of `position` for the side to move until one is
    /// found or `elapsed()` reaches `time`, going on from what earlier
    /// calls found. With no proof, also the moves not yet proved to lose.
    fn prove_within(&mut self, position: &Position, time: Duration, elapsed: &mut impl FnMut() -> Duration) -> Found {
        if time.is_zero() {
            return Found { verdict: Verdict::Unknown, open: None };
        }
        let kept = self.prover.as_mut().is_some_and(|prover| prover.reroot(position));
        let prover = match self.prover.as_mut() {
            Some(prover) if kept => prover,
            _ => self.prover.insert(Prover::new(position)),
        };
        loop {
            let verdict = prover.run(SLICE).clone();
            if verdict != Verdict::Unknown || elapsed() >= time {
                let open = prover.open_moves();
                return Found { verdict, open };
            }
        }
    }

    /// Looks at the search's `choices` best moves one by one, each alone,
    /// as the levels do ([`BoundedCheck`]) but with the game's kept solver
    /// and until `elapsed()` reaches `until`; the refuted ones are taken
    /// from the root.
    fn check_choices(
        &mut self,
        position: &Position,
        search: &mut Searcher,
        choices: usize,
        until: Duration,
        elapsed: &mut impl FnMut() -> Duration,
    ) {
        let mut prover = self.prover.take().unwrap_or_else(|| Prover::new(position));
        if !prover.reroot(position) {
            prover = Prover::new(position);
        }
        let mut check = BoundedCheck::with_prover(prover, position, search, choices, u64::MAX);
        while elapsed() < until && !check.step(1) {}
        check.cut(search);
        self.prover = Some(check.into_prover());
    }

    /// The fast checks' look at `search`'s `choices` best moves
    /// ([`refute::refute`]), with checks kept for the game's board.
    fn refute(&mut self, position: &Position, search: &mut Searcher, choices: usize) -> refute::Look {
        let n = position.size();
        let checks = match self.checks.as_mut() {
            Some(checks) if checks.size() == n => checks,
            _ => self.checks.insert(FastChecks::new(n, refuting_limits())),
        };
        let look = refute::refute(checks, position, search, choices);
        match &look {
            refute::Look::Refuted(moves) => self.refuted += moves.len() as u64,
            refute::Look::Won(_) => self.won += 1,
            refute::Look::Unchanged => {}
        }
        look
    }

    /// How many moves the fast checks' look has taken from the root in
    /// all (to measure how often it acts).
    pub fn refuted(&self) -> u64 {
        self.refuted
    }

    /// How many positions the look has proved won and cut to the moves
    /// that keep the win.
    pub fn won(&self) -> u64 {
        self.won
    }
}

/// What the solver found in a move's share of time.
struct Found {
    verdict: Verdict,
    /// Undecided: the moves not proved to lose.
    open: Option<Vec<Cell>>,
}

/// Thinks about `position` for one move of `time`, read on the caller's
/// clock through `elapsed`: the solver for `proving`'s share (going on
/// from `proofs`), then `search` just long enough to rank the winning
/// moves if it proved a win, else `search_rest` (the caller's own loop: a
/// fixed time, a game clock) until the time it is given, among the moves
/// the solver has not proved to lose; then, with the time kept for it,
/// the check of the search's choices ([`Checking`]), which takes the
/// refuted ones from the root. What the solver found, for [`choose`].
pub fn think(
    position: &Position,
    search: &mut Searcher,
    proofs: &mut Proofs,
    proving: Proving,
    time: Duration,
    mut elapsed: impl FnMut() -> Duration,
    search_rest: impl FnOnce(&mut Searcher, Duration),
) -> Verdict {
    let Found { verdict, open } = proofs.prove_within(position, proving.time(position, time), &mut elapsed);
    match verdict {
        Verdict::Win(_) => search.run(RANKING_ITERATIONS),
        Verdict::Loss => search_rest(search, time),
        Verdict::Unknown => {
            if let Some(open) = open {
                search.keep_root_moves(&open);
            }
            let kept = proving.check.time(position, time);
            search_rest(search, time.saturating_sub(kept));
            if proving.refute.applies(position) {
                proofs.refute(position, search, proving.refute.choices);
            }
            if !kept.is_zero() {
                proofs.check_choices(position, search, proving.check.choices, time, &mut elapsed);
            }
        }
    }
    verdict
}

/// The iterations a search given `budget` needs after the solver found
/// `verdict`: a proved win only has its winning moves to rank.
pub fn iterations_after(verdict: &Verdict, budget: u64) -> u64 {
    if matches!(verdict, Verdict::Win(_)) { budget.min(RANKING_ITERATIONS) } else { budget }
}

/// The move to play after `search` when `verdict` is what the solver
/// found: with a proved win, the winning cell the search ranks highest
/// (the solver's first if the search saw none); otherwise, or when the
/// win names no cell because every move keeps it, the search's best.
pub fn choose(verdict: &Verdict, search: &Searcher) -> Option<Cell> {
    winning_move(verdict, search).or_else(|| search.best_move())
}

/// With a proved win that names its cells, the one `search` ranks highest
/// (the solver's first if the search saw none); otherwise `None`.
pub fn winning_move(verdict: &Verdict, search: &Searcher) -> Option<Cell> {
    match verdict {
        // No cell named: the win needs no move (any will do).
        Verdict::Win(winning) if !winning.is_empty() => {
            best_among(winning, &search.analysis(usize::MAX)).or_else(|| winning.first().copied())
        }
        _ => None,
    }
}

fn best_among(cells: &[Cell], analysis: &Analysis) -> Option<Cell> {
    analysis.moves.iter().map(|m| m.cell).find(|c| cells.contains(c))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::engine::Record;
    use crate::engine::search::SearchConfig;
    use crate::engine::solver::solve;

    fn position(text: &str) -> Position {
        Record::from_text(text, 9).unwrap().to_game(false).unwrap().position().clone()
    }

    #[test]
    fn the_solver_is_tried_only_late_enough_and_for_its_share() {
        let proving = Proving { share: 0.25, max_empty: 70, check: Checking::OFF, refute: Refuting::OFF };
        let early = position("9x9 e5 d6 c7 f4 g3 d4 f5 c6 b8 e4");
        let late = position("9x9 e5 d6 c7 f4 g3 d4 f5 c6 b8 e4 f3");
        assert_eq!(early.empty_cells().count(), 71);
        assert_eq!(proving.time(&early, Duration::from_secs(1)), Duration::ZERO);
        assert_eq!(proving.time(&late, Duration::from_secs(1)), Duration::from_millis(250));
        let off = Proving { share: 0.0, ..proving };
        assert_eq!(off.time(&late, Duration::from_secs(1)), Duration::ZERO);
    }

    #[test]
    fn a_check_is_read_from_its_setting_and_kept_only_where_it_applies() {
        let check: Checking = "0.25:80:2".parse().unwrap();
        assert_eq!(check, Checking { share: 0.25, max_empty: 80, choices: 2 });
        assert_eq!("0.1".parse::<Checking>(), Ok(Checking { share: 0.1, max_empty: usize::MAX, choices: 3 }));
        for bad in ["", "1", "-0.1", "x", "0.2:0", "0.2:80:0", "0.2:80:2:1", "0.2:eighty"] {
            assert!(bad.parse::<Checking>().is_err(), "{bad} read");
        }
        let late = position("9x9 e5 d6 c7 f4 g3 d4 f5 c6 b8 e4 f3");
        let second = Duration::from_secs(1);
        assert_eq!(check.time(&late, second), Duration::from_millis(250));
        assert_eq!(Checking { max_empty: 69, ..check }.time(&late, second), Duration::ZERO);
        assert_eq!(Checking::OFF.time(&late, second), Duration::ZERO);
    }

    #[test]
    fn on_eleven_by_eleven_the_solver_is_tried_and_checks_from_the_thirtieth_stone() {
        let moves = "a1 b1 c1 d1 e1 f1 g1 h1 i1 j1 a3 b3 c3 d3 e3 f3 g3 h3 i3 j3 a5 b5 c5 d5 e5 f5 g5 h5 i5";
        let at = |extra: &str| {
            let text = format!("11x11 {moves} {extra}");
            Record::from_text(text.trim(), 11).unwrap().to_game(false).unwrap().position().clone()
        };
        let (early, late) = (at(""), at("j5"));
        assert_eq!(early.empty_cells().count(), 92);
        let second = Duration::from_secs(1);
        assert_eq!(timed_default(11).time(&early, second), Duration::ZERO);
        assert_eq!(timed_default(11).time(&late, second), Duration::from_millis(250));
        // The check waits for the same stone.
        assert_eq!(timed_default(11).check.time(&early, second), Duration::ZERO);
        assert_eq!(timed_default(11).check.time(&late, second), second.mul_f32(DEFAULT_CHECKING.share));
        assert_eq!(DEFAULT_CHECKING.time(&early, second), second.mul_f32(DEFAULT_CHECKING.share));
        // Elsewhere as before.
        assert_eq!(timed_default(9), DEFAULT_PROVING);
        assert_eq!(timed_default(13), DEFAULT_PROVING);
    }

    #[test]
    fn a_won_position_is_proved_and_a_winning_move_played() {
        // On 5×5 the first player wins with the centre, and Blue's b4 does
        // not change that: Red to move wins, but not with every move.
        let p = Record::from_text("5x5 c3 b4", 5).unwrap().to_game(false).unwrap().position().clone();
        let mut search = Searcher::new(&p, SearchConfig::default()).unwrap();
        let all_the_time = Proving { share: 1.0, max_empty: 25, check: Checking::OFF, refute: Refuting::OFF };
        let verdict = think(
            &p,
            &mut search,
            &mut Proofs::new(),
            all_the_time,
            Duration::from_secs(60),
            || Duration::ZERO,
            |_, _| panic!("a proved win needs no search of the rest"),
        );
        let Verdict::Win(cells) = &verdict else { panic!("not proved: {verdict:?}") };
        assert!(cells.len() < p.empty_cells().count(), "every move wins: {cells:?}");
        assert!((1..=RANKING_ITERATIONS).contains(&search.iterations()), "{}", search.iterations());
        let chosen = choose(&verdict, &search).unwrap();
        assert!(cells.contains(&chosen));
        let mut after = p.clone();
        after.put(chosen, p.to_move());
        after.set_to_move(p.to_move().opponent());
        assert_eq!(solve(&after, 1_000_000).verdict, Verdict::Loss, "{chosen} gives the win away");
    }

    #[test]
    fn the_search_keeps_off_the_moves_the_solver_proved_to_lose() {
        let p = position("9x9 h2 g2 g3 f3 f4 e4 e5 c6 d5");
        let mut search = Searcher::new(&p, SearchConfig::default()).unwrap();
        let root_moves = |s: &Searcher| s.analysis(usize::MAX).moves.iter().map(|m| m.cell).collect::<Vec<_>>();
        let before = root_moves(&search);
        let mut proofs = Proofs::new();
        let all_the_time = Proving { share: 1.0, max_empty: 81, check: Checking::OFF, refute: Refuting::OFF };
        // Four slices of the solver: not enough to decide the position.
        let mut slices = 0;
        let four_slices = || {
            slices += 1;
            if slices >= 4 { Duration::from_secs(1) } else { Duration::ZERO }
        };
        let verdict =
            think(&p, &mut search, &mut proofs, all_the_time, Duration::from_secs(1), four_slices, |s, _| s.run(2_000));
        assert_eq!(verdict, Verdict::Unknown);
        let open = proofs.prover.as_mut().and_then(|prover| prover.open_moves()).expect("undecided");
        let after = root_moves(&search);
        assert!(!after.is_empty() && after.len() < before.len(), "{before:?} -> {after:?}");
        assert!(after.iter().all(|c| open.contains(c)), "{after:?} outside {open:?}");
        assert!(open.contains(&search.best_move().unwrap()));
        for cut in before.iter().filter(|c| !after.contains(c)) {
            let mut q = p.clone();
            q.play(*cut).unwrap();
            assert!(matches!(solve(&q, 2_000_000).verdict, Verdict::Win(_)), "{cut} does not lose");
        }
    }

    /// A self-play position where a short search may favour a losing move.
    pub(in crate::engine::search) const CHECKED: &str = "9x9 d4 g4 h2 f3 f6 e6 f5 e5 f4 e4";

    /// Settings whose 300-iteration search of `CHECKED` favours a losing
    /// move (seed 1's no longer does since the playouts answer the tree's
    /// last stone).
    pub(in crate::engine::search) fn favouring_a_loss() -> SearchConfig {
        SearchConfig { seed: 0, ..SearchConfig::default() }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
    fn a_choice_the_solver_refutes_alone_is_not_played() {
        // A position of a self-play game where a short search prefers a
        // losing move to others. No proof of the whole position here: the
        // check alone must keep the search off its losing favourite.
        let game = Record::from_text(CHECKED, 9).unwrap().to_game(false).unwrap();
        let p = game.position().clone();
        let short = |s: &mut Searcher| s.run(ITERATIONS);
        const ITERATIONS: u64 = 300;
        let config = favouring_a_loss();
        let mut unchecked = Searcher::of_game(&game, config).unwrap();
        short(&mut unchecked);
        let favourite = unchecked.best_move().unwrap();
        let loses = |cell: Cell, budget: u64| {
            let mut q = p.clone();
            q.play(cell).unwrap();
            matches!(solve(&q, budget).verdict, Verdict::Win(_))
        };
        assert!(loses(favourite, 2_000_000), "the search's {favourite} does not lose: nothing to check");

        let check = Checking { share: 0.5, max_empty: 81, choices: 81 };
        let proving = Proving { share: 0.0, max_empty: 81, check, refute: Refuting::OFF };
        let mut search = Searcher::of_game(&game, config).unwrap();
        // A clock that runs out after 200 of the solver's slices.
        let mut looks = 0;
        let clock = || {
            looks += 1;
            if looks > 200 { Duration::from_secs(1) } else { Duration::ZERO }
        };
        let verdict = think(&p, &mut search, &mut Proofs::new(), proving, Duration::from_secs(1), clock, |s, until| {
            assert_eq!(until, Duration::from_millis(500), "the check's half is kept back");
            short(s);
        });
        assert_eq!(verdict, Verdict::Unknown);
        let played = choose(&verdict, &search).unwrap();
        assert_ne!(played, favourite);
        assert!(!loses(played, 100_000), "{played} loses too");
    }

    #[test]
    fn the_fast_checks_look_runs_after_the_search_when_asked() {
        // Blue to move, from `refute`'s tests: two moves after which the
        // captured sets prove Red's win.
        let text = "11x11 h10 e8 e7 g6 f7 g7 f8 g8 g5 h5 h4 i4 i3 f6 f5 e6 e5 c6 d4 e4 d5 c4 c5";
        let game = Record::from_text(text, 11).unwrap().to_game(false).unwrap();
        let p = game.position().clone();
        let mut checks = FastChecks::new(11, refuting_limits());
        let root = Searcher::of_game(&game, SearchConfig::default()).unwrap().analysis(usize::MAX);
        let lost: Vec<Cell> = root
            .moves
            .iter()
            .map(|m| m.cell)
            .filter(|&c| {
                let mut q = p.clone();
                q.play(c).unwrap();
                checks.mover_wins(&q)
            })
            .collect();
        assert!(lost.len() >= 2 && lost.len() < root.moves.len(), "{} of {} refuted", lost.len(), root.moves.len());
        let two = [lost[0], lost[1]];
        let looks = |refute: Refuting| {
            let proving = Proving { share: 0.0, max_empty: 0, check: Checking::OFF, refute };
            let mut search = Searcher::of_game(&game, SearchConfig::default()).unwrap();
            assert!(search.keep_root_moves(&two));
            let mut proofs = Proofs::new();
            let no_time = || Duration::ZERO;
            let verdict =
                think(&p, &mut search, &mut proofs, proving, Duration::from_secs(1), no_time, |s, _| s.run(300));
            assert_eq!(verdict, Verdict::Unknown);
            (proofs.refuted(), search.analysis(usize::MAX).moves.len())
        };
        // Looking at the best move alone cuts it; looking at both cuts
        // nothing, as one move must stay.
        assert_eq!(looks(Refuting { choices: 1, max_empty: usize::MAX }), (1, 1));
        assert_eq!(looks(Refuting { choices: 2, max_empty: usize::MAX }), (0, 2));
        assert_eq!(looks(Refuting::OFF), (0, 2));
        // Out of its reach (98 empty cells), the look is not taken.
        assert_eq!(looks(Refuting { choices: 1, max_empty: 90 }), (0, 2));
    }

    #[test]
    fn without_time_nothing_is_searched_and_the_search_decides() {
        let p = position("9x9 e5 d6 c7 f4 g3 d4 f5 c6 b8 e4 f3");
        let mut search = Searcher::new(&p, SearchConfig::default()).unwrap();
        let verdict = think(
            &p,
            &mut search,
            &mut Proofs::new(),
            DEFAULT_PROVING,
            Duration::ZERO,
            || Duration::ZERO,
            |s, _| s.run(500),
        );
        assert_eq!(verdict, Verdict::Unknown);
        assert_eq!(search.iterations(), 500);
        assert_eq!(choose(&Verdict::Unknown, &search), search.best_move());
        assert_eq!(choose(&Verdict::Loss, &search), search.best_move());
        // A win that names no cell (every move keeps it) is the search's.
        assert_eq!(choose(&Verdict::Win(Vec::new()), &search), search.best_move());
    }
}
