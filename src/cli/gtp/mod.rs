//! The engine over GTP (Go Text Protocol, as HexGui and MoHex speak it for
//! Hex): one command per line in, `= answer` or `? error` out, each answer
//! followed by a blank line.
//!
//! HexGui's black moves first and joins top↔bottom; our Red moves first and
//! joins left↔right. So black is Red, white is Blue, and every cell is
//! transposed on the way in and out, like in SGF.

mod clock;

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use self::clock::GameClocks;
use super::thinking_clock::{ClockKind, ThinkingClock};

use crate::engine::search::clock::{ClockLeft, MoveTime, TimeControl, move_time, search_on_clock, unsettled};
use crate::engine::search::endgame::{self, Checking, Proofs, Proving};
use crate::engine::search::level::{choose_move_with, move_budget, swaps, timed_proving};
use crate::engine::search::refute::Refuting;
use crate::engine::search::{Following, Level, SearchConfig, Searcher};
use crate::engine::solver::Verdict;
use crate::engine::{Cell, Color, Game, MAX_SIZE, MIN_SIZE, Move};

/// How the engine spends its thinking.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GtpOptions {
    pub level: Level,
    /// Think this long per move instead of the level's fixed budget.
    pub time_per_move: Option<Duration>,
    /// The clock `time_per_move` is measured on.
    pub clock: ClockKind,
    /// How many times `time_per_move` a move may take when its best move
    /// is still unsettled at the end of it (1: never longer).
    pub extend: f64,
    /// Whether games allow the swap rule (HexGui's `swap-pieces`).
    pub swap: bool,
    /// The search of timed moves (`--time-per-move`, a game clock) and of
    /// `hexarena-analyze`; the levels keep their own.
    pub search: SearchConfig,
    /// The check of a timed move's choice before it is played; `None`:
    /// the engine's default.
    pub check: Option<Checking>,
    /// The fast checks' look at a timed move's best choices; `None`: the
    /// engine's default.
    pub refute: Option<Refuting>,
}

impl Default for GtpOptions {
    fn default() -> Self {
        GtpOptions {
            level: Level::Strong,
            time_per_move: None,
            clock: ClockKind::Wall,
            extend: 1.0,
            swap: true,
            search: SearchConfig::default(),
            check: None,
            refute: None,
        }
    }
}

const COMMANDS: [&str; 20] = [
    "boardsize",
    "clear_board",
    "final_score",
    "genmove",
    "hexarena-analyze",
    "hexarena-sgf",
    "hexarena-solve",
    "known_command",
    "list_commands",
    "name",
    "play",
    "protocol_version",
    "quit",
    "showboard",
    "time_left",
    "time_settings",
    "undo",
    "version",
    "reg_genmove",
    "set_level",
];

/// A GTP session: the game so far and the engine settings.
pub struct Gtp {
    game: Game,
    options: GtpOptions,
    moves_generated: u64,
    /// The last search, kept for the next move of the same game.
    following: Following,
    /// The solver's search, kept from move to move as the tree is.
    proofs: Proofs,
    /// The game clocks, once a controller sets a time control.
    clocks: GameClocks,
}

/// What a command asks of the session loop.
#[derive(Debug, PartialEq, Eq)]
pub enum Reply {
    /// `= text`
    Ok(String),
    /// `? text`
    Err(String),
    /// `=` then stop.
    Quit,
}

impl Gtp {
    /// A session on an empty 11×11 board.
    pub fn new(options: GtpOptions) -> Gtp {
        let game = Game::new(11, options.swap).unwrap_or_else(|_| unreachable!("11 is a valid size"));
        Gtp {
            game,
            options,
            moves_generated: 0,
            following: Following::new(),
            proofs: Proofs::new(),
            clocks: GameClocks::default(),
        }
    }

    /// Reads commands from `input` until `quit` or the end, answering on
    /// `output`.
    pub fn run(&mut self, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let Some((id, reply)) = self.handle_line(&line) else { continue };
            let (mark, text, quit) = match reply {
                Reply::Ok(t) => ('=', t, false),
                Reply::Err(t) => ('?', t, false),
                Reply::Quit => ('=', String::new(), true),
            };
            let sep = if text.is_empty() || text.starts_with('\n') { "" } else { " " };
            write!(output, "{mark}{}{sep}{text}\n\n", id.unwrap_or_default())?;
            output.flush()?;
            if quit {
                break;
            }
        }
        Ok(())
    }

    /// Answers one input line; `None` for blank lines and comments. The
    /// optional numeric id is returned to be echoed.
    pub fn handle_line(&mut self, line: &str) -> Option<(Option<String>, Reply)> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return None;
        }
        let mut words = line.split_whitespace().peekable();
        let id = words.next_if(|w| w.bytes().all(|b| b.is_ascii_digit())).map(str::to_string);
        let Some(command) = words.next() else {
            return Some((id, Reply::Err("no command given".into())));
        };
        let args: Vec<&str> = words.collect();
        Some((id, self.command(command, &args)))
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Reply {
        match command {
            "name" => Reply::Ok("hexarena".into()),
            "version" => Reply::Ok(env!("CARGO_PKG_VERSION").into()),
            "protocol_version" => Reply::Ok("2".into()),
            "list_commands" => Reply::Ok(COMMANDS.join("\n")),
            "known_command" => Reply::Ok(args.first().is_some_and(|c| COMMANDS.contains(c)).to_string()),
            "quit" => Reply::Quit,
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.reset(self.game.size());
                Reply::Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" | "reg_genmove" => self.genmove(args, command == "genmove"),
            "undo" => match self.game.undo() {
                Some(_) => Reply::Ok(String::new()),
                None => Reply::Err("cannot undo: no move has been played".into()),
            },
            "showboard" => Reply::Ok(format!("\n{}", self.board_text())),
            "final_score" => match self.game.winner() {
                Some(w) => Reply::Ok(format!("{}+", gtp_colour_letter(w))),
                None => Reply::Err("the game is not over".into()),
            },
            "set_level" => match args.first().map(|a| a.parse::<Level>()) {
                Some(Ok(level)) => {
                    self.options.level = level;
                    self.options.time_per_move = None;
                    Reply::Ok(String::new())
                }
                Some(Err(e)) => Reply::Err(e.to_string()),
                None => Reply::Err("set_level needs a level: beginner, casual, strong or max".into()),
            },
            "time_settings" => match self.clocks.set(args) {
                Ok(()) => Reply::Ok(String::new()),
                Err(e) => Reply::Err(e),
            },
            "time_left" => {
                let told = match args.split_first() {
                    Some((colour, rest)) => parse_colour(colour).and_then(|c| self.clocks.tell(c, rest)),
                    None => Err("time_left needs a colour, the seconds left and the stones left".into()),
                };
                match told {
                    Ok(()) => Reply::Ok(String::new()),
                    Err(e) => Reply::Err(e),
                }
            }
            "hexarena-analyze" => self.analyze(args),
            // Who wins from here with best play (`b`, `w`, or `unknown`
            // within the budget): a referee's ruling when an engine dies
            // mid-game.
            "hexarena-solve" => self.solve(args),
            // The game so far as HexGui SGF, written by the same code as the
            // pages' export, so other tools can check how it reads.
            "hexarena-sgf" => Reply::Ok(crate::engine::Record::from_game(&self.game).to_sgf()),
            other => Reply::Err(format!("unknown command '{other}'")),
        }
    }

    fn reset(&mut self, size: u8) {
        if let Ok(g) = Game::new(size, self.options.swap) {
            self.game = g;
            self.clocks.restart();
        }
    }

    fn boardsize(&mut self, args: &[&str]) -> Reply {
        let parse = |s: Option<&&str>| s.and_then(|s| s.parse::<u8>().ok());
        let (Some(w), h) = (parse(args.first()), parse(args.get(1))) else {
            return Reply::Err("boardsize needs a number".into());
        };
        if h.is_some_and(|h| h != w) {
            return Reply::Err("only square boards are supported".into());
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&w) {
            return Reply::Err(format!("unacceptable size: choose {MIN_SIZE} to {MAX_SIZE}"));
        }
        self.reset(w);
        Reply::Ok(String::new())
    }

    fn play(&mut self, args: &[&str]) -> Reply {
        let [colour, vertex] = args else {
            return Reply::Err("play needs a colour and a vertex, e.g. 'play b a1'".into());
        };
        let colour = match parse_colour(colour) {
            Ok(c) => c,
            Err(e) => return Reply::Err(e),
        };
        if colour != self.game.to_move() && self.game.winner().is_none() {
            return Reply::Err(format!("it is {}'s turn", gtp_colour_name(self.game.to_move())));
        }
        let m = match parse_vertex(vertex, self.game.size()) {
            Ok(m) => m,
            Err(e) => return Reply::Err(e),
        };
        match self.game.play(m) {
            Ok(()) => Reply::Ok(String::new()),
            Err(e) => Reply::Err(format!("illegal move: {e}")),
        }
    }

    fn genmove(&mut self, args: &[&str], commit: bool) -> Reply {
        let colour = match args.first().map(|c| parse_colour(c)) {
            Some(Ok(c)) => c,
            Some(Err(e)) => return Reply::Err(e),
            None => return Reply::Err("genmove needs a colour".into()),
        };
        if self.game.winner().is_some() {
            return Reply::Err("the game is over".into());
        }
        if colour != self.game.to_move() {
            return Reply::Err(format!("it is {}'s turn", gtp_colour_name(self.game.to_move())));
        }
        self.moves_generated += 1;
        let seed = 0x6a09_e667 ^ self.moves_generated;
        let started = Instant::now();
        let chosen = match (self.clocks.of(colour), self.options.time_per_move) {
            (Some((control, left)), _) => self.think_on_clock(control, left, seed),
            (None, Some(limit)) => self.think_for(limit, seed),
            (None, None) => {
                choose_move_with(&self.game, self.options.level, seed, move_budget(&self.game, self.options.level))
            }
        };
        self.clocks.charge(colour, started.elapsed());
        let Some(m) = chosen else { return Reply::Err("no move available".into()) };
        if commit && self.game.play(m).is_err() {
            return Reply::Err("the engine chose an illegal move".into());
        }
        Reply::Ok(vertex_text(m))
    }

    /// How a timed move shares its time with the solver here.
    fn proving(&self) -> Proving {
        let proving = timed_proving(&self.game);
        Proving {
            check: self.options.check.unwrap_or(proving.check),
            refute: self.options.refute.unwrap_or(proving.refute),
            ..proving
        }
    }

    /// The best move after searching for `limit` on the session's clock
    /// (wall time, or this thread's CPU time).
    fn think_for(&mut self, limit: Duration, seed: u64) -> Option<Move> {
        // Checked when the session was configured; wall time is the fallback.
        let clock = ThinkingClock::start(self.options.clock).unwrap_or(ThinkingClock::Wall(Instant::now()));
        let extended = limit.mul_f64(self.options.extend);
        let proving = self.proving();
        let s = self.following.search(&self.game, SearchConfig { seed, ..self.options.search }).ok()?;
        let verdict = endgame::think(
            self.game.position(),
            s,
            &mut self.proofs,
            proving,
            limit,
            || clock.elapsed(),
            |s, until| {
                let search_until = |s: &mut Searcher, until: Duration| {
                    while clock.elapsed() < until && s.proven().is_none() {
                        s.run(256);
                    }
                };
                search_until(s, until);
                // One extension, once, as MoHex extends an unstable search:
                // the time goes where the choice is still open.
                if extended > limit && unsettled(&s.analysis(2)) {
                    search_until(s, until + (extended - limit));
                }
            },
        );
        conclude(&self.game, s, &verdict)
    }

    /// The best move under a game clock: a share of the time left, more
    /// while the best move is unsettled, less once it is decided
    /// (`search::clock`).
    fn think_on_clock(&mut self, control: TimeControl, left: ClockLeft, seed: u64) -> Option<Move> {
        // A game clock is the controller's wall clock, whatever
        // `--cpu-time` says for per-move budgets.
        let clock = Instant::now();
        let time = move_time(&control, left, self.game.size(), self.game.position().empty_cells().count());
        let proving = self.proving();
        let s = self.following.search(&self.game, SearchConfig { seed, ..self.options.search }).ok()?;
        let verdict = endgame::think(
            self.game.position(),
            s,
            &mut self.proofs,
            proving,
            time.target,
            || clock.elapsed(),
            |s, until| {
                // The time kept back for the check comes off both ends.
                let kept = time.target.saturating_sub(until);
                let time = MoveTime { target: until, limit: time.limit.saturating_sub(kept) };
                search_on_clock(s, time, 256, || clock.elapsed());
            },
        );
        conclude(&self.game, s, &verdict)
    }

    /// `hexarena-analyze [iterations [moves]]`: the best moves (5 unless
    /// asked for more) in HexGui's orientation.
    fn analyze(&self, args: &[&str]) -> Reply {
        let iterations = match count_arg(args, 10_000, 10_000_000, "hexarena-analyze takes an iteration count") {
            Ok(n) => n,
            Err(e) => return Reply::Err(e),
        };
        let rest = args.get(1..).unwrap_or_default();
        let top = match count_arg(rest, 5, 361, "hexarena-analyze lists a number of moves") {
            Ok(n) => n as usize,
            Err(e) => return Reply::Err(e),
        };
        // The timed search's settings (`--search`), so that a setting is
        // judged position by position as it would play.
        let Ok(mut s) = Searcher::of_game(&self.game, self.options.search) else {
            return Reply::Err("the game is over".into());
        };
        s.run(iterations);
        let a = s.analysis(top);
        let lines: Vec<String> = a
            .moves
            .iter()
            .map(|m| format!("{} {:.3} {}", vertex_text(Move::Place(m.cell)), m.win_rate, m.visits))
            .collect();
        Reply::Ok(lines.join("\n"))
    }

    fn solve(&self, args: &[&str]) -> Reply {
        let budget = match count_arg(args, 20_000_000, 1_000_000_000, "hexarena-solve takes a position budget") {
            Ok(n) => n,
            Err(e) => return Reply::Err(e),
        };
        if let Some(w) = self.game.winner() {
            return Reply::Ok(gtp_colour_letter(w).to_ascii_lowercase().to_string());
        }
        let mover = self.game.to_move();
        Reply::Ok(match crate::engine::solver::solve(self.game.position(), budget).verdict {
            crate::engine::solver::Verdict::Win(_) => gtp_colour_letter(mover).to_ascii_lowercase().to_string(),
            crate::engine::solver::Verdict::Loss => {
                gtp_colour_letter(mover.opponent()).to_ascii_lowercase().to_string()
            }
            crate::engine::solver::Verdict::Unknown => "unknown".into(),
        })
    }

    /// The board as HexGui shows it (black top↔bottom), with a legend.
    fn board_text(&self) -> String {
        let n = self.game.size();
        let p = self.game.position();
        let mut out = String::from("  ");
        for c in 0..n {
            out.push(' ');
            out.push(crate::engine::cell::column_letter(c));
        }
        out.push('\n');
        for row in 0..n {
            out.push_str(&format!("{:>2}{}", row + 1, " ".repeat(row as usize)));
            for col in 0..n {
                // HexGui's (col, row) is our transposed cell.
                let glyph = match p.stone(Cell::new(row, col)) {
                    Some(Color::Red) => 'B',
                    Some(Color::Blue) => 'W',
                    None => '.',
                };
                out.push(' ');
                out.push(glyph);
            }
            out.push('\n');
        }
        let turn = match self.game.winner() {
            Some(w) => format!("{} ({}) has won", gtp_colour_name(w), w),
            None => format!("{} ({}) to move", gtp_colour_name(self.game.to_move()), self.game.to_move()),
        };
        out.push_str(&format!("B = black (our Red), W = white (our Blue); {turn}"));
        out
    }
}

/// The optional count a command takes first: `default` when absent, else
/// 1 to `max`; `takes` starts the error ("… from 1 to MAX").
fn count_arg(args: &[&str], default: u64, max: u64, takes: &str) -> Result<u64, String> {
    match args.first().map(|a| a.parse::<u64>()) {
        None => Ok(default),
        Some(Ok(n)) if (1..=max).contains(&n) => Ok(n),
        Some(_) => Err(format!("{takes} from 1 to {max}")),
    }
}

/// The move a finished search of `game` gives, with what the solver found
/// before it: the swap where it is open and pays, else a proved win's
/// move, else the best cell.
fn conclude(game: &Game, s: &Searcher, verdict: &Verdict) -> Option<Move> {
    if swaps(game, &s.analysis(1), verdict) {
        return Some(Move::Swap);
    }
    endgame::choose(verdict, s).map(Move::Place)
}

fn parse_colour(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Red),
        "w" | "white" => Ok(Color::Blue),
        _ => Err(format!("'{text}' is not a colour: use b or w")),
    }
}

fn gtp_colour_letter(c: Color) -> char {
    match c {
        Color::Red => 'B',
        Color::Blue => 'W',
    }
}

fn gtp_colour_name(c: Color) -> &'static str {
    match c {
        Color::Red => "black",
        Color::Blue => "white",
    }
}

/// A GTP vertex (HexGui orientation) as our move.
fn parse_vertex(text: &str, size: u8) -> Result<Move, String> {
    match text.to_ascii_lowercase().as_str() {
        "swap-pieces" | "swap" => Ok(Move::Swap),
        "swap-sides" => Err("swap-sides is not supported: hexarena swaps pieces".into()),
        "resign" | "pass" => Err(format!("{text} is not a move hexarena can play on the board")),
        _ => Cell::parse(text, size).map(|c| Move::Place(c.transpose())).map_err(|e| e.to_string()),
    }
}

/// Our move as a GTP vertex in HexGui's orientation.
fn vertex_text(m: Move) -> String {
    match m {
        Move::Place(c) => c.transpose().to_string(),
        Move::Swap => "swap-pieces".into(),
    }
}

#[cfg(test)]
mod tests;
