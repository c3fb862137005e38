//! A match between two settings of the engine, to tune them by play rather
//! than by guess: a challenger's search settings against a baseline's, at
//! equal wall time per move. Every opening cell is played by Red once with
//! each side of the match as Red. Prints each side's iterations per second
//! and the challenger's score with a 95% Wilson interval.
//!
//!     cargo run --release --example tune_match -- SIZE MS_PER_MOVE CHALLENGER [BASELINE] [SHARD/SHARDS]
//!
//! SHARD counts from 0 (`0/2` and `1/2` split a match in two).
//!
//! Settings are `name=value` pairs joined by commas, changing the engine's
//! defaults: those of `engine::search::settings` (`exploration`,
//! `root_exploration`, `rave_bias`, `rave_prior`, `expand_after`, `knowledge_after`,
//! `deeper_after`, `deeper_lists`, `prior_weight`, `reply_share`, `near`, `patterns`, `answers`, `answer_scale`, `playout`; which the GTP engine
//! takes too, `hexarena gtp --search …`), a pattern file's path for
//! `patterns`, `playout` (`none`, a cap for the built-in playout weights,
//! or `CAP:FILE`), `prove` (the share of a move's time the solver takes
//! first, 0 by default here, unlike the GTP engine) and `prove_empty` (the
//! most empty cells it is tried with), `check` (the look at the search's
//! choices before one is played, as `hexarena gtp --check`:
//! `SHARE[:MAX_EMPTY[:CHOICES]]`, off by default here), `refute` (the
//! fast checks' look at the best moves, as `hexarena gtp --refute`:
//! `CHOICES[:MAX_EMPTY]`, off by default here), and `reuse`
//! (`true`: keep the tree
//! from move to move, as the GTP engine and the worker do; and the
//! solver's table with it, as the GTP engine does) (`-` for the
//! defaults). The knowledge match of issue 27 was
//! `tune_match 9 100 knowledge_after=128 knowledge_after=0`.
//!
//! A time ending in `s` (`20s`) is a game clock instead: each side has
//! that long for the whole game and spends it as `time=managed` (the
//! default: `search::clock`, more on unsettled moves, less on decided
//! ones) or `time=even` (the same share of what is left, never more or
//! less); a side out of time loses. A count ending in `i` (`20000i`) gives
//! both sides that many iterations a move instead of a time: whether a
//! change makes each iteration wiser, apart from what it costs in speed.

use std::time::{Duration, Instant};

use hexarena::engine::patterns::Patterns;
use hexarena::engine::patterns::playout::{self, PlayoutPolicy};
use hexarena::engine::search::clock::{ClockLeft, MoveTime, TimeControl, move_time, search_on_clock};
use hexarena::engine::search::endgame::{self, Checking, DEFAULT_PROVING, Proofs, Proving};
use hexarena::engine::search::refute::Refuting;
use hexarena::engine::search::{DeeperLooks, Following, SearchConfig, settings};
use hexarena::engine::{Cell, Color, Game, Move};

/// How a side spends a game clock.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spending {
    Managed,
    Even,
}

struct Settings {
    config: SearchConfig,
    /// When the solver looks for a proof before the search.
    proving: Proving,
    /// Whether the side keeps its tree from move to move.
    reuse: bool,
    spending: Spending,
}

struct Side {
    settings: Settings,
    following: Following,
    proofs: Proofs,
    iterations: u64,
    seconds: f64,
    /// Moves the fast checks' look took from the root (`refute`), and
    /// positions it proved won.
    refuted: u64,
    won: u64,
    /// What the checks with captured sets did in the tree (`deeper_after`).
    deeper: DeeperLooks,
}

/// The time each move gets.
#[derive(Clone, Copy)]
enum Budget {
    PerMove(Duration),
    Game(TimeControl),
    /// The same number of iterations a move for both: whether a change
    /// makes each iteration wiser, whatever it costs in speed.
    Iterations(u64),
}

/// The side's move after thinking `per_move` of wall time, or as its
/// spending says with `left` on its game clock.
fn think(side: &mut Side, game: &Game, budget: Budget, left: ClockLeft) -> Cell {
    let started = Instant::now();
    if !side.settings.reuse {
        side.following = Following::new();
        side.proofs = Proofs::new();
    }
    let time = match budget {
        Budget::PerMove(limit) => MoveTime { target: limit, limit },
        Budget::Iterations(_) => MoveTime { target: Duration::MAX, limit: Duration::MAX },
        Budget::Game(control) => move_time(&control, left, game.size(), game.position().empty_cells().count()),
    };
    let search = side.following.search(game, side.settings.config).expect("a game in progress");
    let before = search.iterations();
    let deeper_before = search.deeper_looks();
    let (refuted_before, won_before) = (side.proofs.refuted(), side.proofs.won());
    let spending = side.settings.spending;
    let verdict = endgame::think(
        game.position(),
        search,
        &mut side.proofs,
        side.settings.proving,
        time.target,
        || started.elapsed(),
        |search, until| match (budget, spending) {
            (Budget::Game(_), Spending::Managed) => {
                // The time kept back for the check comes off both ends.
                let kept = time.target.saturating_sub(until);
                let time = MoveTime { target: until, limit: time.limit.saturating_sub(kept) };
                search_on_clock(search, time, 64, || started.elapsed());
            }
            (Budget::Iterations(n), _) => {
                while search.iterations() - before < n && search.proven().is_none() {
                    search.run(64);
                }
            }
            (Budget::PerMove(_), _) | (Budget::Game(_), Spending::Even) => {
                while started.elapsed() < until && search.proven().is_none() {
                    search.run(64);
                }
            }
        },
    );
    side.iterations += search.iterations() - before;
    side.deeper = side.deeper.plus(search.deeper_looks().since(deeper_before));
    side.refuted += side.proofs.refuted() - refuted_before;
    side.won += side.proofs.won() - won_before;
    side.seconds += started.elapsed().as_secs_f64();
    endgame::choose(&verdict, search).expect("a move")
}

/// Plays one game from `opening` (Red's first stone); the winner (on the
/// board, or the side whose clock did not run out).
fn play(size: u8, opening: Cell, red: &mut Side, blue: &mut Side, budget: Budget) -> Color {
    let mut game = Game::new(size, false).expect("a size");
    game.play(Move::Place(opening)).expect("an opening");
    let start = match budget {
        Budget::Game(control) => control.start(),
        Budget::PerMove(_) | Budget::Iterations(_) => ClockLeft { time: Duration::MAX, stones: 0 },
    };
    let mut clocks = [start, start];
    while game.winner().is_none() {
        let mover = game.to_move();
        let (side, clock) = match mover {
            Color::Red => (&mut *red, &mut clocks[0]),
            Color::Blue => (&mut *blue, &mut clocks[1]),
        };
        let started = Instant::now();
        let cell = think(side, &game, budget, *clock);
        if let Budget::Game(control) = budget {
            match control.after(*clock, started.elapsed()) {
                Some(left) => *clock = left,
                None => {
                    eprintln!("{mover} ran out of time");
                    return mover.opponent();
                }
            }
        }
        game.play(Move::Place(cell)).expect("a legal move");
    }
    if let Budget::Game(_) = budget {
        let [red, blue] = clocks.map(|c| c.time.as_secs_f64());
        eprintln!("{} moves; left on the clocks: Red {red:.1} s, Blue {blue:.1} s", game.moves().len());
    }
    game.winner().expect("a winner")
}

fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.96;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

/// `none`, `builtin` or a pattern file's path.
fn patterns(value: &str) -> Result<Option<&'static Patterns>, String> {
    match value {
        "none" => Ok(None),
        "builtin" => Ok(Some(Patterns::builtin())),
        path => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("patterns: cannot read {path}: {e}"))?;
            let parsed = Patterns::parse(&text).map_err(|e| format!("{path}: {e}"))?;
            // One table for the whole match.
            Ok(Some(Box::leak(Box::new(parsed))))
        }
    }
}

/// `CAP:FILE`: the weights of FILE capped at CAP, the cap read as the
/// shared setting reads it (`none` and a bare cap go to that setting).
fn playout_file(value: &str) -> Result<Option<PlayoutPolicy>, String> {
    let (cap, path) = value.split_once(':').ok_or(format!("playout: '{value}' is not CAP:FILE"))?;
    let cap = settings::apply(SearchConfig::default(), "playout", cap)
        .map_err(|e| e.to_string())?
        .playout
        .ok_or(format!("playout: '{cap}' is not a cap"))?
        .cap;
    let text = std::fs::read_to_string(path).map_err(|e| format!("playout: cannot read {path}: {e}"))?;
    let weights = Box::leak(Box::new(playout::parse(&text).map_err(|e| format!("{path}: {e}"))?));
    Ok(Some(PlayoutPolicy { weights, cap }))
}

/// The engine's defaults changed by `spec` (`name=value,…`, or `-`), and
/// whether the side keeps its tree between moves.
fn settings(spec: &str) -> Result<Settings, String> {
    let mut config = SearchConfig::default();
    let mut reuse = false;
    let mut proving = Proving { share: 0.0, check: Checking::OFF, ..DEFAULT_PROVING };
    let mut spending = Spending::Managed;
    for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty() && *p != "-") {
        let (name, value) = pair.split_once('=').ok_or(format!("'{pair}' is not name=value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{name}: '{value}' is not a number ({e})");
        match name {
            "patterns" if !matches!(value, "none" | "builtin") => config.patterns = patterns(value)?,
            "playout" if value.contains(':') => config.playout = playout_file(value)?,
            "prove" => proving.share = value.parse().map_err(|e| bad(&e))?,
            "prove_empty" => proving.max_empty = value.parse().map_err(|e| bad(&e))?,
            "check" => proving.check = value.parse::<Checking>().map_err(|e| format!("check: {e}"))?,
            "refute" => proving.refute = value.parse::<Refuting>().map_err(|e| format!("refute: {e}"))?,
            "reuse" => reuse = value.parse().map_err(|e| bad(&e))?,
            "time" => {
                spending = match value {
                    "managed" => Spending::Managed,
                    "even" => Spending::Even,
                    _ => return Err(format!("time: '{value}' is not managed or even")),
                }
            }
            _ => config = settings::apply(config, name, value).map_err(|e| e.to_string())?,
        }
    }
    Ok(Settings { config, proving, reuse, spending })
}

/// Whether an argument has the form of a shard: digits, '/', digits.
fn is_shard(arg: &str) -> bool {
    arg.split_once('/')
        .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty() && a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit()))
}

/// `SHARD/SHARDS`, counted from 0: this run plays the openings whose index
/// leaves remainder SHARD when divided by SHARDS.
fn shard_of(arg: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shard '{arg}' must be SHARD/SHARDS with 0 <= SHARD < SHARDS (counted from 0)");
    let (a, b) = arg.split_once('/').ok_or_else(bad)?;
    let (shard, shards) = (a.parse::<usize>().map_err(|_| bad())?, b.parse::<usize>().map_err(|_| bad())?);
    if shard < shards { Ok((shard, shards)) } else { Err(bad()) }
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size: u8 = args.first().and_then(|a| a.parse().ok()).unwrap_or(9);
    let time = args.get(1).map_or("100", String::as_str);
    let (clock, count) = (time.strip_suffix('s'), time.strip_suffix('i'));
    let budget = match (clock.map(str::parse::<u64>), count.map(str::parse::<u64>)) {
        (Some(Ok(secs)), _) => {
            Budget::Game(TimeControl { main: Duration::from_secs(secs), byo_yomi: Duration::ZERO, byo_yomi_stones: 0 })
        }
        (_, Some(Ok(iterations))) => Budget::Iterations(iterations.max(1)),
        _ => match time.parse() {
            Ok(ms) => Budget::PerMove(Duration::from_millis(ms)),
            Err(_) => {
                eprintln!(
                    "tune_match: '{time}' is not a time: milliseconds a move (300), a game clock (20s) or iterations a move (20000i)"
                );
                return std::process::ExitCode::FAILURE;
            }
        },
    };
    // The shard, if given, is the last argument (settings may hold a
    // file's path, so a '/' alone does not make one).
    let shard_arg = args.iter().skip(2).last().filter(|a| is_shard(a));
    let shard = match shard_arg.map(|a| shard_of(a)) {
        None => Ok((0, 1)),
        Some(parsed) => parsed,
    };
    let (shard, shards) = match shard {
        Ok(s) => s,
        Err(e) => {
            eprintln!("tune_match: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let settings_args = args.len().saturating_sub(usize::from(shard_arg.is_some()));
    let spec = |i: usize| args.get(i).filter(|_| i < settings_args).map_or("-", String::as_str);
    let (challenger, baseline) = (spec(2), spec(3));
    let (on, off) = match (settings(challenger), settings(baseline)) {
        (Ok(on), Ok(off)) => (on, off),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("tune_match: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    // The solver's share is a share of a move's time, which an iteration
    // budget does not have.
    let timed = |p: &Proving| p.share > 0.0 || p.check.share > 0.0;
    if matches!(budget, Budget::Iterations(_)) && (timed(&on.proving) || timed(&off.proving)) {
        eprintln!("tune_match: prove and check need a time a move or a game clock, not an iteration budget");
        return std::process::ExitCode::FAILURE;
    }
    let side = |settings: Settings| Side {
        settings,
        following: Following::new(),
        proofs: Proofs::new(),
        iterations: 0,
        seconds: 0.0,
        refuted: 0,
        won: 0,
        deeper: DeeperLooks::default(),
    };
    let (mut with, mut without) = (side(on), side(off));
    let cells: Vec<Cell> = (0..size as usize * size as usize).map(|i| Cell::from_index(i, size)).collect();
    let (mut wins, mut games) = (0u32, 0u32);
    for (i, &opening) in cells.iter().enumerate().filter(|(i, _)| i % shards == shard) {
        for knowledge_red in [true, false] {
            let winner = if knowledge_red {
                play(size, opening, &mut with, &mut without, budget)
            } else {
                play(size, opening, &mut without, &mut with, budget)
            };
            let won = (winner == Color::Red) == knowledge_red;
            wins += u32::from(won);
            games += 1;
            eprintln!(
                "game {games}: opening {opening} (#{i}), challenger as {}, {}",
                if knowledge_red { "Red" } else { "Blue" },
                if won { "won" } else { "lost" }
            );
        }
    }
    let (low, high) = wilson(wins as f64, games as f64);
    let time = count.unwrap_or(time);
    println!(
        "{size}x{size}, {time} {}, {challenger} against {baseline}: {wins}/{games} = {:.1}% (95% {:.1}–{:.1}%); \
         iterations/s {:.0} against {:.0}; thinking a game {:.2} s against {:.2} s; \
         the look refuted {} moves and proved {} wins against {} and {}; \
         the checks with captured sets looked at {} nodes, decided {} and cut {} moves against {}, {} and {}",
        match budget {
            Budget::Game(_) => "a game",
            Budget::Iterations(_) => "iterations a move",
            Budget::PerMove(_) => "ms a move",
        },
        100.0 * wins as f64 / games as f64,
        100.0 * low,
        100.0 * high,
        with.iterations as f64 / with.seconds,
        without.iterations as f64 / without.seconds,
        with.seconds / games as f64,
        without.seconds / games as f64,
        with.refuted,
        with.won,
        without.refuted,
        without.won,
        with.deeper.looked,
        with.deeper.decided,
        with.deeper.cut,
        without.deeper.looked,
        without.deeper.decided,
        without.deeper.cut,
    );
    std::process::ExitCode::SUCCESS
}
