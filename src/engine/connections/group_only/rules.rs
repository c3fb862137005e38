//! H-search's two rules as they add connections: AND through a middle end,
//! OR of semi connections between the same two ends; and the bookkeeping
//! that keeps each pair's lists short and notices a win between the edges.

use super::{Event, GroupOnly};
use crate::engine::bits::Bits;

impl<B: Bits> GroupOnly<B> {
    pub(super) fn add_full(&mut self, x: u16, y: u16, carrier: B, need: u32) {
        let p = self.pair_index(x, y);
        let pair = &mut self.pairs[p];
        if pair.fulls.iter().any(|&(f, n)| (f & !carrier).is_zero() && n <= need) {
            return;
        }
        if pair.fulls.len() >= self.limits.full {
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

    pub(super) fn add_semi(&mut self, x: u16, y: u16, carrier: B, key: u16, need: u32) {
        let p = self.pair_index(x, y);
        let limit = if p == Self::EDGE_TO_EDGE { self.limits.edge_semi } else { self.limits.semi };
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
    pub(super) fn after_full(&mut self, x: u16, y: u16, carrier: B, need: u32) {
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
    pub(super) fn after_semi(&mut self, x: u16, y: u16, carrier: B, key: u16, need: u32) {
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
