//! Monte-Carlo tree search with RAVE move statistics and bridge-aware
//! playouts, generic over the bit-set width of the board.
//!
//! The tree is two flat arenas (nodes and edges) with a fixed capacity, so
//! memory stays bounded however long the search runs: once full, the tree
//! stops growing and the remaining iterations only refine its statistics.
//! Each node knows the cells that win at once for either side, which makes
//! the search play a one-move win and answer a one-move threat exactly.

use super::super::bits::{Bits, Masks};
use super::super::color::Color;
use super::super::patterns::playout::Acceptance;
use super::super::patterns::shape::canonical;
use super::super::patterns::{Patterns, Shapes, near};
use super::super::playout::{BridgePlayouts, members};
use super::super::rng::Rng;
use super::super::solver::Knowledge;
use super::super::stones::Stones;
use super::SearchConfig;

mod knowledge;
mod rating;

pub use knowledge::DeeperLooks;
use rating::Rating;

const NONE: u32 = u32::MAX;
/// The root's index: the tree's first node.
const ROOT: u32 = 0;

/// One move out of a node, with its statistics from the mover's side.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge {
    pub cell: u16,
    pub visits: u32,
    pub wins: f32,
    pub amaf_visits: u32,
    pub amaf_wins: f32,
    pub child: u32,
    /// The move's probability under the learned patterns (0 without them).
    pub prior: f32,
}

/// A position in the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub first_edge: u32,
    pub edge_count: u16,
    pub expanded: bool,
    pub visits: u32,
    /// Set when the game is decided here: the winner with best play, and
    /// in how many more moves (plies; at most that many when a virtual
    /// connection decided it).
    pub proven: Option<(Color, u16)>,
    /// Which of the solver's fast checks have pruned the edges.
    pub learned: Learned,
    /// Whether a child may be proven. Until one is, choosing a move needs
    /// only the edges' statistics, not a look at every child node.
    pub proven_child: bool,
    /// Replies waiting for this node's expansion, as an index into
    /// [`Mcts::replies`] (`NONE`: none).
    pub waiting: u32,
}

/// How far the solver's fast checks have looked at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Learned {
    Nothing,
    /// The checks with the configured connection lists.
    Fast,
    /// Every check the config asks for: with captured sets too, when
    /// [`SearchConfig::deeper_after`] asks for them.
    All,
}

impl Node {
    fn new() -> Node {
        Node {
            first_edge: 0,
            edge_count: 0,
            expanded: false,
            visits: 0,
            proven: None,
            learned: Learned::Nothing,
            proven_child: false,
            waiting: NONE,
        }
    }
}

/// Gives `edges` their shares of their patterns' weights on the board
/// `shapes` has loaded, times their nearness to the move just played when
/// the patterns were fitted with it. Not generic, so one copy serves every
/// board width.
#[inline(never)]
fn weigh(shapes: &Shapes, patterns: &Patterns, n: u8, last: Option<u16>, edges: &mut [Edge]) {
    let proximity = patterns.proximity().zip(last);
    let mut total = 0.0;
    for edge in edges.iter_mut() {
        edge.prior = patterns.weight(canonical(shapes.loaded(edge.cell as usize)));
        if let Some((proximity, last)) = proximity {
            edge.prior *= proximity.factor(near::class(edge.cell as usize, Some(last as usize), n));
        }
        total += edge.prior;
    }
    for edge in edges.iter_mut() {
        edge.prior /= total;
    }
}

/// Counts an all-moves-as-first visit, won or not (`won` 1 or 0), for
/// each of `edges` whose cell the mover took. Without a branch: about half
/// the cells were the mover's, in no order a branch predictor could learn,
/// and adding zero changes nothing (docs/benchmarks.md, "The tree's own
/// cost").
#[inline]
fn credit(edges: &mut [Edge], won: f32, took: impl Fn(usize) -> bool) {
    for edge in edges {
        let hit = u32::from(took(edge.cell as usize));
        edge.amaf_visits += hit;
        edge.amaf_wins += hit as f32 * won;
    }
}

/// The index of the first of `edges` with the highest `value` (the first
/// edge when there are none higher than `f32::MIN`).
#[inline]
fn best_of(edges: &[Edge], value: impl Fn(&Edge) -> f32) -> usize {
    let mut best = 0;
    let mut best_value = f32::MIN;
    for (i, edge) in edges.iter().enumerate() {
        let v = value(edge);
        if v > best_value {
            best_value = v;
            best = i;
        }
    }
    best
}

/// The search over one board size.
pub(crate) struct Mcts<B: Bits> {
    pub masks: Masks<B>,
    pub cells: usize,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub root_stones: Stones<B>,
    /// The stone that led to the root, when known.
    root_last: Option<u16>,
    playouts: BridgePlayouts<B>,
    rng: Rng,
    config: SearchConfig,
    max_nodes: usize,
    max_edges: usize,
    pub iterations: u64,
    path_nodes: Vec<u32>,
    path_edges: Vec<u32>,
    empties: Vec<u16>,
    /// Whether this iteration ended in a playout, whose board then tells
    /// who took which cell.
    played_out: bool,
    /// The solver's fast checks, when the config asks for them.
    knowledge: Option<Knowledge<B>>,
    /// The same with captured sets, for nodes visited `deeper_after` times.
    deeper: Option<Knowledge<B>>,
    pub deeper_looks: DeeperLooks,
    /// The board's neighbourhoods, when the config has patterns.
    shapes: Option<Shapes>,
    /// Replies waiting for their node's expansion: the cells that restore
    /// a connection the move into the node broke (see [`Mcts::learn`]).
    /// A list that nodes index, not a map keyed by node: an expansion
    /// reads one field of its node instead of hashing, and the list is
    /// rebuilt with the arenas on a reroot.
    replies: Vec<B>,
}

impl<B: Bits> Mcts<B> {
    /// A tree of `root`, reached by the stone at `last` when known.
    pub fn new(size: u8, root: Stones<B>, last: Option<u16>, config: SearchConfig) -> Mcts<B> {
        let cells = size as usize * size as usize;
        // Each node holds at most `cells` edges; size the arenas from the
        // memory budget.
        let per_node = std::mem::size_of::<Node>() + 8 * std::mem::size_of::<Edge>();
        let max_nodes = (config.memory_bytes / per_node).max(64);
        let max_edges = max_nodes * 8;
        let mut m = Mcts {
            masks: Masks::new(size),
            cells,
            nodes: Vec::with_capacity(1024),
            edges: Vec::with_capacity(1024 * 8),
            root_stones: root,
            root_last: last,
            playouts: {
                let playouts = match config.playout {
                    Some(policy) => BridgePlayouts::new(size).weighted(Acceptance::new(policy)),
                    None => BridgePlayouts::new(size),
                };
                match config.near {
                    Some(factors) => playouts.near_replies(factors),
                    None => playouts,
                }
                .answer_replies(config.answers, config.answer_scale)
            },
            rng: Rng::new(config.seed),
            config,
            max_nodes,
            max_edges,
            iterations: 0,
            path_nodes: Vec::with_capacity(cells + 1),
            path_edges: Vec::with_capacity(cells + 1),
            empties: Vec::with_capacity(cells),
            played_out: false,
            knowledge: (config.knowledge_after > 0).then(|| Knowledge::new(size, config.lists)),
            deeper: (config.knowledge_after > 0 && config.deeper_after > 0)
                .then(|| Knowledge::new(size, config.deeper_lists)),
            deeper_looks: DeeperLooks::default(),
            // A zero weight makes priors pointless: do not pay for them.
            shapes: config.patterns.filter(|_| config.prior_weight > 0.0).map(|_| Shapes::new(size)),
            replies: Vec::new(),
        };
        m.playouts.set_root(&root);
        m.nodes.push(Node::new());
        m.expand(0, &root, last);
        m.learn(0, &root);
        m
    }

    /// Creates the edges of `node` at `stones`, reached by the move `last`
    /// when known (a search of a bare position does not know it, and its
    /// root's priors then read the shapes alone), or marks it decided.
    /// Returns false when the arenas are full.
    fn expand(&mut self, node: u32, stones: &Stones<B>, last: Option<u16>) -> bool {
        let mover = stones.to_move;
        let masks = &self.masks;
        if stones.has_won(masks, mover.opponent()) {
            self.nodes[node as usize].proven = Some((mover.opponent(), 0));
            self.nodes[node as usize].expanded = true;
            return true;
        }
        let wins_now = stones.winning_cells(masks, mover);
        let candidates = if !wins_now.is_zero() {
            // Any winning cell will do: keep one.
            let first = (0..self.cells).find(|&i| wins_now.has(i)).map_or(B::zero(), B::single);
            self.nodes[node as usize].proven = Some((mover, 1));
            first
        } else {
            let threats = stones.winning_cells(masks, mover.opponent());
            if threats.count() >= 2 {
                // Two ways to lose at once: only one can be stopped.
                self.nodes[node as usize].proven = Some((mover.opponent(), 2));
            }
            if threats.is_zero() { stones.empty_cells(masks) } else { threats }
        };
        let count = candidates.count() as usize;
        if self.edges.len() + count > self.max_edges {
            return false;
        }
        let first_edge = self.edges.len() as u32;
        members(candidates, self.cells, &mut self.empties);
        for &cell in &self.empties {
            self.edges.push(Edge {
                cell,
                visits: 0,
                wins: 0.0,
                amaf_visits: 0,
                amaf_wins: 0.0,
                child: NONE,
                prior: 0.0,
            });
        }
        // The patterns were learned from positions with stones; on the empty
        // board their edge shapes would only pull the search to the sides.
        if count > 1 && count < self.cells {
            self.set_priors(first_edge as usize, stones, last);
        }
        let n = &mut self.nodes[node as usize];
        n.first_edge = first_edge;
        n.edge_count = count as u16;
        n.expanded = true;
        let waiting = std::mem::replace(&mut n.waiting, NONE);
        if waiting != NONE {
            self.favour(node, self.replies[waiting as usize]);
        }
        true
    }

    /// Gives the edges from `first` on their probabilities under the
    /// patterns.
    fn set_priors(&mut self, first: usize, stones: &Stones<B>, last: Option<u16>) {
        let (Some(shapes), Some(patterns)) = (self.shapes.as_mut(), self.config.patterns) else { return };
        shapes.load(stones);
        weigh(shapes, patterns, self.masks.size, last, &mut self.edges[first..]);
    }

    /// The edge to follow from `node`: the best [`Rating`], a proven win
    /// first and a proven loss last.
    fn select(&self, node: u32, mover: Color) -> u32 {
        let n = &self.nodes[node as usize];
        let rating = Rating::at(&self.config, n.visits, node == ROOT);
        let first = n.first_edge as usize;
        let edges = &self.edges[first..first + n.edge_count as usize];
        let best = if n.proven_child {
            best_of(edges, |edge| match self.child_proven(edge) {
                // A proven child: take a win for the mover, avoid a loss.
                Some((winner, _)) => {
                    if winner == mover {
                        f32::MAX
                    } else {
                        -1.0
                    }
                }
                None => rating.of(edge),
            })
        } else {
            // The hot path: a loop over the edges alone (docs/benchmarks.md,
            // "The tree's choice without its children").
            best_of(edges, |edge| rating.of(edge))
        };
        (first + best) as u32
    }

    fn child_proven(&self, edge: &Edge) -> Option<(Color, u16)> {
        if edge.child == NONE { None } else { self.nodes[edge.child as usize].proven }
    }

    /// Moves the root down the tree along `cells` (played in order from the
    /// root), keeping the subtree below and dropping the rest. False, with
    /// nothing changed, when a move is not in the tree or not legal.
    pub fn reroot(&mut self, cells: &[u16]) -> bool {
        let mut node = ROOT;
        let mut stones = self.root_stones;
        for &cell in cells {
            let nd = self.nodes[node as usize];
            let range = nd.first_edge..nd.first_edge + nd.edge_count as u32;
            let Some(e) = range.into_iter().find(|&e| self.edges[e as usize].cell == cell) else { return false };
            let child = self.edges[e as usize].child;
            if child == NONE || !stones.empty_cells(&self.masks).has(cell as usize) {
                return false;
            }
            stones.play(cell as usize);
            node = child;
        }
        if node == ROOT {
            return true;
        }
        // Copy the subtree into fresh arenas, depth first.
        let mut replies = Vec::new();
        let mut keep = |mut nd: Node| {
            if nd.waiting != NONE {
                replies.push(self.replies[nd.waiting as usize]);
                nd.waiting = replies.len() as u32 - 1;
            }
            nd
        };
        let mut nodes = vec![keep(self.nodes[node as usize])];
        let mut edges = Vec::new();
        let mut stack = vec![(node, 0usize)];
        while let Some((old, new)) = stack.pop() {
            let nd = self.nodes[old as usize];
            if !nd.expanded || nd.edge_count == 0 {
                continue;
            }
            nodes[new].first_edge = edges.len() as u32;
            for e in nd.first_edge..nd.first_edge + nd.edge_count as u32 {
                let mut edge = self.edges[e as usize];
                if edge.child != NONE {
                    let index = nodes.len();
                    nodes.push(keep(self.nodes[edge.child as usize]));
                    stack.push((edge.child, index));
                    edge.child = index as u32;
                }
                edges.push(edge);
            }
        }
        self.nodes = nodes;
        self.edges = edges;
        self.replies = replies;
        self.root_stones = stones;
        self.root_last = cells.last().copied();
        self.playouts.set_root(&stones);
        self.iterations = self.nodes[0].visits as u64;
        if !self.nodes[0].expanded {
            self.expand(0, &stones, cells.last().copied());
        }
        self.learn(0, &stones);
        true
    }

    /// One iteration: walk down, grow the tree by a node, play out, update.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        self.path_nodes.clear();
        self.path_edges.clear();
        let mut stones = self.root_stones;
        let mut node = ROOT;
        let winner = loop {
            self.path_nodes.push(node);
            let below_root = self.path_nodes.len() > 1;
            if below_root && let Some((winner, _)) = self.nodes[node as usize].proven {
                break winner;
            }
            if !self.nodes[node as usize].expanded {
                let last = self.path_last();
                if self.nodes[node as usize].visits < self.config.expand_after || !self.expand(node, &stones, last) {
                    break self.playout(&stones);
                }
                if below_root && let Some((winner, _)) = self.nodes[node as usize].proven {
                    break winner;
                }
            }
            if self.nodes[node as usize].learned != Learned::All
                && self.learn_when_due(node, &stones)
                && below_root
                && let Some((winner, _)) = self.nodes[node as usize].proven
            {
                break winner;
            }
            if self.nodes[node as usize].edge_count == 0 {
                break self.playout(&stones);
            }
            let mover = stones.to_move;
            let e = self.select(node, mover);
            self.path_edges.push(e);
            stones.play(self.edges[e as usize].cell as usize);
            let mut child = self.edges[e as usize].child;
            if child == NONE && self.nodes.len() < self.max_nodes {
                child = self.nodes.len() as u32;
                self.nodes.push(Node::new());
                self.edges[e as usize].child = child;
            }
            if stones.has_won(&self.masks, mover) {
                if child != NONE {
                    let c = &mut self.nodes[child as usize];
                    c.proven = Some((mover, 0));
                    c.expanded = true;
                    self.path_nodes.push(child);
                }
                break mover;
            }
            if child == NONE {
                break self.playout(&stones);
            }
            node = child;
        };
        self.backup(winner);
    }

    /// The cell of this iteration's path's last stone (none at the root).
    fn path_last(&self) -> Option<u16> {
        self.path_edges.last().map(|&e| self.edges[e as usize].cell)
    }

    /// Plays out from `stones`, reached by this iteration's path,
    /// remembering the final board for AMAF.
    fn playout(&mut self, stones: &Stones<B>) -> Color {
        members(stones.empty_cells(&self.masks), self.cells, &mut self.empties);
        let last = self.path_last().or(self.root_last);
        let full = self.playouts.run(stones, &self.empties, last.map(usize::from), &mut self.rng);
        self.played_out = true;
        self.playouts.winner(&full)
    }

    fn backup(&mut self, winner: Color) {
        let played_out = std::mem::take(&mut self.played_out);
        let mut mover = self.root_stones.to_move;
        for (depth, &node) in self.path_nodes.iter().enumerate() {
            self.nodes[node as usize].visits += 1;
            if let Some(&e) = self.path_edges.get(depth) {
                let edge = &mut self.edges[e as usize];
                edge.visits += 1;
                if winner == mover {
                    edge.wins += 1.0;
                }
            }
            // All-moves-as-first: every move the mover made later in this
            // game counts for the edge of that cell here.
            let nd = self.nodes[node as usize];
            if nd.expanded {
                let won = if winner == mover { 1.0 } else { 0.0 };
                let range = nd.first_edge as usize..nd.first_edge as usize + nd.edge_count as usize;
                if played_out {
                    // The playout's own board of owners: a byte per cell,
                    // cheaper to read than a bit of a wide set.
                    credit(&mut self.edges[range], won, |cell| self.playouts.took(cell, mover));
                } else {
                    let played = self.path_moves_of(depth);
                    credit(&mut self.edges[range], won, |cell| played.has(cell));
                }
            }
            mover = mover.opponent();
        }
        self.propagate_proofs();
        // Every node proven in this iteration lies on its path: tell each
        // proven node's parent to look at its children when it chooses.
        for depth in 1..self.path_nodes.len() {
            if self.nodes[self.path_nodes[depth] as usize].proven.is_some() {
                self.nodes[self.path_nodes[depth - 1] as usize].proven_child = true;
            }
        }
    }

    /// The cells `mover` took along the tree path from `depth` down, for
    /// iterations that ended in the tree without a playout.
    fn path_moves_of(&self, depth: usize) -> B {
        let mut set = B::zero();
        for &e in self.path_edges.iter().skip(depth).step_by(2) {
            set = set | B::single(self.edges[e as usize].cell as usize);
        }
        set
    }

    /// Marks nodes on the path as decided when their children say so: a
    /// node is a win for its mover if one child is, and a loss if all are.
    fn propagate_proofs(&mut self) {
        let root_mover = self.root_stones.to_move;
        let mover_at = |depth: usize| if depth.is_multiple_of(2) { root_mover } else { root_mover.opponent() };
        for depth in (0..self.path_nodes.len()).rev() {
            let node = self.path_nodes[depth] as usize;
            let nd = self.nodes[node];
            if nd.proven.is_some() || !nd.expanded || nd.edge_count == 0 {
                continue;
            }
            let mover = mover_at(depth);
            let mut all_lost = true;
            let mut longest_loss = 0u16;
            let mut shortest_win: Option<u16> = None;
            for e in nd.first_edge..nd.first_edge + nd.edge_count as u32 {
                match self.child_proven(&self.edges[e as usize]) {
                    Some((w, plies)) if w == mover => {
                        shortest_win = Some(shortest_win.map_or(plies + 1, |s| s.min(plies + 1)));
                    }
                    Some((_, plies)) => longest_loss = longest_loss.max(plies + 1),
                    None => all_lost = false,
                }
            }
            if let Some(plies) = shortest_win {
                self.nodes[node].proven = Some((mover, plies));
            } else if all_lost {
                self.nodes[node].proven = Some((mover.opponent(), longest_loss));
            } else {
                break;
            }
        }
    }
}
