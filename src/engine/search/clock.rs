//! How long to think about a move under a game clock (GTP's time control:
//! main time, then Canadian byo-yomi periods of so many moves): a share of
//! what is left for the moves still to come, more on a move whose best
//! reply is still unsettled, and less once nothing can overtake it.
//!
//! Pure arithmetic on durations: the caller reads its own clock (wall or
//! CPU time, or the browser's) and asks [`should_stop`] between slices.

use std::time::Duration;

use super::{Analysis, Searcher};

/// A game's time control, as GTP's `time_settings` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the whole game before byo-yomi.
    pub main: Duration,
    /// Each byo-yomi period (zero: none, the main time is absolute).
    pub byo_yomi: Duration,
    /// Moves to make in each byo-yomi period.
    pub byo_yomi_stones: u32,
}

impl TimeControl {
    /// GTP's `time_settings main byo_yomi stones`; `None` where GTP says
    /// that means no limit (a byo-yomi period for no stones).
    pub fn from_gtp(main: Duration, byo_yomi: Duration, byo_yomi_stones: u32) -> Option<TimeControl> {
        if !byo_yomi.is_zero() && byo_yomi_stones == 0 {
            return None;
        }
        let byo_yomi = if byo_yomi_stones == 0 { Duration::ZERO } else { byo_yomi };
        Some(TimeControl { main, byo_yomi, byo_yomi_stones })
    }

    /// A side's clock at the start of a game.
    pub fn start(&self) -> ClockLeft {
        if self.main.is_zero() { self.next_period() } else { ClockLeft { time: self.main, stones: 0 } }
    }

    fn next_period(&self) -> ClockLeft {
        ClockLeft { time: self.byo_yomi, stones: self.byo_yomi_stones }
    }

    /// The clock after a move that took `spent`, as a referee keeps it:
    /// main time first, then byo-yomi, a fresh period once a period's
    /// moves are made. `None`: the time ran out.
    pub fn after(&self, left: ClockLeft, spent: Duration) -> Option<ClockLeft> {
        if left.stones == 0 {
            if spent <= left.time {
                return Some(self.settle(ClockLeft { time: left.time - spent, stones: 0 }));
            }
            // Main time ran out during the move: the rest comes out of the
            // first period, which this move belongs to.
            let over = spent - left.time;
            let period = self.next_period();
            if period.stones == 0 || over > period.time {
                return None;
            }
            return Some(self.step(ClockLeft { time: period.time - over, stones: period.stones }));
        }
        let time = left.time.checked_sub(spent)?;
        Some(self.step(ClockLeft { time, stones: left.stones }))
    }

    /// A clock in main time with nothing left moves on to byo-yomi.
    fn settle(&self, left: ClockLeft) -> ClockLeft {
        if left.stones == 0 && left.time.is_zero() && self.byo_yomi_stones > 0 { self.next_period() } else { left }
    }

    /// One move of a byo-yomi period made.
    fn step(&self, left: ClockLeft) -> ClockLeft {
        if left.stones <= 1 { self.next_period() } else { ClockLeft { time: left.time, stones: left.stones - 1 } }
    }
}

/// What is left on one side's clock (GTP's `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockLeft {
    pub time: Duration,
    /// 0 in main time; in byo-yomi, the moves still to make in `time`.
    pub stones: u32,
}

/// The time one move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// What a settled move takes.
    pub target: Duration,
    /// The most an unsettled move may take.
    pub limit: Duration,
}

/// Kept back from every budget for answering, the referee's reading of
/// the clock and the last slice's overrun.
const MARGIN: Duration = Duration::from_millis(50);
/// An unsettled move may take this many targets.
const EXTEND: u32 = 3;

/// The side to move's moves still to come that need thinking: half of its
/// moves until half the board is filled, where games between good players
/// end (docs/benchmarks.md), since many late moves are proved or forced
/// and take no time; plus a few moves' reserve for games that run longer.
fn moves_to_come(size: u8, empty_cells: usize) -> u32 {
    let cells = size as usize * size as usize;
    let played = cells.saturating_sub(empty_cells);
    ((cells / 2).saturating_sub(played) / 4 + 4) as u32
}

/// The time for the next move on a `size`×`size` board with `empty_cells`
/// empty cells and `left` on the clock.
pub fn move_time(control: &TimeControl, left: ClockLeft, size: u8, empty_cells: usize) -> MoveTime {
    let usable = |t: Duration| t.saturating_sub(MARGIN.max(t / 20));
    if left.stones > 0 {
        // In byo-yomi: the period's time shared by its moves, with some
        // room to take from the later ones.
        let time = usable(left.time);
        let target = time / left.stones;
        let limit = (target * 2).min(time / 2).max(target);
        return MoveTime { target, limit };
    }
    let main = usable(left.time);
    let per_stone = match control.byo_yomi_stones {
        0 => Duration::ZERO,
        stones => usable(control.byo_yomi) / stones,
    };
    let target = main / moves_to_come(size, empty_cells) + per_stone;
    let limit = (target * EXTEND).min(main / 4 + per_stone).max(target);
    MoveTime { target, limit }
}

/// Why to stop thinking (or not).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Think on.
    Continue,
    /// The move's time is spent.
    OutOfTime,
    /// The target is reached and the best move is settled.
    Settled,
    /// The runner-up cannot overtake the leader in the time left of the
    /// target, even taking every iteration.
    Decided,
}

/// Whether a search that has spent `spent` of `time`, running at
/// `iterations_per_second`, should stop now, given its two best moves.
/// A move is unsettled while the most visited one is not also the best
/// rated, or the runner-up is close behind in visits.
pub fn should_stop(time: MoveTime, spent: Duration, iterations_per_second: f64, analysis: &Analysis) -> Decision {
    if spent >= time.limit {
        return Decision::OutOfTime;
    }
    let (Some(best), Some(second)) = (analysis.moves.first(), analysis.moves.get(1)) else {
        // One move (or none): nothing to weigh.
        return Decision::Decided;
    };
    if best.proven.is_some() {
        return Decision::Decided;
    }
    let lead = f64::from(best.visits) - f64::from(second.visits);
    if spent < time.target {
        let still = (time.target - spent).as_secs_f64() * iterations_per_second;
        return if lead > still { Decision::Decided } else { Decision::Continue };
    }
    if unsettled(analysis) { Decision::Continue } else { Decision::Settled }
}

/// Whether the best move is still open: unproved, and either the most
/// visited move is not also the best rated or the runner-up is close
/// behind in visits. `analysis` needs its two best moves.
pub fn unsettled(analysis: &Analysis) -> bool {
    let (Some(best), Some(second)) = (analysis.moves.first(), analysis.moves.get(1)) else { return false };
    let close = f64::from(second.visits) >= 0.6 * f64::from(best.visits);
    let better_rated = second.win_rate > best.win_rate + 0.01;
    best.proven.is_none() && (close || better_rated)
}

/// Runs `search` in slices of `slice` iterations until [`should_stop`]
/// ends the move's `time` or its root is proved, reading the caller's own
/// clock through `elapsed` between slices (wall or CPU time natively, the
/// browser's clock in a worker); why it stopped.
pub fn search_on_clock(
    search: &mut Searcher,
    time: MoveTime,
    slice: u64,
    mut elapsed: impl FnMut() -> Duration,
) -> Decision {
    let before = search.iterations();
    loop {
        if search.proven().is_some() {
            return Decision::Decided;
        }
        search.run(slice);
        let spent = elapsed();
        let rate = (search.iterations() - before) as f64 / spent.as_secs_f64().max(1e-3);
        let decision = should_stop(time, spent, rate, &search.analysis(2));
        if decision != Decision::Continue {
            return decision;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cell::Cell;
    use crate::engine::color::Color;
    use crate::engine::search::{MoveStat, Proof};

    const fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    fn absolute(secs: u64) -> TimeControl {
        TimeControl { main: s(secs), byo_yomi: Duration::ZERO, byo_yomi_stones: 0 }
    }

    fn two_moves(visits: (u32, u32), rates: (f32, f32)) -> Analysis {
        let stat = |q: u8, visits: u32, win_rate: f32| MoveStat {
            cell: Cell::new(q, 0),
            visits,
            win_rate,
            pv: Vec::new(),
            proven: None,
        };
        Analysis {
            size: 9,
            to_move: Color::Red,
            playouts: u64::from(visits.0 + visits.1),
            moves: vec![stat(0, visits.0, rates.0), stat(1, visits.1, rates.1)],
            win_rate: rates.0,
            proven: None,
            solved: None,
            solved_within: None,
        }
    }

    #[test]
    fn gtp_settings_read_as_gtp_means_them() {
        assert_eq!(TimeControl::from_gtp(s(60), s(10), 0), None, "a period for no stones is no limit");
        let absolute = TimeControl::from_gtp(s(60), Duration::ZERO, 0).unwrap();
        assert_eq!(absolute.start(), ClockLeft { time: s(60), stones: 0 });
        let byo_only = TimeControl::from_gtp(Duration::ZERO, s(10), 5).unwrap();
        assert_eq!(byo_only.start(), ClockLeft { time: s(10), stones: 5 });
    }

    #[test]
    fn the_clock_runs_through_main_time_into_byo_yomi_periods() {
        let c = TimeControl { main: s(10), byo_yomi: s(6), byo_yomi_stones: 2 };
        let left = c.after(c.start(), s(4)).unwrap();
        assert_eq!(left, ClockLeft { time: s(6), stones: 0 });
        // Overrunning main time takes the rest from the first period.
        let left = c.after(left, s(7)).unwrap();
        assert_eq!(left, ClockLeft { time: s(5), stones: 1 });
        // The period's last move starts a fresh one.
        assert_eq!(c.after(left, s(2)).unwrap(), ClockLeft { time: s(6), stones: 2 });
        assert_eq!(c.after(left, s(6)), None, "five seconds left, six taken");
        assert_eq!(absolute(10).after(absolute(10).start(), s(11)), None);
        assert_eq!(absolute(10).after(absolute(10).start(), s(10)), Some(ClockLeft { time: s(0), stones: 0 }));
    }

    #[test]
    fn early_moves_get_a_share_of_main_time_and_late_ones_more() {
        let c = absolute(60);
        let opening = move_time(&c, c.start(), 11, 120);
        let endgame = move_time(&c, c.start(), 11, 20);
        // 57 s usable (5% kept back) over 18 moves to come.
        assert!(
            opening.target > Duration::from_millis(3000) && opening.target < Duration::from_millis(3300),
            "{opening:?}"
        );
        assert!(endgame.target > opening.target * 3, "{endgame:?}");
        for t in [opening, endgame] {
            assert!(t.limit >= t.target && t.limit <= s(15), "never a quarter of what is left: {t:?}");
        }
        // Every move keeps a margin for answering.
        let nearly_out = move_time(&c, ClockLeft { time: Duration::from_millis(40), stones: 0 }, 11, 50);
        assert_eq!(nearly_out.limit, Duration::ZERO);
    }

    #[test]
    fn byo_yomi_shares_a_period_among_its_moves() {
        let c = TimeControl { main: Duration::ZERO, byo_yomi: s(20), byo_yomi_stones: 10 };
        let t = move_time(&c, ClockLeft { time: s(20), stones: 10 }, 11, 80);
        assert!(t.target > Duration::from_millis(1800) && t.target <= s(2), "{t:?}");
        assert!(t.limit <= s(10));
        // The last move of a period may take the period.
        let last = move_time(&c, ClockLeft { time: s(3), stones: 1 }, 11, 80);
        assert_eq!(last.target, last.limit);
        assert!(last.limit < s(3));
        // Main time counts the byo-yomi per move in.
        let with_byo = TimeControl { main: s(60), byo_yomi: s(20), byo_yomi_stones: 10 };
        assert!(
            move_time(&with_byo, with_byo.start(), 11, 120).target
                > move_time(&absolute(60), absolute(60).start(), 11, 120).target
        );
    }

    #[test]
    fn a_search_on_the_clock_ends_by_the_limit_or_at_once_when_proved() {
        use crate::engine::search::SearchConfig;
        use crate::engine::{Game, Move};
        let time = MoveTime { target: Duration::from_millis(10), limit: Duration::from_millis(30) };
        let game = Game::new(9, false).unwrap();
        let mut search = Searcher::new(game.position(), SearchConfig::default()).unwrap();
        // A clock that moves 1 ms a slice, whatever the machine.
        let mut slices = 0u32;
        let decision = search_on_clock(&mut search, time, 64, || {
            slices += 1;
            Duration::from_millis(slices.into())
        });
        assert_ne!(decision, Decision::Continue);
        assert!((1..=30).contains(&slices), "{slices} slices");
        // A position won in one is proved before any time passes.
        let mut game = Game::new(3, false).unwrap();
        for m in ["a2", "a1", "b2", "b1"] {
            game.play(Move::parse(m, 3).unwrap()).unwrap();
        }
        let mut search = Searcher::new(game.position(), SearchConfig::default()).unwrap();
        search.run(1);
        let mut asked = 0;
        assert_eq!(
            search_on_clock(&mut search, time, 64, || {
                asked += 1;
                Duration::ZERO
            }),
            Decision::Decided
        );
        assert!(search.proven().is_some());
        assert!(asked <= 1);
    }

    #[test]
    fn a_move_is_open_while_the_runner_up_is_close_or_better_rated() {
        assert!(unsettled(&two_moves((5000, 4000), (0.6, 0.5))), "close in visits");
        assert!(unsettled(&two_moves((8000, 2000), (0.5, 0.6))), "better rated");
        assert!(!unsettled(&two_moves((8000, 2000), (0.6, 0.5))), "far behind and worse");
        assert!(!unsettled(&two_moves((8000, 2000), (0.5, 0.505))), "better by less than a point");
        let mut proved = two_moves((5000, 4000), (0.6, 0.5));
        proved.moves[0].proven = Some(Proof { winner: Color::Red, winner_moves: 3 });
        assert!(!unsettled(&proved), "a proved move is settled");
    }

    #[test]
    fn thinking_stops_early_when_decided_and_late_when_unsettled() {
        let t = MoveTime { target: s(1), limit: s(3) };
        let rate = 10_000.0;
        // Half the target left: 5,000 iterations cannot close a 6,000 lead.
        assert_eq!(
            should_stop(t, Duration::from_millis(500), rate, &two_moves((7000, 1000), (0.6, 0.5))),
            Decision::Decided
        );
        assert_eq!(
            should_stop(t, Duration::from_millis(500), rate, &two_moves((4000, 1000), (0.6, 0.5))),
            Decision::Continue
        );
        // At the target: a clear leader stops, a close race or a better
        // rated runner-up goes on.
        assert_eq!(should_stop(t, s(1), rate, &two_moves((8000, 2000), (0.6, 0.5))), Decision::Settled);
        assert_eq!(should_stop(t, s(1), rate, &two_moves((5000, 4000), (0.6, 0.5))), Decision::Continue);
        assert_eq!(should_stop(t, s(1), rate, &two_moves((8000, 2000), (0.5, 0.6))), Decision::Continue);
        // The limit ends it whatever the race.
        assert_eq!(should_stop(t, s(3), rate, &two_moves((5000, 4000), (0.6, 0.5))), Decision::OutOfTime);
    }
}
