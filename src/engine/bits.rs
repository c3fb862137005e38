//! Whole-board bit operations for search: a cell set as one integer (boards
//! up to 8×8 fit a `u64`, up to 11×11 a `u128`) or a few words for bigger
//! boards, with the
//! neighbour shifts of the rhombus so that connectivity is a flood fill of
//! a handful of instructions per step. (The rules keep their stones in the
//! one-size [`super::Bitset`] instead: see there why there are two.)

use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of cells, indexed row by row (`r * n + q`), with the shifts a
/// flood fill needs.
pub trait Bits:
    Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self> + Not<Output = Self>
{
    /// Bits needed: enough for `n * n` cells.
    const CAPACITY: usize;
    /// The empty set.
    fn zero() -> Self;
    /// The set holding only `index`.
    fn single(index: usize) -> Self;
    /// Every member moved `by` places up (`by < 64`).
    fn shl(self, by: u32) -> Self;
    /// Every member moved `by` places down (`by < 64`).
    fn shr(self, by: u32) -> Self;
    /// Whether the set is empty.
    fn is_zero(self) -> bool;
    /// Whether `index` is a member.
    fn has(self, index: usize) -> bool {
        !(self & Self::single(index)).is_zero()
    }
    /// Number of members.
    fn count(self) -> u32;
    /// The smallest member, if any.
    fn lowest(self) -> Option<usize>;
    /// The members, smallest first: a loop over the members alone rather
    /// than a test of every cell of the board.
    fn ones(self) -> Ones<Self> {
        Ones(self)
    }
}

/// The members of a set, smallest first (see [`Bits::ones`]).
pub struct Ones<B>(B);

impl<B: Bits> Iterator for Ones<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.lowest()?;
        self.0 = self.0 & !B::single(i);
        Some(i)
    }
}

/// The methods a set held in one unsigned integer shares whatever its
/// width: emptiness, size and smallest member straight from the integer.
macro_rules! integer_set_queries {
    () => {
        #[inline]
        fn zero() -> Self {
            0
        }
        #[inline]
        fn is_zero(self) -> bool {
            self == 0
        }
        #[inline]
        fn count(self) -> u32 {
            self.count_ones()
        }
        #[inline]
        fn lowest(self) -> Option<usize> {
            if self == 0 { None } else { Some(self.trailing_zeros() as usize) }
        }
    };
}

impl Bits for u128 {
    const CAPACITY: usize = 128;
    #[inline]
    fn single(index: usize) -> Self {
        if cfg!(target_arch = "wasm32") { single_by_words(index) } else { 1 << index }
    }
    #[inline]
    fn shl(self, by: u32) -> Self {
        if cfg!(target_arch = "wasm32") { shl_by_words(self, by) } else { self << by }
    }
    #[inline]
    fn shr(self, by: u32) -> Self {
        if cfg!(target_arch = "wasm32") { shr_by_words(self, by) } else { self >> by }
    }
    integer_set_queries!();
}

impl Bits for u64 {
    const CAPACITY: usize = 64;
    #[inline]
    fn single(index: usize) -> Self {
        1 << index
    }
    #[inline]
    fn shl(self, by: u32) -> Self {
        self << by
    }
    #[inline]
    fn shr(self, by: u32) -> Self {
        self >> by
    }
    integer_set_queries!();
}

// WebAssembly has 64-bit integers only: a 128-bit shift by a variable
// amount becomes a call to a helper, which made the browser's playouts
// three times slower than native. Built from 64-bit shifts they are not.

/// `1 << index` from one 64-bit shift.
#[inline]
fn single_by_words(index: usize) -> u128 {
    let word = 1u64 << (index & 63);
    if index < 64 { word as u128 } else { (word as u128) << 64 }
}

/// `x << by` (`by < 64`) from 64-bit shifts; `(lo >> 1) >> (63 - by)` is
/// `lo >> (64 - by)` without overflowing when `by` is 0.
#[inline]
fn shl_by_words(x: u128, by: u32) -> u128 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let hi = (hi << by) | ((lo >> 1) >> (63 - by));
    ((hi as u128) << 64) | (lo << by) as u128
}

/// `x >> by` (`by < 64`) from 64-bit shifts.
#[inline]
fn shr_by_words(x: u128, by: u32) -> u128 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let lo = (lo >> by) | ((hi << 1) << (63 - by));
    (((hi >> by) as u128) << 64) | lo as u128
}

/// `W` words of 64 bits, least significant word first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> BitAnd for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<const W: usize> BitOr for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<const W: usize> BitXor for Wide<W> {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        Wide(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
    }
}

impl<const W: usize> Not for Wide<W> {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Wide(std::array::from_fn(|i| !self.0[i]))
    }
}

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    #[inline]
    fn zero() -> Self {
        Wide([0; W])
    }
    #[inline]
    fn single(index: usize) -> Self {
        let mut w = [0; W];
        w[index / 64] = 1 << (index % 64);
        Wide(w)
    }
    #[inline]
    fn shl(self, by: u32) -> Self {
        debug_assert!(by > 0 && by < 64);
        Wide(std::array::from_fn(|i| {
            let carry = if i == 0 { 0 } else { self.0[i - 1] >> (64 - by) };
            (self.0[i] << by) | carry
        }))
    }
    #[inline]
    fn shr(self, by: u32) -> Self {
        debug_assert!(by > 0 && by < 64);
        Wide(std::array::from_fn(|i| {
            let carry = if i + 1 == W { 0 } else { self.0[i + 1] << (64 - by) };
            (self.0[i] >> by) | carry
        }))
    }
    #[inline]
    fn is_zero(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        self.0.iter().position(|&w| w != 0).map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
}

/// Work generic over the cell-set width, run by [`at_width`] at the
/// narrowest width that holds a board: the one place that maps board sizes
/// to widths.
pub trait ForWidth {
    type Output;
    fn run<B: Bits + 'static>(self) -> Self::Output;
}

/// Runs `work` with the narrowest cell set that holds a `size`×`size`
/// board: a `u64` up to 8×8, a `u128` up to 11×11, four words up to 16×16,
/// six up to 19×19.
///
/// In WebAssembly boards up to 8×8 take the `u128` too: every width is a
/// copy of the whole engine in the worker's download, and the boards where
/// the narrower word would help are the ones that need the least time.
pub fn at_width<W: ForWidth>(size: u8, work: W) -> W::Output {
    match size as usize * size as usize {
        #[cfg(not(target_arch = "wasm32"))]
        0..=64 => work.run::<u64>(),
        #[cfg(not(target_arch = "wasm32"))]
        65..=128 => work.run::<u128>(),
        #[cfg(target_arch = "wasm32")]
        0..=128 => work.run::<u128>(),
        129..=256 => work.run::<Wide<4>>(),
        _ => work.run::<Wide<6>>(),
    }
}

/// The fixed cell sets of one board size: the board, its four edges, and
/// the two columns a sideways shift must not wrap into.
#[derive(Clone, Copy, Debug)]
pub struct Masks<B: Bits> {
    pub size: u8,
    pub board: B,
    /// Column `a` (Red's left edge).
    pub left: B,
    /// The last column (Red's right edge).
    pub right: B,
    /// Row 1 (Blue's top edge).
    pub top: B,
    /// The last row (Blue's bottom edge).
    pub bottom: B,
}

impl<B: Bits> Masks<B> {
    /// The masks for an `n`×`n` board; `n * n` must fit in `B`.
    pub fn new(n: u8) -> Masks<B> {
        let n_us = n as usize;
        assert!(n_us * n_us <= B::CAPACITY, "a {n}×{n} board does not fit this bit set");
        let mut m =
            Masks { size: n, board: B::zero(), left: B::zero(), right: B::zero(), top: B::zero(), bottom: B::zero() };
        for r in 0..n_us {
            for q in 0..n_us {
                let bit = B::single(r * n_us + q);
                m.board = m.board | bit;
                if q == 0 {
                    m.left = m.left | bit;
                }
                if q + 1 == n_us {
                    m.right = m.right | bit;
                }
                if r == 0 {
                    m.top = m.top | bit;
                }
                if r + 1 == n_us {
                    m.bottom = m.bottom | bit;
                }
            }
        }
        m
    }

    /// `x` and every cell next to a member of `x`, within the board.
    #[inline]
    pub fn grow(&self, x: B) -> B {
        let n = self.size as u32;
        let east = x.shl(1) & !self.left;
        let west = x.shr(1) & !self.right;
        let south = x.shl(n);
        let north = x.shr(n);
        let south_west = x.shl(n - 1) & !self.right;
        let north_east = x.shr(n - 1) & !self.left;
        (x | east | west | south | north | south_west | north_east) & self.board
    }

    /// The members of `stones` connected through `stones` to `seed`.
    #[inline]
    pub fn flood(&self, seed: B, stones: B) -> B {
        let mut reach = seed & stones;
        loop {
            let next = self.grow(reach) & stones;
            if next == reach {
                return reach;
            }
            reach = next;
        }
    }

    /// Whether Red's `stones` join left and right.
    #[inline]
    pub fn red_connects(&self, stones: B) -> bool {
        !(self.flood(self.left, stones) & self.right).is_zero()
    }

    /// Whether Blue's `stones` join top and bottom.
    #[inline]
    pub fn blue_connects(&self, stones: B) -> bool {
        !(self.flood(self.top, stones) & self.bottom).is_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cell;

    fn grow_matches_neighbours<B: Bits + std::fmt::Debug>(n: u8) {
        let m = Masks::<B>::new(n);
        for i in 0..n as usize * n as usize {
            let grown = m.grow(B::single(i));
            let mut expected = B::single(i);
            for nb in Cell::from_index(i, n).neighbours(n) {
                expected = expected | B::single(nb.index(n));
            }
            assert_eq!(grown, expected, "cell {} on {n}×{n}", Cell::from_index(i, n));
        }
    }

    #[test]
    fn growing_one_cell_gives_exactly_its_neighbours() {
        for n in 3..=8 {
            grow_matches_neighbours::<u64>(n);
        }
        for n in 3..=11 {
            grow_matches_neighbours::<u128>(n);
        }
        for n in 3..=16 {
            grow_matches_neighbours::<Wide<4>>(n);
        }
        for n in 3..=19 {
            grow_matches_neighbours::<Wide<6>>(n);
        }
    }

    #[test]
    fn shifts_by_words_match_the_128_bit_ones() {
        let mut x: u128 = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210;
        for _ in 0..64 {
            for by in 0..64 {
                assert_eq!(shl_by_words(x, by), x << by, "{x:#x} << {by}");
                assert_eq!(shr_by_words(x, by), x >> by, "{x:#x} >> {by}");
            }
            x = x.rotate_left(7) ^ (x >> 3) ^ 0x9e37_79b9;
        }
        for i in 0..128 {
            assert_eq!(single_by_words(i), 1u128 << i);
        }
    }

    #[test]
    fn wide_shifts_carry_across_words() {
        let x = Wide::<2>([1 << 63, 0]);
        assert_eq!(x.shl(1), Wide([0, 1]));
        assert_eq!(Wide::<2>([0, 1]).shr(1), x);
        assert_eq!(Wide::<6>::single(300).count(), 1);
        assert!(Wide::<6>::single(300).has(300));
    }

    fn members_by_test<B: Bits>(x: B, cells: usize) -> Vec<usize> {
        (0..cells).filter(|&i| x.has(i)).collect()
    }

    #[test]
    fn ones_lists_exactly_the_members_in_order() {
        let mut x: u128 = 0x8000_4567_89ab_cdef_fedc_ba98_7654_3211;
        for _ in 0..64 {
            assert_eq!(x.ones().collect::<Vec<_>>(), members_by_test(x, 128));
            let lo = x as u64;
            assert_eq!(lo.ones().collect::<Vec<_>>(), members_by_test(lo, 64));
            let hi = (x >> 64) as u64;
            let wide = Wide::<6>([0, hi, 0, lo, 0, hi | 1 << 63]);
            assert_eq!(wide.ones().collect::<Vec<_>>(), members_by_test(wide, 384));
            x = x.rotate_left(7) ^ (x >> 3) ^ 0x9e37_79b9;
        }
        assert_eq!(0u128.ones().next(), None);
        assert_eq!(0u64.lowest(), None);
        assert_eq!((1u64 << 63).lowest(), Some(63));
        assert_eq!(Wide::<4>::zero().lowest(), None);
        assert_eq!(Wide::<4>::single(255).lowest(), Some(255));
    }
}
