//! A position before any search: decided at once (a win, a connection,
//! a lost cause), or reduced and expanded into the moves worth trying,
//! best blocking moves first, with the inferior ones left out.

use std::rc::Rc;

use super::*;

impl<B: Bits> Solver<B> {
    /// Where `s` (whose key is `key`) stands, remembered for undecided
    /// positions (as they stand: the moves are cells of this orientation).
    pub(super) fn standing(&mut self, s: &Stones<B>, key: Key, quiet: Option<Quiet<B>>) -> Standing<B> {
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
    pub(super) fn assess(&mut self, s: &Stones<B>, quiet: Option<Quiet<B>>) -> Standing<B> {
        let m = self.masks;
        let mover = s.to_move;
        let wins = s.winning_cells(&m, mover);
        if !wins.is_zero() {
            return Standing::Won { moves: wins, stones: 1, proof: wins };
        }
        let threats = s.winning_cells(&m, mover.opponent());
        if threats.count() > 1 {
            return Standing::Lost { stones: 1, proof: threats };
        }
        let mut reduced = *s;
        self.dead.fill_captured(&mut reduced, &m);
        let filled = |colour: Color| (reduced.of(colour) & !s.of(colour)).count() / 2;
        let pairs = [filled(mover), filled(mover.opponent())];
        let fills = [reduced.of(mover) & !s.of(mover), reduced.of(mover.opponent()) & !s.of(mover.opponent())];
        if reduced.has_won(&m, mover.opponent()) {
            return Standing::Lost { stones: pairs[1], proof: fills[1] };
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
                    return Standing::Won {
                        moves: empty & !reduced.of(mover.opponent()),
                        stones: need + pairs[0],
                        proof: carrier | fills[0],
                    };
                }
                EdgeLink::Semi { key, carrier, need, .. } => {
                    return Standing::Won {
                        moves: B::single(key as usize),
                        stones: need + pairs[0],
                        proof: carrier | fills[0],
                    };
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
            EdgeLink::Full { carrier, need } => {
                return Standing::Lost { stones: need + pairs[1], proof: carrier | fills[1] };
            }
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
            return Standing::Lost { stones: pruned + pairs[1], proof: fills[1] | defence };
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
    pub(super) fn candidates(&self, s: &Stones<B>, allowed: B) -> Box<[Candidate]> {
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
    pub(super) fn dominated(&self, s: &Stones<B>, mover: Color, allowed: B) -> (B, B) {
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
    pub(super) fn distance(&self, s: &Stones<B>, colour: Color) -> u32 {
        let (own, first, second) = self.sides(s, colour);
        sweep(&self.masks, own, s.empty_cells(&self.masks), first, second, |_| {}).unwrap_or(INF / 1024)
    }

    /// `colour`'s stones and its two edges.
    pub(super) fn sides(&self, s: &Stones<B>, colour: Color) -> (B, B, B) {
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
    pub(super) fn shortest(&self, s: &Stones<B>, colour: Color) -> (u32, B) {
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
