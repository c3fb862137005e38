//! Pattern weights for the playouts: how willing a playout is to play a
//! cell, judged by its six adjacent cells.
//!
//! The weights are learned like the tree's priors ([`super::mm`], with
//! [`super::mm::Extent::Adjacent`]) but read only the first ring, so a
//! playout can look one up at every move: the six neighbours' colours make
//! a 12-bit code that indexes a table directly, with no symmetry or hashing
//! left to do at play time. They ship compiled in (`playout.txt`, a few
//! hundred lines), since every search needs them and they are small.
//!
//! A playout draws each cell with probability in proportion to
//! `min(γ / (cap · γ_open), 1)`, `γ_open` being the weight of a cell with
//! no stone around it: with a low cap the weights mostly steer playouts
//! away from cells that good players never take (filled-in, dead, or
//! answered at once), as MoHex 2.0's capped playout weights do; with a
//! high one they also pull towards the shapes good players prefer.

use super::super::color::Color;
use super::{Patterns, shape};

/// The weights this build ships with.
pub const BUILTIN: &str = include_str!("playout.txt");

/// Codes of a cell's six neighbours: two bits each, in ring order.
pub const CODES: usize = 1 << 12;

/// A neighbour's bits in a code: off the board, the edge's owner.
pub const EMPTY: usize = 0;
pub const RED: usize = 1;
pub const BLUE: usize = 2;

/// How the playouts use their pattern weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutPolicy {
    pub weights: &'static Patterns,
    /// The weight, relative to an open cell's, above which a cell is not
    /// preferred any more (see the module's notes).
    pub cap: f32,
}

impl PlayoutPolicy {
    /// The built-in weights with `cap`.
    pub fn builtin(cap: f32) -> PlayoutPolicy {
        PlayoutPolicy { weights: builtin(), cap }
    }
}

/// The weights this build ships with.
pub fn builtin() -> &'static Patterns {
    static BUILT: std::sync::OnceLock<Patterns> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| match parse(BUILTIN) {
        Ok(p) => p,
        // Checked by a test; a broken file only makes playouts uniform.
        Err(_) => Patterns::new([], 1.0),
    })
}

/// Reads a playout pattern file: a pattern file whose shapes reach no
/// further than the adjacent cells.
pub fn parse(text: &str) -> Result<Patterns, super::PatternsError> {
    let patterns = Patterns::parse(text)?;
    match patterns.entries().iter().position(|(p, _)| p & !shape::ADJACENT != 0) {
        None => Ok(patterns),
        Some(_) => Err(super::PatternsError { line: 0, problem: super::PatternsProblem::Pattern }),
    }
}

/// A cell's capped weight, in 65,535ths of the cap, for every mover and
/// neighbour code.
#[derive(Clone, Debug)]
pub struct Acceptance {
    table: Box<[[u16; CODES]; 2]>,
}

impl Acceptance {
    pub fn new(policy: PlayoutPolicy) -> Acceptance {
        let open = policy.weights.weight(0);
        let scale = 1.0 / (open * policy.cap.max(f32::MIN_POSITIVE));
        let mut table = Box::new([[0u16; CODES]; 2]);
        for (m, mover) in [Color::Red, Color::Blue].into_iter().enumerate() {
            for (code, slot) in table[m].iter_mut().enumerate() {
                let Some(frame) = mover_frame(code, mover) else { continue };
                let share = (policy.weights.weight(shape::canonical(frame)) * scale).min(1.0);
                // Never zero: a playout must be able to fill every cell.
                *slot = ((share * 65_535.0) as u16).max(1);
            }
        }
        Acceptance { table }
    }

    /// The weight for `mover` of a cell whose neighbours read `code`.
    #[inline]
    pub fn of(&self, mover: Color, code: usize) -> u16 {
        self.table[mover as usize & 1][code & (CODES - 1)]
    }
}

/// The shape that `mover` sees in a code of absolute colours, or `None`
/// for a code no board has. Blue reads the board transposed (see
/// [`shape`]), which takes ring direction `k` to `5 - k`.
pub(crate) fn mover_frame(code: usize, mover: Color) -> Option<u64> {
    let mut frame = 0u64;
    for k in 0..6 {
        let at = match mover {
            Color::Red => k,
            Color::Blue => 5 - k,
        };
        let point = match ((code >> (2 * at)) & 3, mover) {
            (EMPTY, _) => shape::Point::Empty,
            (RED, Color::Red) | (BLUE, Color::Blue) => shape::Point::Mine,
            (RED, Color::Blue) | (BLUE, Color::Red) => shape::Point::Theirs,
            _ => return None,
        };
        frame |= (point as u64) << (2 * k);
    }
    Some(frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bits::Bits;
    use crate::engine::cell::Cell;
    use crate::engine::patterns::Shapes;
    use crate::engine::stones::Stones;

    #[test]
    fn the_builtin_file_reads_and_reaches_only_the_adjacent_cells() {
        let weights = parse(BUILTIN).expect("playout.txt");
        assert!(weights.len() > 100, "{}", weights.len());
        assert!(weights.entries().iter().all(|(p, _)| p >> 12 == 0));
        // A shape that reaches further is refused.
        let far = format!("{}\ndefault 0\n{:x} 5\n", super::super::HEADER, 1u64 << 12);
        assert!(parse(&far).is_err());
    }

    #[test]
    fn a_code_reads_as_the_shape_the_mover_sees() {
        // Red d4, Blue e4 and c5 on 7×7; the cell d5 has all three as
        // neighbours. Its code, turned into each mover's frame, must be the
        // first ring of the shape the tree's patterns read there.
        let game = crate::engine::Record::from_text("7x7 d4 e4 a1 c5", 7).unwrap().to_game(false).unwrap();
        let mut stones: Stones<u64> = Stones::from_position(game.position());
        let cell = Cell::new(3, 4).index(7);
        let ring: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];
        let mut code = 0;
        for (k, (dq, dr)) in ring.iter().enumerate() {
            let c = Cell::new((3 + dq) as u8, (4 + dr) as u8).index(7);
            let colour = if stones.red.has(c) {
                RED
            } else if stones.blue.has(c) {
                BLUE
            } else {
                EMPTY
            };
            code |= colour << (2 * k);
        }
        let mut shapes = Shapes::new(7);
        for mover in [Color::Red, Color::Blue] {
            stones.to_move = mover;
            let expected = shapes.shape(&stones, cell) & shape::ADJACENT;
            assert_eq!(mover_frame(code, mover), Some(expected), "{mover:?}");
        }
    }

    #[test]
    fn a_low_cap_keeps_open_cells_and_shuns_redundant_ones() {
        let acceptance = Acceptance::new(PlayoutPolicy::builtin(1.0));
        let open = acceptance.of(Color::Red, 0);
        assert_eq!(open, 65_535);
        // A cell beside two of the mover's stones that touch each other
        // adds nothing to them: the self-play games almost never fill one.
        // (Blue reads the board transposed: its directions 0 and 1 are
        // the board's 5 and 4.)
        for mover in [Color::Red, Color::Blue] {
            let redundant = match mover {
                Color::Red => RED | RED << 2,
                Color::Blue => BLUE << 10 | BLUE << 8,
            };
            let share = acceptance.of(mover, redundant);
            assert!(share < open / 50, "{mover:?}: {share}");
        }
        // Every real code can be played.
        assert!((0..CODES).filter(|c| mover_frame(*c, Color::Red).is_some()).all(|c| acceptance.of(Color::Red, c) > 0));
    }
}
