//! Connections made of bridges: a side's stones joined edge to edge where
//! every gap is a bridge (two stones sharing two empty neighbours) or an
//! edge template of the second row (a stone whose two neighbours on the
//! edge row are empty). If no empty cell serves two gaps, the side wins
//! whatever the opponent does — it answers each intrusion in the other cell
//! — so the opponent, to move, must play inside those cells.

use std::collections::VecDeque;

use super::bits::Bits;
use super::cell::Cell;
use super::color::Color;
use super::playout::Stones;

/// Neighbour offsets in ring order: each is adjacent to the next.
const RING: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A link from a stone: to another stone or an edge, through at most two
/// empty carrier cells.
#[derive(Clone, Copy, Debug)]
struct Link {
    to: Node,
    carriers: Gap,
}

/// Two empty cells that keep a gap closed.
type Gap = Option<(u16, u16)>;

/// How the search reached a stone: from where, over which gap.
type Step = Option<(Node, Gap)>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Stone(u16),
    FirstEdge,
    SecondEdge,
}

/// Precomputed geometry of one board size.
#[derive(Clone, Debug)]
pub struct BridgeTable {
    size: u8,
    /// For each cell: its six neighbours (or `None` off the board).
    neighbours: Vec<[Option<u16>; 6]>,
}

impl BridgeTable {
    pub fn new(size: u8) -> BridgeTable {
        let n = size as i16;
        let at = |q: i16, r: i16| ((0..n).contains(&q) && (0..n).contains(&r)).then(|| (r * n + q) as u16);
        let neighbours = (0..size as usize * size as usize)
            .map(|i| {
                let c = Cell::from_index(i, size);
                std::array::from_fn(|k| at(c.q as i16 + RING[k].0 as i16, c.r as i16 + RING[k].1 as i16))
            })
            .collect();
        BridgeTable { size, neighbours }
    }

    fn coord(&self, i: u16, colour: Color) -> u8 {
        let c = Cell::from_index(i as usize, self.size);
        match colour {
            Color::Red => c.q,
            Color::Blue => c.r,
        }
    }

    /// The links of `colour`'s stone `i` in position `s`.
    fn links<B: Bits>(&self, s: &Stones<B>, colour: Color, i: u16, out: &mut Vec<Link>) {
        out.clear();
        let own = s.of(colour);
        let empty = |c: u16| !s.red.has(c as usize) && !s.blue.has(c as usize);
        let last = self.size - 1;
        let coord = self.coord(i, colour);
        if coord == 0 {
            out.push(Link { to: Node::FirstEdge, carriers: None });
        }
        if coord == last {
            out.push(Link { to: Node::SecondEdge, carriers: None });
        }
        let nb = &self.neighbours[i as usize];
        for k in 0..6 {
            if let Some(j) = nb[k]
                && own.has(j as usize)
            {
                out.push(Link { to: Node::Stone(j), carriers: None });
            }
            // The two neighbours k and k+1 are adjacent: with both empty they
            // carry a bridge to the cell beyond them, or to an edge.
            let (Some(a), Some(b)) = (nb[k], nb[(k + 1) % 6]) else { continue };
            if !(empty(a) && empty(b)) {
                continue;
            }
            let (ca, cb) = (self.coord(a, colour), self.coord(b, colour));
            if ca == 0 && cb == 0 && coord == 1 {
                out.push(Link { to: Node::FirstEdge, carriers: Some((a, b)) });
            }
            if ca == last && cb == last && coord + 1 == last {
                out.push(Link { to: Node::SecondEdge, carriers: Some((a, b)) });
            }
            // The cell beyond both carriers.
            let other = self.neighbours[a as usize]
                .iter()
                .flatten()
                .copied()
                .find(|&x| x != i && self.neighbours[b as usize].contains(&Some(x)));
            if let Some(x) = other
                && own.has(x as usize)
            {
                out.push(Link { to: Node::Stone(x), carriers: Some((a, b)) });
            }
        }
    }

    /// The empty cells of a bridge connection of `colour` between its
    /// edges whose gaps share no cell, if breadth-first search finds one.
    pub fn connection<B: Bits>(&self, s: &Stones<B>, colour: Color) -> Option<B> {
        let cells = self.size as usize * self.size as usize;
        let own = s.of(colour);
        let mut came: Vec<Step> = vec![None; cells];
        let mut queue = VecDeque::new();
        let mut links = Vec::with_capacity(24);
        // Start from every stone linked to the first edge.
        for i in 0..cells as u16 {
            if !own.has(i as usize) {
                continue;
            }
            self.links(s, colour, i, &mut links);
            if let Some(l) = links.iter().find(|l| l.to == Node::FirstEdge) {
                came[i as usize] = Some((Node::FirstEdge, l.carriers));
                queue.push_back(i);
            }
        }
        while let Some(i) = queue.pop_front() {
            self.links(s, colour, i, &mut links);
            for l in links.clone() {
                match l.to {
                    Node::SecondEdge => {
                        return self.carriers_if_disjoint(&came, i, l.carriers);
                    }
                    Node::Stone(j) if came[j as usize].is_none() => {
                        came[j as usize] = Some((Node::Stone(i), l.carriers));
                        queue.push_back(j);
                    }
                    _ => {}
                }
            }
        }
        None
    }

    fn carriers_if_disjoint<B: Bits>(&self, came: &[Step], last: u16, final_gap: Gap) -> Option<B> {
        let mut union = B::zero();
        let add = |gap: Gap, union: &mut B| -> bool {
            if let Some((a, b)) = gap {
                for c in [a, b] {
                    if union.has(c as usize) {
                        return false;
                    }
                    *union = *union | B::single(c as usize);
                }
            }
            true
        };
        if !add(final_gap, &mut union) {
            return None;
        }
        let mut at = last;
        loop {
            let (from, gap) = came[at as usize]?;
            if !add(gap, &mut union) {
                return None;
            }
            match from {
                Node::Stone(p) => at = p,
                _ => return Some(union),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;

    fn stones(text: &str) -> (Stones<u128>, (), BridgeTable) {
        let g = Record::from_text(text, 11).unwrap().to_game(false).unwrap();
        (Stones::from_position(g.position()), (), BridgeTable::new(g.size()))
    }

    #[test]
    fn adjacent_stones_with_edge_templates_are_a_connection() {
        // Red b3 and c2 touch; b3 reaches the left edge over a3/a4 and c2
        // the right edge over d1/d2.
        let (s, _, t) = stones("4x4 b3 a1 c2 d4");
        let carriers = t.connection(&s, Color::Red).expect("a connection");
        assert_eq!(carriers.count(), 4);
        assert!(t.connection(&s, Color::Blue).is_none());
    }

    #[test]
    fn the_centre_of_three_by_three_is_connected_both_ways() {
        let (s, _, t) = stones("3x3 b2");
        assert_eq!(t.connection(&s, Color::Red).map(|c| c.count()), Some(4));
    }

    #[test]
    fn a_bridge_joins_two_stones() {
        // Red b2 (1,1) and c3 (2,2) share b3 and c2; with a1 and d4 taken
        // by Blue, the edge templates of b2 (a2, a3) and c3 (d3, d2) close
        // the connection on 4×4.
        let (s, _, t) = stones("4x4 b2 a1 c3 d4");
        assert_eq!(t.connection(&s, Color::Red).map(|c| c.count()), Some(6));
    }
}
