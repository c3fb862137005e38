//! Dead and captured cells: empty cells whose colour cannot change who
//! wins, found from the six neighbours around each cell.
//!
//! A cell is *dead* when a stone of either colour on it would join nothing
//! that its neighbours do not already join (or could join) without it. The
//! test looks only at the ring of six neighbours, where edges count as
//! stones of their owner, so it is sound on any board. Two empty neighbours
//! are *captured* by a colour when its stone on either one makes the other
//! dead: that colour may fill both, as it can answer any intrusion in the
//! pair with the other cell. Filling captured pairs and ignoring dead cells
//! shrinks the solver's move lists and strengthens its connections.

use super::bits::{Bits, Masks};
use super::cell::Cell;
use super::color::Color;
use super::stones::Stones;

/// Neighbour offsets in ring order: each one is adjacent to the next, and
/// the last to the first.
const RING: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// What lies at one position of a cell's ring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Around {
    /// A cell of the board.
    Cell(u16),
    /// Beyond the board: an edge, which counts as a stone of its owner.
    Edge(Color),
    /// Beyond a corner, touching both edges: counted as an empty cell,
    /// which can only make the test more careful.
    Corner,
}

/// Ring states: 0 empty, 1 Red, 2 Blue.
const EMPTY: u8 = 0;
const RED: u8 = 1;
const BLUE: u8 = 2;
const POW3: [u16; 6] = [1, 3, 9, 27, 81, 243];

/// The dead-cell test for one board size.
#[derive(Clone, Debug)]
pub struct DeadCells {
    size: u8,
    rings: Vec<[Around; 6]>,
    /// For each of the 3⁶ rings, whether the cell inside is dead.
    dead: Vec<bool>,
    /// Empty neighbours of each cell, for the captured-pair scan.
    neighbours: Vec<Vec<u16>>,
}

impl DeadCells {
    /// The test for an `n`×`n` board.
    pub fn new(n: u8) -> DeadCells {
        let size = n as i16;
        let rings = (0..n as usize * n as usize)
            .map(|i| {
                let c = Cell::from_index(i, n);
                std::array::from_fn(|k| {
                    let (q, r) = (c.q as i16 + RING[k].0 as i16, c.r as i16 + RING[k].1 as i16);
                    let off_q = !(0..size).contains(&q);
                    let off_r = !(0..size).contains(&r);
                    match (off_q, off_r) {
                        (false, false) => Around::Cell((r * size + q) as u16),
                        (true, false) => Around::Edge(Color::Red),
                        (false, true) => Around::Edge(Color::Blue),
                        (true, true) => Around::Corner,
                    }
                })
            })
            .collect();
        let dead = (0..729u16).map(|code| ring_is_dead(decode(code))).collect();
        let neighbours = (0..n as usize * n as usize)
            .map(|i| Cell::from_index(i, n).neighbours(n).map(|c| c.index(n) as u16).collect())
            .collect();
        DeadCells { size: n, rings, dead, neighbours }
    }

    fn code(&self, colours: &[u8], cell: usize) -> u16 {
        let mut code = 0;
        for (k, around) in self.rings[cell].iter().enumerate() {
            let state = match *around {
                Around::Cell(j) => colours[j as usize],
                Around::Edge(Color::Red) => RED,
                Around::Edge(Color::Blue) => BLUE,
                Around::Corner => EMPTY,
            };
            code += state as u16 * POW3[k];
        }
        code
    }

    /// How many positions of `cell`'s ring are taken (stones and edges).
    /// A dead cell has at least four, which lets the scans below skip
    /// cells that no single stone more could make dead.
    fn taken(&self, colours: &[u8], cell: usize) -> usize {
        self.rings[cell]
            .iter()
            .filter(|around| match **around {
                Around::Cell(j) => colours[j as usize] != EMPTY,
                Around::Edge(_) => true,
                Around::Corner => false,
            })
            .count()
    }

    fn colours<B: Bits>(&self, s: &Stones<B>) -> Vec<u8> {
        let mut colours = vec![EMPTY; self.size as usize * self.size as usize];
        for i in s.red.ones() {
            colours[i] = RED;
        }
        for i in s.blue.ones() {
            colours[i] = BLUE;
        }
        colours
    }

    /// The dead empty cells of `s`.
    pub fn find<B: Bits>(&self, s: &Stones<B>, masks: &Masks<B>) -> B {
        let colours = self.colours(s);
        let empty = s.empty_cells(masks);
        let mut dead = B::zero();
        for i in empty.ones() {
            if self.dead[self.code(&colours, i) as usize] {
                dead = dead | B::single(i);
            }
        }
        dead
    }

    /// The cells of `candidates` where a stone of `colour` is *vulnerable*:
    /// the opponent can answer on a neighbour and leave it dead, which is
    /// no better for `colour` than passing; and those answers (one for
    /// each cell). The claim holds while the answer's cell stays empty.
    pub fn vulnerable<B: Bits>(&self, s: &Stones<B>, colour: Color, candidates: B) -> (B, B) {
        let colours = self.colours(s);
        let killer = if colour == Color::Red { BLUE } else { RED };
        let (mut found, mut answers) = (B::zero(), B::zero());
        for c in candidates.ones() {
            let code = self.code(&colours, c);
            let answer = self.rings[c].iter().enumerate().find_map(|(k, around)| match *around {
                Around::Cell(j)
                    if colours[j as usize] == EMPTY && self.dead[(code + killer as u16 * POW3[k]) as usize] =>
                {
                    Some(j as usize)
                }
                _ => None,
            });
            if let Some(j) = answer {
                found = found | B::single(c);
                answers = answers | B::single(j);
            }
        }
        (found, answers)
    }

    /// Moves of `colour` among `candidates` that a neighbouring candidate
    /// *dominates*, as (dominated, dominator). After `colour` plays the
    /// dominator, the dominated cell is dead or captured by `colour` with
    /// another neighbour, so that position is as good as one with both
    /// stones, which is at least as good as the dominated move alone (a
    /// stone more never hurts in Hex). Dead and captured cells stay so
    /// whatever else is filled, so the claim holds while the dominator
    /// stays empty.
    pub fn dominated<B: Bits>(&self, s: &Stones<B>, colour: Color, candidates: B) -> Vec<(u16, u16)> {
        let mut colours = self.colours(s);
        let own = if colour == Color::Red { RED } else { BLUE };
        let mut found = Vec::new();
        for y in candidates.ones() {
            // A cell is dead only with four of its ring taken (stones or
            // edges); with fewer than two taken now, the dominator and a
            // partner can't make it so.
            if self.taken(&colours, y) < 2 {
                continue;
            }
            for &x in &self.neighbours[y] {
                let x = x as usize;
                if !candidates.has(x) {
                    continue;
                }
                colours[x] = own;
                let dominated = self.dead[self.code(&colours, y) as usize]
                    || self.neighbours[y].iter().any(|&z| {
                        let z = z as usize;
                        colours[z] == EMPTY && self.captures(&mut colours, y, z, own)
                    });
                colours[x] = EMPTY;
                if dominated {
                    found.push((y as u16, x as u16));
                    break;
                }
            }
        }
        found
    }

    /// Fills every captured pair with its owner's stones and returns how
    /// many cells it filled. It works in rounds: each round finds every
    /// captured pair on the board as it stands and fills those that share
    /// no cell with another (each fill can make more for the next round).
    /// The result does not depend on the order cells are numbered in, so
    /// a position and its half-turn twin reduce alike. Dead cells are left
    /// empty for the caller to treat.
    pub fn fill_captured<B: Bits>(&self, s: &mut Stones<B>, masks: &Masks<B>) -> u32 {
        let mut colours = self.colours(s);
        let mut filled = 0;
        let mut found: Vec<(usize, usize, u8)> = Vec::new();
        loop {
            // Only a cell beside a stone or an edge can be captured: a
            // stone on its partner alone never kills it.
            let near = (masks.grow(s.red | s.blue) | masks.left | masks.right | masks.top | masks.bottom)
                & s.empty_cells(masks);
            // Each cell of a captured pair has three of its ring taken
            // before its partner is filled (a dead cell has four).
            let alive = |colours: &[u8], c: usize| {
                near.has(c)
                    && colours[c] == EMPTY
                    && self.taken(colours, c) >= 3
                    && !self.dead[self.code(colours, c) as usize]
            };
            found.clear();
            let mut seen = B::zero();
            let mut shared = B::zero();
            for a in near.ones() {
                if !alive(&colours, a) {
                    continue;
                }
                for &b in &self.neighbours[a] {
                    let b = b as usize;
                    if b < a || !alive(&colours, b) {
                        continue;
                    }
                    // A pair both sides capture is left alone.
                    let owner = match (self.captures(&mut colours, a, b, RED), self.captures(&mut colours, a, b, BLUE))
                    {
                        (true, false) => Some(RED),
                        (false, true) => Some(BLUE),
                        _ => None,
                    };
                    if let Some(owner) = owner {
                        let pair = B::single(a) | B::single(b);
                        shared = shared | (seen & pair);
                        seen = seen | pair;
                        found.push((a, b, owner));
                    }
                }
            }
            let mut changed = false;
            for &(a, b, owner) in &found {
                if shared.has(a) || shared.has(b) {
                    continue;
                }
                colours[a] = owner;
                colours[b] = owner;
                let bits = B::single(a) | B::single(b);
                if owner == RED {
                    s.red = s.red | bits;
                } else {
                    s.blue = s.blue | bits;
                }
                filled += 2;
                changed = true;
            }
            if !changed {
                return filled;
            }
        }
    }

    /// Whether a stone of `x` on either of `a`, `b` leaves the other dead.
    fn captures(&self, colours: &mut [u8], a: usize, b: usize, x: u8) -> bool {
        let kills = |colours: &mut [u8], on: usize, other: usize| {
            colours[on] = x;
            let dead = self.dead[self.code(colours, other) as usize];
            colours[on] = EMPTY;
            dead
        };
        kills(colours, a, b) && kills(colours, b, a)
    }
}

fn decode(mut code: u16) -> [u8; 6] {
    std::array::from_fn(|_| {
        let s = (code % 3) as u8;
        code /= 3;
        s
    })
}

/// Whether a stone of `colour` inside `ring` would join nothing new: every
/// two ring positions that could hold `colour` are next to each other or
/// already joined by `colour`'s stones along one side of the ring.
fn useless_for(ring: [u8; 6], colour: u8) -> bool {
    let other = if colour == RED { BLUE } else { RED };
    let could = |k: usize| ring[k] != other;
    let own = |k: usize| ring[k] == colour;
    for i in 0..6 {
        for j in i + 1..6 {
            if !could(i) || !could(j) || j == i + 1 || (i == 0 && j == 5) {
                continue;
            }
            let inside = (i + 1..j).all(own);
            let outside = (j + 1..6).chain(0..i).all(own);
            if !inside && !outside {
                return false;
            }
        }
    }
    true
}

/// A cell is dead when its stone would be useless to either colour.
fn ring_is_dead(ring: [u8; 6]) -> bool {
    useless_for(ring, RED) && useless_for(ring, BLUE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;

    type B128 = u128;

    fn stones(text: &str) -> (Stones<u128>, Masks<u128>, DeadCells) {
        let g = Record::from_text(text, 11).unwrap().to_game(false).unwrap();
        let n = g.size();
        (Stones::from_position(g.position()), Masks::new(n), DeadCells::new(n))
    }

    fn cell(name: &str, n: u8) -> usize {
        Cell::parse(name, n).unwrap().index(n)
    }

    #[test]
    fn every_dead_ring_has_four_positions_taken() {
        // The captured-pair scan and the domination test skip cells with
        // too few taken neighbours on the strength of this.
        for code in 0..729u16 {
            let ring = decode(code);
            if ring_is_dead(ring) {
                assert!(ring.iter().filter(|&&c| c != EMPTY).count() >= 4, "{ring:?}");
            }
        }
        assert!(ring_is_dead([RED, RED, RED, RED, EMPTY, EMPTY]), "four in a row kill");
    }

    #[test]
    fn an_empty_board_has_no_dead_cell() {
        for n in 3..=11 {
            let (s, m, d) = (Stones::<u128>::empty(), Masks::new(n), DeadCells::new(n));
            assert!(d.find(&s, &m).is_zero(), "{n}×{n}");
        }
    }

    #[test]
    fn a_cell_walled_in_by_one_colour_is_dead() {
        // Red around c3 on four sides in a row: b3 c2 d2 d3 (ring positions
        // 3, 2, 1, 0); c3 joins nothing new for either side.
        let (s, m, d) = stones("5x5 b3 a1 c2 a2 d2 a3 d3");
        let dead = d.find(&s, &m);
        assert!(dead.has(cell("c3", 5)), "c3 dead");
        assert!(!dead.has(cell("e5", 5)));
        // A cell between stones of both colours that it would join is alive.
        let (s, m, d) = stones("5x5 b3 d3");
        assert!(!d.find(&s, &m).has(cell("c3", 5)));
    }

    #[test]
    fn a_stone_beside_its_edge_captures_the_two_edge_cells_it_touches() {
        // Red b4 touches a4 and a5 on its own edge: Red owns that pair.
        let (mut s, m, d) = stones("7x7 b4 d4");
        assert_eq!(d.fill_captured(&mut s, &m), 2);
        assert!(s.red.has(cell("a4", 7)) && s.red.has(cell("a5", 7)));
        assert!(d.find(&s, &m).is_zero());
        // Each fill can make another: beside Blue's e1 Blue owns c1–d1,
        // and then Red owns a2–b2 and a1–b1 above its a3–a4.
        let (mut s, m, d) = stones("5x5 b3 e1");
        assert_eq!(d.fill_captured(&mut s, &m), 8);
        for c in ["a1", "b1", "a2", "b2", "a3", "a4"] {
            assert!(s.red.has(cell(c, 5)), "{c}");
        }
        assert!(s.blue.has(cell("c1", 5)) && s.blue.has(cell("d1", 5)));
    }

    #[test]
    fn a_cell_the_opponent_can_kill_with_one_answer_is_vulnerable() {
        // Red b3 c2 d2 hold three sides of c3 in a row: a Blue stone there
        // dies to Red's answer at d3 (or b4); a Red one to Blue's c4, after
        // which it joins only what d2 and b3 join already.
        let (s, m, d) = stones("5x5 b3 a1 c2 a2 d2 a3");
        let c3 = B128::single(cell("c3", 5));
        assert!(!d.find(&s, &m).has(cell("c3", 5)));
        assert_eq!(d.vulnerable(&s, Color::Blue, c3).0, c3);
        assert_eq!(d.vulnerable(&s, Color::Red, c3).0, c3);
        // A cell with one stone beside it is not.
        let (s, _, d) = stones("5x5 c2");
        assert!(d.vulnerable(&s, Color::Blue, B128::single(cell("c3", 5))).0.is_zero());
        // On an empty board the acute corner is: Blue's b1 kills a Red a1.
        let empty = Stones::<u128>::empty();
        let (weak, _) = d.vulnerable(&empty, Color::Red, m.board);
        assert!(weak.has(cell("a1", 5)) && !weak.has(cell("c3", 5)), "{weak:b}");
    }

    proptest::proptest! {
        /// A position turned half a turn reduces to the turned reduction.
        #[test]
        fn filling_does_not_depend_on_the_numbering(
            n in 3u8..=11,
            cells in proptest::collection::vec(0usize..121, 0..60),
        ) {
            let cells_n = n as usize * n as usize;
            let m = Masks::<u128>::new(n);
            let d = DeadCells::new(n);
            let mut s = Stones::<u128>::empty();
            for c in cells {
                let c = c % cells_n;
                if s.empty_cells(&m).has(c) {
                    s.play(c);
                }
            }
            let turn = |x: u128| (0..cells_n).filter(|&i| x.has(i)).fold(0u128, |t, i| t | 1 << (cells_n - 1 - i));
            let mut turned = Stones { red: turn(s.red), blue: turn(s.blue), to_move: s.to_move };
            d.fill_captured(&mut s, &m);
            d.fill_captured(&mut turned, &m);
            proptest::prop_assert_eq!((turn(s.red), turn(s.blue)), (turned.red, turned.blue));
            proptest::prop_assert_eq!(turn(d.find(&s, &m)), d.find(&turned, &m));
        }
    }

    #[test]
    fn the_ring_rule_matches_its_definition() {
        // Brute force: a cell is dead when, for every way to fill its empty
        // ring positions, its colour never changes which ring positions are
        // joined (through the cell or around the ring) for either side.
        for code in 0..729u16 {
            let ring = decode(code);
            let brute = [RED, BLUE].iter().all(|&x| brute_useless(ring, x));
            if ring_is_dead(ring) {
                assert!(brute, "{ring:?} called dead but a stone there matters");
            }
        }
        // The classic patterns.
        assert!(ring_is_dead([RED, RED, RED, RED, EMPTY, EMPTY]));
        assert!(ring_is_dead([BLUE, RED, RED, RED, BLUE, BLUE]));
        assert!(!ring_is_dead([RED, EMPTY, BLUE, EMPTY, RED, EMPTY]));
    }

    /// Whether `x` on the centre never joins two ring stones of `x` that
    /// the ring alone leaves apart, whatever fills the empty positions.
    fn brute_useless(ring: [u8; 6], x: u8) -> bool {
        let empties: Vec<usize> = (0..6).filter(|&k| ring[k] == EMPTY).collect();
        for fill in 0..1u32 << empties.len() {
            let mut full = ring;
            for (b, &k) in empties.iter().enumerate() {
                full[k] = if fill >> b & 1 == 1 {
                    x
                } else if x == RED {
                    BLUE
                } else {
                    RED
                };
            }
            // Components of x around the ring.
            let mut comp = [usize::MAX; 6];
            for k in 0..6 {
                if full[k] == x && comp[k] == usize::MAX {
                    let mut j = k;
                    while full[j] == x && comp[j] == usize::MAX {
                        comp[j] = k;
                        j = (j + 1) % 6;
                    }
                    let mut j = (k + 5) % 6;
                    while full[j] == x && comp[j] == usize::MAX {
                        comp[j] = k;
                        j = (j + 5) % 6;
                    }
                }
            }
            let groups: std::collections::HashSet<usize> = (0..6).filter(|&k| full[k] == x).map(|k| comp[k]).collect();
            if groups.len() > 1 {
                return false;
            }
        }
        true
    }
}
