//! Escapes of a second-row ladder through a stone on the fourth row,
//! proved once by playing out every defence in a small window.
//!
//! A ladder whose row holds no stone ahead may still end joined: a stone of
//! the side on the fourth row, near the ladder's path, gives the pushed
//! stones a second way down that the opponent cannot block together with
//! the first. The escape's way to the edge and the ladder cross each
//! other's cells, so H-search's AND, which joins only disjoint carriers,
//! never builds it from the stone's own connection (docs/benchmarks.md).
//! Each escape shape is instead decided here by minimax within a window
//! ahead of the ladder's head, and its carrier cut down to the cells the
//! proof needs. Third-row stones escape too, but those H-search finds
//! itself, and given again they crowd its lists: they are left out.

/// A cell beside a ladder's head (at `(0, 1)`): `ahead` steps in the
/// ladder's direction, `row` rows from the edge (0 the first row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Offset {
    pub ahead: i8,
    pub row: i8,
}

/// A stone of the side at `stone` lets the ladder escape, whatever the
/// opponent plays, once every cell of `carrier` is empty, with at most
/// `need` more stones of the side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Escape {
    pub stone: Offset,
    pub carrier: &'static [Offset],
    pub need: u32,
}

/// The escapes of a ladder running towards growing (`forward`) or
/// shrinking places along the edge, smallest carrier first. Their cells
/// differ between the two directions: the board is not symmetric under a
/// mirror along the edge.
pub(super) fn escapes(forward: bool) -> &'static [Escape] {
    if forward { &FORWARD } else { &BACKWARD }
}

const fn at(ahead: i8, row: i8) -> Offset {
    Offset { ahead, row }
}

// The forward shapes are proved by `generate` below, which rebuilds them;
// the backward ones are their mirror images, proved again by its tests.
#[rustfmt::skip]
static FORWARD: [Escape; 2] = [
    Escape { stone: at(3, 3), carrier: &[at(0, 0), at(1, 0), at(1, 1), at(1, 2), at(2, 0), at(2, 1), at(2, 2), at(3, 0), at(3, 1), at(3, 2), at(4, 0), at(4, 1), at(4, 2), at(4, 3), at(5, 0), at(5, 1), at(5, 2)], need: 9 },
    Escape { stone: at(4, 3), carrier: &[at(0, 0), at(1, 0), at(1, 1), at(1, 2), at(2, 0), at(2, 1), at(2, 2), at(3, 0), at(3, 1), at(3, 2), at(3, 3), at(4, 0), at(4, 1), at(4, 2), at(5, 0), at(5, 1), at(5, 2)], need: 9 },
];

#[rustfmt::skip]
static BACKWARD: [Escape; 2] = [
    Escape { stone: at(1, 3), carrier: &[at(0, 2), at(1, 0), at(1, 1), at(1, 2), at(2, 0), at(2, 1), at(2, 2), at(2, 3), at(3, 0), at(3, 1), at(3, 2), at(4, 0), at(4, 1), at(4, 2), at(5, 0), at(5, 1), at(6, 0)], need: 9 },
    Escape { stone: at(2, 3), carrier: &[at(0, 2), at(1, 0), at(1, 1), at(1, 2), at(1, 3), at(2, 0), at(2, 1), at(2, 2), at(3, 0), at(3, 1), at(3, 2), at(4, 0), at(4, 1), at(4, 2), at(5, 0), at(5, 1), at(6, 0)], need: 9 },
];

#[cfg(test)]
mod generate {
    //! How the tables above are proved. Rebuild them (about a minute):
    //!
    //!     cargo test --release --lib connections::escapes -- --ignored --nocapture

    use super::*;
    use crate::engine::bits::Bits;
    use crate::engine::connections::playout::{Playout, Replies};

    /// The window searched along the ladder, counted from the head's column.
    const LENGTH: i32 = 5;
    /// The last column the bits can hold: a backward escape, the mirror of
    /// a forward one, reaches one further on the first row.
    const LAST: i32 = LENGTH + 1;
    /// The window's rows, the first row (0) included.
    const ROWS: i32 = 4;
    /// The most stones the side may add in the window: an escape that needs
    /// more is not looked for (the search would cost too much).
    const MAX_STONES: u32 = 6;

    /// The window ahead of a head in one direction, its cells as bits of a
    /// `u64` (see `bit`).
    struct Window {
        neighbours: Vec<u64>,
        head: u64,
        /// The first-row cell behind the head, which the opponent holds.
        behind: Option<u64>,
        first_row: u64,
        all: u64,
    }

    /// Columns from one behind the head's (`-1`) to `LAST`.
    fn bit(ahead: i32, row: i32) -> u64 {
        1 << ((ahead + 1) * ROWS + row)
    }

    fn offset(index: usize) -> Offset {
        Offset { ahead: (index as i32 / ROWS - 1) as i8, row: (index as i32 % ROWS) as i8 }
    }

    impl Window {
        fn new(forward: bool) -> Window {
            // Along the edge the board's neighbours are (±1, 0), (0, ±1) and
            // (+1, +1), (−1, −1); walking the other way turns the diagonal.
            let diagonal = if forward { 1 } else { -1 };
            let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (diagonal, 1), (-diagonal, -1)];
            let inside = |a: i32, r: i32| (-1..=LAST).contains(&a) && (0..ROWS).contains(&r);
            let mut neighbours = vec![0; ((LAST + 2) * ROWS) as usize];
            for a in -1..=LAST {
                for r in 0..ROWS {
                    let near = steps
                        .iter()
                        .filter(|(da, dr)| inside(a + da, r + dr))
                        .fold(0, |m, (da, dr)| m | bit(a + da, r + dr));
                    neighbours[bit(a, r).trailing_zeros() as usize] = near;
                }
            }
            // The head's first-row cells: (0, 0) and (−1, 0) forward, (0, 0)
            // and (1, 0) backward; the one behind is the opponent's.
            let behind = (!forward).then(|| bit(0, 0));
            let all = (0..ROWS).flat_map(|r| (0..=LENGTH).map(move |a| bit(a, r))).fold(0, |m, b| m | b);
            let first_row = (-1..=LAST).fold(0, |m, a| m | bit(a, 0)) & !behind.unwrap_or(0);
            Window { neighbours, head: bit(0, 1), behind, first_row, all }
        }

        /// Every stone on the fourth row the ladder escapes through.
        fn escapes(&self) -> Vec<(Offset, Vec<Offset>, u32)> {
            let mut out = Vec::new();
            for ahead in 0..=LENGTH {
                for row in 3..ROWS {
                    let stone = bit(ahead, row);
                    let mut carrier = self.all & !self.head & !stone & !self.behind.unwrap_or(0);
                    if !self.holds_within(stone, carrier) {
                        continue;
                    }
                    // Farthest cells first: what the proof can spare goes.
                    for c in carrier.ones().collect::<Vec<_>>().into_iter().rev() {
                        let smaller = carrier & !(1u64 << c);
                        if self.holds_within(stone, smaller) {
                            carrier = smaller;
                        }
                    }
                    let cells: Vec<Offset> = carrier.ones().map(offset).collect();
                    let need = (cells.len() as u32).div_ceil(2);
                    out.push((Offset { ahead: ahead as i8, row: row as i8 }, cells, need));
                }
            }
            out.sort_by_key(|e| e.1.len());
            out
        }

        fn holds_within(&self, stone: u64, carrier: u64) -> bool {
            let joined = |stones: u64| self.group(stones | self.head) & self.first_row != 0;
            Playout::new(joined, stone, carrier, Replies::Forced, MAX_STONES).holds()
        }

        /// The cells of `stones` joined to the head through `stones`.
        fn group(&self, stones: u64) -> u64 {
            let mut reach = self.head;
            loop {
                let grown = reach.ones().fold(reach, |m, i| m | (self.neighbours[i] & stones));
                if grown == reach {
                    return reach;
                }
                reach = grown;
            }
        }
    }

    /// A forward escape's cell seen by a ladder running the other way: the
    /// board's reflection that keeps each row, (along, row) to (row − along,
    /// row), shifted so that the head stays the head.
    fn mirror(o: Offset) -> Offset {
        Offset { ahead: o.ahead - o.row + 1, row: o.row }
    }

    fn table(forward: bool) -> Vec<(Offset, Vec<Offset>, u32)> {
        escapes(forward).iter().map(|e| (e.stone, e.carrier.to_vec(), e.need)).collect()
    }

    #[test]
    #[ignore = "about a minute optimised: run to rebuild the tables"]
    fn the_tables_are_what_the_proofs_give() {
        let forward = Window::new(true).escapes();
        let backward = forward.iter().map(|(stone, carrier, need)| {
            (mirror(*stone), carrier.iter().map(|&c| mirror(c)).collect::<Vec<_>>(), *need)
        });
        let mut backward: Vec<_> = backward.collect();
        for (_, carrier, _) in &mut backward {
            carrier.sort_by_key(|o| (o.ahead, o.row));
        }
        for (proved, name) in [(forward, "FORWARD"), (backward, "BACKWARD")] {
            let cells =
                |v: &[Offset]| v.iter().map(|o| format!("at({}, {})", o.ahead, o.row)).collect::<Vec<_>>().join(", ");
            println!("static {name}: [Escape; {}] = [", proved.len());
            for (stone, carrier, need) in &proved {
                println!("    Escape {{ stone: {}, carrier: &[{}], need: {need} }},", cells(&[*stone]), cells(carrier));
            }
            println!("];");
            assert_eq!(table(name == "FORWARD"), proved);
        }
    }

    #[test]
    fn each_escape_holds_within_its_carrier_and_not_without_its_stone() {
        for forward in [true, false] {
            let w = Window::new(forward);
            let bits = |v: &[Offset]| v.iter().fold(0u64, |m, o| m | bit(o.ahead.into(), o.row.into()));
            for e in escapes(forward) {
                let (stone, carrier) = (bits(&[e.stone]), bits(e.carrier));
                assert!(w.holds_within(stone, carrier), "{e:?}");
                assert!(!w.holds_within(0, carrier | stone), "{e:?} holds without its stone");
            }
        }
    }

    #[test]
    fn without_a_stone_no_ladder_escapes() {
        // Four columns of the window, the first row and the three above it.
        let w = Window::new(true);
        let near = (0..4).flat_map(|a| (0..ROWS).map(move |r| bit(a, r))).fold(0, |m, b| m | b);
        assert!(!w.holds_within(0, near & !w.head));
    }
}
