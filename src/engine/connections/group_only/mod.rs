//! The group-only H-search: the rules chain empty cells through groups
//! alone, with short lists for each pair.
//!
//! Through a group AND makes a full connection, through an empty cell a
//! semi one with that cell as key; OR tries every pair and triple of a
//! pair's semis, not only the first found (a full connection that avoids
//! a cell is what decides a position once the opponent takes it).
//! Bridges, the edge templates of the second and third rows (the
//! ziggurat) and chains of them fall out of these rules, but only from
//! groups: the ziggurat of an empty third-row cell comes from a table
//! (`templates.rs`). With it, a stone one row further out holds semis
//! keyed in front of it, which OR into the fourth-row template. Lists are
//! bounded, so the search finds many connections, not every one.

mod rules;
mod templates;

use self::templates::anchored;
use super::{EdgeConnection, EdgeLink, Exposed, ListLimits};
use crate::engine::bits::{Bits, Masks};
use crate::engine::color::Color;

/// The connections between two ends: carriers with the stones they need,
/// semis with their keys.
#[derive(Clone, Debug)]
struct Pair<B> {
    fulls: Vec<(B, u32)>,
    semis: Vec<(B, u16, u32)>,
}

impl<B> Default for Pair<B> {
    fn default() -> Self {
        Pair { fulls: Vec::new(), semis: Vec::new() }
    }
}

/// A connection just found, waiting to be combined with the others:
/// between cells (or edges) `x` and `y`, over `carrier`, needing `need` of
/// the owner's stones; a semi connection also has the `key` cell that
/// would make it full.
#[derive(Clone, Copy, Debug)]
enum Event<B> {
    Full { x: u16, y: u16, carrier: B, need: u32 },
    Semi { x: u16, y: u16, carrier: B, key: u16, need: u32 },
}

/// A full connection seen from one end: (other end, carrier, need).
type FullAt<B> = (u16, B, u32);
/// A semi connection seen from one end: (other end, carrier, key, need).
type SemiAt<B> = (u16, B, u16, u32);

/// The group-only search for one board size, with scratch space reused
/// between calls.
#[derive(Clone, Debug)]
pub struct GroupOnly<B: Bits> {
    masks: Masks<B>,
    cells: usize,
    /// Each cell's neighbours, as a set and as a list.
    neighbours: Vec<B>,
    neighbour_list: Vec<[u16; 6]>,
    // Per call: groups are ends 0..groups (0 and 1 the edges), empty cell
    // `i` is end `groups + i`.
    groups: usize,
    ends: usize,
    empty: B,
    pairs: Vec<Pair<B>>,
    touched: Vec<usize>,
    /// Full connections at each end, to groups and to empty cells:
    /// (other end, carrier, need). Kept apart because an empty cell chains
    /// only with groups.
    at: [Vec<Vec<FullAt<B>>>; 2],
    /// Semi connections at each group, likewise: (other end, carrier, key,
    /// need).
    semi_at: [Vec<Vec<SemiAt<B>>>; 2],
    queue: Vec<Event<B>>,
    stop_at_semi: bool,
    done: bool,
    /// Whether a full list turned a connection away in the last search.
    truncated: bool,
    /// Scratch: the full connections one new semi makes with its pair's
    /// others.
    ors: Vec<(B, u32)>,
    limits: ListLimits,
    /// The edge templates placed on the board, by colour (Red, Blue) and anchor
    /// cell: (edge end, carrier, need).
    anchored: [Vec<Vec<(u16, B, u32)>>; 2],
    /// The empty cells each group touches, by group end: the seeds of
    /// the last search, each a full connection with no carrier.
    touch: Vec<B>,
}

impl<B: Bits> GroupOnly<B> {
    /// The search for an `n`×`n` board keeping up to `limits` connections
    /// a pair.
    pub fn new(n: u8, limits: ListLimits) -> GroupOnly<B> {
        let masks = Masks::new(n);
        let cells = n as usize * n as usize;
        let neighbours: Vec<B> = (0..cells).map(|i| masks.grow(B::single(i)) & !B::single(i)).collect();
        let neighbour_list = (0..cells)
            .map(|i| {
                let mut list = [i as u16; 6];
                for (slot, j) in (0..cells).filter(|&j| neighbours[i].has(j)).enumerate() {
                    list[slot] = j as u16;
                }
                list
            })
            .collect();
        GroupOnly {
            masks,
            cells,
            neighbours,
            neighbour_list,
            groups: 0,
            ends: 0,
            empty: B::zero(),
            pairs: Vec::new(),
            touched: Vec::new(),
            at: [Vec::new(), Vec::new()],
            semi_at: [Vec::new(), Vec::new()],
            queue: Vec::new(),
            stop_at_semi: false,
            done: false,
            truncated: false,
            ors: Vec::new(),
            limits,
            anchored: [anchored(n, Color::Red), anchored(n, Color::Blue)],
            touch: Vec::new(),
        }
    }

    /// How `colour`, with stones `own` and empty cells `empty`, joins its
    /// edges. With `any_semi`, the search stops at the first semi
    /// connection (enough to know the side to move wins); otherwise it
    /// gathers all it can, to narrow the opponent's must-play cells.
    pub fn edge_link(&mut self, colour: Color, own: B, empty: B, any_semi: bool) -> EdgeLink<B> {
        let m = self.masks;
        let (first, second) = match colour {
            Color::Red => (m.left, m.right),
            Color::Blue => (m.top, m.bottom),
        };
        // Groups: what touches an edge belongs to it.
        let edge_stones = [m.flood(first, own), m.flood(second, own)];
        if !(edge_stones[0] & edge_stones[1]).is_zero() {
            return EdgeLink::Full { carrier: B::zero(), need: 0 };
        }
        let mut group_stones: Vec<B> = Vec::new();
        let mut rest = own & !edge_stones[0] & !edge_stones[1];
        while let Some(i) = rest.lowest() {
            let g = m.flood(B::single(i), own);
            rest = rest & !g;
            group_stones.push(g);
        }
        self.reset(2 + group_stones.len(), empty);
        // Adjacency: each group is fully joined to the empty cells it touches.
        let touching = |stones: B, edge: B| (m.grow(stones) | edge) & empty;
        self.touch.clear();
        self.touch.extend([touching(edge_stones[0], first), touching(edge_stones[1], second)]);
        self.touch.extend(group_stones.iter().map(|&g| m.grow(g) & empty));
        for g in 0..self.touch.len() {
            for i in self.touch[g].ones() {
                self.add_full(g as u16, self.end_of_cell(i), B::zero(), 0);
            }
        }
        let colour_index = usize::from(colour == Color::Blue);
        let free = empty | own;
        for x in empty.ones() {
            for k in 0..self.anchored[colour_index][x].len() {
                let (edge, carrier, need) = self.anchored[colour_index][x][k];
                if (carrier & !free).is_zero() {
                    self.add_full(edge, self.end_of_cell(x), carrier & empty, need);
                }
            }
        }
        self.stop_at_semi = any_semi;
        self.done = false;
        self.truncated = false;
        let mut head = 0;
        while head < self.queue.len() && !self.done {
            match self.queue[head] {
                Event::Full { x, y, carrier, need } => self.after_full(x, y, carrier, need),
                Event::Semi { x, y, carrier, key, need } => self.after_semi(x, y, carrier, key, need),
            }
            head += 1;
        }
        let edges = &self.pairs[1];
        EdgeLink::from_lists(
            m.board,
            edges.fulls.iter().map(|&(carrier, need)| EdgeConnection { carrier, key: 0, need }),
            edges.semis.iter().map(|&(carrier, key, need)| EdgeConnection { carrier, key, need }),
        )
    }

    /// [`GroupOnly::replies_among`] for one probe.
    #[cfg(test)]
    pub fn replies_to(&self, probe: usize) -> B {
        self.replies_among(&self.exposed(), probe)
    }

    /// As [`super::Connections::exposed`].
    pub fn exposed(&self) -> Vec<Exposed<B>> {
        Exposed::among(self.groups, self.empty, |a, b| {
            let pair = a * self.ends + b;
            self.pairs.get(pair).map(|p| (pair, p.fulls.iter().map(|f| f.0)))
        })
    }

    /// As [`super::Connections::replies_among`].
    pub fn replies_among(&self, exposed: &[Exposed<B>], probe: usize) -> B {
        Exposed::replies(exposed, probe, self.empty, |pair| {
            self.pairs[pair].semis.iter().map(|&(carrier, key, need)| EdgeConnection { carrier, key, need })
        })
    }

    /// Whether the last [`GroupOnly::edge_link`] ran to the end with no
    /// connection turned away for want of room. Then, for every pair of
    /// ends, it kept a connection at least as good (no more cells, no more
    /// stones) as any the rules derive; so a search with fewer own cells
    /// and fewer empty cells finds no connection the last one lacked.
    #[cfg(test)]
    pub fn complete(&self) -> bool {
        !self.truncated && !self.done
    }

    fn reset(&mut self, groups: usize, empty: B) {
        for &p in &self.touched {
            self.pairs[p].fulls.clear();
            self.pairs[p].semis.clear();
        }
        self.touched.clear();
        self.groups = groups;
        self.ends = groups + self.cells;
        self.empty = empty;
        let needed = groups * self.ends;
        if self.pairs.len() < needed {
            self.pairs.resize_with(needed, Pair::default);
        }
        for at in &mut self.at {
            if at.len() < self.ends {
                at.resize_with(self.ends, Vec::new);
            }
            at.iter_mut().for_each(Vec::clear);
        }
        for semi_at in &mut self.semi_at {
            if semi_at.len() < groups {
                semi_at.resize_with(groups, Vec::new);
            }
            semi_at.iter_mut().for_each(Vec::clear);
        }
        self.queue.clear();
    }

    fn end_of_cell(&self, i: usize) -> u16 {
        (self.groups + i) as u16
    }

    fn is_group(&self, end: u16) -> bool {
        (end as usize) < self.groups
    }

    /// Which list an end belongs in: 0 for groups, 1 for empty cells.
    fn kind(&self, end: u16) -> usize {
        usize::from(!self.is_group(end))
    }

    fn cell_of(&self, end: u16) -> usize {
        end as usize - self.groups
    }

    /// The pair slot of the side's two edges (ends 0 and 1): a connection
    /// there wins.
    const EDGE_TO_EDGE: usize = 1;

    /// The pair slot of two ends, at least one a group (the smaller id).
    fn pair_index(&mut self, x: u16, y: u16) -> usize {
        let (a, b) = if x < y { (x, y) } else { (y, x) };
        let p = a as usize * self.ends + b as usize;
        let pair = &self.pairs[p];
        if pair.fulls.is_empty() && pair.semis.is_empty() {
            self.touched.push(p);
        }
        p
    }

    /// Whether a connection from `to` with carrier `carrier` may pass
    /// through the end `end`: an empty-cell end must lie outside it.
    fn clear_of(&self, end: u16, carrier: B) -> bool {
        self.is_group(end) || !carrier.has(self.cell_of(end))
    }
}

#[cfg(test)]
mod tests;
