//! The engine worker: runs searches in slices of about 40 ms, reporting
//! after each, and yields to its event loop between slices so that a new
//! request or a stop is seen at once.

use std::sync::OnceLock;
use std::time::Duration;

use gloo_worker::{HandlerId, Registrable, Worker, WorkerScope};

use super::protocol::{EngineRequest, EngineUpdate, GameSpec};
use crate::engine::bench::{Clock, uniform_playouts_on};
use crate::engine::patterns::Patterns;
use crate::engine::search::bounded::{BoundedCheck, BoundedProof};
use crate::engine::search::endgame;
use crate::engine::search::follow::continuation;
use crate::engine::search::level::{decide, move_budget, start_check};
use crate::engine::search::{Level, SearchConfig, Searcher};
use crate::engine::solver::{Prover, Verdict};
use crate::engine::{Color, Game, MAX_SIZE, MIN_SIZE};

/// Memory bound of one search tree in the browser (a page runs up to two
/// workers).
const WORKER_TREE_BYTES: usize = 96 << 20;

/// Endgames with at most this many empty cells are also given to the
/// solver, a little of each slice.
const SOLVER_EMPTIES: usize = 60;
/// Solver positions per slice, and in all before it gives up.
const SOLVER_SLICE: u64 = 400;
const SOLVER_LIMIT: u64 = 400_000;

/// Target length of one slice of search.
const SLICE_MS: f64 = 40.0;

/// Solver slices a move's proof runs per turn of the event loop: about
/// as long as a slice of search.
const PROOF_SLICES: u32 = 4;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn warn(message: &str);
}

/// The learned patterns the worker's searches use, read once at start.
static PATTERNS: OnceLock<Option<Patterns>> = OnceLock::new();

/// Starts answering the page's requests. Called by the worker bundle's
/// entry point (engine-worker/) once its WASM is loaded inside the worker,
/// with the pattern file's text that its loader fetched.
pub fn register(patterns: &str) {
    console_error_panic_hook::set_once();
    let parsed = match Patterns::parse(patterns) {
        Ok(p) => Some(p),
        Err(e) => {
            // The engine still plays without them, only weaker.
            warn(&format!("engine worker: no learned patterns ({e})"));
            None
        }
    };
    let _ = PATTERNS.set(parsed);
    EngineWorker::registrar().register();
}

/// The settings of the worker's searches: a level's for its moves, the
/// defaults for analysis; with the patterns the worker fetched.
fn worker_config(seed: u64, level: Option<Level>) -> SearchConfig {
    let base = level.map_or_else(|| SearchConfig { seed, ..SearchConfig::default() }, |l| l.search_config(seed));
    SearchConfig { memory_bytes: WORKER_TREE_BYTES, patterns: PATTERNS.get().and_then(Option::as_ref), ..base }
}

struct JsClock;

impl Clock for JsClock {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }
}

enum Task {
    Analyze { max_playouts: Option<u64> },
    Move { level: Level, seed: u64 },
}

/// A move's proof attempt, which runs before its search as natively
/// (`level::choose_move_with`), so both choose the same move.
enum MoveProof {
    Running(BoundedProof),
    Settled(Verdict),
}

impl MoveProof {
    fn verdict(&self) -> Option<&Verdict> {
        match self {
            MoveProof::Running(_) => None,
            MoveProof::Settled(v) => Some(v),
        }
    }
}

/// A move's check of its search's choices after the search, as natively
/// (`level::choose_move_configured`).
enum MoveCheck {
    /// The search is not done yet.
    Waiting,
    Running(Box<BoundedCheck>),
    /// Checked, or nothing to check (analysis, the levels that do not).
    Settled,
}

struct Job {
    id: u64,
    who: HandlerId,
    spec: GameSpec,
    searcher: Searcher,
    /// The winner, if the solver proved the analysed position.
    solved: Option<Color>,
    /// The most stones the solver's winner needs, once it has proved it.
    solved_within: Option<u32>,
    /// The solver while it is still working on the position (analysis).
    prover: Option<Prover>,
    /// A move's proof attempt before its search (settled at once for
    /// analysis and at the levels that do not prove).
    move_proof: MoveProof,
    move_check: MoveCheck,
    /// The game searched: its side to move, and whether a swap is open.
    game: Game,
    task: Task,
    started_ms: f64,
}

impl Job {
    /// Runs a little of a move's proof while it is not settled; whether
    /// it is still running.
    fn proving(&mut self) -> bool {
        if let MoveProof::Running(bounded) = &mut self.move_proof {
            match bounded.step(PROOF_SLICES) {
                Some(verdict) => {
                    // As natively: the search chooses among the moves not
                    // proved to lose.
                    if let Some(open) = bounded.open_moves() {
                        self.searcher.keep_root_moves(&open);
                    }
                    self.move_proof = MoveProof::Settled(verdict);
                }
                None => return true,
            }
        }
        false
    }

    /// Runs a little of a move's check while it runs, and takes the
    /// refuted choices from the root once it settles; whether it is still
    /// running.
    fn checking(&mut self) -> bool {
        if let MoveCheck::Running(check) = &mut self.move_check {
            if !check.step(PROOF_SLICES) {
                return true;
            }
            check.cut(&mut self.searcher);
            self.move_check = MoveCheck::Settled;
        }
        false
    }

    /// Once a move's search is done: starts its check where the level
    /// checks; whether one started.
    fn start_checking(&mut self) -> bool {
        let Task::Move { level, .. } = self.task else { return false };
        if !matches!(self.move_check, MoveCheck::Waiting) {
            return false;
        }
        let verdict = self.move_proof.verdict().unwrap_or(&Verdict::Unknown);
        self.move_check = match start_check(&self.game, &self.searcher, verdict, level) {
            Some(check) => MoveCheck::Running(Box::new(check)),
            None => MoveCheck::Settled,
        };
        matches!(self.move_check, MoveCheck::Running(_))
    }

    /// The iterations a move's search takes: its level's, or just enough
    /// to rank the winning moves after a proof (0 for analysis).
    fn move_iterations(&self) -> u64 {
        match self.task {
            Task::Move { level, .. } => {
                let budget = move_budget(&self.game, level);
                self.move_proof.verdict().map_or(budget, |verdict| endgame::iterations_after(verdict, budget))
            }
            Task::Analyze { .. } => 0,
        }
    }
}

/// The worker's state: at most one job at a time.
pub struct EngineWorker {
    job: Option<Job>,
    /// The last search and its position, kept so that a request for a
    /// position a few moves further on continues its tree.
    previous: Option<(GameSpec, Searcher)>,
    /// Iterations per slice, adapted to take about [`SLICE_MS`].
    slice: u64,
}

/// The worker's own message: run the next slice of job `0`.
pub struct Slice(u64);

fn schedule(scope: &WorkerScope<EngineWorker>, id: u64) {
    // A timeout, not a bare future: it lets queued requests in first.
    scope.send_future(async move {
        gloo_timers::future::TimeoutFuture::new(0).await;
        Slice(id)
    });
}

impl Worker for EngineWorker {
    type Message = Slice;
    type Input = EngineRequest;
    type Output = EngineUpdate;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        EngineWorker { job: None, previous: None, slice: 500 }
    }

    // Loading the WASM bundle inside the worker takes a moment on a cold
    // start; telling the page when it is done lets it say so.
    fn connected(&mut self, scope: &WorkerScope<Self>, who: HandlerId) {
        scope.respond(who, EngineUpdate::Started);
    }

    fn received(&mut self, scope: &WorkerScope<Self>, request: EngineRequest, who: HandlerId) {
        if let Some(job) = self.job.take() {
            self.previous = Some((job.spec, job.searcher));
        }
        let (id, game, task) = match request {
            EngineRequest::Stop => return,
            EngineRequest::Bench { job, size, millis } => {
                let size = size.clamp(MIN_SIZE, MAX_SIZE);
                let rate = uniform_playouts_on(&JsClock, size, Duration::from_millis(millis.min(10_000) as u64));
                let millis = rate.elapsed.as_secs_f64() * 1000.0;
                let update =
                    EngineUpdate::Bench { job, size, playouts: rate.count, millis, per_second: rate.per_second() };
                scope.respond(who, update);
                return;
            }
            EngineRequest::Analyze { job, game, max_playouts } => (job, game, Task::Analyze { max_playouts }),
            EngineRequest::Move { job, game, level, seed } => (job, game, Task::Move { level, seed }),
        };
        let spec = game;
        let game = match spec.game() {
            Ok(g) => g,
            Err(e) => {
                scope.respond(who, EngineUpdate::Failed { job: id, reason: e.to_string() });
                return;
            }
        };
        let (seed, level) = match task {
            Task::Move { seed, level } => (seed, Some(level)),
            Task::Analyze { .. } => (id, None),
        };
        let move_proof = match level.and_then(|l| l.proof_positions(&game)) {
            Some(positions) => MoveProof::Running(BoundedProof::new(game.position(), positions)),
            None => MoveProof::Settled(Verdict::Unknown),
        };
        let reused = self.previous.take().and_then(|(old, mut searcher)| {
            if old.size != spec.size || old.swap != spec.swap {
                return None;
            }
            let extra = continuation(&old.moves, &spec.moves)?;
            searcher.advance(&extra).then_some(searcher)
        });
        let searcher = match reused {
            Some(s) => Ok(s),
            None => Searcher::of_game(&game, worker_config(seed, level)),
        };
        let prover = match task {
            Task::Analyze { .. } if game.position().empty_cells().count() <= SOLVER_EMPTIES => {
                Some(Prover::new(game.position()))
            }
            _ => None,
        };
        match searcher {
            Ok(searcher) => {
                self.job = Some(Job {
                    id,
                    who,
                    spec,
                    searcher,
                    solved: None,
                    solved_within: None,
                    prover,
                    move_proof,
                    move_check: match task {
                        Task::Move { .. } => MoveCheck::Waiting,
                        Task::Analyze { .. } => MoveCheck::Settled,
                    },
                    game,
                    task,
                    started_ms: js_sys::Date::now(),
                });
                schedule(scope, id);
            }
            Err(e) => scope.respond(who, EngineUpdate::Failed { job: id, reason: e.to_string() }),
        }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, Slice(id): Slice) {
        let Some(job) = self.job.as_mut().filter(|j| j.id == id) else { return };
        if job.proving() || job.checking() {
            let playouts = job.searcher.iterations();
            let update = EngineUpdate::Thinking { job: job.id, playouts, budget: job.move_iterations() };
            scope.respond(job.who, update);
            schedule(scope, id);
            return;
        }
        let start = js_sys::Date::now();
        let remaining = match job.task {
            Task::Analyze { max_playouts } => max_playouts.map(|m| m.saturating_sub(job.searcher.iterations())),
            Task::Move { .. } => Some(job.move_iterations().saturating_sub(job.searcher.iterations())),
        };
        // A move's search may be done already (its check has just run).
        if remaining != Some(0) {
            job.searcher.run(remaining.map_or(self.slice, |r| r.min(self.slice)));
            let took = (js_sys::Date::now() - start).max(1.0);
            // Aim the next slice at SLICE_MS, changing by at most 2× at a time.
            let scale = (SLICE_MS / took).clamp(0.5, 2.0);
            self.slice = ((self.slice as f64 * scale) as u64).clamp(64, 200_000);
        }

        if let Some(prover) = job.prover.as_mut() {
            let verdict = prover.run(SOLVER_SLICE).clone();
            match verdict {
                Verdict::Win(_) => job.solved = Some(job.game.to_move()),
                Verdict::Loss => job.solved = Some(job.game.to_move().opponent()),
                Verdict::Unknown => {}
            }
            job.solved_within = prover.winner_stones();
            if job.solved.is_some() || prover.nodes() >= SOLVER_LIMIT {
                job.prover = None;
            }
        }
        let playouts = job.searcher.iterations();
        let proven = job.searcher.proven().is_some();
        let exhausted = match job.task {
            Task::Analyze { max_playouts } => max_playouts.is_some_and(|m| playouts >= m),
            Task::Move { .. } => playouts >= job.move_iterations(),
        };
        let done = proven || exhausted;
        match job.task {
            Task::Analyze { .. } => {
                let elapsed_s = ((js_sys::Date::now() - job.started_ms) / 1000.0).max(1e-3);
                let mut analysis = job.searcher.analysis(4);
                if let Some(winner) = job.solved {
                    analysis.solved = Some(winner);
                    analysis.solved_within = job.solved_within.and_then(|k| u16::try_from(k).ok());
                    analysis.win_rate = if winner == analysis.to_move { 1.0 } else { 0.0 };
                }
                let update = EngineUpdate::Analysis {
                    job: job.id,
                    analysis,
                    playouts_per_second: playouts as f64 / elapsed_s,
                    done,
                };
                scope.respond(job.who, update);
            }
            Task::Move { level, seed } => {
                let budget = job.move_iterations();
                if done && job.start_checking() {
                    scope.respond(job.who, EngineUpdate::Thinking { job: job.id, playouts, budget });
                    schedule(scope, id);
                    return;
                }
                if done {
                    let verdict = job.move_proof.verdict().unwrap_or(&Verdict::Unknown);
                    let chosen = decide(&job.game, &job.searcher, verdict, level, seed);
                    let update = match chosen {
                        Some(chosen) => EngineUpdate::Moved { job: job.id, chosen },
                        None => EngineUpdate::Failed { job: job.id, reason: "no legal move".into() },
                    };
                    scope.respond(job.who, update);
                } else {
                    scope.respond(job.who, EngineUpdate::Thinking { job: job.id, playouts, budget });
                }
            }
        }
        if done {
            self.previous = self.job.take().map(|j| (j.spec, j.searcher));
        } else {
            schedule(scope, id);
        }
    }
}
