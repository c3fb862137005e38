//! H-search between every pair of ends, empty cells included.
//!
//! [`super::GroupOnly`] chains empty cells only through groups, so a
//! connection between two empty cells (a bridge between two empty cells,
//! the ziggurat of an empty third-row cell) never forms and cannot feed
//! the rules. Here every end is paired with every other, as in
//! Anshelevich's H-search, with the refinements of Pawlewicz et al.
//! ("Stronger virtual connections in Hex", 2015):
//!
//! - AND joins two full connections at a middle end: through a group the
//!   result is full, through an empty cell semi with that cell as key.
//!   Each two full connections are joined once, when the later of the two
//!   is processed, smallest carriers first; never through an edge.
//! - A pair keeps a full connection only while it narrows what all the
//!   pair's full connections share, replaces a larger one or needs fewer
//!   stones: the only use of a second connection between the same ends
//!   is to avoid a cell the first needs.
//! - OR runs once a pair's semi connections share no cell, and for each
//!   cell that all the pair's full connections share, builds (greedily)
//!   one full connection that avoids it if the semis that avoid it share
//!   no cell.

mod captured;
mod edge_links;
mod ladder_links;
mod rules;
#[cfg(test)]
mod tests;

use super::{EdgeConnection, EdgeLink, Exposed, LinkReach, ListLimits, ladders};
use crate::engine::bits::{Bits, Masks};
use crate::engine::color::Color;

/// A full connection between a pair of ends.
#[derive(Clone, Copy, Debug)]
struct Full<B> {
    carrier: B,
    /// Most stones that complete it.
    need: u32,
    /// Whether AND has joined it with the connections at its ends.
    processed: bool,
}

/// A semi connection between a pair of ends.
#[derive(Clone, Copy, Debug)]
struct Semi<B> {
    carrier: B,
    key: u16,
    need: u32,
    /// Whether OR has already combined it.
    processed: bool,
}

/// A pair's connections, with what each kind's carriers all share (every
/// cell when there are none): kept up to date because the rules ask for
/// it far more often than a list changes.
#[derive(Clone, Debug)]
struct Lists<B> {
    fulls: Vec<Full<B>>,
    semis: Vec<Semi<B>>,
    full_shared: B,
    processed_shared: B,
    semi_shared: B,
    or_queued: bool,
}

impl<B: Bits> Lists<B> {
    fn clear(&mut self) {
        self.fulls.clear();
        self.semis.clear();
        self.full_shared = !B::zero();
        self.processed_shared = !B::zero();
        self.semi_shared = !B::zero();
        self.or_queued = false;
    }

    fn share_fulls(&mut self) {
        self.full_shared = self.fulls.iter().fold(!B::zero(), |acc, f| acc & f.carrier);
        self.processed_shared = self.fulls.iter().filter(|f| f.processed).fold(!B::zero(), |acc, f| acc & f.carrier);
    }

    fn share_semis(&mut self) {
        self.semi_shared = self.semis.iter().fold(!B::zero(), |acc, s| acc & s.carrier);
    }
}

impl<B: Bits> Default for Lists<B> {
    fn default() -> Self {
        let mut l = Lists {
            fulls: Vec::new(),
            semis: Vec::new(),
            full_shared: B::zero(),
            processed_shared: B::zero(),
            semi_shared: B::zero(),
            or_queued: false,
        };
        l.clear();
        l
    }
}

/// A full connection waiting for AND.
#[derive(Clone, Copy, Debug)]
struct Pending<B> {
    x: u16,
    y: u16,
    carrier: B,
    need: u32,
}

/// Most semi connections a pair keeps; more are turned away.
const SEMI_CAP: usize = 48;
/// Most full connections a pair keeps.
const FULL_CAP: usize = 24;

/// H-search over every pair of ends for one board size.
#[derive(Clone, Debug)]
pub struct AllEnds<B: Bits> {
    masks: Masks<B>,
    /// The most ends a search can have: every cell and both edges.
    max_ends: usize,
    // Per search. Ends 0 and 1 are the edges, then the other groups, then
    // the empty cells.
    groups: usize,
    ends: usize,
    empty: B,
    /// The cell of each empty end, by end.
    end_cell: Vec<u16>,
    /// Each end's own cell as a set (empty for groups).
    end_bit: Vec<B>,
    /// Each empty end's captured set (see `captured`), empty for groups.
    captured: Vec<B>,
    /// Whether AND and OR may overlap in captured sets (`captured`).
    captured_sets: bool,
    /// Whether second-row cells get their links along the edge
    /// (`edge_links`), and how far apart, if at all.
    edge_links: Option<LinkReach>,
    /// Whether second-row cells get their ladder links (`ladder_links`).
    ladder_links: bool,
    lists: Vec<Lists<B>>,
    touched: Vec<usize>,
    /// For each end, the ends it has a full connection with.
    partners: Vec<Vec<u16>>,
    /// Full connections waiting for AND, by the size of their carrier:
    /// the smallest first, so that a larger one found later is turned
    /// away before it is joined with anything.
    and_queue: Vec<Vec<Pending<B>>>,
    /// No bucket below this one holds anything.
    and_lowest: usize,
    or_queue: Vec<(u16, u16)>,
    stop_at_semi: bool,
    done: bool,
    /// OR's working lists (carrier, need), kept between calls.
    scratch: [Vec<(B, u32)>; 3],
}

impl<B: Bits> AllEnds<B> {
    /// The search for an `n`×`n` board; as `limits` asks, AND and OR
    /// also combine connections that share cells of captured sets, and
    /// second-row cells start linked along their edge (pairs, ladders).
    pub fn new(n: u8, limits: ListLimits) -> AllEnds<B> {
        let max_ends = n as usize * n as usize + 2;
        AllEnds {
            masks: Masks::new(n),
            max_ends,
            groups: 0,
            ends: 0,
            empty: B::zero(),
            end_cell: Vec::new(),
            end_bit: Vec::new(),
            captured: Vec::new(),
            captured_sets: limits.captured,
            edge_links: limits.edge_links,
            ladder_links: limits.ladder_links,
            lists: vec![Lists::default(); max_ends * (max_ends - 1) / 2],
            touched: Vec::new(),
            partners: vec![Vec::new(); max_ends],
            and_queue: vec![Vec::new(); n as usize * n as usize + 1],
            and_lowest: 0,
            or_queue: Vec::new(),
            stop_at_semi: false,
            done: false,
            scratch: [Vec::new(), Vec::new(), Vec::new()],
        }
    }

    /// As [`super::Connections::edge_link`].
    pub fn edge_link(&mut self, colour: Color, own: B, empty: B, any_semi: bool) -> EdgeLink<B> {
        let m = self.masks;
        let (first, second) = match colour {
            Color::Red => (m.left, m.right),
            Color::Blue => (m.top, m.bottom),
        };
        let edge_stones = [m.flood(first, own), m.flood(second, own)];
        if !(edge_stones[0] & edge_stones[1]).is_zero() {
            return EdgeLink::Full { carrier: B::zero(), need: 0 };
        }
        let mut group_stones = vec![edge_stones[0], edge_stones[1]];
        let mut rest = own & !edge_stones[0] & !edge_stones[1];
        while let Some(i) = rest.lowest() {
            let g = m.flood(B::single(i), own);
            rest = rest & !g;
            group_stones.push(g);
        }
        self.reset(&group_stones, empty);
        if self.captured_sets {
            for e in self.groups..self.ends {
                self.captured[e] = captured::captured_set(&m, colour, own, empty, self.end_cell[e] as usize);
            }
        }
        let cell_end = self.add_adjacency(&group_stones, [first, second]);
        // Ladders and links start from a group's stone or an empty cell;
        // they are few, so a stone's group is looked up among the groups.
        let end = |c: usize| {
            if empty.has(c) { Some(cell_end[c]) } else { group_stones.iter().position(|g| g.has(c)).map(|g| g as u16) }
        };
        for l in ladders::second_row(m.size, colour, own, empty, edge_stones) {
            if let Some(start) = end(l.start) {
                self.add_full(start, l.edge, l.carrier, l.need);
            }
        }
        self.stop_at_semi = any_semi;
        self.done = false;
        self.run();
        // The links along the edge come once the rest has settled: in the
        // lists from the start, their carriers narrow what a pair's
        // connections share, so that smaller ones found later are turned
        // away and AND finds less (docs/benchmarks.md, 2026-12-06 and
        // 2026-12-06, second).
        let mut links = Vec::new();
        if let (Some(reach), false) = (self.edge_links, self.done) {
            links.extend(edge_links::second_row_links(&m, colour, own, empty, reach));
        }
        if self.ladder_links && !self.done {
            links.extend(ladder_links::ladder_links(m.size, colour, own, empty));
        }
        if !links.is_empty() {
            for l in links {
                if let (Some(s), Some(t)) = (end(l.s), end(l.t))
                    && s != t
                {
                    self.add_full(s, t, l.carrier, l.need);
                }
            }
            self.run();
        }
        self.result()
    }

    /// Adjacency: a group to the empty cells it touches (an edge to its
    /// first row too), and an empty cell to its empty neighbours. Returns
    /// each empty cell's end.
    fn add_adjacency(&mut self, group_stones: &[B], first_rows: [B; 2]) -> Vec<u16> {
        let m = self.masks;
        let empty = self.empty;
        let mut cell_end = vec![u16::MAX; m.size as usize * m.size as usize];
        for e in self.groups..self.ends {
            cell_end[self.end_cell[e] as usize] = e as u16;
        }
        for (g, &stones) in group_stones.iter().enumerate() {
            let edge = first_rows.get(g).copied().unwrap_or(B::zero());
            for i in ((m.grow(stones) | edge) & empty).ones() {
                self.add_full(g as u16, cell_end[i], B::zero(), 0);
            }
        }
        for e in self.groups..self.ends {
            let cell = self.end_cell[e] as usize;
            for i in (m.grow(B::single(cell)) & empty).ones() {
                if i > cell {
                    self.add_full(e as u16, cell_end[i], B::zero(), 0);
                }
            }
        }
        cell_end
    }

    /// As [`super::Connections::exposed`].
    pub fn exposed(&self) -> Vec<Exposed<B>> {
        Exposed::among(self.groups, self.empty, |a, b| {
            let pair = self.pair(a as u16, b as u16);
            Some((pair, self.lists[pair].fulls.iter().map(|f| f.carrier)))
        })
    }

    /// As [`super::Connections::replies_among`].
    pub fn replies_among(&self, exposed: &[Exposed<B>], probe: usize) -> B {
        Exposed::replies(exposed, probe, self.empty, |pair| {
            self.lists[pair].semis.iter().map(|s| EdgeConnection { carrier: s.carrier, key: s.key, need: s.need })
        })
    }

    fn run(&mut self) {
        while !self.done {
            while self.and_lowest < self.and_queue.len() && self.and_queue[self.and_lowest].is_empty() {
                self.and_lowest += 1;
            }
            if let Some(p) = self.and_queue.get_mut(self.and_lowest).and_then(Vec::pop) {
                self.and_full(p);
            } else if let Some((x, y)) = self.or_queue.pop() {
                self.or_semis(x, y);
            } else {
                break;
            }
        }
    }

    fn result(&self) -> EdgeLink<B> {
        let edges = &self.lists[self.pair(0, 1)];
        EdgeLink::from_lists(
            self.masks.board,
            edges.fulls.iter().map(|f| EdgeConnection { carrier: f.carrier, key: 0, need: f.need }),
            edges.semis.iter().map(|s| EdgeConnection { carrier: s.carrier, key: s.key, need: s.need }),
        )
    }

    fn reset(&mut self, group_stones: &[B], empty: B) {
        for &p in &self.touched {
            self.lists[p].clear();
        }
        self.touched.clear();
        for p in &mut self.partners {
            p.clear();
        }
        self.and_queue.iter_mut().for_each(Vec::clear);
        self.and_lowest = 0;
        self.or_queue.clear();
        self.groups = group_stones.len();
        self.empty = empty;
        self.end_cell.clear();
        self.end_bit.clear();
        self.captured.clear();
        for _ in 0..self.groups {
            self.end_cell.push(u16::MAX);
            self.end_bit.push(B::zero());
        }
        for i in empty.ones() {
            self.end_cell.push(i as u16);
            self.end_bit.push(B::single(i));
        }
        self.captured.resize(self.end_cell.len(), B::zero());
        self.ends = self.end_cell.len();
        debug_assert!(self.ends <= self.max_ends);
    }

    fn pair(&self, x: u16, y: u16) -> usize {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        // One slot per unordered pair: row b holds the b ends below it.
        b as usize * (b as usize - 1) / 2 + a as usize
    }

    fn is_group(&self, end: u16) -> bool {
        (end as usize) < self.groups
    }
}
