//! A fixed-size set of cell indices, large enough for a 19×19 board.
//!
//! Why a second cell set beside [`super::bits::Bits`]: this one is what a
//! [`super::Position`] keeps for people's games, one concrete type for
//! every board size, so the rules, records and pages never carry a width
//! parameter. `Bits` is the search's: generic over the narrowest word that
//! holds the board (a `u64` for 7×7, a `u128` for 11×11), with neighbour
//! shifts, because the playouts' speed depends on it. A search converts a
//! position once, at its root ([`super::stones::Stones::from_position`]).

/// Words needed for 19 × 19 = 361 cells.
const WORDS: usize = 6;

/// A set of cell indices `0..384`, stored as bits. `Copy` and allocation
/// free, so positions can be cloned cheaply by search code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitset([u64; WORDS]);

impl Bitset {
    /// The empty set.
    pub const EMPTY: Bitset = Bitset([0; WORDS]);

    /// Whether `index` is in the set.
    #[inline]
    pub const fn contains(&self, index: usize) -> bool {
        self.0[index / 64] >> (index % 64) & 1 == 1
    }

    /// Adds `index` to the set.
    #[inline]
    pub fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    /// Removes `index` from the set.
    #[inline]
    pub fn remove(&mut self, index: usize) {
        self.0[index / 64] &= !(1 << (index % 64));
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(i * 64 + bit)
            })
        })
    }

    /// Members of either set.
    pub fn union(&self, other: &Bitset) -> Bitset {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(other.0.iter()) {
            *a |= b;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut set = Bitset::EMPTY;
        for i in [0, 63, 64, 200, 360] {
            set.insert(i);
        }
        assert!(set.contains(63) && set.contains(360) && !set.contains(1));
        assert_eq!(set.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 360]);
        set.remove(64);
        assert_eq!(set.len(), 4);
        assert!(!set.contains(64));
    }
}
