//! Virtual connections by H-search (Anshelevich): which of a side's groups
//! are joined whatever the opponent does.
//!
//! A *full* connection between two ends holds even with the opponent to
//! move; a *semi* connection needs one more move, its key. Ends are the
//! side's groups (its two edges are groups too) and empty cells. From
//! adjacency, two rules build the rest: AND joins two connections through
//! a middle when their carriers (the empty cells they need) are disjoint —
//! through a group the result is full, through an empty cell it is semi
//! with that cell as key; OR turns semis between the same ends with no
//! cell common to all their carriers into a full one (every such pair and
//! triple, not only the first found: a full connection that avoids a cell
//! is what decides a position once the opponent takes it). Bridges, the
//! edge templates of the second and third rows (the ziggurat) and chains of
//! them fall out of these rules, but only from groups: the rules chain
//! empty cells through groups alone, so the ziggurat of an empty
//! third-row cell comes from a table ([`TEMPLATES`]). With it, a stone
//! one row further out holds semis keyed in front of it, which OR into
//! the fourth-row template. Each connection also counts the stones
//! that complete it at most (AND adds, a key costs one, OR takes the most
//! of its semis), which bounds how long a proved win takes. Lists are
//! bounded, so the search finds many connections, not every one.

use super::bits::{Bits, Masks};
use super::color::Color;

/// How a side's two edges are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeLink<B> {
    /// Joined whatever the opponent does, within the empty cells of
    /// `carrier`, by at most `need` more stones of the side.
    Full { carrier: B, need: u32 },
    /// Joined once the side plays `key`, by at most `need` stones (the key
    /// included) within `carrier`; the opponent, to move, must play in
    /// `must` (the cells every such connection needs) or lose, and then
    /// loses within `neediest` stones of the side. `every` holds the empty
    /// cells of enough of those connections to cut down to `must`: the cut
    /// stands as long as the opponent has no stone there.
    Semi { must: B, every: B, key: u16, carrier: B, need: u32, neediest: u32 },
    /// No connection found.
    None,
}

/// Full connections kept per pair of ends.
const FULL_LIMIT: usize = 6;
/// Semi connections kept per pair of ends, and for the two edges (whose
/// list decides what the opponent must play).
const SEMI_LIMIT: usize = 10;
const EDGE_SEMI_LIMIT: usize = 24;

/// An edge template the rules above cannot derive when its anchor is an
/// empty cell (they chain empty cells only through groups): the cells it
/// needs, as (dq, dr) steps from the anchor towards an edge `depth` rows
/// beyond it (the edge touches row `depth`), and the most stones that
/// complete it. Each is checked by brute force in the tests.
struct Template {
    depth: i32,
    need: u32,
    cells: &'static [(i32, i32)],
}

/// The third row's one-stone templates: the ziggurat in its two mirror
/// images, and a wider symmetric one (found minimal by brute force). With
/// them an empty cell on the third row counts as joined to the edge, so a
/// group beside it holds a semi connection keyed there; two or three such
/// threats OR into the fourth-row templates. (Anchored on a group's stone
/// they add nothing the rules miss: 2.70M positions on the 7×7 map
/// against 2.67M without.)
const TEMPLATES: [Template; 3] = [
    Template { depth: 2, need: 3, cells: &[(1, 0), (-1, 1), (0, 1), (1, 1), (-2, 2), (-1, 2), (0, 2), (1, 2)] },
    Template { depth: 2, need: 3, cells: &[(-1, 0), (-2, 1), (-1, 1), (0, 1), (-3, 2), (-2, 2), (-1, 2), (0, 2)] },
    Template {
        depth: 2,
        need: 3,
        cells: &[(-1, 0), (1, 0), (-2, 1), (-1, 1), (0, 1), (1, 1), (-3, 2), (-2, 2), (0, 2), (1, 2)],
    },
];

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

/// H-search for one board size, with scratch space reused between calls.
#[derive(Clone, Debug)]
pub struct Connections<B: Bits> {
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
    /// [`TEMPLATES`] placed on the board, by colour (Red, Blue) and anchor
    /// cell: (edge end, carrier, need).
    anchored: [Vec<Vec<(u16, B, u32)>>; 2],
    /// The empty cells each group touches, by group end: the seeds of
    /// the last search, each a full connection with no carrier.
    touch: Vec<B>,
}

impl<B: Bits> Connections<B> {
    /// H-search for an `n`×`n` board.
    pub fn new(n: u8) -> Connections<B> {
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
        Connections {
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
        if let Some(&(carrier, need)) = edges.fulls.iter().min_by_key(|f| f.1) {
            EdgeLink::Full { carrier, need }
        } else if let Some(&(carrier, key, need)) = edges.semis.iter().min_by_key(|s| s.2) {
            let must = edges.semis.iter().fold(m.board, |acc, &(c, _, _)| acc & c);
            // Often a few carriers already cut down to `must`: those alone
            // are what the cut depends on (smallest first, each kept only
            // if it narrows the cut).
            let mut carriers: Vec<B> = edges.semis.iter().map(|s| s.0).collect();
            carriers.sort_by_key(|c| c.count());
            let (mut cut, mut every) = (m.board, B::zero());
            for c in carriers {
                if cut == must {
                    break;
                }
                if cut & c != cut {
                    cut = cut & c;
                    every = every | c;
                }
            }
            let neediest = edges.semis.iter().map(|s| s.2).max().unwrap_or(0);
            EdgeLink::Semi { must, every, key, carrier, need, neediest }
        } else {
            EdgeLink::None
        }
    }

    /// Whether the last [`Connections::edge_link`] ran to the end with no
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

    fn add_full(&mut self, x: u16, y: u16, carrier: B, need: u32) {
        let p = self.pair_index(x, y);
        let pair = &mut self.pairs[p];
        if pair.fulls.iter().any(|&(f, n)| (f & !carrier).is_zero() && n <= need) {
            return;
        }
        if pair.fulls.len() >= FULL_LIMIT {
            self.truncated = true;
            return;
        }
        pair.fulls.push((carrier, need));
        let (kx, ky) = (self.kind(x), self.kind(y));
        self.at[ky][x as usize].push((y, carrier, need));
        self.at[kx][y as usize].push((x, carrier, need));
        self.queue.push(Event::Full { x, y, carrier, need });
        if p == Self::EDGE_TO_EDGE {
            self.done = true;
        }
    }

    fn add_semi(&mut self, x: u16, y: u16, carrier: B, key: u16, need: u32) {
        let p = self.pair_index(x, y);
        let limit = if p == Self::EDGE_TO_EDGE { EDGE_SEMI_LIMIT } else { SEMI_LIMIT };
        let pair = &mut self.pairs[p];
        if pair.fulls.iter().any(|&(f, n)| (f & !carrier).is_zero() && n <= need)
            || pair.semis.iter().any(|&(s, _, n)| (s & !carrier).is_zero() && n <= need)
        {
            return;
        }
        if pair.semis.len() >= limit {
            self.truncated = true;
            return;
        }
        pair.semis.push((carrier, key, need));
        for (g, other) in [(x, y), (y, x)] {
            if self.is_group(g) {
                let k = self.kind(other);
                self.semi_at[k][g as usize].push((other, carrier, key, need));
            }
        }
        self.queue.push(Event::Semi { x, y, carrier, key, need });
        if p == Self::EDGE_TO_EDGE && self.stop_at_semi {
            self.done = true;
        }
    }

    /// AND with every connection that meets the new full one at an end.
    fn after_full(&mut self, x: u16, y: u16, carrier: B, need: u32) {
        for (middle, other) in [(x, y), (y, x)] {
            if middle < 2 {
                // Through an edge: what it would join is joined to that
                // edge already, which is all the search is for.
                continue;
            }
            if self.is_group(middle) {
                // An empty cell chains only with groups.
                let kinds = if self.is_group(other) { 0..2 } else { 0..1 };
                for kind in kinds {
                    for k in 0..self.at[kind][middle as usize].len() {
                        let (z, c2, n2) = self.at[kind][middle as usize][k];
                        if self.joinable(other, z, carrier, c2) {
                            self.add_full(other, z, carrier | c2, need + n2);
                        }
                    }
                    for k in 0..self.semi_at[kind][middle as usize].len() {
                        let (z, c2, key, n2) = self.semi_at[kind][middle as usize][k];
                        if self.joinable(other, z, carrier, c2) {
                            self.add_semi(other, z, carrier | c2, key, need + n2);
                        }
                    }
                }
            } else {
                // Through an empty cell: a semi connection keyed by it, to
                // the groups it is joined to and to the empty cells it touches.
                let cell = self.cell_of(middle);
                let through = carrier | B::single(cell);
                for k in 0..self.at[0][middle as usize].len() {
                    let (z, c2, n2) = self.at[0][middle as usize][k];
                    if z != other && (carrier & c2).is_zero() {
                        self.add_semi(other, z, through | c2, cell as u16, need + n2 + 1);
                    }
                }
                // A cell `other` touches is joined to it already, with
                // no carrier: a semi there would be turned away.
                let beyond = self.neighbours[cell] & self.empty & !carrier & !self.touch[other as usize];
                for i in self.neighbour_list[cell] {
                    if beyond.has(i as usize) {
                        let end = self.end_of_cell(i as usize);
                        self.add_semi(other, end, through, cell as u16, need + 1);
                    }
                }
            }
        }
    }

    /// AND the new semi connection with full ones through a group, and OR
    /// it with its pair's other semis.
    fn after_semi(&mut self, x: u16, y: u16, carrier: B, key: u16, need: u32) {
        let p = self.pair_index(x, y);
        // OR: semis of the pair with no cell common to all their carriers
        // make a full connection (the side answers an intrusion by playing
        // the key of a semi it missed). With every semi that shares no cell
        // with this one (itself shares its key), then with every two that
        // do but have none in common with it, no two of the three disjoint.
        self.ors.clear();
        let semis = &self.pairs[p].semis;
        self.ors
            .extend(semis.iter().filter(|s| (s.0 & carrier).is_zero()).map(|&(c, _, n)| (c | carrier, n.max(need))));
        for (i, &(a, _, na)) in semis.iter().enumerate() {
            let common = a & carrier;
            if common.is_zero() || common == carrier {
                continue;
            }
            for &(b, _, nb) in &semis[i + 1..] {
                if (common & b).is_zero() && !(b & carrier).is_zero() && !(a & b).is_zero() {
                    self.ors.push((a | b | carrier, na.max(nb).max(need)));
                }
            }
        }
        for k in 0..self.ors.len() {
            let (full, most) = self.ors[k];
            self.add_full(x, y, full, most);
        }
        for (middle, other) in [(x, y), (y, x)] {
            if middle < 2 || !self.is_group(middle) {
                continue;
            }
            let kinds = if self.is_group(other) { 0..2 } else { 0..1 };
            for kind in kinds {
                for k in 0..self.at[kind][middle as usize].len() {
                    let (z, c2, n2) = self.at[kind][middle as usize][k];
                    if self.joinable(other, z, carrier, c2) {
                        self.add_semi(other, z, carrier | c2, key, need + n2);
                    }
                }
            }
        }
    }

    /// Whether connections `other`–middle (carrier `c1`) and middle–`z`
    /// (carrier `c2`) can be chained: distinct ends, not both empty cells,
    /// disjoint carriers that avoid both ends.
    fn joinable(&self, other: u16, z: u16, c1: B, c2: B) -> bool {
        z != other
            && (self.is_group(other) || self.is_group(z))
            && (c1 & c2).is_zero()
            && self.clear_of(other, c2)
            && self.clear_of(z, c1)
    }
}

/// Every placement of [`TEMPLATES`] that fits on an `n`×`n` board, for
/// `colour`: by anchor cell, (edge end, carrier, need).
fn anchored<B: Bits>(n: u8, colour: Color) -> Vec<Vec<(u16, B, u32)>> {
    let size = i32::from(n);
    let mut out = vec![Vec::new(); size as usize * size as usize];
    for (index, slot) in out.iter_mut().enumerate() {
        let (q, r) = ((index % n as usize) as i32, (index / n as usize) as i32);
        for t in &TEMPLATES {
            // Towards the second edge the steps apply as they are (Blue's
            // bottom) or transposed (Red's right); towards the first,
            // turned half a turn.
            for edge in 0..2u16 {
                let (along, across) = if colour == Color::Blue { (q, r) } else { (r, q) };
                let needed = if edge == 1 { size - 1 - t.depth } else { t.depth };
                if across != needed {
                    continue;
                }
                let sign = if edge == 1 { 1 } else { -1 };
                let mut carrier = B::zero();
                let fits = t.cells.iter().all(|&(dq, dr)| {
                    let (a, c) = (along + sign * dq, across + sign * dr);
                    let inside = (0..size).contains(&a) && (0..size).contains(&c);
                    if inside {
                        let (cq, cr) = if colour == Color::Blue { (a, c) } else { (c, a) };
                        carrier = carrier | B::single((cr * size + cq) as usize);
                    }
                    inside
                });
                if fits {
                    slot.push((edge, carrier, t.need));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stones::Stones;
    use crate::engine::{Cell, Record};

    fn link(text: &str, colour: Color) -> (EdgeLink<u128>, u8) {
        let g = Record::from_text(text, 11).unwrap().to_game(false).unwrap();
        let n = g.size();
        let s = Stones::<u128>::from_position(g.position());
        let m = Masks::<u128>::new(n);
        (Connections::new(n).edge_link(colour, s.of(colour), s.empty_cells(&m), false), n)
    }

    fn cells(set: u128, n: u8) -> Vec<String> {
        (0..n as usize * n as usize).filter(|&i| set.has(i)).map(|i| Cell::from_index(i, n).to_string()).collect()
    }

    #[test]
    fn adjacent_stones_with_edge_bridges_are_joined() {
        // Red b3 and c2 touch; b3 reaches the left edge over a3/a4 and c2
        // the right edge over d1/d2.
        let (l, n) = link("4x4 b3 a1 c2 d4", Color::Red);
        let EdgeLink::Full { carrier, need } = l else { panic!("{l:?}") };
        assert_eq!(cells(carrier, n), ["d1", "d2", "a3", "a4"]);
        assert_eq!(need, 2, "one stone for each edge template");
        assert_eq!(link("4x4 b3 a1 c2 d4", Color::Blue).0, EdgeLink::None);
    }

    #[test]
    fn a_bridge_between_stones_closes_a_connection() {
        // Red b2 and c3 share b3 and c2; with a1 and d4 Blue's, the edge
        // bridges of b2 (a2, a3) and c3 (d2, d3) close it.
        let (l, _) = link("4x4 b2 a1 c3 d4", Color::Red);
        assert!(matches!(l, EdgeLink::Full { carrier, need: 3 } if carrier.count() == 6), "{l:?}");
    }

    #[test]
    fn one_missing_move_is_a_semi_connection_with_its_key() {
        // Red a2 and c2 on 3×3 with Blue b1: b2 joins them, and nothing else
        // does, so Blue must take b2.
        let (l, n) = link("3x3 a2 b1 c2", Color::Red);
        let EdgeLink::Semi { must, key, need, .. } = l else { panic!("{l:?}") };
        assert_eq!(need, 1);
        assert_eq!(cells(must, n), ["b2"]);
        assert_eq!(Cell::from_index(key as usize, n).to_string(), "b2");
    }

    #[test]
    fn the_centre_of_five_by_five_holds_two_ziggurats() {
        // Red c3 alone: a ziggurat to each edge, joined at c3.
        let (l, n) = link("5x5 c3", Color::Red);
        let EdgeLink::Full { carrier, need } = l else { panic!("{l:?}") };
        assert!(carrier.count() <= 16, "{:?}", cells(carrier, n));
        // Two stones per ziggurat at best; three after an intrusion into
        // the cell both its routes share.
        assert!((4..=6).contains(&need), "{need}");
        // A lone Blue stone on the first row is only half way there.
        assert_eq!(link("5x5 c3 c1", Color::Blue).0, EdgeLink::None);
    }

    #[test]
    fn every_pair_and_triple_of_semis_is_tried() {
        // Red's semis to its edges in this 7x7 position: the first ones
        // found all need f4, but another pair avoids it (after Blue f4,
        // Red still holds g4 e5 f5 g5 e6). With every pair and triple of
        // them combined, no cell stops them all: Red is joined.
        let n = 7;
        let set =
            |cells: &str| cells.split_whitespace().fold(0u64, |a, c| a | 1 << Cell::parse(c, n).unwrap().index(n));
        let red = set("g2 f3 g3 d4 a5 b5 a6 b6 c6 d6 a7 b7 c7");
        let blue = set("d3 c4 c5 d5");
        let m = Masks::<u64>::new(n);
        let mut c = Connections::<u64>::new(n);
        let f4 = set("f4");
        match c.edge_link(Color::Red, red, m.board & !red & !blue, false) {
            EdgeLink::Semi { must, .. } => panic!("Blue may still play {must:#x}"),
            EdgeLink::Full { .. } => {}
            EdgeLink::None => panic!("Red's semis were not found"),
        }
        let after = c.edge_link(Color::Red, red, m.board & !red & !blue & !f4, true);
        assert!(matches!(after, EdgeLink::Semi { .. }), "{after:?}");
    }

    /// The most stones `colour` needs to join `anchor` (its stone) to its
    /// edge `edge` within `carrier`, the opponent moving first and owning
    /// every other cell; `None` when the opponent cuts it.
    fn stones_to_join(m: &Masks<u64>, colour: Color, edge: u16, anchor: usize, carrier: u64) -> Option<u32> {
        fn go(m: &Masks<u64>, target: u64, anchor: u64, own: u64, empty: u64, cutter: bool) -> Option<u32> {
            if !(m.flood(anchor, own) & target).is_zero() {
                return Some(0);
            }
            if (m.flood(anchor, own | empty) & target).is_zero() {
                return None;
            }
            let mut best = None;
            for i in empty.ones() {
                let rest = empty & !(1 << i);
                if cutter {
                    let k = go(m, target, anchor, own, rest, false)?;
                    best = Some(best.map_or(k, |b: u32| b.max(k)));
                } else if let Some(k) = go(m, target, anchor, own | 1 << i, rest, true) {
                    best = Some(best.map_or(k + 1, |b: u32| b.min(k + 1)));
                }
            }
            best
        }
        let target = match (colour, edge) {
            (Color::Red, 0) => m.left,
            (Color::Red, _) => m.right,
            (Color::Blue, 0) => m.top,
            (Color::Blue, _) => m.bottom,
        };
        go(m, target, 1 << anchor, 1 << anchor, carrier, true)
    }

    #[test]
    fn every_placed_template_holds_by_brute_force() {
        for n in 3..=8u8 {
            let m = Masks::<u64>::new(n);
            for colour in [Color::Red, Color::Blue] {
                let mut placed = 0;
                for (anchor, templates) in anchored::<u64>(n, colour).into_iter().enumerate() {
                    for (edge, carrier, need) in templates {
                        assert!(!carrier.has(anchor));
                        let stones = stones_to_join(&m, colour, edge, anchor, carrier);
                        assert!(
                            stones.is_some_and(|k| k <= need),
                            "{colour:?} {n}x{n} anchor {} edge {edge}: {stones:?} > {need}",
                            Cell::from_index(anchor, n)
                        );
                        placed += 1;
                    }
                }
                // Each side of a board of 5 or more has two mirror images
                // per third-row cell far enough from the corners.
                if n >= 5 {
                    assert!(placed >= 4, "{n}: {placed}");
                }
            }
        }
    }

    #[test]
    fn a_fourth_row_stone_with_room_below_is_joined() {
        // Blue's d1–d4 reaches the fourth row from the bottom: the third
        // row's ziggurats, keyed in front of it, OR into a full connection.
        let (l, _) = link("7x7 e1 d1 f1 d2 g1 d3 e2 d4", Color::Blue);
        assert!(matches!(l, EdgeLink::Full { .. }), "{l:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

        /// What the solver relies on to skip a search: when a complete
        /// search finds no edge connection avoiding a cell, none appears
        /// once the opponent takes that cell (and perhaps one of the
        /// side's own cells too).
        #[test]
        fn a_complete_search_leaves_nothing_for_a_smaller_one(
            n in 4u8..=7,
            colours in proptest::collection::vec(0u8..3, 49),
            taken in 0usize..49,
            lost in proptest::option::of(0usize..49),
        ) {
            let cells = n as usize * n as usize;
            let m = Masks::<u64>::new(n);
            let (mut red, mut blue) = (0u64, 0u64);
            for (i, &c) in colours.iter().take(cells).enumerate() {
                match c {
                    1 => red |= 1 << i,
                    2 => blue |= 1 << i,
                    _ => {}
                }
            }
            let empty = m.board & !red & !blue;
            let Some(o) = empty.ones().nth(taken % empty.count().max(1) as usize) else { return Ok(()) };
            let mut c = Connections::<u64>::new(n);
            let before = c.edge_link(Color::Red, red, empty, false);
            let quiet = c.complete()
                && match before {
                    EdgeLink::None => true,
                    EdgeLink::Semi { must, .. } => must.has(o),
                    EdgeLink::Full { .. } => false,
                };
            if quiet {
                let fewer = lost.and_then(|k| red.ones().nth(k % red.count().max(1) as usize));
                let red = fewer.map_or(red, |k| red & !(1 << k));
                let after = c.edge_link(Color::Red, red, empty & !(1 << o), true);
                proptest::prop_assert_eq!(after, EdgeLink::None);
            }
        }
    }
}
