//! Analysis and move choice: Monte-Carlo tree search (RAVE, bridge-aware
//! playouts) that can be asked for its current best moves at any moment.
//!
//! Budgets are counted in iterations, not seconds: `std::time::Instant`
//! does not exist in the browser, so callers that think in time run the
//! search in slices and look at their own clock between them.

pub mod bounded;
pub mod clock;
pub mod endgame;
pub mod follow;
pub mod level;
mod mcts;
pub mod refute;
pub mod settings;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use self::follow::Following;
pub use self::level::{Level, choose_move};
pub use self::mcts::DeeperLooks;
use self::mcts::Mcts;
use super::bits::{Bits, ForWidth, at_width};
use super::cell::Cell;
use super::color::Color;
use super::connections::ListLimits;
use super::game::Game;
use super::patterns::Patterns;
use super::patterns::answers::Answers;
use super::patterns::playout::PlayoutPolicy;
pub use super::playout::NearFactors;
use super::position::Position;
use super::stones::Stones;

/// The default of [`SearchConfig::expand_after`]: a leaf played out a few
/// times before it gets children won matches against expanding at once,
/// as the priors made each expansion dearer (docs/benchmarks.md).
pub const DEFAULT_EXPAND_AFTER: u32 = 4;

/// The default of [`SearchConfig::knowledge_after`] (see docs/benchmarks.md).
pub const DEFAULT_KNOWLEDGE_AFTER: u32 = 128;

/// The default of [`SearchConfig::prior_weight`]: the shipped patterns'
/// shapes and nearness to the last move, as priors, won matches against the
/// same search without them at every budget tried (docs/benchmarks.md).
pub const DEFAULT_PRIOR_WEIGHT: f32 = 3.0;

/// The default of [`SearchConfig::reply_share`]: answering a move into a
/// connection by restoring it first won matches against the same search
/// without it on 9×9 and 11×11 (docs/benchmarks.md).
pub const DEFAULT_REPLY_SHARE: f32 = 0.5;

/// The patterns a search uses unless told otherwise: the built-in ones
/// natively; none in WebAssembly, where the worker fetches the file and
/// sets them (so that no page bundle carries it).
fn default_patterns() -> Option<&'static Patterns> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Some(Patterns::builtin())
    }
    #[cfg(target_arch = "wasm32")]
    {
        None
    }
}

/// Knobs of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Seed of the playout randomness: the same seed gives the same search.
    pub seed: u64,
    /// UCT exploration constant (small: RAVE does most of the exploring).
    pub exploration: f32,
    /// The exploration constant at the root alone: only the root's choice
    /// is played, so how widely it looks is tuned apart from the tree
    /// below it (docs/benchmarks.md, "The root's own exploration").
    pub root_exploration: f32,
    /// RAVE bias `b` of the minimum-error schedule; smaller trusts AMAF
    /// statistics longer.
    pub rave_bias: f32,
    /// Imagined all-moves-as-first visits at an even score that every move
    /// starts with: more of them keep a move's first few playouts from
    /// swinging its RAVE value, so the priors order the first visits.
    pub rave_prior: f32,
    /// Visits a leaf needs before it gets children.
    pub expand_after: u32,
    /// Visits a node needs before the solver's fast checks prune its moves
    /// and may decide it (0: never). The root is checked at once.
    pub knowledge_after: u32,
    /// Visits a node needs before the fast checks look at it again with
    /// the rules of `deeper_lists`, which cost too much at every checked
    /// node but may decide the few that the search keeps coming back to
    /// (0: never).
    pub deeper_after: u32,
    /// The rules of that second look: captured sets by default
    /// (`all+captured`), or with the second-row links too
    /// (`all+captured+links`, or `+links3` for cells at most three
    /// apart), the ladder links (`all+captured+ladders`), or both.
    pub deeper_lists: ListLimits,
    /// Upper bound of the tree's memory.
    pub memory_bytes: usize,
    /// Learned pattern weights that order a new node's moves (none, or a
    /// zero `prior_weight`: all moves start equal).
    pub patterns: Option<&'static Patterns>,
    /// Strength of the patterns' prior against the search's own
    /// statistics: the bonus of a move with prior probability `p` after `n`
    /// visits is `prior_weight * p / sqrt(n + 1)`.
    pub prior_weight: f32,
    /// Pattern weights that steer the playouts (none: uniform draws).
    pub playout: Option<PlayoutPolicy>,
    /// Share of a node's prior given to the moves that restore a
    /// connection the move into it broke, once the parent's fast checks
    /// have run (0: none; MoHex's "VC maintenance").
    pub reply_share: f32,
    /// How much more likely a playout answers next to, or two steps from,
    /// the opponent's last stone than anywhere else (none: no more).
    pub near: Option<NearFactors>,
    /// Learned answers to the opponent's last stone in the playouts
    /// ([`crate::engine::patterns::answers`]; none: no answers but the
    /// bridge's). Where both are set, an answer is tried before `near`.
    pub answers: Option<&'static Answers>,
    /// How much the answers' weights above a far cell's count in the
    /// playouts' draw (1: as fitted; below 1 the playouts answer less
    /// often, with the same preferences among the answers).
    pub answer_scale: f32,
    /// How many connections the fast checks' H-search keeps a pair.
    pub lists: ListLimits,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            seed: 0x5eed,
            exploration: 0.03,
            root_exploration: 0.03,
            rave_bias: 0.05,
            rave_prior: 1.0,
            expand_after: DEFAULT_EXPAND_AFTER,
            knowledge_after: DEFAULT_KNOWLEDGE_AFTER,
            deeper_after: 0,
            deeper_lists: ListLimits { captured: true, ..ListLimits::default() },
            memory_bytes: 256 << 20,
            patterns: default_patterns(),
            prior_weight: DEFAULT_PRIOR_WEIGHT,
            playout: None,
            reply_share: DEFAULT_REPLY_SHARE,
            near: None,
            answers: None,
            answer_scale: 1.0,
            lists: ListLimits::default(),
        }
    }
}

/// Why a search could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The position is already won; there is nothing to search.
    GameOver(Color),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::GameOver(w) => write!(f, "the game is over: {w} has won"),
        }
    }
}

impl std::error::Error for SearchError {}

/// One candidate move as the search sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveStat {
    /// Where to play.
    pub cell: Cell,
    /// Iterations that went through this move.
    pub visits: u32,
    /// Share of those the side to move won, 0 to 1.
    pub win_rate: f32,
    /// The expected continuation, this move first.
    pub pv: Vec<Cell>,
    /// Set when the search proved the result of this move.
    pub proven: Option<Proof>,
}

/// A result the search has proved, not just estimated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// Who wins with best play.
    pub winner: Color,
    /// In how many more stones of the winner.
    pub winner_moves: u16,
}

impl Proof {
    fn from_plies(winner: Color, plies: u16) -> Proof {
        Proof { winner, winner_moves: plies.div_ceil(2) }
    }
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} wins in {}", self.winner, self.winner_moves)
    }
}

/// A snapshot of the search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub size: u8,
    pub to_move: Color,
    /// Iterations (each one playout or a decided leaf) so far.
    pub playouts: u64,
    /// The best moves, most visited first.
    pub moves: Vec<MoveStat>,
    /// The win probability of the side to move, 0 to 1.
    pub win_rate: f32,
    /// Set when the position itself is proved.
    pub proven: Option<Proof>,
    /// The winner when the solver (rather than the tree search) proved the
    /// position.
    #[serde(default)]
    pub solved: Option<Color>,
    /// With `solved`: the most stones that winner still needs, following
    /// the solver's proof.
    #[serde(default)]
    pub solved_within: Option<u16>,
}

/// A search tree of any cell-set width: what [`Searcher`] asks of it. One
/// dynamic call per slice of iterations, never per iteration.
trait Tree {
    fn run(&mut self, iterations: u64);
    fn reroot(&mut self, cells: &[u16]) -> bool;
    fn keep_root(&mut self, cells: &[u16]) -> bool;
    fn size(&self) -> u8;
    fn iterations(&self) -> u64;
    fn deeper_looks(&self) -> DeeperLooks;
    fn proven(&self) -> Option<Proof>;
    fn analysis(&self, top: usize) -> Analysis;
}

impl<B: Bits> Tree for Mcts<B> {
    fn run(&mut self, iterations: u64) {
        for _ in 0..iterations {
            if self.nodes[0].proven.is_some() && self.iterations > 0 && root_settled(self) {
                break;
            }
            self.iterate();
        }
    }

    fn reroot(&mut self, cells: &[u16]) -> bool {
        Mcts::reroot(self, cells)
    }

    fn keep_root(&mut self, cells: &[u16]) -> bool {
        Mcts::keep_root(self, cells.iter().fold(B::zero(), |set, &c| set | B::single(c as usize)))
    }

    fn size(&self) -> u8 {
        self.masks.size
    }

    fn iterations(&self) -> u64 {
        self.iterations
    }

    fn deeper_looks(&self) -> DeeperLooks {
        self.deeper_looks
    }

    fn proven(&self) -> Option<Proof> {
        self.nodes[0].proven.map(|(w, p)| Proof::from_plies(w, p))
    }

    fn analysis(&self, top: usize) -> Analysis {
        snapshot(self, top)
    }
}

/// A search of one position, grown a slice at a time.
///
/// ```
/// use hexarena::engine::{Cell, Game, Move, search::{Searcher, SearchConfig}};
/// let mut game = Game::new(5, false).unwrap();
/// for m in ["a3", "a1", "b3", "b1", "d3", "d1", "e3", "e1"] {
///     game.play(Move::parse(m, 5).unwrap()).unwrap();
/// }
/// let mut s = Searcher::new(game.position(), SearchConfig::default()).unwrap();
/// s.run(200);
/// assert_eq!(s.best_move(), Some(Cell::parse("c3", 5).unwrap()));
/// ```
pub struct Searcher {
    tree: Box<dyn Tree>,
}

impl Searcher {
    /// A search of `position` for the side to move, whose history is not
    /// known: the root's priors read the shapes alone. [`Searcher::of_game`]
    /// knows more.
    pub fn new(position: &Position, config: SearchConfig) -> Result<Searcher, SearchError> {
        Searcher::after(position, None, config)
    }

    /// A search of `game`'s position, whose root knows the stone just
    /// played: a reply near it is likelier, as everywhere else in the tree.
    pub fn of_game(game: &Game, config: SearchConfig) -> Result<Searcher, SearchError> {
        Searcher::after(game.position(), game.last_stone(), config)
    }

    fn after(position: &Position, last: Option<Cell>, config: SearchConfig) -> Result<Searcher, SearchError> {
        if let Some(w) = position.winner() {
            return Err(SearchError::GameOver(w));
        }
        let n = position.size();
        let last = last.filter(|c| c.is_on(n)).map(|c| c.index(n) as u16);
        struct Grow<'a>(&'a Position, Option<u16>, SearchConfig);
        impl ForWidth for Grow<'_> {
            type Output = Box<dyn Tree>;
            fn run<B: Bits + 'static>(self) -> Box<dyn Tree> {
                let Grow(position, last, config) = self;
                Box::new(Mcts::<B>::new(position.size(), Stones::from_position(position), last, config))
            }
        }
        Ok(Searcher { tree: at_width(n, Grow(position, last, config)) })
    }

    /// Runs `iterations` more iterations, or fewer if the root is proved.
    pub fn run(&mut self, iterations: u64) {
        self.tree.run(iterations)
    }

    /// Follows `moves` (played from the searched position, in order) and
    /// keeps what the search learnt about the position they lead to, so a
    /// search of the next position does not start from nothing. False, with
    /// nothing changed, when the tree does not reach that far.
    pub fn advance(&mut self, moves: &[Cell]) -> bool {
        let n = self.tree.size();
        let cells: Vec<u16> = moves.iter().map(|c| c.index(n) as u16).collect();
        if moves.iter().any(|c| !c.is_on(n)) {
            return false;
        }
        self.tree.reroot(&cells)
    }

    /// Leaves the root only the moves among `cells` (those the solver has
    /// not proved to lose), unless none of the root's moves is among them.
    /// Whether any move was dropped.
    pub fn keep_root_moves(&mut self, cells: &[Cell]) -> bool {
        let n = self.tree.size();
        let cells: Vec<u16> = cells.iter().filter(|c| c.is_on(n)).map(|c| c.index(n) as u16).collect();
        self.tree.keep_root(&cells)
    }

    /// Iterations so far.
    pub fn iterations(&self) -> u64 {
        self.tree.iterations()
    }

    /// What the checks with captured sets have done in this tree so far.
    pub fn deeper_looks(&self) -> DeeperLooks {
        self.tree.deeper_looks()
    }

    /// Whether the root's result is proved.
    pub fn proven(&self) -> Option<Proof> {
        self.tree.proven()
    }

    /// The move to play now: a proved win first, else the most visited.
    pub fn best_move(&self) -> Option<Cell> {
        self.analysis(1).moves.first().map(|m| m.cell)
    }

    /// The `top` best moves with their statistics and continuations.
    pub fn analysis(&self, top: usize) -> Analysis {
        self.tree.analysis(top)
    }
}

/// Whether a proved root needs no more iterations: its winning move (or,
/// when lost, every move) has been looked at.
fn root_settled<B: Bits>(m: &Mcts<B>) -> bool {
    let root = m.nodes[0];
    let edges = &m.edges[root.first_edge as usize..(root.first_edge + root.edge_count as u32) as usize];
    edges.iter().any(|e| e.visits > 0)
}

fn snapshot<B: Bits>(m: &Mcts<B>, top: usize) -> Analysis {
    let n = m.masks.size;
    let root = m.nodes[0];
    let mover = m.root_stones.to_move;
    let edge_range = root.first_edge as usize..(root.first_edge + root.edge_count as u32) as usize;
    let order: Vec<usize> = edge_range.collect();
    let child_proof = |e: usize| {
        let child = m.edges[e].child;
        if child == u32::MAX { None } else { m.nodes[child as usize].proven.map(|(w, p)| Proof::from_plies(w, p + 1)) }
    };
    let a_move_proved_winning = order.iter().any(|&e| child_proof(e).is_some_and(|p| p.winner == mover));
    let inherited = inherited_proof(root.proven, mover, a_move_proved_winning);
    let proven_of = |e: usize| child_proof(e).or(inherited);
    // Proved wins first (quickest first), proved losses last, the rest by
    // visits; among equal proofs, the most visited first.
    let rank = |e: usize| -> Rank {
        let visits = m.edges[e].visits;
        match proven_of(e) {
            Some(p) if p.winner == mover => (2, -(p.winner_moves as i64), visits),
            Some(p) => (0, p.winner_moves as i64, visits),
            None => (1, 0, visits),
        }
    };
    let mut ranked: Vec<(Rank, usize)> = order.iter().map(|&e| (rank(e), e)).collect();
    best_first(&mut ranked);
    let moves: Vec<MoveStat> = ranked
        .into_iter()
        .take(top)
        .map(|(_, e)| {
            let edge = m.edges[e];
            let win_rate = match proven_of(e) {
                Some(p) if p.winner == mover => 1.0,
                Some(_) => 0.0,
                None if edge.visits > 0 => edge.wins / edge.visits as f32,
                None => 0.5,
            };
            MoveStat {
                cell: Cell::from_index(edge.cell as usize, n),
                visits: edge.visits,
                win_rate,
                pv: principal_variation(m, e, n),
                proven: proven_of(e),
            }
        })
        .collect();
    let proven = root.proven.map(|(w, p)| Proof::from_plies(w, p));
    let win_rate = match proven {
        Some(p) if p.winner == mover => 1.0,
        Some(_) => 0.0,
        None => moves.first().map_or(0.5, |best| best.win_rate),
    };
    Analysis {
        size: n,
        to_move: mover,
        playouts: m.iterations,
        moves,
        win_rate,
        proven,
        solved: None,
        solved_within: None,
    }
}

/// How good a root move looks: proved or not, how soon, how visited.
type Rank = (i32, i64, u32);

/// Orders `ranked` best first, ties in edge order. Not generic, so one
/// copy of the sort serves every board width in the worker's download.
#[inline(never)]
fn best_first(ranked: &mut [(Rank, usize)]) {
    ranked.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
}

/// The proof every root move carries when the root is proved and its moves'
/// own nodes do not say so: a lost root loses whatever is played; a won
/// root none of whose moves' nodes is a proved win was decided by the fast
/// checks, which kept only winning moves (a win found by the search itself
/// comes up from a move's node, which then says so).
fn inherited_proof(root: Option<(Color, u16)>, mover: Color, a_move_proved_winning: bool) -> Option<Proof> {
    match root {
        Some((winner, plies)) if winner != mover || !a_move_proved_winning => Some(Proof::from_plies(winner, plies)),
        _ => None,
    }
}

/// The line that starts with edge `first` and follows the most visited
/// (or proved winning) reply at each step.
fn principal_variation<B: Bits>(m: &Mcts<B>, first: usize, n: u8) -> Vec<Cell> {
    let mut line = vec![Cell::from_index(m.edges[first].cell as usize, n)];
    let mut node = m.edges[first].child;
    while node != u32::MAX && line.len() < 24 {
        let nd = m.nodes[node as usize];
        if !nd.expanded || nd.edge_count == 0 {
            break;
        }
        let range = nd.first_edge as usize..(nd.first_edge + nd.edge_count as u32) as usize;
        let best = range.max_by_key(|&e| m.edges[e].visits);
        let Some(best) = best else { break };
        if m.edges[best].visits == 0 && nd.edge_count > 1 {
            break;
        }
        line.push(Cell::from_index(m.edges[best].cell as usize, n));
        node = m.edges[best].child;
    }
    line
}

#[cfg(test)]
mod tests;
