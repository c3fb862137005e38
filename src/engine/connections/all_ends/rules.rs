//! The rules as they add connections to a pair's lists: AND at a middle
//! end, OR of a pair's semi connections, and the bookkeeping that keeps
//! the lists short and notices a win between the edges.

use super::{AllEnds, FULL_CAP, Full, Pending, SEMI_CAP, Semi};
use crate::engine::bits::Bits;

impl<B: Bits> AllEnds<B> {
    pub(super) fn add_full(&mut self, x: u16, y: u16, carrier: B, need: u32) {
        let p = self.pair(x, y);
        let edges = p == self.pair(0, 1);
        let l = &mut self.lists[p];
        let fresh = l.fulls.is_empty() && l.semis.is_empty();
        if l.fulls.iter().any(|f| (f.carrier & !carrier).is_zero() && f.need <= need) {
            return;
        }
        let before = l.fulls.len();
        l.fulls.retain(|f| !((carrier & !f.carrier).is_zero() && need <= f.need));
        let replaced = l.fulls.len() < before;
        if replaced {
            l.share_fulls();
        } else if !l.fulls.is_empty() {
            // Kept only if it avoids a cell the others all need, or needs
            // fewer stones than any of them.
            if (l.full_shared & !carrier).is_zero() && l.fulls.iter().all(|f| f.need <= need) {
                return;
            }
            if l.fulls.len() >= FULL_CAP {
                return;
            }
        }
        let first_full = l.fulls.is_empty() && !replaced;
        l.fulls.push(Full { carrier, need, processed: false });
        l.full_shared = l.full_shared & carrier;
        let semis = l.semis.len();
        l.semis.retain(|s| !((carrier & !s.carrier).is_zero() && need <= s.need));
        if l.semis.len() < semis {
            l.share_semis();
        }
        if fresh {
            self.touched.push(p);
        }
        if first_full {
            self.partners[x as usize].push(y);
            self.partners[y as usize].push(x);
        }
        let size = carrier.count() as usize;
        self.and_queue[size].push(Pending { x, y, carrier, need });
        self.and_lowest = self.and_lowest.min(size);
        if edges {
            self.done = true;
        }
    }

    fn add_semi(&mut self, x: u16, y: u16, carrier: B, key: u16, need: u32) {
        let p = self.pair(x, y);
        let edges = p == self.pair(0, 1);
        let l = &mut self.lists[p];
        let fresh = l.fulls.is_empty() && l.semis.is_empty();
        if l.fulls.iter().any(|f| (f.carrier & !carrier).is_zero() && f.need <= need)
            || l.semis.iter().any(|s| (s.carrier & !carrier).is_zero() && s.need <= need)
        {
            return;
        }
        let before = l.semis.len();
        l.semis.retain(|s| !((carrier & !s.carrier).is_zero() && need <= s.need));
        if l.semis.len() < before {
            l.share_semis();
        }
        if l.semis.len() >= SEMI_CAP {
            return;
        }
        l.semis.push(Semi { carrier, key, need, processed: false });
        l.semi_shared = l.semi_shared & carrier;
        if edges && self.stop_at_semi {
            self.done = true;
        }
        let captured = self.captured[x as usize] | self.captured[y as usize];
        let l = &mut self.lists[p];
        if !l.or_queued && (l.semi_shared & !captured).is_zero() {
            l.or_queued = true;
            self.or_queue.push((x, y));
        }
        if fresh {
            self.touched.push(p);
        }
    }

    /// AND: the full connection `f`, if still kept, with every processed
    /// full connection at either of its ends.
    pub(super) fn and_full(&mut self, f: Pending<B>) {
        let p = self.pair(f.x, f.y);
        let Some(entry) =
            self.lists[p].fulls.iter_mut().find(|g| !g.processed && g.carrier == f.carrier && g.need == f.need)
        else {
            return;
        };
        entry.processed = true;
        let l = &mut self.lists[p];
        l.processed_shared = l.processed_shared & f.carrier;
        for (z, o) in [(f.x, f.y), (f.y, f.x)] {
            if z < 2 {
                continue;
            }
            let through_empty = !self.is_group(z);
            let o_bit = self.end_bit[o as usize];
            let (carrier, need) =
                if through_empty { (f.carrier | self.end_bit[z as usize], f.need + 1) } else { (f.carrier, f.need) };
            let mut k = 0;
            while k < self.partners[z as usize].len() {
                let w = self.partners[z as usize][k];
                k += 1;
                if w == o || !(self.end_bit[w as usize] & f.carrier).is_zero() {
                    continue;
                }
                let zw = self.pair(z, w);
                // The two may share cells of the captured sets of the ends
                // and of the middle cell, where an intrusion is answered
                // in place (the middle is the semi's key, played first).
                let sets = [self.captured[o as usize], self.captured[w as usize], self.captured[z as usize]];
                let answered = sets[0] | sets[1] | sets[2];
                if !(self.lists[zw].processed_shared & !answered & (f.carrier | o_bit)).is_zero() {
                    continue;
                }
                let mut j = 0;
                while j < self.lists[zw].fulls.len() {
                    let g = self.lists[zw].fulls[j];
                    j += 1;
                    let shared = g.carrier & f.carrier;
                    if !g.processed || !(g.carrier & o_bit).is_zero() || !(shared & !answered).is_zero() {
                        continue;
                    }
                    let (mut carrier, mut need) = (carrier | g.carrier, need + g.need);
                    for set in sets.into_iter().filter(|set| !(*set & shared).is_zero()) {
                        carrier = carrier | set;
                        need += 1;
                    }
                    if through_empty {
                        self.add_semi(o, w, carrier, self.end_cell[z as usize], need);
                    } else {
                        self.add_full(o, w, carrier, need);
                    }
                    if self.done {
                        return;
                    }
                }
            }
        }
    }

    /// OR: for each cell every full connection of the pair needs, a full
    /// connection that avoids it, from the semis that avoid it. The semis
    /// may all share cells of an end's captured set, which the full
    /// connection then holds too: an intrusion there is answered there.
    pub(super) fn or_semis(&mut self, x: u16, y: u16) {
        let p = self.pair(x, y);
        self.lists[p].or_queued = false;
        let sets = [self.captured[x as usize], self.captured[y as usize]];
        let l = &self.lists[p];
        let mut cands = self.masks.board & l.full_shared;
        // A new full connection must use a new semi: cells every new semi
        // needs cannot be avoided by one.
        cands = cands & !l.semis.iter().filter(|s| !s.processed).fold(self.masks.board, |acc, s| acc & s.carrier);
        let mut semis = std::mem::take(&mut self.scratch[0]);
        let mut avoiding = std::mem::take(&mut self.scratch[1]);
        let mut found = std::mem::take(&mut self.scratch[2]);
        semis.clear();
        found.clear();
        semis.extend(l.semis.iter().map(|s| (s.carrier, s.need)));
        while let Some(a) = cands.lowest() {
            // A set holding `a` cannot answer there: the connection must
            // avoid `a` altogether.
            let usable = sets.map(|set| if set.has(a) { B::zero() } else { set });
            let answered = usable[0] | usable[1];
            let apart = semis.iter().filter(|s| !s.0.has(a)).fold(self.masks.board, |acc, s| acc & s.0);
            if !(apart & !answered).is_zero() {
                cands = cands & !B::single(a);
                continue;
            }
            // Smallest carriers first, for a small union.
            avoiding.clear();
            avoiding.extend(semis.iter().filter(|s| !s.0.has(a)));
            avoiding.sort_by_key(|s| s.0.count());
            let (mut shared, mut union, mut need) = (self.masks.board, B::zero(), 0);
            for s in &avoiding {
                if (shared & !s.0).is_zero() {
                    continue;
                }
                shared = shared & s.0;
                union = union | s.0;
                need = need.max(s.1);
                if (shared & !answered).is_zero() {
                    break;
                }
            }
            // Each set still needed is held whole, and its answer costs a
            // stone.
            for set in usable.into_iter().filter(|set| !(*set & shared).is_zero()) {
                union = union | set;
                need += 1;
            }
            found.push((union, need));
            cands = cands & union;
        }
        for s in &mut self.lists[p].semis {
            s.processed = true;
        }
        for &(carrier, need) in &found {
            self.add_full(x, y, carrier, need);
            if self.done {
                break;
            }
        }
        self.scratch = [semis, avoiding, found];
    }
}
