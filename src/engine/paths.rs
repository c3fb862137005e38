//! Shortest paths between a side's edges, where its own stones cost
//! nothing and each empty cell one: how many stones a side still needs
//! if the opponent never answered, and which cells lie on such a path.
//! The solver orders its moves by them; the search weighs where the fight
//! is by them.

use super::bits::{Bits, Masks};
use super::color::Color;
use super::stones::Stones;

/// `colour`'s stones and its two edges.
pub(crate) fn sides<B: Bits>(m: &Masks<B>, s: &Stones<B>, colour: Color) -> (B, B, B) {
    match colour {
        Color::Red => (s.red, m.left, m.right),
        Color::Blue => (s.blue, m.top, m.bottom),
    }
}

/// The cost of `colour`'s cheapest path and the empty cells on at least
/// one such path, from one sweep from each edge (none when the opponent
/// has cut every path): a stone on such a cell shortens the path by one,
/// a stone elsewhere leaves it as it was.
pub(crate) fn shortest<B: Bits>(m: &Masks<B>, s: &Stones<B>, colour: Color) -> Option<(u32, B)> {
    let (own, first, second) = sides(m, s, colour);
    let empty = s.empty_cells(m);
    // Empty cells by their cost from each edge (the cell included).
    let (mut forward, mut backward) = (vec![B::zero()], vec![B::zero()]);
    let d = sweep(m, own, empty, first, second, |step| forward.push(step))?;
    // The backward sweep may stop early; the layers it needs are there.
    let _ = sweep(m, own, empty, second, first, |step| backward.push(step));
    let mut on_path = B::zero();
    for (k, &ahead) in forward.iter().enumerate().skip(1) {
        if let Some(&back) = backward.get(d as usize + 1 - k) {
            on_path = on_path | (ahead & back);
        }
    }
    Some((d, on_path))
}

/// Breadth-first from edge `from` to edge `to` where `own` stones cost
/// nothing and empty cells one each: the cost of the cheapest path, or
/// `None` when there is none. Each layer of empty cells reached (cost 1,
/// 2, …) goes to `layer`.
pub(crate) fn sweep<B: Bits>(m: &Masks<B>, own: B, empty: B, from: B, to: B, mut layer: impl FnMut(B)) -> Option<u32> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cell::Cell;

    fn set(cells: &[(u8, u8)]) -> u128 {
        cells.iter().fold(0, |all, &(q, r)| all | 1 << Cell::new(q, r).index(3))
    }

    #[test]
    fn a_stone_in_the_middle_puts_the_paths_through_it() {
        let m = Masks::<u128>::new(3);
        let empty = Stones::<u128>::empty();
        // On the empty board every cell lies on a straight path of three.
        assert_eq!(shortest(&m, &empty, Color::Red), Some((3, m.board)));
        // Red b2 needs one of a2 and a3 on the left and one of c1 and c2
        // on the right: two stones; a path through any other cell needs three.
        let mut s = empty;
        s.red = set(&[(1, 1)]);
        s.to_move = Color::Blue;
        assert_eq!(shortest(&m, &s, Color::Red), Some((2, set(&[(0, 1), (0, 2), (2, 0), (2, 1)]))));
        // Blue's paths run top to bottom around b2: a column of three.
        let (d, cells) = shortest(&m, &s, Color::Blue).unwrap();
        assert_eq!(d, 3);
        assert!(!cells.has(Cell::new(1, 1).index(3)));
        // A side cut off from its edge has no path.
        let mut cut = empty;
        cut.blue = set(&[(0, 0), (1, 0), (2, 0)]);
        assert_eq!(shortest(&m, &cut, Color::Red).map(|(d, _)| d), Some(3));
        cut.red = 0;
        cut.blue = set(&[(0, 0), (0, 1), (0, 2)]);
        assert_eq!(shortest(&m, &cut, Color::Red), None);
    }
}
