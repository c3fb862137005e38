//! The edge templates anchored on an empty third-row cell, which the rules
//! cannot derive, and where each fits on a board.

use crate::engine::bits::Bits;
use crate::engine::color::Color;

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

/// Every placement of [`TEMPLATES`] that fits on an `n`×`n` board, for
/// `colour`: by anchor cell, (edge end, carrier, need).
pub(super) fn anchored<B: Bits>(n: u8, colour: Color) -> Vec<Vec<(u16, B, u32)>> {
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
