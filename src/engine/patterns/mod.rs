//! Learned move patterns: a weight for each local shape (see [`shape`]),
//! learned from games by minorization-maximization ([`mm`]), that says how
//! likely a good player is to play in a cell of that shape. The search uses
//! the weights as move priors.
//!
//! The weights travel as a small text file (`patterns.txt` beside this
//! module): native builds take it in at compile time, the browser's engine
//! worker fetches it once and hands it over, so no page carries it.

pub mod mm;
pub mod shape;

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

pub use self::shape::Shapes;

/// The first line of a pattern file, with its format version.
pub const HEADER: &str = "hexarena-patterns 1";

/// The weights this build ships with.
pub const BUILTIN: &str = include_str!("patterns.txt");

/// Weights of patterns: how strongly a move of each shape is preferred.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    weights: HashMap<u64, f32, BuildHasherDefault<ShapeHasher>>,
    /// The weight of a pattern the file does not list.
    default: f32,
}

impl Patterns {
    /// The table of `weights` (canonical patterns), others weighing
    /// `default`.
    pub fn new(weights: impl IntoIterator<Item = (u64, f32)>, default: f32) -> Patterns {
        Patterns { weights: weights.into_iter().collect(), default }
    }

    /// The weights this build ships with.
    pub fn builtin() -> &'static Patterns {
        static BUILT: std::sync::OnceLock<Patterns> = std::sync::OnceLock::new();
        BUILT.get_or_init(|| match Patterns::parse(BUILTIN) {
            Ok(p) => p,
            // The file is checked by a test; a broken one must not stop
            // the engine, only its priors.
            Err(_) => Patterns::new([], 1.0),
        })
    }

    /// The weight of a canonical pattern.
    #[inline]
    pub fn weight(&self, pattern: u64) -> f32 {
        self.weights.get(&pattern).copied().unwrap_or(self.default)
    }

    /// Patterns listed.
    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Whether no pattern is listed.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// Reads a pattern file.
    pub fn parse(text: &str) -> Result<Patterns, PatternsError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        let fail = |line, problem| PatternsError { line, problem };
        match lines.next() {
            Some((_, HEADER)) => {}
            Some((line, _)) => return Err(fail(line, PatternsProblem::Header)),
            None => return Err(fail(0, PatternsProblem::Header)),
        }
        let mut default = None;
        let mut weights = HashMap::default();
        for (line, text) in lines {
            let (key, value) = text.split_once(' ').ok_or(fail(line, PatternsProblem::Fields))?;
            let weight: f32 = value.trim().parse().map_err(|_| fail(line, PatternsProblem::Weight))?;
            if !(weight.is_finite() && weight > 0.0) {
                return Err(fail(line, PatternsProblem::Weight));
            }
            if key == "default" {
                if default.replace(weight).is_some() {
                    return Err(fail(line, PatternsProblem::Duplicate));
                }
                continue;
            }
            let pattern = u64::from_str_radix(key, 16).map_err(|_| fail(line, PatternsProblem::Pattern))?;
            if !shape::is_valid(pattern) || shape::canonical(pattern) != pattern {
                return Err(fail(line, PatternsProblem::Pattern));
            }
            if weights.insert(pattern, weight).is_some() {
                return Err(fail(line, PatternsProblem::Duplicate));
            }
        }
        let default = default.ok_or(fail(0, PatternsProblem::NoDefault))?;
        Ok(Patterns { weights, default })
    }

    /// The file text of these weights, patterns in increasing order, after
    /// `comment` lines (each prefixed with `# `).
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(HEADER);
        out.push('\n');
        out.push_str(&format!("default {:.4e}\n", self.default));
        let mut sorted: Vec<_> = self.weights.iter().collect();
        sorted.sort_by_key(|(k, _)| **k);
        for (k, w) in sorted {
            out.push_str(&format!("{k:x} {w:.4e}\n"));
        }
        out
    }
}

/// What is wrong with a pattern file, and on which line (0: the file as a
/// whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternsError {
    pub line: usize,
    pub problem: PatternsProblem,
}

/// The kinds of [`PatternsError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatternsProblem {
    Header,
    Fields,
    Pattern,
    Weight,
    Duplicate,
    NoDefault,
}

impl fmt::Display for PatternsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            PatternsProblem::Header => format!("the file must start with '{HEADER}'"),
            PatternsProblem::Fields => "expected a pattern and a weight separated by a space".into(),
            PatternsProblem::Pattern => "the pattern is not a canonical 36-bit shape in hexadecimal".into(),
            PatternsProblem::Weight => "the weight is not a positive number".into(),
            PatternsProblem::Duplicate => "this pattern is listed twice".into(),
            PatternsProblem::NoDefault => "the file has no 'default' weight".into(),
        };
        if self.line == 0 {
            write!(f, "pattern file: {what}")
        } else {
            write!(f, "pattern file, line {}: {what}", self.line)
        }
    }
}

impl std::error::Error for PatternsError {}

/// A hash for shape codes: one multiplication (they are already well
/// spread), many times cheaper than the default in the search's inner loop.
#[derive(Default)]
pub struct ShapeHasher(u64);

impl Hasher for ShapeHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

#[cfg(test)]
mod tests;
