//! The solver's fast checks in the tree: a node visited often enough has
//! its moves cut down to those the checks leave, may be decided outright,
//! and hands the nodes below it the answers that restore a connection a
//! move breaks.

use super::{Learned, Mcts, NONE, Node};
use crate::engine::bits::Bits;
use crate::engine::solver::Known;
use crate::engine::stones::Stones;

/// What the checks with captured sets did in a tree
/// ([`crate::engine::search::SearchConfig::deeper_after`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeeperLooks {
    /// Nodes they looked at.
    pub looked: u64,
    /// Nodes they decided, won or lost.
    pub decided: u64,
    /// Moves they took from nodes they left open.
    pub cut: u64,
}

impl DeeperLooks {
    /// What was done since `before`, a count of the same tree.
    pub fn since(self, before: DeeperLooks) -> DeeperLooks {
        DeeperLooks {
            looked: self.looked - before.looked,
            decided: self.decided - before.decided,
            cut: self.cut - before.cut,
        }
    }

    /// Both counts together.
    pub fn plus(self, other: DeeperLooks) -> DeeperLooks {
        DeeperLooks {
            looked: self.looked + other.looked,
            decided: self.decided + other.decided,
            cut: self.cut + other.cut,
        }
    }
}

impl<B: Bits> Mcts<B> {
    /// Runs the checks that `node`'s visits have earned and it has not had
    /// yet. Whether any ran.
    pub(super) fn learn_when_due(&mut self, node: u32, stones: &Stones<B>) -> bool {
        let nd = self.nodes[node as usize];
        match nd.learned {
            Learned::Nothing if nd.visits >= self.config.knowledge_after => self.learn(node, stones),
            Learned::Fast if nd.visits >= self.config.deeper_after => self.learn_deeper(node, stones),
            _ => return false,
        }
        true
    }

    /// Applies the solver's fast checks to `node` (at `stones`), once: its
    /// edges are cut down to the moves that remain, and a position the
    /// checks decide is marked proven (a won one keeps only winning moves).
    pub(super) fn learn(&mut self, node: u32, stones: &Stones<B>) {
        let nd = self.nodes[node as usize];
        if nd.learned != Learned::Nothing || !nd.expanded || nd.proven.is_some() {
            return;
        }
        self.nodes[node as usize].learned = if self.deeper.is_some() { Learned::Fast } else { Learned::All };
        let Some(knowledge) = self.knowledge.as_mut() else { return };
        let known = knowledge.of(stones);
        let kept = self.apply(node, stones, known);
        if let Some(kept) = kept
            && self.config.reply_share > 0.0
        {
            let first = nd.first_edge as usize;
            self.note_replies(first..first + kept);
        }
    }

    /// The checks again with captured sets, once, on a node the first
    /// checks left open. Its answers to moves into connections stay those
    /// of the first checks: the nodes below have them already.
    fn learn_deeper(&mut self, node: u32, stones: &Stones<B>) {
        let nd = self.nodes[node as usize];
        self.nodes[node as usize].learned = Learned::All;
        if !nd.expanded || nd.proven.is_some() {
            return;
        }
        let Some(deeper) = self.deeper.as_mut() else { return };
        let known = deeper.of(stones);
        let kept = self.apply(node, stones, known);
        let looks = &mut self.deeper_looks;
        looks.looked += 1;
        match kept {
            None => looks.decided += 1,
            Some(kept) if kept > 0 => looks.cut += (nd.edge_count as usize - kept) as u64,
            Some(_) => {}
        }
    }

    /// Cuts `node`'s edges to the moves `known` leaves and marks a decided
    /// position proven. How many edges remain when it stays open.
    fn apply(&mut self, node: u32, stones: &Stones<B>, known: Known<B>) -> Option<usize> {
        let nd = self.nodes[node as usize];
        let mover = stones.to_move;
        let (keep, proven) = match known {
            Known::Won { moves, stones } => (moves, Some((mover, (2 * stones).saturating_sub(1).max(1) as u16))),
            Known::Lost { stones } => (B::zero(), Some((mover.opponent(), (2 * stones).max(2) as u16))),
            Known::Open { moves } => (moves, None),
        };
        self.nodes[node as usize].proven = proven;
        let kept = self.keep_first(nd, keep);
        if kept > 0 {
            self.nodes[node as usize].edge_count = kept as u16;
        } else if proven.is_some_and(|(winner, _)| winner == mover) {
            // A win whose moves are not among the edges cannot be played
            // from here: not trusted.
            self.nodes[node as usize].proven = None;
        }
        proven.is_none().then_some(kept)
    }

    /// Cuts the root's moves down to those in `keep` (moves the solver has
    /// not proved to lose), unless none of them is there. Whether any was
    /// cut.
    pub fn keep_root(&mut self, keep: B) -> bool {
        let nd = self.nodes[0];
        let kept = self.keep_first(nd, keep);
        if kept == 0 || kept == nd.edge_count as usize {
            return false;
        }
        self.nodes[0].edge_count = kept as u16;
        true
    }

    /// Moves the edges of `nd` whose cells are in `keep` to the front of
    /// its range (the others then fall out of the node when its count is
    /// cut; their subtrees stay in the arena, unreachable). How many.
    fn keep_first(&mut self, nd: Node, keep: B) -> usize {
        let first = nd.first_edge as usize;
        let range = &mut self.edges[first..first + nd.edge_count as usize];
        let mut kept = 0;
        for i in 0..range.len() {
            if keep.has(range[i].cell as usize) {
                range.swap(kept, i);
                kept += 1;
            }
        }
        kept
    }

    /// For each move of `edges` that breaks a connection of the opponent
    /// (as the fast checks just found them), makes the cells that restore
    /// it the favourites of the node the move leads to: the search then
    /// answers an intrusion into an edge template or a chain of bridges
    /// first, as a player would, instead of finding the answer among all
    /// the moves.
    fn note_replies(&mut self, edges: std::ops::Range<usize>) {
        let Some(knowledge) = self.knowledge.as_ref() else { return };
        // The fragile cells are the same for every move: found once.
        let exposed = knowledge.exposed();
        let fragile = exposed.iter().fold(B::zero(), |all, e| all | e.common);
        for e in edges {
            let Some(knowledge) = self.knowledge.as_ref() else { return };
            let probe = self.edges[e].cell as usize;
            if !fragile.has(probe) {
                continue;
            }
            let replies = knowledge.replies_among(&exposed, probe);
            if replies.is_zero() {
                continue;
            }
            let mut child = self.edges[e].child;
            if child == NONE {
                if self.nodes.len() >= self.max_nodes {
                    continue;
                }
                child = self.nodes.len() as u32;
                self.nodes.push(Node::new());
                self.edges[e].child = child;
            }
            let waiting = self.nodes[child as usize].waiting;
            if self.nodes[child as usize].expanded {
                self.favour(child, replies);
            } else if waiting != NONE {
                self.replies[waiting as usize] = replies;
            } else {
                self.nodes[child as usize].waiting = self.replies.len() as u32;
                self.replies.push(replies);
            }
        }
    }

    /// The replies waiting for `node`'s expansion, if any.
    #[cfg(test)]
    pub fn waiting(&self, node: u32) -> Option<B> {
        let waiting = self.nodes.get(node as usize)?.waiting;
        (waiting != NONE).then(|| self.replies[waiting as usize])
    }

    /// Whether any node has had replies waiting.
    #[cfg(test)]
    pub fn noted_replies(&self) -> bool {
        !self.replies.is_empty()
    }

    /// Moves `reply_share` of the prior of `node`'s moves to those among
    /// `replies`, shared equally.
    pub(super) fn favour(&mut self, node: u32, replies: B) {
        let nd = self.nodes[node as usize];
        let range = nd.first_edge as usize..nd.first_edge as usize + nd.edge_count as usize;
        let count = self.edges[range.clone()].iter().filter(|e| replies.has(e.cell as usize)).count();
        if count == 0 {
            return;
        }
        let share = self.config.reply_share;
        for edge in &mut self.edges[range] {
            edge.prior *= 1.0 - share;
            if replies.has(edge.cell as usize) {
                edge.prior += share / count as f32;
            }
        }
    }
}
