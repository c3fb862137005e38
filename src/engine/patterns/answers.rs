//! Learned answers near the opponent's last stone, for the playouts.
//!
//! MoHex 2.0's playouts answer among the twelve cells around the stone
//! just played (its six neighbours and its six bridge points) in about
//! half their moves, each cell weighted by what its own twelve-cell shape
//! has been worth as an answer; switched off, that is what most of its
//! strength against us rests on (docs/benchmarks.md, 2026-12-06, sixth).
//! Here a candidate's answer pattern is the first two rings of its shape
//! ([`super::shape`]: the six adjacent cells and the six bridge points,
//! in the mover's frame), and the last stone is always among them.
//!
//! The weights are learned like the priors ([`super::mm`]) from
//! competitions in which every cell far from the last stone counts as one
//! pattern, [`FAR`]: a fitted answer weight says how much more often a
//! good player takes a cell of that shape next to the last stone than a
//! given far cell. They travel in a pattern file, the far cells' weight
//! being 1 and an unlisted near shape weighing the file's default.

use super::super::cell::Cell;
use super::{Patterns, PatternsError, PatternsProblem, shape};

/// The bits of a shape's first two rings: the twelve cells an answer
/// pattern reads.
pub const TWELVE: u64 = (1 << 24) - 1;

/// The pattern standing for every candidate far from the last stone in a
/// fit (no shape is this large).
pub const FAR: u64 = 1 << 40;

/// The answers this build ships with (for the search's `answers=builtin`;
/// rebuilt by `examples/learn_patterns.rs fit-answers`).
pub const BUILTIN: &str = include_str!("answers.txt");

/// The answers this build ships with.
pub fn builtin() -> &'static Answers {
    static BUILT: std::sync::OnceLock<Answers> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| match parse(BUILTIN) {
        Ok(p) => Answers::new(p),
        // Checked by a test; a broken file only leaves the playouts
        // without answers (every answer weighing a far cell's 1).
        Err(_) => Answers::new(Patterns::new([], 1.0)),
    })
}

/// The scales the playouts may count the answers' weights by (the search's
/// `answer_scale`): wide enough for any share of answers from about 1% to
/// nearly all, narrow enough that a far cell's weight times the cells left
/// stays far from overflow.
pub const SCALES: std::ops::RangeInclusive<f32> = 0.001..=16.0;

/// Cells an answer pattern reads.
pub const READ: usize = 12;

/// Codes of twelve cells read in base 3 (see [`Answers::extra`]).
pub const CODES: usize = 531_441;

/// Answer weights ready for a playout: for every reading of a cell's
/// twelve cells, its weight above a far cell's. A playout looks one up
/// for each of a dozen cells at every move. A hash map there took a third
/// of the search's time; a direct index over all 3¹² codes (1 MB) missed
/// the core's caches; this table holds only the codes whose weight is not
/// the default, in buckets of four a code finds in one probe, about 64 KB.
#[derive(Clone)]
pub struct Answers {
    weights: Patterns,
    /// The weight above 1 of every code not in `buckets`.
    default: u16,
    buckets: Box<[Bucket]>,
    /// The multiplier that spreads codes over the buckets, chosen so that
    /// no bucket overflows.
    spread: u32,
    /// 32 less the bits of the bucket count.
    shift: u32,
}

/// Four codes and their extra weights: a line of the core's cache.
#[derive(Clone, Copy, Debug)]
#[repr(align(32))]
struct Bucket {
    /// `NO_CODE` in a slot not taken.
    codes: [u32; 4],
    extra: [u16; 4],
}

const NO_CODE: u32 = u32::MAX;

/// A weight above 1, in sixteenths of a far cell's, at most `u16::MAX`
/// (4,096 far cells: an answer that heavy is played at once anyway).
fn extra_of(weight: f32) -> u16 {
    ((weight - 1.0) * 16.0).round().clamp(0.0, u16::MAX as f32) as u16
}

/// The shape a base-3 code reads.
fn shape_of(code: u32) -> u64 {
    let mut shape = 0u64;
    let mut rest = code;
    for k in 0..READ {
        shape |= u64::from(rest % 3) << (2 * k);
        rest /= 3;
    }
    shape
}

impl Answers {
    pub fn new(weights: Patterns) -> Answers {
        let default = extra_of(weights.default_weight());
        let listed: Vec<(u32, u16)> = (0..CODES as u32)
            .map(|code| (code, extra_of(weights.weight(pattern(shape_of(code))))))
            .filter(|&(_, extra)| extra != default)
            .collect();
        let (buckets, spread, shift) = spread_out(&listed);
        Answers { weights, default, buckets, spread, shift }
    }

    /// The learned weights.
    pub fn weights(&self) -> &Patterns {
        &self.weights
    }

    /// The extra weight of a cell whose twelve cells read `code` (below
    /// [`CODES`]): the sum of each cell's point (0 empty, 1 the mover's, 2
    /// the opponent's) times 3 to the power of its place in the shape.
    #[inline]
    pub fn extra(&self, code: u32) -> u32 {
        let bucket = &self.buckets[(code.wrapping_mul(self.spread) >> self.shift) as usize];
        // No branch: a code is in at most one slot.
        let mut extra = self.default;
        for k in 0..4 {
            if bucket.codes[k] == code {
                extra = bucket.extra[k];
            }
        }
        u32::from(extra)
    }
}

/// Buckets holding `listed`, with the multiplier and shift that find each
/// code's bucket: the fewest buckets (a power of two, at least as many as
/// codes) for which some multiplier of a fixed sequence overflows none.
fn spread_out(listed: &[(u32, u16)]) -> (Box<[Bucket]>, u32, u32) {
    let empty = Bucket { codes: [NO_CODE; 4], extra: [0; 4] };
    let mut bits = listed.len().next_power_of_two().trailing_zeros().max(4);
    let mut spread = 0x9E37_79B9u32;
    loop {
        for _ in 0..256 {
            // Odd multipliers from a fixed sequence: the table is the same
            // on every run.
            spread = spread.wrapping_mul(0x2C1B_3C6D).wrapping_add(0x297A_2D39) | 1;
            let shift = 32 - bits;
            let mut buckets = vec![empty; 1 << bits];
            let fits = listed.iter().all(|&(code, extra)| {
                let bucket = &mut buckets[(code.wrapping_mul(spread) >> shift) as usize];
                match bucket.codes.iter().position(|&c| c == NO_CODE) {
                    Some(k) => {
                        bucket.codes[k] = code;
                        bucket.extra[k] = extra;
                        true
                    }
                    None => false,
                }
            });
            if fits {
                return (buckets.into_boxed_slice(), spread, shift);
            }
        }
        // Twice the buckets: a quarter of the codes per bucket at most,
        // which some multiplier soon spreads without an overflow.
        bits += 1;
    }
}

impl PartialEq for Answers {
    fn eq(&self, other: &Answers) -> bool {
        // The table follows from the weights.
        self.weights == other.weights
    }
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Answers({} patterns)", self.weights.len())
    }
}

/// The answer pattern of a shape: its twelve nearest cells, made canonical.
#[inline]
pub fn pattern(shape: u64) -> u64 {
    shape::canonical(shape & TWELVE)
}

/// Whether `cell` is one of the twelve cells around `last`: a neighbour
/// or a bridge point (the relation is symmetric).
pub fn around(cell: Cell, last: Cell) -> bool {
    let (dq, dr) = (cell.q as i16 - last.q as i16, cell.r as i16 - last.r as i16);
    // The shape's first two rings: the same set of offsets for either
    // mover, as being around is symmetric.
    shape::offsets()[..READ].iter().any(|&(q, r)| (q as i16, r as i16) == (dq, dr))
}

/// The competition key of a candidate with `shape` at `cell`: its answer
/// pattern when it is around the last stone, [`FAR`] otherwise.
pub fn key(shape: u64, cell: Cell, last: Option<Cell>) -> u64 {
    match last {
        Some(last) if around(cell, last) => pattern(shape),
        _ => FAR,
    }
}

/// The answer weights of a fit over [`key`]s: every weight divided by the
/// far cells', which then drops out (it is 1 by definition).
pub fn from_fitted(fitted: &Patterns) -> Result<Patterns, PatternsError> {
    let far = fitted.entries().iter().find(|(p, _)| *p == FAR).map(|(_, w)| *w);
    // Without a far pattern the fit had nothing to measure answers against.
    let far = far.filter(|w| *w > 0.0).ok_or(PatternsError { line: 0, problem: PatternsProblem::Pattern })?;
    let near = fitted.entries().into_iter().filter(|(p, _)| *p != FAR).map(|(p, w)| (p, w / far));
    Ok(Patterns::new(near, fitted.weight(0) / far))
}

/// An answer table as the playouts weigh it, for [`super::mm::predict`]:
/// every candidate away from the last stone ([`FAR`]) weighing 1, which
/// the file leaves out (an unlisted pattern weighs the file's default).
pub fn with_far(table: &Patterns) -> Patterns {
    Patterns::new(table.entries().into_iter().chain([(FAR, 1.0)]), table.default_weight())
}

/// Reads an answer file: a pattern file whose shapes reach no further than
/// the twelve cells.
pub fn parse(text: &str) -> Result<Patterns, PatternsError> {
    let patterns = Patterns::parse(text)?;
    match patterns.entries().iter().any(|(p, _)| p & !TWELVE != 0) {
        false => Ok(patterns),
        true => Err(PatternsError { line: 0, problem: PatternsProblem::Pattern }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> Cell {
        Cell::parse(name, 9).unwrap()
    }

    #[test]
    fn the_twelve_are_the_neighbours_and_bridge_points() {
        let last = at("e5");
        let all: Vec<Cell> = (0..81).map(|i| Cell::from_index(i, 9)).filter(|c| around(*c, last)).collect();
        assert_eq!(all.len(), 12);
        for c in &all {
            // Symmetric, and within two steps.
            assert!(around(last, *c));
            assert!(c.distance(last) <= 2);
        }
        // A straight step of two is not a bridge point.
        assert!(!around(at("e3"), last) && !around(at("g5"), last) && !around(last, last));
        assert!(around(at("d4"), last) && around(at("f6"), last));
    }

    #[test]
    fn answer_weights_are_measured_against_the_far_cells() {
        let fitted = Patterns::new([(FAR, 0.5), (0x4, 4.0), (0x10, 0.25)], 2.0);
        let answers = from_fitted(&fitted).unwrap();
        assert_eq!(answers.len(), 2);
        assert!((answers.weight(0x4) - 8.0).abs() < 0.01);
        assert!((answers.weight(0x10) - 0.5).abs() < 0.01);
        assert!((answers.weight(0x40) - 4.0).abs() < 0.01, "unlisted: the default");
        assert!(from_fitted(&Patterns::new([(0x4, 4.0)], 1.0)).is_err());
    }

    #[test]
    fn an_answer_file_reaches_no_further_than_twelve_cells() {
        let ok = Patterns::new([(0x4, 3.0)], 1.0).to_text("");
        assert_eq!(parse(&ok).unwrap().len(), 1);
        let far = Patterns::new([(1 << 24, 3.0)], 1.0).to_text("");
        assert!(Patterns::parse(&far).is_ok() && parse(&far).is_err());
    }

    #[test]
    fn the_shipped_answers_read_and_rank_answers_in_contact_first() {
        let answers = parse(BUILTIN).expect("answers.txt reads");
        assert_eq!(builtin().weights(), &answers);
        assert!(answers.len() > 100, "{}", answers.len());
        // Blue has just cut Red's bridge f6–g4 at f5. Red's answers that
        // touch both f5 and Red's own stones (the save g5, and f4 and e6)
        // must outweigh every other cell around f5, and the loose ones
        // weigh little more than a far cell.
        let game = crate::engine::Record::from_text("11x11 f6 a11 g4 f5", 11).unwrap().to_game(false).unwrap();
        let stones = crate::engine::stones::Stones::<u128>::from_position(game.position());
        let mut shapes = super::super::Shapes::new(11);
        let mut weight = |name: &str| {
            let cell = Cell::parse(name, 11).unwrap();
            answers.weight(pattern(shapes.shape(&stones, cell.index(11))))
        };
        let contact: Vec<f32> = ["g5", "f4", "e6"].map(&mut weight).to_vec();
        let others: Vec<f32> = ["e5", "g3", "e4", "h4", "d6", "g6", "e7"].map(&mut weight).to_vec();
        let least = contact.iter().copied().fold(f32::INFINITY, f32::min);
        let most = others.iter().copied().fold(0.0, f32::max);
        assert!(least > 10.0 * most, "{contact:?} against {others:?}");
        assert!(most < 3.0, "{others:?}");
    }

    #[test]
    fn the_table_reads_the_weight_of_every_code() {
        let answers = Answers::new(Patterns::new([(pattern(0b01 << 6), 9.0), (pattern(0b10), 1.5)], 0.5));
        // Neighbour 3 the mover's: 3³ = 27; and its half turn, neighbour 0.
        assert_eq!(answers.extra(27), 128);
        assert_eq!(answers.extra(1), 128);
        assert_eq!(answers.extra(2), 8, "neighbour 0 the opponent's");
        assert_eq!(answers.extra(0), 0, "lighter than a far cell");
        assert_eq!(answers.extra(CODES as u32 - 1), 0);
        assert_eq!(Answers::new(Patterns::new([(1, 1e9)], 1.0)).extra(1), u16::MAX as u32);
    }

    #[test]
    fn the_hashed_table_holds_the_weight_of_every_code_of_the_shipped_file() {
        let weights = parse(BUILTIN).unwrap();
        let answers = Answers::new(weights.clone());
        let mut listed = 0;
        for code in 0..CODES as u32 {
            let extra = u32::from(extra_of(weights.weight(pattern(shape_of(code)))));
            assert_eq!(answers.extra(code), extra, "{code}");
            listed += usize::from(extra != u32::from(answers.default));
        }
        // The shipped file's patterns and their half turns, no more.
        assert!(listed > weights.len() && listed <= 2 * weights.len(), "{listed}");
        assert!(
            answers.buckets.len() * 4 >= listed && answers.buckets.len() <= 4 * listed,
            "{}",
            answers.buckets.len()
        );
    }

    #[test]
    fn a_fitted_table_read_back_with_its_far_cells_predicts_as_the_fit() {
        use super::super::mm::{Fitting, Sample, fit, predict};
        let far = (super::super::near::CLASSES - 1) as u8;
        let (a, b) = (pattern(0b01), pattern(0b10));
        // Of two answers and four far cells, `a` is played half the time.
        let samples: Vec<Sample> = (0..400)
            .map(|i| Sample {
                chosen: [a, a, b, FAR][i % 4],
                candidates: vec![a, b, FAR, FAR, FAR, FAR],
                chosen_near: far,
                near: vec![far; 6],
            })
            .collect();
        let fitted = fit(&samples, Fitting { min_seen: 1, iterations: 60, proximity: false }).patterns;
        let file = from_fitted(&fitted).unwrap().to_text("");
        let read = parse(&file).unwrap();
        let expected = predict(&samples, &fitted).log_likelihood;
        let got = predict(&samples, &with_far(&read)).log_likelihood;
        assert!((got - expected).abs() < 1e-3, "{got} against {expected}");
        // Without their weight of 1 the far cells weigh the default.
        assert!((predict(&samples, &read).log_likelihood - expected).abs() > 0.01);
    }

    #[test]
    fn a_far_candidate_has_the_far_key() {
        let shape = 0b01 | (0b10 << 30);
        assert_eq!(key(shape, at("a1"), Some(at("e5"))), FAR);
        assert_eq!(key(shape, at("a1"), None), FAR);
        assert_eq!(key(shape, at("e4"), Some(at("e5"))), pattern(shape));
        assert_eq!(pattern(shape), 1, "the third ring is not read");
    }
}
