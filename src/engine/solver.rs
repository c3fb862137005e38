//! A solver: depth-first proof-number search (df-pn) with a transposition
//! table. It proves who wins a position with perfect play, within a node
//! budget.
//!
//! Before a position is expanded it is reduced: captured pairs are filled
//! for their owner and dead cells are left out (see [`super::dead_cells`]).
//! Then virtual connections ([`super::connections`]) decide much of it: a
//! side to move that wins at once or holds a semi connection between its
//! edges has won; facing the opponent's full connection it has lost, and
//! facing semi connections it must play where they all meet.
//!
//! Every proved position keeps a *proof set*: cells outside it could hold
//! more stones of the loser and the winner would still win. So once one
//! move is proved to lose, every other move outside the winner's proof set
//! loses too, and only moves inside it are searched (the must-play region
//! of Hayward et al.'s 7×7 and 8×8 solvers). Proof sets also let recently
//! proved positions settle the positions they cover elsewhere in the tree
//! ([`super::proof_templates`]).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::bits::{Bits, Masks, Wide};
use super::cell::Cell;
use super::color::Color;
use super::connections::{Connections, EdgeLink};
use super::dead_cells::DeadCells;
use super::playout::Stones;
use super::position::Position;
use super::proof_templates::Templates;
use super::rng::Rng;

const INF: u32 = u32::MAX / 4;
/// Expansions remembered, so that df-pn's many returns to a position do
/// not repeat its connection search.
const MOVE_CACHE: usize = 400_000;
/// Positions in the table before unproved ones are dropped.
const TABLE_LIMIT: usize = 8_000_000;

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins; these moves keep the win (at least one).
    Win(Vec<Cell>),
    /// The side to move loses whatever it plays.
    Loss,
    /// The budget ran out first.
    Unknown,
}

/// A verdict with the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// Positions expanded.
    pub nodes: u64,
    /// When proved: the most stones the winner still needs, following the
    /// proof (an upper bound, not always the shortest win).
    pub winner_stones: Option<u32>,
}

/// Proves `position` for the side to move, expanding at most `budget`
/// positions.
pub fn solve(position: &Position, budget: u64) -> Solution {
    let n = position.size();
    let cells = n as usize * n as usize;
    if cells <= 64 {
        Solver::<u64>::new(n, budget).solve_root(&Stones::from_position(position))
    } else if cells <= 128 {
        Solver::<u128>::new(n, budget).solve_root(&Stones::from_position(position))
    } else if cells <= 256 {
        Solver::<Wide<4>>::new(n, budget).solve_root(&Stones::from_position(position))
    } else {
        Solver::<Wide<6>>::new(n, budget).solve_root(&Stones::from_position(position))
    }
}

/// Solves the position after each move of the side to move in `position`
/// (every empty cell, from the centre out), within `budget` positions
/// each, and hands each result to `each` as soon as it is known. The
/// searches share one table and the proof templates, so later ones reuse
/// what earlier ones proved: centre moves first, because their proofs are
/// the cheap ones, and where the opponent wins, its proof set often
/// leaves out an edge move, which is then settled at once. Each verdict is
/// for the side to move after that move.
pub fn solve_each(position: &Position, budget: u64, each: impl FnMut(Cell, Solution)) {
    let n = position.size();
    let cells = n as usize * n as usize;
    if cells <= 64 {
        solve_children::<u64>(position, budget, each)
    } else if cells <= 128 {
        solve_children::<u128>(position, budget, each)
    } else if cells <= 256 {
        solve_children::<Wide<4>>(position, budget, each)
    } else {
        solve_children::<Wide<6>>(position, budget, each)
    }
}

fn solve_children<B: Bits>(position: &Position, budget: u64, mut each: impl FnMut(Cell, Solution)) {
    let n = position.size();
    let mut solver = Solver::<B>::new(n, 0);
    let root = Stones::<B>::from_position(position);
    let empty = root.empty_cells(&solver.masks);
    let moves: Vec<usize> = solver.order.iter().map(|&i| i as usize).filter(|&i| empty.has(i)).collect();
    for i in moves {
        let mut child = root;
        child.play(i);
        solver.budget = solver.nodes.saturating_add(budget);
        each(Cell::from_index(i, n), solver.solve_root(&child));
    }
}

/// A proof search that can be resumed: each [`Prover::run`] continues
/// where the last stopped (its table is kept), so it can share a thread
/// with other work in small slices.
pub struct Prover {
    inner: ProverInner,
    verdict: Verdict,
    winner_stones: Option<u32>,
}

enum ProverInner {
    Tiny(Box<Solver<u64>>, Stones<u64>),
    Small(Box<Solver<u128>>, Stones<u128>),
    Medium(Box<Solver<Wide<4>>>, Stones<Wide<4>>),
    Large(Box<Solver<Wide<6>>>, Stones<Wide<6>>),
}

impl Prover {
    /// A proof search of `position` for the side to move.
    pub fn new(position: &Position) -> Prover {
        let n = position.size();
        let cells = n as usize * n as usize;
        let inner = if cells <= 64 {
            ProverInner::Tiny(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        } else if cells <= 128 {
            ProverInner::Small(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        } else if cells <= 256 {
            ProverInner::Medium(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        } else {
            ProverInner::Large(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        };
        Prover { inner, verdict: Verdict::Unknown, winner_stones: None }
    }

    /// Searches about `nodes` more positions, unless already decided, and
    /// returns the verdict so far.
    pub fn run(&mut self, nodes: u64) -> &Verdict {
        if self.verdict == Verdict::Unknown {
            let solution = match &mut self.inner {
                ProverInner::Tiny(s, root) => s.resume(root, nodes),
                ProverInner::Small(s, root) => s.resume(root, nodes),
                ProverInner::Medium(s, root) => s.resume(root, nodes),
                ProverInner::Large(s, root) => s.resume(root, nodes),
            };
            self.verdict = solution.verdict;
            self.winner_stones = solution.winner_stones;
        }
        &self.verdict
    }

    /// Once decided: the most stones the winner still needs (see
    /// [`Solution::winner_stones`]).
    pub fn winner_stones(&self) -> Option<u32> {
        self.winner_stones
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        match &self.inner {
            ProverInner::Tiny(s, _) => s.nodes,
            ProverInner::Small(s, _) => s.nodes,
            ProverInner::Medium(s, _) => s.nodes,
            ProverInner::Large(s, _) => s.nodes,
        }
    }
}

/// Keys are already random: hash them as they are.
#[derive(Default)]
struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A table entry: proof and disproof numbers, and for a proved position
/// how many more stones its winner needs at most.
#[derive(Clone, Copy, Debug)]
struct Entry {
    phi: u32,
    delta: u32,
    stones: u32,
}

type Table = HashMap<u64, Entry, BuildHasherDefault<IdentityHasher>>;

/// A position ready to search: reduced, with the moves worth trying
/// (best first).
struct Expansion<B: Bits> {
    reduced: Stones<B>,
    key: Key,
    moves: Box<[Candidate]>,
    /// Captured pairs the reduction filled for the side to move and for
    /// the opponent: in the game each may cost its owner one answer.
    pairs: [u32; 2],
    /// If the side to move loses, the most stones the opponent needs after
    /// a move that was left out for breaking none of its threats (0 when
    /// none was left out).
    pruned: u32,
    /// Whether vulnerable moves were left out: each costs the winner at
    /// most one answer more than the worst move searched.
    vulnerable: bool,
    /// The captured pairs the reduction filled for the side to move and
    /// for the opponent: the winner's are part of every proof set here (a
    /// stone of the loser in one would break it). Nothing else of the
    /// reduction is: dead and captured cells stay so whatever stones are
    /// added around them, and a dead cell's colour never matters.
    fills: [B; 2],
    /// Cells the moves left out depend on (the opponent's threats and
    /// semi connections, its answers that kill vulnerable moves, the
    /// dominators): part of a proof set here when the side to move loses.
    defence: B,
    /// The opponent's connection search here: its empty cells, and the
    /// cells every edge semi connection it found needs (the whole board
    /// when it found none). See [`Solver::assess`].
    quiet: Quiet<B>,
}

/// A move worth trying, with the first estimate of its child's numbers
/// (used while the table knows nothing of the child).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    cell: u16,
    first: Entry,
}

/// A side's connection search that found no full connection between its
/// edges: what it counted as empty, and the cells every edge semi
/// connection it found needs.
#[derive(Clone, Copy, Debug)]
struct Quiet<B> {
    empty: B,
    must: B,
}

/// How a position stands before any search.
enum Standing<B: Bits> {
    /// The side to move has won (at once, or by a connection); these
    /// moves win, within that many of its stones; the last is the proof set.
    Won(B, u32, B),
    /// The side to move has lost, within that many of the opponent's
    /// stones; with the proof set.
    Lost(u32, B),
    /// Undecided.
    Open(Rc<Expansion<B>>),
}

struct Solver<B: Bits> {
    masks: Masks<B>,
    cells: usize,
    /// Zobrist keys per cell for Red and Blue stones.
    keys: Vec<[u64; 2]>,
    /// Cells ordered from the centre out: among moves that block the
    /// opponent equally, these come first (see [`Solver::candidates`]).
    order: Vec<u16>,
    dead: DeadCells,
    connections: Connections<B>,
    expansions: HashMap<u64, Rc<Expansion<B>>, BuildHasherDefault<IdentityHasher>>,
    table: Table,
    /// Proof sets of proved positions, by table key, in the orientation
    /// whose plain key is the table key.
    proofs: HashMap<u64, B, BuildHasherDefault<IdentityHasher>>,
    templates: Templates<B>,
    nodes: u64,
    budget: u64,
    /// Whether to skip the side to move's connection search when its
    /// parent's already answered it (see [`Solver::assess`]); off only to
    /// test that skipping keeps every verdict.
    reuse_quiet: bool,
    /// Connection searches so skipped.
    quiet_skips: u64,
}

const BLUE_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;

/// A position's Zobrist keys as it stands and turned half a turn (which
/// keeps each side's edges its own, so both have the same winner). The
/// table files a position under the smaller one: a position and its
/// turned twin share an entry, which halves a map of every opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Key {
    plain: u64,
    turned: u64,
}

impl Key {
    fn table(self) -> u64 {
        self.plain.min(self.turned)
    }
}

impl<B: Bits> Solver<B> {
    fn new(n: u8, budget: u64) -> Solver<B> {
        let cells = n as usize * n as usize;
        let mut rng = Rng::new(0xdf_0b0e);
        let keys = (0..cells).map(|_| [rng.next_u64(), rng.next_u64()]).collect();
        let centre = (n as f64 - 1.0) / 2.0;
        let mut order: Vec<u16> = (0..cells as u16).collect();
        let distance = |i: u16| {
            let c = Cell::from_index(i as usize, n);
            let (dq, dr) = (c.q as f64 - centre, c.r as f64 - centre);
            // Hex distance on the rhombus, with ties broken along the short
            // diagonal (q + r = n - 1), where the strong cells are.
            (dq.abs().max(dr.abs()).max((dq + dr).abs()), (dq + dr).abs())
        };
        order.sort_by(|&a, &b| distance(a).partial_cmp(&distance(b)).unwrap_or(std::cmp::Ordering::Equal));
        Solver {
            masks: Masks::new(n),
            cells,
            keys,
            order,
            dead: DeadCells::new(n),
            connections: Connections::new(n),
            expansions: HashMap::default(),
            table: Table::default(),
            proofs: HashMap::default(),
            templates: Templates::new(cells),
            nodes: 0,
            budget,
            reuse_quiet: true,
            quiet_skips: 0,
        }
    }

    fn hash(&self, s: &Stones<B>) -> Key {
        let side = if s.to_move == Color::Red { 0 } else { BLUE_TO_MOVE };
        let mut key = Key { plain: side, turned: side };
        let last = self.cells - 1;
        for (colour, stones) in [s.red, s.blue].into_iter().enumerate() {
            for i in stones.ones() {
                key.plain ^= self.keys[i][colour];
                key.turned ^= self.keys[last - i][colour];
            }
        }
        key
    }

    fn child_key(&self, key: Key, s: &Stones<B>, cell: u16) -> Key {
        let colour = if s.to_move == Color::Red { 0 } else { 1 };
        let turned = self.cells - 1 - cell as usize;
        Key {
            plain: key.plain ^ self.keys[cell as usize][colour] ^ BLUE_TO_MOVE,
            turned: key.turned ^ self.keys[turned][colour] ^ BLUE_TO_MOVE,
        }
    }

    /// Where `s` (whose key is `key`) stands, remembered for undecided
    /// positions (as they stand: the moves are cells of this orientation).
    fn standing(&mut self, s: &Stones<B>, key: Key, quiet: Option<Quiet<B>>) -> Standing<B> {
        if let Some(e) = self.expansions.get(&key.plain) {
            return Standing::Open(e.clone());
        }
        let standing = self.assess(s, quiet);
        if let Standing::Open(e) = &standing {
            if self.expansions.len() >= MOVE_CACHE {
                self.expansions.clear();
            }
            self.expansions.insert(key.plain, e.clone());
        }
        standing
    }

    /// How `s` stands. `quiet` is the parent's search for the side to move
    /// here, when every edge semi connection it found needs the cell the
    /// opponent has just taken (the move was in the must-play region).
    /// With no more empty cells than that search had, the side's own
    /// search here is not run. Had the parent's search run to the end, this
    /// one would find nothing (see [`Connections::complete`]) unless the
    /// cells the side counts as its own grew, through dead cells or
    /// captured pairs the opponent's stone made (16 finds in 55.6k such
    /// searches on 7×7 c4 and d2). A search cut short by full lists may
    /// have missed a connection too. Either way the search is skipped: such
    /// a win is found a move later, by the opponent's search in every
    /// child. On the 7×7 map, skipping after searches cut short as well
    /// costs 4% more positions and saves 15% of the time.
    fn assess(&mut self, s: &Stones<B>, quiet: Option<Quiet<B>>) -> Standing<B> {
        let m = self.masks;
        let mover = s.to_move;
        let wins = s.winning_cells(&m, mover);
        if !wins.is_zero() {
            return Standing::Won(wins, 1, wins);
        }
        let threats = s.winning_cells(&m, mover.opponent());
        if threats.count() > 1 {
            return Standing::Lost(1, threats);
        }
        let mut reduced = *s;
        self.dead.fill_captured(&mut reduced, &m);
        let filled = |colour: Color| (reduced.of(colour) & !s.of(colour)).count() / 2;
        let pairs = [filled(mover), filled(mover.opponent())];
        let fills = [reduced.of(mover) & !s.of(mover), reduced.of(mover.opponent()) & !s.of(mover.opponent())];
        if reduced.has_won(&m, mover.opponent()) {
            return Standing::Lost(pairs[1], fills[1]);
        }
        let dead = self.dead.find(&reduced, &m);
        let empty = reduced.empty_cells(&m) & !dead;
        // A dead cell's colour changes nothing: count it as the side's own
        // when looking for that side's connections. Completing a
        // connection takes at most one stone per cell it needs.
        let answered = self.reuse_quiet && quiet.is_some_and(|q| (empty & !q.empty).is_zero());
        if answered {
            self.quiet_skips += 1;
        } else {
            match self.connections.edge_link(mover, reduced.of(mover) | dead, empty, true) {
                EdgeLink::Full { carrier, need } => {
                    return Standing::Won(empty & !reduced.of(mover.opponent()), need + pairs[0], carrier | fills[0]);
                }
                EdgeLink::Semi { key, carrier, need, .. } => {
                    return Standing::Won(B::single(key as usize), need + pairs[0], carrier | fills[0]);
                }
                EdgeLink::None => {}
            }
        }
        // A move outside the opponent's one winning cell loses at once; a
        // move that misses one of its semi connections, within that one.
        let mut allowed = if threats.is_zero() { empty } else { empty & threats };
        let mut pruned = if threats.is_zero() { 0 } else { 1 };
        let mut defence = threats;
        let mut their_must = m.board;
        match self.connections.edge_link(mover.opponent(), reduced.of(mover.opponent()) | dead, empty, false) {
            EdgeLink::Full { carrier, need } => return Standing::Lost(need + pairs[1], carrier | fills[1]),
            EdgeLink::Semi { must, every, neediest, .. } => {
                allowed = allowed & must;
                pruned = pruned.max(neediest);
                defence = defence | every;
                their_must = must;
            }
            EdgeLink::None => {}
        }
        let quiet = Quiet { empty, must: their_must };
        if allowed.is_zero() {
            return Standing::Lost(pruned + pairs[1], fills[1] | defence);
        }
        if allowed == empty {
            pruned = 0;
        }
        // A stone the opponent can kill with one answer is no better than a
        // pass, and a pass is no better than any move: leave such moves out
        // while others remain.
        let (weak, answers) = self.dead.vulnerable(&reduced, mover, allowed);
        let vulnerable = !weak.is_zero() && weak != allowed;
        if vulnerable {
            allowed = allowed & !weak;
            defence = defence | answers;
        }
        let (dominated, pattern) = self.dominated(&reduced, mover, allowed);
        allowed = allowed & !dominated;
        defence = defence | pattern;
        let vulnerable = vulnerable || !dominated.is_zero();
        let moves = self.candidates(&reduced, allowed);
        let key = self.hash(&reduced);
        Standing::Open(Rc::new(Expansion { reduced, key, moves, pairs, pruned, vulnerable, fills, defence, quiet }))
    }

    /// The moves of `allowed`, blocking first: by how long the opponent's
    /// shortest path to its edges is after the move, longest first, then
    /// from the centre out. df-pn weighs only the first few at a time (see
    /// [`window`]), so this order is which moves it tries. Each child
    /// starts from distance estimates rather than (1, 1): the side closer
    /// to joining its edges is cheaper to prove a win for.
    fn candidates(&self, s: &Stones<B>, allowed: B) -> Box<[Candidate]> {
        let (our_distance, our_path) = self.shortest(s, s.to_move);
        let (their_distance, their_path) = self.shortest(s, s.to_move.opponent());
        let mut moves: Vec<Candidate> = self
            .order
            .iter()
            .filter(|&&c| allowed.has(c as usize))
            .map(|&c| {
                let us = our_distance - u32::from(our_path.has(c as usize));
                // Only a stone on one of their shortest paths can lengthen it.
                let them = if their_path.has(c as usize) {
                    let mut child = *s;
                    child.play(c as usize);
                    self.distance(&child, child.to_move)
                } else {
                    their_distance
                };
                Candidate { cell: c, first: Entry { phi: them.max(1), delta: us.max(1), stones: 0 } }
            })
            .collect();
        // Stable: equal moves stay in centre-out order.
        moves.sort_by_key(|m| std::cmp::Reverse(m.first.phi));
        moves.into_boxed_slice()
    }

    /// The moves of `allowed` another one dominates, each left out only
    /// when a dominator of it is kept (directly, or through one that is
    /// itself left out), so that a cycle of dominations keeps a move; and
    /// the cells the claims depend on: the dominators, which must stay
    /// empty (dead and captured cells stay so as stones are added).
    fn dominated(&self, s: &Stones<B>, mover: Color, allowed: B) -> (B, B) {
        let pairs = self.dead.dominated(s, mover, allowed);
        let any = pairs.iter().fold(B::zero(), |acc, &(y, _)| acc | B::single(y as usize));
        let (mut out, mut pattern) = (B::zero(), B::zero());
        for pass in 0..2 {
            for &(y, x) in &pairs {
                let (y, x) = (y as usize, x as usize);
                let prune = if pass == 0 { !any.has(x) } else { out.has(x) };
                if prune {
                    out = out | B::single(y);
                    pattern = pattern | B::single(x);
                }
            }
        }
        (out, pattern)
    }

    /// Stones `colour` still needs to join its edges if the opponent never
    /// played again: a cheap estimate of how hard its win is to prove.
    fn distance(&self, s: &Stones<B>, colour: Color) -> u32 {
        let (own, first, second) = self.sides(s, colour);
        sweep(&self.masks, own, s.empty_cells(&self.masks), first, second, |_| {}).unwrap_or(INF / 1024)
    }

    /// `colour`'s stones and its two edges.
    fn sides(&self, s: &Stones<B>, colour: Color) -> (B, B, B) {
        let m = &self.masks;
        match colour {
            Color::Red => (s.red, m.left, m.right),
            Color::Blue => (s.blue, m.top, m.bottom),
        }
    }

    /// The distance of `colour` (as [`Solver::distance`]) and the empty
    /// cells on at least one of its shortest paths, from one sweep from
    /// each edge: a stone on such a cell shortens the path by one, a stone
    /// elsewhere leaves it as it was.
    fn shortest(&self, s: &Stones<B>, colour: Color) -> (u32, B) {
        let m = &self.masks;
        let (own, first, second) = self.sides(s, colour);
        let empty = s.empty_cells(m);
        // Empty cells by their cost from each edge (the cell included).
        let (mut forward, mut backward) = (vec![B::zero()], vec![B::zero()]);
        let Some(d) = sweep(m, own, empty, first, second, |step| forward.push(step)) else {
            return (INF / 1024, B::zero());
        };
        // The backward sweep may stop early; the layers it needs are there.
        let _ = sweep(m, own, empty, second, first, |step| backward.push(step));
        let mut on_path = B::zero();
        for (k, &ahead) in forward.iter().enumerate().skip(1) {
            if let Some(&back) = backward.get(d as usize + 1 - k) {
                on_path = on_path | (ahead & back);
            }
        }
        (d, on_path)
    }

    fn solve_root(&mut self, root: &Stones<B>) -> Solution {
        let key = self.hash(root);
        let start = self.nodes;
        match self.standing(root, key, None) {
            Standing::Won(wins, stones, _) => {
                let n = self.masks.size;
                let cells = (0..self.cells).filter(|&i| wins.has(i)).map(|i| Cell::from_index(i, n)).collect();
                let nodes = self.nodes - start + 1;
                return Solution { verdict: Verdict::Win(cells), nodes, winner_stones: Some(stones) };
            }
            Standing::Lost(stones, _) => {
                let nodes = self.nodes - start + 1;
                return Solution { verdict: Verdict::Loss, nodes, winner_stones: Some(stones) };
            }
            Standing::Open(_) => {}
        }
        let (phi, delta) = self.mid(root, key, INF - 1, INF - 1, None);
        let verdict = if phi == 0 {
            Verdict::Win(self.winning_moves(root, key))
        } else if delta == 0 {
            Verdict::Loss
        } else {
            Verdict::Unknown
        };
        let winner_stones = self.table.get(&key.table()).filter(|e| e.phi == 0 || e.delta == 0).map(|e| e.stones);
        Solution { verdict, nodes: self.nodes - start, winner_stones }
    }

    /// Continues the search of `root` for `more` positions.
    fn resume(&mut self, root: &Stones<B>, more: u64) -> Solution {
        self.budget = self.nodes.saturating_add(more);
        self.solve_root(root)
    }

    /// The root moves proved to win.
    fn winning_moves(&mut self, root: &Stones<B>, key: Key) -> Vec<Cell> {
        let n = self.masks.size;
        let Standing::Open(e) = self.standing(root, key, None) else { return Vec::new() };
        e.moves
            .iter()
            .map(|m| m.cell)
            .filter(|&c| self.table.get(&self.child_key(e.key, &e.reduced, c).table()).is_some_and(|e| e.delta == 0))
            .map(|c| Cell::from_index(c as usize, n))
            .collect()
    }

    /// df-pn's multiple iterative deepening: search `s` until its proof
    /// number reaches `phi_max` or its disproof number `delta_max`. Numbers
    /// are from the side to move's view: `phi` = cost of proving it wins.
    fn mid(&mut self, s: &Stones<B>, key: Key, phi_max: u32, delta_max: u32, quiet: Option<Quiet<B>>) -> (u32, u32) {
        let e = match self.standing(s, key, quiet) {
            Standing::Won(_, stones, proof) => return self.store(key, (0, INF), stones, self.shrink(s, proof, true)),
            Standing::Lost(stones, proof) => return self.store(key, (INF, 0), stones, self.shrink(s, proof, false)),
            Standing::Open(e) => e,
        };
        if let Some(t) = self.templates.find(s) {
            let won = t.winner == s.to_move;
            let numbers = if won { (0, INF) } else { (INF, 0) };
            let proof = self.shrink(s, t.proof, won);
            return self.store(key, numbers, t.need, proof);
        }
        self.nodes += 1;
        // Children new to the table start from their first estimates.
        // Each child's table entry is read once, here, and then kept: only
        // the child just searched (and its turned twin, which shares its
        // entry) can change while this position is searched, as every
        // other position below it has more stones.
        let mut children: Vec<(u16, Key)> = Vec::with_capacity(e.moves.len());
        let mut entries: Vec<Entry> = Vec::with_capacity(e.moves.len());
        for m in e.moves.iter() {
            let child_key = self.child_key(e.key, &e.reduced, m.cell);
            children.push((m.cell, child_key));
            entries.push(self.table.get(&child_key.table()).copied().unwrap_or(m.first));
        }
        // Moves not yet known to lose, and the proof sets of those that do.
        let mut open = children.iter().fold(B::zero(), |acc, &(c, _)| acc | B::single(c as usize));
        let mut lost = e.fills[1] | e.defence;
        for (&(c, k), entry) in children.iter().zip(&entries) {
            self.after_child(c, k, *entry, &mut open, &mut lost);
        }
        loop {
            let (phi, delta, best, best_child_phi, second_delta) = summarise(&children, &entries, open);
            if phi == 0 || delta == 0 {
                let stones = winner_stones(&e, &entries, phi == 0);
                let proof = if phi == 0 {
                    let (c, k) = children[best];
                    e.fills[0] | B::single(c as usize) | self.proof_of(k)
                } else {
                    lost
                };
                let proof = self.shrink(s, proof, phi == 0);
                let winner = if phi == 0 { s.to_move } else { s.to_move.opponent() };
                self.templates.add(s, winner, proof, stones);
                return self.store(key, (phi, delta), stones, proof);
            }
            if phi >= phi_max || delta >= delta_max || self.nodes >= self.budget {
                return self.store(key, (phi, delta), 0, B::zero());
            }
            let (cell, child_key) = children[best];
            // The child's own numbers are (its phi, its delta) = (our delta
            // share, our phi); pass thresholds in the child's view. The
            // 1 + ε margin over the second-best child keeps the search from
            // switching back and forth between two close children.
            let child_phi_max = (delta_max - delta).saturating_add(best_child_phi).min(INF - 1);
            let margin = second_delta.saturating_add(second_delta / 4).saturating_add(1);
            let child_delta_max = phi_max.min(margin).min(INF - 1);
            let mut child = e.reduced;
            child.play(cell as usize);
            let quiet = e.quiet.must.has(cell as usize).then_some(e.quiet);
            let (phi, delta) = self.mid(&child, child_key, child_phi_max, child_delta_max, quiet);
            let proved = phi == 0 || delta == 0;
            let stones = if proved { self.table.get(&child_key.table()).map_or(0, |c| c.stones) } else { 0 };
            let searched = Entry { phi, delta, stones };
            for (slot, &(_, k)) in entries.iter_mut().zip(&children) {
                if k.table() == child_key.table() {
                    *slot = searched;
                }
            }
            self.after_child(cell, child_key, searched, &mut open, &mut lost);
        }
    }

    /// If the move to `cell` (whose child has `key` and `entry`) is proved
    /// to lose,
    /// so does every move outside the winner's proof set there: `open`
    /// keeps only moves inside it, and `lost` gathers the proof sets.
    fn after_child(&self, cell: u16, key: Key, entry: Entry, open: &mut B, lost: &mut B) {
        if !open.has(cell as usize) || entry.phi != 0 {
            return;
        }
        let proof = self.proof_of(key);
        *lost = *lost | proof;
        *open = *open & proof & !B::single(cell as usize);
    }

    /// A proved position's proof set as the position with `key` stands
    /// (the whole board when none is known, which prunes nothing).
    fn proof_of(&self, key: Key) -> B {
        match self.proofs.get(&key.table()) {
            Some(&p) if key.plain == key.table() => p,
            Some(&p) => self.turn(p),
            None => self.masks.board,
        }
    }

    /// Cells turned half a turn (cell i to cells − 1 − i).
    fn turn(&self, x: B) -> B {
        let last = self.cells - 1;
        x.ones().fold(B::zero(), |acc, i| acc | B::single(last - i))
    }

    /// A smaller proof set for `s`, proved won (or lost) for its side to
    /// move: with the loser's stones on every empty cell outside the
    /// proof, the cells of the proof that are then dead, or captured by
    /// the loser, may hold a loser's stone too (a dead cell's colour never
    /// matters, and a captured pair filled for the loser is as good for
    /// it as one stone there), so they leave the proof; again until none
    /// does.
    fn shrink(&self, s: &Stones<B>, proof: B, mover_won: bool) -> B {
        let m = &self.masks;
        let loser = if mover_won { s.to_move.opponent() } else { s.to_move };
        let empty = s.empty_cells(m);
        let mut proof = proof;
        loop {
            let mut filled = *s;
            match loser {
                Color::Red => filled.red = filled.red | (empty & !proof),
                Color::Blue => filled.blue = filled.blue | (empty & !proof),
            }
            let before = filled.of(loser);
            self.dead.fill_captured(&mut filled, m);
            let free = (self.dead.find(&filled, m) | (filled.of(loser) & !before)) & proof & empty;
            if free.is_zero() {
                return proof;
            }
            proof = proof & !free;
        }
    }

    /// Records `key`'s numbers; for a proved position also its proof set
    /// (as the position with `key` stands).
    fn store(&mut self, key: Key, (phi, delta): (u32, u32), stones: u32, proof: B) -> (u32, u32) {
        if self.table.len() > TABLE_LIMIT {
            // Keep memory bounded: drop everything unproved.
            self.table.retain(|_, e| e.phi == 0 || e.delta == 0);
        }
        let table = key.table();
        self.table.insert(table, Entry { phi, delta, stones });
        if phi == 0 || delta == 0 {
            let canonical = if key.plain == table { proof } else { self.turn(proof) };
            self.proofs.insert(table, canonical);
        }
        (phi, delta)
    }
}

/// The most stones the winner of a position just proved needs: one
/// more than after its best winning move, or, for a loss, the most
/// over every move (those left out included); plus an answer for each
/// captured pair filled for the winner here.
fn winner_stones<B: Bits>(e: &Expansion<B>, entries: &[Entry], won: bool) -> u32 {
    if won {
        let best = entries.iter().filter(|c| c.delta == 0).map(|c| c.stones).min();
        1 + best.unwrap_or(0) + e.pairs[0]
    } else {
        let worst = entries.iter().filter(|c| c.phi == 0).map(|c| c.stones).max();
        (worst.unwrap_or(0) + u32::from(e.vulnerable)).max(e.pruned) + e.pairs[1]
    }
}

/// How many of `live` undecided moves df-pn weighs at a time, best first
/// (progressive widening, as in MoHex's df-pn): about half. The others
/// come in as those weighed are proved to lose. Focusing on the likely
/// moves saves more than the order costs when it is wrong: 1.71M
/// positions on the 7×7 map against 2.77M weighing every move (40% of
/// them: 1.91M; 60%: 2.30M).
fn window(live: usize) -> usize {
    if live < 2 { live } else { 1 + (live * 9).div_ceil(20) }
}

/// Our (phi, delta) from the children's numbers (in their own view), the
/// index of the child to search (smallest child delta), that child's phi,
/// and the second smallest child delta. Only the [`window`] of undecided
/// children in order counts, and any child already known to lose for its
/// side to move (a winning move for us).
fn summarise<B: Bits>(children: &[(u16, Key)], entries: &[Entry], open: B) -> (u32, u32, usize, u32, u32) {
    let undecided = |i: usize| open.has(children[i].0 as usize) && entries[i].phi != 0;
    let mut room = window((0..entries.len()).filter(|&i| undecided(i)).count());
    let mut phi = INF;
    let mut delta: u32 = 0;
    let mut best = 0;
    let mut best_phi = 0;
    let mut second = INF;
    for (i, &Entry { phi: c_phi, delta: c_delta, .. }) in entries.iter().enumerate() {
        if !open.has(children[i].0 as usize) {
            continue;
        }
        if undecided(i) {
            if room == 0 && c_delta != 0 {
                continue;
            }
            room = room.saturating_sub(1);
        }
        delta = delta.saturating_add(c_phi).min(INF);
        if c_delta < phi {
            second = phi;
            phi = c_delta;
            best = i;
            best_phi = c_phi;
        } else if c_delta < second {
            second = c_delta;
        }
    }
    (phi, delta, best, best_phi, second)
}

/// Breadth-first from edge `from` to edge `to` where `own` stones cost
/// nothing and empty cells one each: the cost of the cheapest path, or
/// `None` when there is none. Each layer of empty cells reached (cost 1,
/// 2, …) goes to `layer`.
fn sweep<B: Bits>(m: &Masks<B>, own: B, empty: B, from: B, to: B, mut layer: impl FnMut(B)) -> Option<u32> {
    let mut reach = m.flood(from, own);
    let mut cost = 0;
    while (reach & to).is_zero() {
        let step = (m.grow(reach) | from) & empty & !reach;
        if step.is_zero() {
            return None;
        }
        layer(step);
        cost += 1;
        reach = m.flood(reach | step, own | step | reach);
    }
    Some(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Game, Move};

    /// Plain minimax with memo, the reference the solver is checked
    /// against on tiny boards.
    fn mover_wins(p: &Position, memo: &mut HashMap<(u128, u128), bool>) -> bool {
        let key = bits(p);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut win = false;
        for c in p.empty_cells().collect::<Vec<_>>() {
            let mut q = p.clone();
            q.play(c).unwrap();
            if q.winner() == Some(p.to_move()) || !mover_wins(&q, memo) {
                win = true;
                break;
            }
        }
        memo.insert(key, win);
        win
    }

    fn bits(p: &Position) -> (u128, u128) {
        let f = |c: Color| p.stones(c).iter().fold(0u128, |a, i| a | 1 << i);
        (f(Color::Red), f(Color::Blue))
    }

    fn after(size: u8, first: Cell) -> Position {
        let mut g = Game::new(size, false).unwrap();
        g.play(Move::Place(first)).unwrap();
        g.position().clone()
    }

    #[test]
    fn every_opening_on_three_and_four_is_classified_like_minimax() {
        for n in [3u8, 4] {
            let mut memo = HashMap::new();
            let mut winners = Vec::new();
            for i in 0..n as usize * n as usize {
                let first = Cell::from_index(i, n);
                let p = after(n, first);
                // Blue to move: Red's opening wins iff Blue loses.
                let expected = !mover_wins(&p, &mut memo);
                let got = solve(&p, 1_000_000);
                assert_ne!(got.verdict, Verdict::Unknown, "{n}×{n} {first}");
                assert_eq!(got.verdict == Verdict::Loss, expected, "{n}×{n} opening {first}");
                if expected {
                    winners.push(first.to_string());
                }
            }
            // The centre of the short diagonal always wins.
            assert!(winners.contains(&Cell::new((n - 1) / 2, n / 2).to_string()), "{n}: {winners:?}");
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn the_empty_five_by_five_is_a_first_player_win_through_the_centre() {
        let p = Position::new(5).unwrap();
        let got = solve(&p, 5_000_000);
        assert!(matches!(got.verdict, Verdict::Win(ref m) if !m.is_empty()), "{got:?}");
        // After Red's c3, Blue has no defence.
        assert_eq!(solve(&after(5, Cell::new(2, 2)), 5_000_000).verdict, Verdict::Loss);
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
    fn the_empty_six_by_six_is_a_first_player_win_through_the_centre() {
        let got = solve(&Position::new(6).unwrap(), 2_000_000);
        let Verdict::Win(moves) = got.verdict else { panic!("{got:?}") };
        // Whichever winning moves the search settled on are winning
        // openings of the published map (the centre's and others').
        let map = crate::engine::bench::published_openings(6).expect("published");
        assert!(!moves.is_empty());
        assert!(moves.iter().all(|m| map[m.r as usize].as_bytes()[m.q as usize] == b'R'), "{moves:?}");
        // The two centre cells of the short diagonal, d3 and c4, win.
        assert_eq!(solve(&after(6, Cell::new(3, 2)), 2_000_000).verdict, Verdict::Loss);
        assert_eq!(solve(&after(6, Cell::new(2, 3)), 2_000_000).verdict, Verdict::Loss);
        // The acute corner a1 loses.
        assert!(matches!(solve(&after(6, Cell::new(0, 0)), 2_000_000).verdict, Verdict::Win(_)));
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn seven_by_seven_openings_at_the_centre_and_the_corner_are_proved() {
        // Known results (Hayward et al.): the centre d4 wins, the acute
        // corner a1 loses.
        let d4 = solve(&after(7, Cell::new(3, 3)), 3_000_000);
        assert_eq!(d4.verdict, Verdict::Loss, "d4 after {} nodes", d4.nodes);
        let a1 = solve(&after(7, Cell::new(0, 0)), 3_000_000);
        assert!(matches!(a1.verdict, Verdict::Win(_)), "a1: {a1:?}");
    }

    #[test]
    fn every_opening_is_solved_in_turn_with_one_table() {
        let mut memo = HashMap::new();
        let mut seen = Vec::new();
        solve_each(&Position::new(4).unwrap(), 1_000_000, |cell, s| {
            let expected = !mover_wins(&after(4, cell), &mut memo);
            assert_eq!(s.verdict == Verdict::Loss, expected, "4×4 opening {cell}");
            seen.push(cell);
        });
        // Every cell once, from the centre out: first one of the two
        // centre cells on the short diagonal, last an acute corner (a1 or
        // d4, the two-neighbour ends of the long diagonal).
        let mut distinct = seen.clone();
        distinct.sort_by_key(|c| (c.r, c.q));
        distinct.dedup();
        assert_eq!(distinct.len(), 16);
        assert!([Cell::new(1, 2), Cell::new(2, 1)].contains(&seen[0]), "first {}", seen[0]);
        assert!([Cell::new(0, 0), Cell::new(3, 3)].contains(&seen[15]), "last {}", seen[15]);
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
    fn skipping_searches_a_parent_answered_keeps_every_verdict() {
        let mut skipped = 0;
        for (n, moves) in [(6, "c3"), (6, "a1"), (6, "b5"), (7, "d4"), (7, "a1"), (7, "e3")] {
            let mut p = Position::new(n).unwrap();
            for m in moves.split(',') {
                p.play(Cell::parse(m, n).unwrap()).unwrap();
            }
            let root = Stones::<u64>::from_position(&p);
            let mut with = Solver::<u64>::new(n, 3_000_000);
            let mut without = Solver::<u64>::new(n, 3_000_000);
            without.reuse_quiet = false;
            let (a, b) = (with.solve_root(&root), without.solve_root(&root));
            assert_ne!(a.verdict, Verdict::Unknown, "{n}x{n} after {moves}");
            assert_eq!(a.verdict, b.verdict, "{n}x{n} after {moves}");
            // A win the skip delays shows one move later: a few percent
            // more positions (after searches cut short, which may have
            // missed a connection), never another verdict.
            assert!(a.nodes.abs_diff(b.nodes) * 10 <= b.nodes, "{n}x{n} after {moves}: {} vs {}", a.nodes, b.nodes);
            assert_eq!(without.quiet_skips, 0);
            skipped += with.quiet_skips;
        }
        assert!(skipped > 10_000, "only {skipped} searches skipped");
    }

    #[test]
    fn a_captured_pair_and_a_dead_cell_never_enter_the_search() {
        // Red b4 owns a4/a5 on its edge: the moves Blue must consider never
        // include them, and the proof holds with them filled.
        let g = crate::engine::Record::from_text("7x7 b4 g1 d4", 7).unwrap().to_game(false).unwrap();
        let mut solver = Solver::<u128>::new(7, 1_000);
        let s = Stones::from_position(g.position());
        let key = solver.hash(&s);
        let Standing::Open(e) = solver.standing(&s, key, None) else { panic!("decided at once") };
        let n = 7;
        for c in ["a4", "a5"] {
            let i = Cell::parse(c, n).unwrap().index(n) as u16;
            assert!(!e.moves.iter().any(|m| m.cell == i), "{c} among the moves");
            assert!(e.reduced.red.has(i as usize), "{c} filled for Red");
        }
    }

    /// Whether the side to move in `s` wins, by plain minimax.
    fn stones_mover_wins(s: Stones<u128>, m: &Masks<u128>, memo: &mut HashMap<(u128, u128, bool), bool>) -> bool {
        let key = (s.red, s.blue, s.to_move == Color::Red);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mover = s.to_move;
        let empty = s.empty_cells(m);
        let win = (0..m.size as usize * m.size as usize).filter(|&i| empty.has(i)).any(|i| {
            let mut c = s;
            c.play(i);
            c.has_won(m, mover) || !stones_mover_wins(c, m, memo)
        });
        memo.insert(key, win);
        win
    }

    /// With best play on both sides, how many more stones the winner needs.
    fn fewest_winner_stones(
        s: Stones<u128>,
        m: &Masks<u128>,
        memo: &mut HashMap<(u128, u128, bool), (bool, u32)>,
    ) -> u32 {
        fn go(s: Stones<u128>, m: &Masks<u128>, memo: &mut HashMap<(u128, u128, bool), (bool, u32)>) -> (bool, u32) {
            let key = (s.red, s.blue, s.to_move == Color::Red);
            if let Some(&v) = memo.get(&key) {
                return v;
            }
            let mover = s.to_move;
            let empty = s.empty_cells(m);
            let mut fastest_win: Option<u32> = None;
            let mut slowest_loss = 0;
            for i in (0..m.size as usize * m.size as usize).filter(|&i| empty.has(i)) {
                let mut c = s;
                c.play(i);
                if c.has_won(m, mover) {
                    fastest_win = Some(1);
                    break;
                }
                let (child_mover_wins, k) = go(c, m, memo);
                if child_mover_wins {
                    slowest_loss = slowest_loss.max(k);
                } else {
                    fastest_win = Some(fastest_win.map_or(k + 1, |f| f.min(k + 1)));
                }
            }
            let v = match fastest_win {
                Some(k) => (true, k),
                None => (false, slowest_loss),
            };
            memo.insert(key, v);
            v
        }
        go(s, m, memo).1
    }

    /// A position of `n`×`n` from cells played in turn (taken cells
    /// skipped), stopping before anyone has won.
    fn random_stones(n: u8, cells: &[usize], red_to_move: bool) -> Stones<u128> {
        let m = Masks::<u128>::new(n);
        let mut s = Stones::<u128>::empty();
        for &c in cells {
            let c = c % (n as usize * n as usize);
            if !s.empty_cells(&m).has(c) {
                continue;
            }
            let mut t = s;
            t.play(c);
            if t.has_won(&m, Color::Red) || t.has_won(&m, Color::Blue) {
                break;
            }
            s = t;
        }
        s.to_move = if red_to_move { Color::Red } else { Color::Blue };
        s
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Connections, captured fills and the solver against minimax on
        /// small boards: every shortcut must keep who wins.
        #[test]
        fn shortcuts_never_change_who_wins(
            n in 3u8..=4,
            cells in proptest::collection::vec(0usize..16, 0..12),
            red_to_move: bool,
        ) {
            let m = Masks::<u128>::new(n);
            let s = random_stones(n, &cells, red_to_move);
            let mut memo = HashMap::new();
            let mover_wins = stones_mover_wins(s, &m, &mut memo);
            let dead = DeadCells::new(n);
            let mut filled = s;
            dead.fill_captured(&mut filled, &m);
            let filled_decided = filled.has_won(&m, s.to_move) || filled.has_won(&m, s.to_move.opponent());
            if !filled_decided {
                proptest::prop_assert_eq!(stones_mover_wins(filled, &m, &mut memo), mover_wins, "captured fill");
            }
            let mut conn = Connections::<u128>::new(n);
            for colour in [Color::Red, Color::Blue] {
                let link = conn.edge_link(colour, s.of(colour), s.empty_cells(&m), false);
                let colour_wins = if s.to_move == colour { mover_wins } else { !mover_wins };
                match link {
                    EdgeLink::Full { .. } => proptest::prop_assert!(colour_wins, "{colour:?} full"),
                    EdgeLink::Semi { .. } if s.to_move == colour => proptest::prop_assert!(mover_wins, "{colour:?} semi"),
                    _ => {}
                }
            }
            let mut solver = Solver::<u128>::new(n, 1_000_000);
            let got = solver.solve_root(&s);
            proptest::prop_assert_eq!(got.verdict != Verdict::Loss, mover_wins, "solver {:?}", got);
            // Its distance is a bound: the winner never needs more (checked
            // where the exact count, a search of every line, is quick).
            proptest::prop_assert!(got.winner_stones.is_some(), "{got:?}");
            if s.empty_cells(&m).count() <= 10 {
                let exact = fewest_winner_stones(s, &m, &mut HashMap::new());
                proptest::prop_assert!(got.winner_stones.is_some_and(|k| k >= exact), "{got:?}, exactly {exact}");
            }
        }

        /// A dominated move is never better than its dominator: whenever
        /// the mover wins by playing it, it also wins by the dominator.
        #[test]
        fn a_dominated_move_never_beats_its_dominator(
            n in 3u8..=5,
            cells in proptest::collection::vec(0usize..25, 2..24),
            red_to_move: bool,
        ) {
            let m = Masks::<u128>::new(n);
            let s = random_stones(n, &cells, red_to_move);
            let dead = DeadCells::new(n);
            let empty = s.empty_cells(&m);
            // Minimax on 5×5 is slow with many empty cells.
            if n == 5 && empty.count() > 13 {
                return Ok(());
            }
            let mut memo = HashMap::new();
            let mover = s.to_move;
            let wins_by = |c: u16, memo: &mut HashMap<(u128, u128, bool), bool>| {
                let mut t = s;
                t.play(c as usize);
                t.has_won(&m, mover) || !stones_mover_wins(t, &m, memo)
            };
            for (y, x) in dead.dominated(&s, mover, empty) {
                proptest::prop_assert!(empty.has(y as usize) && empty.has(x as usize) && x != y);
                if wins_by(y, &mut memo) {
                    proptest::prop_assert!(wins_by(x, &mut memo), "{y} wins for {mover:?} but its dominator {x} loses in {s:?}");
                }
            }
        }

        /// A template settles a position when it has the template's winner
        /// stones (and maybe more), no new loser stone inside the proof
        /// set (maybe fewer loser stones), and the same side to move or
        /// the winner to move: minimax must agree that the winner wins.
        #[test]
        fn a_template_settles_only_positions_its_winner_wins(
            n in 3u8..=4,
            cells in proptest::collection::vec(0usize..16, 0..11),
            red_to_move: bool,
            more_winner in proptest::collection::vec(0usize..16, 0..4),
            more_loser in proptest::collection::vec(0usize..16, 0..6),
            fewer_loser in proptest::collection::vec(0usize..16, 0..3),
            winner_moves: bool,
        ) {
            let m = Masks::<u128>::new(n);
            let cells_n = n as usize * n as usize;
            let s = random_stones(n, &cells, red_to_move);
            let mut solver = Solver::<u128>::new(n, 1_000_000);
            let key = solver.hash(&s);
            let (phi, delta) = solver.mid(&s, key, INF - 1, INF - 1, None);
            proptest::prop_assert!(phi == 0 || delta == 0);
            let winner = if phi == 0 { s.to_move } else { s.to_move.opponent() };
            let proof = solver.proof_of(key);
            let t = crate::engine::proof_templates::Template { stones: s, winner, proof, need: 0 };
            let mut y = s;
            let put = |y: &mut Stones<u128>, colour: Color, c: usize| match colour {
                Color::Red => y.red |= 1 << c,
                Color::Blue => y.blue |= 1 << c,
            };
            for c in fewer_loser.iter().map(|c| c % cells_n) {
                y.red &= if winner == Color::Blue { !(1u128 << c) } else { !0 };
                y.blue &= if winner == Color::Red { !(1u128 << c) } else { !0 };
            }
            for c in more_loser.iter().map(|c| c % cells_n) {
                if y.empty_cells(&m).has(c) && !proof.has(c) {
                    put(&mut y, winner.opponent(), c);
                }
            }
            for c in more_winner.iter().map(|c| c % cells_n) {
                if y.empty_cells(&m).has(c) {
                    put(&mut y, winner, c);
                }
            }
            if winner_moves {
                y.to_move = winner;
            }
            proptest::prop_assert!(crate::engine::proof_templates::covers(&t, &y), "built to be covered");
            proptest::prop_assert!(!y.has_won(&m, winner.opponent()), "the loser joined its edges in {y:?}");
            if !y.has_won(&m, winner) {
                let mover_wins = stones_mover_wins(y, &m, &mut HashMap::new());
                proptest::prop_assert_eq!(mover_wins, y.to_move == winner, "template {:?} proof {:#x} wrongly covers {:?}", s, proof, y);
            }
        }

        /// A proof set is what pruning trusts: the loser's stones added
        /// anywhere outside it never change the winner (minimax decides),
        /// nor ever join the loser's edges.
        #[test]
        fn the_loser_gains_nothing_outside_a_proof_set(
            n in 3u8..=4,
            cells in proptest::collection::vec(0usize..16, 0..11),
            red_to_move: bool,
            extra in proptest::collection::vec(0usize..16, 1..7),
        ) {
            let m = Masks::<u128>::new(n);
            let s = random_stones(n, &cells, red_to_move);
            let mut solver = Solver::<u128>::new(n, 1_000_000);
            let key = solver.hash(&s);
            let (phi, delta) = solver.mid(&s, key, INF - 1, INF - 1, None);
            proptest::prop_assert!(phi == 0 || delta == 0, "unproved: {phi} {delta}");
            let mover_wins = phi == 0;
            let proof = solver.proof_of(key);
            let loser = if mover_wins { s.to_move.opponent() } else { s.to_move };
            let mut t = s;
            for c in extra.iter().map(|e| e % (n as usize * n as usize)) {
                if t.empty_cells(&m).has(c) && !proof.has(c) {
                    match loser {
                        Color::Red => t.red |= 1 << c,
                        Color::Blue => t.blue |= 1 << c,
                    }
                }
            }
            proptest::prop_assert!(!t.has_won(&m, loser), "the loser joined its edges outside {proof:#x}");
            if t.has_won(&m, loser.opponent()) {
                return Ok(());
            }
            let still = stones_mover_wins(t, &m, &mut HashMap::new());
            proptest::prop_assert_eq!(still, mover_wins, "proof set {:#x} of {:?} broken by {:?}", proof, s, t);
        }
    }

    #[test]
    fn a_chain_of_bridges_across_the_board_is_proved_quickly() {
        // Red a4–b4–d3–f2 with bridges and the right edge template; Blue to move
        // has lost, however it intrudes.
        let g = crate::engine::Record::from_text("7x7 b4 a1 d3 a7 f2 g7 a4", 7).unwrap().to_game(false).unwrap();
        let got = solve(g.position(), 30_000);
        assert_eq!(got.verdict, Verdict::Loss, "after {} nodes", got.nodes);
        // Red needs a stone in each bridge and in the edge template.
        assert_eq!(got.winner_stones, Some(3), "{got:?}");
    }

    #[test]
    fn a_resumed_proof_reaches_the_same_verdict() {
        let g = crate::engine::Record::from_text("7x7 b4 a1 d3 a7 f2 g7 a4", 7).unwrap().to_game(false).unwrap();
        let mut p = Prover::new(g.position());
        let mut slices = 0;
        while *p.run(500) == Verdict::Unknown {
            slices += 1;
            assert!(slices < 200, "not proved after {} nodes", p.nodes());
        }
        assert_eq!(*p.run(500), Verdict::Loss);
    }

    #[test]
    fn a_decided_position_is_answered_at_once() {
        let g = crate::engine::Record::from_text("5x5 a3 a1 b3 b1 d3 d1 e3 e1", 5).unwrap().to_game(false).unwrap();
        let got = solve(g.position(), 10);
        assert_eq!(got.verdict, Verdict::Win(vec![Cell::new(2, 2)]));
        assert_eq!(got.winner_stones, Some(1));
        // Two ways for Red to win at once: Blue to move has lost.
        let g = crate::engine::Record::from_text("4x4 a2 a1 b2 b1 d2 c1 a4 c3 b4 d3 c4", 4)
            .unwrap()
            .to_game(false)
            .unwrap();
        assert_eq!(solve(g.position(), 10).verdict, Verdict::Loss);
    }

    #[test]
    fn df_pn_weighs_about_half_the_undecided_moves_and_every_known_win() {
        for live in 0..=49 {
            let w = window(live);
            assert!(w <= live && (live < 2 || w >= 2), "{live}: {w}");
        }
        assert_eq!(window(10), 6);
        let children: Vec<(u16, Key)> = (0..10).map(|c| (c, Key { plain: c as u64, turned: c as u64 })).collect();
        let open = (0..10).fold(0u64, |acc, c| acc | 1 << c);
        let mut entries = vec![Entry { phi: 3, delta: 5, stones: 0 }; 10];
        // The first six count: our delta sums their phis, and the best of
        // them is searched.
        entries[4].delta = 4;
        entries[8].delta = 2;
        let (phi, delta, best, _, second) = summarise(&children, &entries, open);
        assert_eq!((phi, delta, best, second), (4, 18, 4, 5));
        // Moves known to lose free their room for the next ones: with
        // five left, four count.
        for lost in &mut entries[..5] {
            lost.phi = 0;
        }
        let (phi, delta, best, _, _) = summarise(&children, &entries, open);
        assert_eq!((phi, delta, best), (2, 12, 8));
        // A move known to win counts wherever it stands.
        entries[9].delta = 0;
        assert_eq!(summarise(&children, &entries, open).0, 0);
    }
}
