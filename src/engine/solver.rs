//! A solver: depth-first proof-number search (df-pn) with a transposition
//! table. It proves who wins a position with perfect play, within a node
//! budget.
//!
//! Pruning: a side that can win at once, or whose stones already join its
//! edges through bridges and edge templates with no shared cell, has won;
//! a side facing one winning cell of the opponent must take it, facing two
//! has lost, and facing such a bridge connection must play inside it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::bits::{Bits, Masks, Wide};
use super::bridges::BridgeTable;
use super::cell::Cell;
use super::color::Color;
use super::playout::Stones;
use super::position::Position;
use super::rng::Rng;

const INF: u32 = u32::MAX / 4;

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
}

/// Proves `position` for the side to move, expanding at most `budget`
/// positions.
pub fn solve(position: &Position, budget: u64) -> Solution {
    let n = position.size();
    let cells = n as usize * n as usize;
    if cells <= 128 {
        Solver::<u128>::new(n, budget).solve_root(&Stones::from_position(position))
    } else if cells <= 256 {
        Solver::<Wide<4>>::new(n, budget).solve_root(&Stones::from_position(position))
    } else {
        Solver::<Wide<6>>::new(n, budget).solve_root(&Stones::from_position(position))
    }
}

/// A proof search that can be resumed: each [`Prover::run`] continues
/// where the last stopped (its table is kept), so it can share a thread
/// with other work in small slices.
pub struct Prover {
    inner: ProverInner,
    verdict: Verdict,
}

enum ProverInner {
    Small(Box<Solver<u128>>, Stones<u128>),
    Medium(Box<Solver<Wide<4>>>, Stones<Wide<4>>),
    Large(Box<Solver<Wide<6>>>, Stones<Wide<6>>),
}

impl Prover {
    /// A proof search of `position` for the side to move.
    pub fn new(position: &Position) -> Prover {
        let n = position.size();
        let cells = n as usize * n as usize;
        let inner = if cells <= 128 {
            ProverInner::Small(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        } else if cells <= 256 {
            ProverInner::Medium(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        } else {
            ProverInner::Large(Box::new(Solver::new(n, 0)), Stones::from_position(position))
        };
        Prover { inner, verdict: Verdict::Unknown }
    }

    /// Searches about `nodes` more positions, unless already decided, and
    /// returns the verdict so far.
    pub fn run(&mut self, nodes: u64) -> &Verdict {
        if self.verdict == Verdict::Unknown {
            self.verdict = match &mut self.inner {
                ProverInner::Small(s, root) => s.resume(root, nodes),
                ProverInner::Medium(s, root) => s.resume(root, nodes),
                ProverInner::Large(s, root) => s.resume(root, nodes),
            };
        }
        &self.verdict
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        match &self.inner {
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

type Table = HashMap<u64, (u32, u32), BuildHasherDefault<IdentityHasher>>;

struct Solver<B: Bits> {
    masks: Masks<B>,
    cells: usize,
    /// Zobrist keys per cell for Red and Blue stones.
    keys: Vec<[u64; 2]>,
    /// Cells ordered from the centre out: good moves come first.
    order: Vec<u16>,
    bridges: BridgeTable,
    table: Table,
    nodes: u64,
    budget: u64,
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
            bridges: BridgeTable::new(n),
            table: Table::default(),
            nodes: 0,
            budget,
        }
    }

    fn hash(&self, s: &Stones<B>) -> u64 {
        let mut h = if s.to_move == Color::Red { 0 } else { 0x9e37_79b9_7f4a_7c15 };
        for i in 0..self.cells {
            if s.red.has(i) {
                h ^= self.keys[i][0];
            } else if s.blue.has(i) {
                h ^= self.keys[i][1];
            }
        }
        h
    }

    /// The moves worth trying for the side to move, or the decided result:
    /// `Err(true)` the mover wins at once, `Err(false)` the mover has lost.
    fn moves(&self, s: &Stones<B>) -> Result<Vec<u16>, bool> {
        let mover = s.to_move;
        if !s.winning_cells(&self.masks, mover).is_zero() {
            return Err(true);
        }
        // Bridges and edge templates that already join the mover's edges
        // win: every intrusion can be answered.
        if self.bridges.connection(s, mover).is_some() {
            return Err(true);
        }
        let threats = s.winning_cells(&self.masks, mover.opponent());
        let allowed = match threats.count() {
            // The opponent's bridge connection must be broken inside its
            // carriers; anywhere else it stays a win.
            0 => match self.bridges.connection(s, mover.opponent()) {
                Some(carriers) => s.empty_cells(&self.masks) & carriers,
                None => s.empty_cells(&self.masks),
            },
            1 => threats,
            _ => return Err(false),
        };
        if allowed.is_zero() {
            return Err(false);
        }
        Ok(self.order.iter().copied().filter(|&i| allowed.has(i as usize)).collect())
    }

    fn lookup(&self, key: u64, init: (u32, u32)) -> (u32, u32) {
        self.table.get(&key).copied().unwrap_or(init)
    }

    /// Stones `colour` still needs to join its edges if the opponent never
    /// played again: a cheap estimate of how hard its win is to prove.
    fn distance(&self, s: &Stones<B>, colour: Color) -> u32 {
        let m = &self.masks;
        let (own, first, second) = match colour {
            Color::Red => (s.red, m.left, m.right),
            Color::Blue => (s.blue, m.top, m.bottom),
        };
        let empty = s.empty_cells(m);
        let mut reach = m.flood(first, own);
        let mut cost = 0;
        while (reach & second).is_zero() {
            let step = (m.grow(reach) | first) & empty & !reach;
            if step.is_zero() {
                return INF / 1024;
            }
            cost += 1;
            reach = m.flood(reach | step, own | step | reach);
        }
        cost
    }

    fn child_key(&self, key: u64, s: &Stones<B>, cell: u16) -> u64 {
        let colour = if s.to_move == Color::Red { 0 } else { 1 };
        key ^ self.keys[cell as usize][colour] ^ 0x9e37_79b9_7f4a_7c15
    }

    fn solve_root(&mut self, root: &Stones<B>) -> Solution {
        let key = self.hash(root);
        match self.moves(root) {
            Err(true) => {
                // A win at once, or a bridge connection that any move keeps.
                let mut wins = root.winning_cells(&self.masks, root.to_move);
                if wins.is_zero() {
                    wins = root.empty_cells(&self.masks);
                }
                let n = self.masks.size;
                let cells = (0..self.cells).filter(|&i| wins.has(i)).map(|i| Cell::from_index(i, n)).collect();
                return Solution { verdict: Verdict::Win(cells), nodes: 1 };
            }
            Err(false) => return Solution { verdict: Verdict::Loss, nodes: 1 },
            Ok(_) => {}
        }
        let (phi, delta) = self.mid(root, key, INF - 1, INF - 1);
        let verdict = if phi == 0 {
            Verdict::Win(self.winning_moves(root, key))
        } else if delta == 0 {
            Verdict::Loss
        } else {
            Verdict::Unknown
        };
        Solution { verdict, nodes: self.nodes }
    }

    /// Continues the search of `root` for `more` positions.
    fn resume(&mut self, root: &Stones<B>, more: u64) -> Verdict {
        self.budget = self.nodes.saturating_add(more);
        self.solve_root(root).verdict
    }

    /// The root moves proved to win.
    fn winning_moves(&self, root: &Stones<B>, key: u64) -> Vec<Cell> {
        let n = self.masks.size;
        let Ok(moves) = self.moves(root) else { return Vec::new() };
        moves
            .into_iter()
            .filter(|&c| {
                let mut child = *root;
                child.play(c as usize);
                self.table.get(&self.child_key(key, root, c)).is_some_and(|&(_, d)| d == 0)
                    || child.has_won(&self.masks, root.to_move)
            })
            .map(|c| Cell::from_index(c as usize, n))
            .collect()
    }

    /// df-pn's multiple iterative deepening: search `s` until its proof
    /// number reaches `phi_max` or its disproof number `delta_max`. Numbers
    /// are from the side to move's view: `phi` = cost of proving it wins.
    fn mid(&mut self, s: &Stones<B>, key: u64, phi_max: u32, delta_max: u32) -> (u32, u32) {
        let moves = match self.moves(s) {
            Err(true) => return self.store(key, (0, INF)),
            Err(false) => return self.store(key, (INF, 0)),
            Ok(m) => m,
        };
        self.nodes += 1;
        // Children new to the table start from distance estimates rather
        // than (1, 1): the side closer to joining its edges is cheaper to
        // prove a win for. Known children keep their table entries.
        let children: Vec<(u16, u64, (u32, u32))> = moves
            .iter()
            .map(|&c| {
                let child_key = self.child_key(key, s, c);
                if self.table.contains_key(&child_key) {
                    return (c, child_key, (1, 1));
                }
                let mut child = *s;
                child.play(c as usize);
                let them = self.distance(&child, child.to_move).max(1);
                let us = self.distance(&child, s.to_move).max(1);
                (c, child_key, (them, us))
            })
            .collect();
        loop {
            let (phi, delta, best, best_child_phi, second_delta) = self.summarise(&children);
            if phi >= phi_max || delta >= delta_max || self.nodes >= self.budget {
                return self.store(key, (phi, delta));
            }
            let (cell, child_key, _) = children[best];
            // The child's own numbers are (its phi, its delta) = (our delta
            // share, our phi); pass thresholds in the child's view.
            let child_phi_max = (delta_max - delta).saturating_add(best_child_phi).min(INF - 1);
            let child_delta_max = phi_max.min(second_delta.saturating_add(1));
            let mut child = *s;
            child.play(cell as usize);
            self.mid(&child, child_key, child_phi_max, child_delta_max);
        }
    }

    /// Our (phi, delta) from the children's table entries, the index of the
    /// child to search (smallest child delta), that child's phi, and the
    /// second smallest child delta.
    fn summarise(&self, children: &[(u16, u64, (u32, u32))]) -> (u32, u32, usize, u32, u32) {
        let mut phi = INF;
        let mut delta: u32 = 0;
        let mut best = 0;
        let mut best_phi = 0;
        let mut second = INF;
        for (i, &(_, k, init)) in children.iter().enumerate() {
            let (c_phi, c_delta) = self.lookup(k, init);
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

    fn store(&mut self, key: u64, value: (u32, u32)) -> (u32, u32) {
        if self.table.len() > 8_000_000 {
            // Keep memory bounded: drop everything unproved.
            self.table.retain(|_, &mut (p, d)| p == 0 || d == 0);
        }
        self.table.insert(key, value);
        value
    }
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
    fn a_chain_of_bridges_across_the_board_is_proved_quickly() {
        // Red a4–b4–d3–f2 with bridges and the right edge template; Blue to move
        // has lost, however it intrudes.
        let g = crate::engine::Record::from_text("7x7 b4 a1 d3 a7 f2 g7 a4", 7).unwrap().to_game(false).unwrap();
        let got = solve(g.position(), 30_000);
        assert_eq!(got.verdict, Verdict::Loss, "after {} nodes", got.nodes);
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
        assert_eq!(solve(g.position(), 10).verdict, Verdict::Win(vec![Cell::new(2, 2)]));
        // Two ways for Red to win at once: Blue to move has lost.
        let g = crate::engine::Record::from_text("4x4 a2 a1 b2 b1 d2 c1 a4 c3 b4 d3 c4", 4)
            .unwrap()
            .to_game(false)
            .unwrap();
        assert_eq!(solve(g.position(), 10).verdict, Verdict::Loss);
    }
}
