//! The solver's machinery: df-pn over reduced positions with a
//! transposition table, expansions cached, and proof sets kept for the
//! must-play region and the proof templates. [`super`] is its public face.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

use super::{Solution, Verdict};
use crate::engine::bits::{Bits, Masks};
use crate::engine::cell::Cell;
use crate::engine::color::Color;
use crate::engine::connections::{Connections, EdgeLink, Exposed, ListLimits};
use crate::engine::dead_cells::DeadCells;
use crate::engine::proof_templates::Templates;
use crate::engine::rng::Rng;
use crate::engine::stones::Stones;

const INF: u32 = u32::MAX / 4;
/// Expansions remembered, so that df-pn's many returns to a position do
/// not repeat its connection search.
const MOVE_CACHE: usize = 400_000;
/// Positions in the table before unproved ones are dropped.
const TABLE_LIMIT: usize = 8_000_000;

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

/// How a position stands before any search. `stones` is the most stones
/// the winner still needs; `proof` the proof set (cells outside it could
/// hold more of the loser's stones and the result would stand).
/// What [`Solver::knowledge`] finds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Known<B: Bits> {
    /// The side to move wins, needing at most `stones` more stones, by
    /// playing one of `moves`.
    Won { moves: B, stones: u32 },
    /// The side to move loses: the opponent needs at most `stones`.
    Lost { stones: u32 },
    /// Undecided: only `moves` are worth trying.
    Open { moves: B },
}

enum Standing<B: Bits> {
    /// The side to move has won, at once or by a connection; `moves` keep
    /// the win.
    Won { moves: B, stones: u32, proof: B },
    /// The side to move has lost, whatever it plays.
    Lost { stones: u32, proof: B },
    /// Undecided.
    Open(Rc<Expansion<B>>),
}

pub(super) struct Solver<B: Bits> {
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
    pub(super) fn new(n: u8, budget: u64) -> Solver<B> {
        Self::with_limits(n, budget, ListLimits::default())
    }

    /// A solver whose H-search keeps up to `limits` connections a pair.
    pub(super) fn with_limits(n: u8, budget: u64, limits: ListLimits) -> Solver<B> {
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
            connections: Connections::with_limits(n, limits),
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

    /// What the fast checks alone say of `s` (no search): decided, or the
    /// moves left once inferior cells and moves outside the opponent's
    /// must-play region are taken out. For the tree search's nodes.
    pub(super) fn knowledge(&mut self, s: &Stones<B>) -> Known<B> {
        match self.assess(s, None) {
            // No moves named: the captured cells alone join the mover's
            // edges, so any move keeps the win.
            Standing::Won { moves, stones, .. } if moves.is_zero() => {
                Known::Won { moves: s.empty_cells(&self.masks), stones }
            }
            Standing::Won { moves, stones, .. } => Known::Won { moves, stones },
            Standing::Lost { stones, .. } => Known::Lost { stones },
            Standing::Open(e) => {
                let moves = e.moves.iter().fold(B::zero(), |set, c| set | B::single(c.cell as usize));
                Known::Open { moves }
            }
        }
    }

    /// After [`Solver::knowledge`] found a position open: where the
    /// opponent's connections (the last the checks looked for) can be
    /// broken by one stone (see [`Connections::exposed`]).
    pub(super) fn exposed(&self) -> Vec<Exposed<B>> {
        self.connections.exposed()
    }

    /// The opponent's answers to the mover's stone on `probe` that restore
    /// a connection the stone breaks (see [`Connections::replies_among`]).
    pub(super) fn replies_among(&self, exposed: &[Exposed<B>], probe: usize) -> B {
        self.connections.replies_among(exposed, probe)
    }

    /// The cell sets of the board being solved.
    pub(super) fn masks(&self) -> &Masks<B> {
        &self.masks
    }

    /// Every cell, from the centre out.
    pub(super) fn order(&self) -> &[u16] {
        &self.order
    }

    /// Positions expanded so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// [`Solver::solve_root`] with `budget` more positions than spent so far.
    pub(super) fn solve_root_within(&mut self, root: &Stones<B>, budget: u64) -> Solution {
        self.budget = self.nodes.saturating_add(budget);
        self.solve_root(root)
    }

    pub(super) fn solve_root(&mut self, root: &Stones<B>) -> Solution {
        let key = self.hash(root);
        let start = self.nodes;
        match self.standing(root, key, None) {
            Standing::Won { moves: wins, stones, .. } => {
                let n = self.masks.size;
                let cells = (0..self.cells).filter(|&i| wins.has(i)).map(|i| Cell::from_index(i, n)).collect();
                let nodes = self.nodes - start + 1;
                return Solution { verdict: Verdict::Win(cells), nodes, winner_stones: Some(stones) };
            }
            Standing::Lost { stones, .. } => {
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
    pub(super) fn resume(&mut self, root: &Stones<B>, more: u64) -> Solution {
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

    /// While `root` is undecided: its moves not yet proved to lose, as the
    /// search left them (moves outside a proved loss's proof set lose too;
    /// the moves its reduction left out are not among them). `None` once
    /// decided.
    pub(super) fn open_moves(&mut self, root: &Stones<B>) -> Option<B> {
        let key = self.hash(root);
        let Standing::Open(e) = self.standing(root, key, None) else { return None };
        let mut open = e.moves.iter().fold(B::zero(), |acc, m| acc | B::single(m.cell as usize));
        let mut lost = B::zero();
        for m in e.moves.iter() {
            let child = self.child_key(e.key, &e.reduced, m.cell);
            let Some(&entry) = self.table.get(&child.table()) else { continue };
            if entry.delta == 0 {
                return None;
            }
            self.after_child(m.cell, child, entry, &mut open, &mut lost);
        }
        (!open.is_zero()).then_some(open)
    }

    /// df-pn's multiple iterative deepening: search `s` until its proof
    /// number reaches `phi_max` or its disproof number `delta_max`. Numbers
    /// are from the side to move's view: `phi` = cost of proving it wins.
    fn mid(&mut self, s: &Stones<B>, key: Key, phi_max: u32, delta_max: u32, quiet: Option<Quiet<B>>) -> (u32, u32) {
        let e = match self.standing(s, key, quiet) {
            Standing::Won { stones, proof, .. } => {
                return self.store(key, (0, INF), stones, self.shrink(s, proof, true));
            }
            Standing::Lost { stones, proof } => {
                return self.store(key, (INF, 0), stones, self.shrink(s, proof, false));
            }
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
            let Summary { phi, delta, best, best_phi: best_child_phi, second_delta } =
                summarise(&children, &entries, open);
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

/// A position's numbers as its children make them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    /// Our proof and disproof numbers.
    pub phi: u32,
    pub delta: u32,
    /// The child to search next (the smallest child delta), and its phi.
    pub best: usize,
    pub best_phi: u32,
    /// The second smallest child delta: how far the best may go before
    /// another child is better.
    pub second_delta: u32,
}

/// Our numbers from the children's (in their own view). Only the
/// [`window`] of undecided children in order counts, and any child already
/// known to lose for its side to move (a winning move for us).
fn summarise<B: Bits>(children: &[(u16, Key)], entries: &[Entry], open: B) -> Summary {
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
    Summary { phi, delta, best, best_phi, second_delta: second }
}

// Assessing a position before search lives beside this file, as a child
// module so that it shares the solver's private state.
#[path = "assess.rs"]
mod assess;
#[cfg(test)]
#[path = "tests.rs"]
mod tests;
