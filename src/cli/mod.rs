//! The command-line side of the `hexarena` binary: `gtp`, `analyze` and
//! `bench`. Without a subcommand the binary serves the web app.

pub mod analyze;
pub mod args;
pub mod gtp;
pub mod thinking_clock;

use std::process::ExitCode;

use self::args::{Args, parse_duration};
use self::gtp::{Gtp, GtpOptions};
use self::thinking_clock::{ClockKind, ThinkingClock};
use crate::engine::patterns::{Patterns, answers};
use crate::engine::search::endgame::Checking;
use crate::engine::search::refute::Refuting;
use crate::engine::search::{Level, SearchConfig, settings};

const HELP: &str = "hexarena — a Hex platform

usage:
  hexarena                      serve the web app (LEPTOS_SITE_ADDR, LEPTOS_SITE_ROOT)
  hexarena gtp [--level L] [--time-per-move SECONDS [--cpu-time] [--extend F]] [--no-swap] [--search S]
               [--patterns FILE] [--answers FILE] [--check SHARE[:MAX_EMPTY[:CHOICES]]]
               [--refute CHOICES[:MAX_EMPTY]]
                                the engine over GTP on stdin/stdout (HexGui, MoHex);
                                --cpu-time counts the time per move in CPU time of
                                the search thread (fair matches on a busy machine);
                                --extend F lets a move whose best choice is still open
                                at the end of its time think up to F times as long (1 to 4);
                                GTP's time_settings and time_left put it on a game clock;
                                --search name=value,... changes the settings of timed moves
                                and of hexarena-analyze (exploration, root_exploration, rave_bias,
                                rave_prior, expand_after, knowledge_after, deeper_after, reply_share,
                                prior_weight, patterns, near, answers, answer_scale, playout,
                                lists);
                                --patterns FILE takes the tree's priors from the pattern
                                weights of FILE (learn_patterns fit or fit-layered);
                                --answers FILE has the playouts answer the last stone by
                                the answer weights of FILE (learn_patterns fit-answers);
                                --check keeps SHARE of a timed move (0 to 0.9) for the solver
                                to look at the search's CHOICES best moves alone (3), with at
                                most MAX_EMPTY empty cells, before one is played (0: never);
                                --refute has the fast checks with captured sets look at the
                                search's CHOICES best moves first (0: never)
  hexarena analyze --size N [--moves \"a1 b2\"] [--time 2s | --playouts N] [--top N] [--swap]
                                a position's best moves as JSON
  hexarena bench [--quick]      engine speed: playouts/s and search iterations/s
  hexarena bench --solver N [--budget NODES]
                                prove every opening of the N×N board, with the time it took
                                (at most NODES positions each, 3000000 unless given) and
                                whether it agrees with the published map (6×6, 7×7)
  hexarena ratings --rebuild    recompute every rating from the archived games (DATABASE_URL)
levels: beginner, casual, strong, max";

/// Runs the subcommand named in `args` (without the program name);
/// `None` when there is none and the server should start.
pub fn run(args: &[String]) -> Option<ExitCode> {
    let (command, rest) = args.split_first()?;
    let result = match command.as_str() {
        "gtp" => gtp(rest),
        "analyze" => analyze::run(rest).map(|json| println!("{json}")),
        "bench" => bench(rest),
        "help" | "--help" | "-h" => {
            println!("{HELP}");
            Ok(())
        }
        other => Err(args::ArgsError(format!("unknown command '{other}'\n\n{HELP}"))),
    };
    Some(match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hexarena: {e}");
            ExitCode::from(2)
        }
    })
}

fn bench(rest: &[String]) -> Result<(), args::ArgsError> {
    let usage = "usage: hexarena bench [--quick] | hexarena bench --solver N [--budget NODES]";
    let mut a = Args::new(rest, usage);
    let quick = a.flag("--quick");
    let solver = a.value("--solver")?;
    let budget = a.value("--budget")?;
    let Some(size) = solver else {
        if let Some(b) = budget {
            return Err(args::ArgsError(format!("--budget {b} goes with --solver N\n{usage}")));
        }
        a.finish()?;
        print!("{}", crate::engine::bench::report(quick));
        return Ok(());
    };
    let n = size
        .parse::<u8>()
        .ok()
        .and_then(|n| crate::engine::cell::check_size(n).ok())
        .ok_or_else(|| a.bad("--solver", &size))?;
    let budget = match budget {
        Some(b) => b.parse::<u64>().ok().filter(|&b| b > 0).ok_or_else(|| a.bad("--budget", &b))?,
        None => 3_000_000,
    };
    a.finish()?;
    print!("{}", crate::engine::bench::solver_report(n, budget));
    Ok(())
}

fn gtp(rest: &[String]) -> Result<(), args::ArgsError> {
    let usage = concat!(
        "usage: hexarena gtp [--level beginner|casual|strong|max] [--time-per-move SECONDS [--cpu-time]] ",
        "[--extend FACTOR] [--no-swap] [--search NAME=VALUE,...] [--patterns FILE] [--answers FILE] \
         [--check SHARE[:MAX_EMPTY[:CHOICES]]] [--refute CHOICES[:MAX_EMPTY]]"
    );
    let mut a = Args::new(rest, usage);
    let level = match a.value("--level")? {
        Some(l) => l.parse::<Level>().map_err(|e| args::ArgsError(e.to_string()))?,
        None => Level::Strong,
    };
    let time_per_move = a
        .value("--time-per-move")?
        .map(|t| parse_duration(&t).filter(|d| !d.is_zero()).ok_or_else(|| a.bad("--time-per-move", &t)))
        .transpose()?;
    let extend = a
        .value("--extend")?
        .map(|f| f.parse::<f64>().ok().filter(|f| (1.0..=4.0).contains(f)).ok_or_else(|| a.bad("--extend", &f)))
        .transpose()?;
    let clock = if a.flag("--cpu-time") { ClockKind::ThreadCpu } else { ClockKind::Wall };
    let swap = !a.flag("--no-swap");
    let mut search = match a.value("--search")? {
        Some(spec) => settings::parse(&spec, SearchConfig::default())
            .map_err(|e| args::ArgsError(format!("--search: {e}\n{usage}")))?,
        None => SearchConfig::default(),
    };
    // Both files are read alike; only their checks differ.
    let read = |flag: &str, path: &str| {
        std::fs::read_to_string(path).map_err(|e| args::ArgsError(format!("{flag}: cannot read {path}: {e}")))
    };
    if let Some(path) = a.value("--patterns")? {
        let text = read("--patterns", &path)?;
        let table = Patterns::parse(&text).map_err(|e| args::ArgsError(format!("--patterns: {path}: {e}")))?;
        // As the answers: kept for the whole run.
        search.patterns = Some(Box::leak(Box::new(table)));
    }
    if let Some(path) = a.value("--answers")? {
        let text = read("--answers", &path)?;
        let table = answers::parse(&text).map_err(|e| args::ArgsError(format!("--answers: {path}: {e}")))?;
        // The search keeps its tables for the whole run.
        search.answers = Some(Box::leak(Box::new(answers::Answers::new(table))));
    }
    let check = match a.value("--check")? {
        Some(spec) => Some(spec.parse::<Checking>().map_err(|e| args::ArgsError(format!("--check: {e}\n{usage}")))?),
        None => None,
    };
    let refute = match a.value("--refute")? {
        Some(spec) => Some(spec.parse::<Refuting>().map_err(|e| args::ArgsError(format!("--refute: {e}\n{usage}")))?),
        None => None,
    };
    a.finish()?;
    if extend.is_some() && time_per_move.is_none() {
        return Err(args::ArgsError(format!("--extend goes with --time-per-move SECONDS\n{usage}")));
    }
    if clock == ClockKind::ThreadCpu {
        if time_per_move.is_none() {
            return Err(args::ArgsError(format!("--cpu-time goes with --time-per-move SECONDS\n{usage}")));
        }
        ThinkingClock::start(clock).map_err(|e| args::ArgsError(e.to_string()))?;
    }
    let extend = extend.unwrap_or(1.0);
    let mut session = Gtp::new(GtpOptions { level, time_per_move, clock, extend, swap, search, check, refute });
    let stdin = std::io::stdin();
    session.run(stdin.lock(), std::io::stdout().lock()).map_err(|e| args::ArgsError(format!("i/o error: {e}")))
}
