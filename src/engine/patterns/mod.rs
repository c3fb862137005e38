//! Learned move patterns: a weight for each local shape (see [`shape`]),
//! learned from games by minorization-maximization ([`mm`]), that says how
//! likely a good player is to play in a cell of that shape. The search uses
//! the weights as move priors.
//!
//! The weights travel as a small text file (`patterns.txt` beside this
//! module): native builds take it in at compile time, the browser's engine
//! worker fetches it once and hands it over, so no page carries it.

pub mod answers;
pub mod mm;
pub mod near;
pub mod playout;
pub mod shape;

use std::fmt;

pub use self::near::Proximity;
pub use self::shape::Shapes;

/// The first line of a pattern file, with its format version.
pub const HEADER: &str = "hexarena-patterns 1";

/// The weights this build ships with.
pub const BUILTIN: &str = include_str!("patterns.txt");

/// A weight's largest logarithm in the file, in thousandths (e^30).
const MAX_LOG: i32 = 30_000;

/// Weights of patterns: how strongly a move of each shape is preferred.
///
/// The file writes each weight as its natural logarithm in thousandths, a
/// whole number, so that reading it needs no decimal-float parser (which
/// would more than double the worker's share of this code) and a table
/// reads back exactly as it was written; weights are kept at that
/// precision (0.1%).
#[derive(Clone, Debug)]
pub struct Patterns {
    table: ShapeTable,
    /// The weight of a pattern the file does not list.
    default: f32,
    /// Factors for nearness to the move just played (a `near` line), if
    /// the file was fitted with them.
    proximity: Option<Proximity>,
    /// Whether some listed pattern reads only the inner rings (a layered
    /// fit, [`mm::layer`]): then a shape the table does not list weighs
    /// as its coarser patterns do ([`shape::coarser`]).
    layered: bool,
}

/// Whether some of `patterns` reads only a shape's inner rings.
fn any_layered(mut patterns: impl Iterator<Item = u64>) -> bool {
    patterns.any(|p| p & shape::ANY_OUTER == shape::ANY_OUTER)
}

/// A weight at the file's precision, from its logarithm in thousandths.
fn weight_of_log(log: i32) -> f32 {
    (log as f32 / 1000.0).exp()
}

/// The logarithm in thousandths that a weight is written as.
fn log_of_weight(weight: f32) -> i32 {
    ((weight.ln() * 1000.0).round() as i32).clamp(-MAX_LOG, MAX_LOG)
}

impl Patterns {
    /// The table of `weights` (canonical patterns, positive weights), others
    /// weighing `default`, all kept at the file's precision.
    pub fn new(weights: impl IntoIterator<Item = (u64, f32)>, default: f32) -> Patterns {
        let exact = |w: f32| weight_of_log(log_of_weight(w));
        let entries: Vec<(u64, f32)> = weights.into_iter().map(|(k, w)| (k, exact(w))).collect();
        let layered = any_layered(entries.iter().map(|(k, _)| *k));
        Patterns { table: ShapeTable::new(&entries), default: exact(default), proximity: None, layered }
    }

    /// The same weights, with factors for nearness to the last move (kept
    /// at the file's precision).
    pub fn with_proximity(mut self, proximity: Option<Proximity>) -> Patterns {
        self.proximity = proximity.map(|p| Proximity { factors: p.factors.map(|f| weight_of_log(log_of_weight(f))) });
        self
    }

    /// The factors for nearness to the last move, if any.
    pub fn proximity(&self) -> Option<Proximity> {
        self.proximity
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

    /// The weight of a canonical pattern: its own if listed, else (in a
    /// layered table) its finest coarser pattern's, else the default.
    #[inline]
    pub fn weight(&self, pattern: u64) -> f32 {
        match self.table.get(pattern) {
            Some(w) => w,
            None if self.layered => shape::coarser(pattern).find_map(|p| self.table.get(p)).unwrap_or(self.default),
            None => self.default,
        }
    }

    /// The weight of every pattern not listed.
    pub fn default_weight(&self) -> f32 {
        self.default
    }

    /// Patterns listed.
    pub fn len(&self) -> usize {
        self.table.len
    }

    /// Whether no pattern is listed.
    pub fn is_empty(&self) -> bool {
        self.table.len == 0
    }

    /// The listed patterns and their weights, in increasing pattern order.
    pub fn entries(&self) -> Vec<(u64, f32)> {
        let mut all: Vec<(u64, f32)> = self.table.entries().collect();
        all.sort_by_key(|(k, _)| *k);
        all
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
        let mut proximity = None;
        let mut table = ShapeTable::with_capacity(text.len() / 8);
        for (line, text) in lines {
            let (key, value) = text.split_once(' ').ok_or(fail(line, PatternsProblem::Fields))?;
            if key == "near" {
                let factors = parse_near(value).ok_or(fail(line, PatternsProblem::Near))?;
                if proximity.replace(Proximity { factors }).is_some() {
                    return Err(fail(line, PatternsProblem::Duplicate));
                }
                continue;
            }
            let log: i32 = value.trim().parse().map_err(|_| fail(line, PatternsProblem::Weight))?;
            if log.abs() > MAX_LOG {
                return Err(fail(line, PatternsProblem::Weight));
            }
            if key == "default" {
                if default.replace(weight_of_log(log)).is_some() {
                    return Err(fail(line, PatternsProblem::Duplicate));
                }
                continue;
            }
            let pattern = u64::from_str_radix(key, 16).map_err(|_| fail(line, PatternsProblem::Pattern))?;
            if !shape::is_valid(pattern) || shape::canonical(pattern) != pattern {
                return Err(fail(line, PatternsProblem::Pattern));
            }
            if !table.insert(pattern, weight_of_log(log)) {
                return Err(fail(line, PatternsProblem::Duplicate));
            }
        }
        let default = default.ok_or(fail(0, PatternsProblem::NoDefault))?;
        let layered = any_layered(table.entries().map(|(k, _)| k));
        Ok(Patterns { table, default, proximity, layered })
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
        out.push_str(&format!("default {}\n", log_of_weight(self.default)));
        if let Some(p) = self.proximity {
            let logs: Vec<String> = p.factors.iter().map(|f| log_of_weight(*f).to_string()).collect();
            out.push_str(&format!("near {}\n", logs.join(" ")));
        }
        for (k, w) in self.entries() {
            out.push_str(&format!("{k:x} {}\n", log_of_weight(w)));
        }
        out
    }
}

/// The factors of a `near` line: one logarithm in thousandths per
/// distance class.
fn parse_near(value: &str) -> Option<[f32; near::CLASSES]> {
    let logs: Vec<i32> = value.split_whitespace().map(|v| v.parse().ok()).collect::<Option<_>>()?;
    let logs: [i32; near::CLASSES] = logs.try_into().ok()?;
    logs.iter().all(|l| l.abs() <= MAX_LOG).then(|| logs.map(weight_of_log))
}

impl PartialEq for Patterns {
    fn eq(&self, other: &Patterns) -> bool {
        self.default == other.default && self.proximity == other.proximity && self.entries() == other.entries()
    }
}

/// Patterns and weights in an open-addressing table: the worker needs no
/// general hash map for it, and a lookup is one multiplication and, most
/// often, one probe.
#[derive(Clone, Debug)]
struct ShapeTable {
    /// `EMPTY` where nothing is stored (no shape is that large).
    keys: Vec<u64>,
    values: Vec<f32>,
    len: usize,
}

const EMPTY: u64 = u64::MAX;

impl ShapeTable {
    fn new(entries: &[(u64, f32)]) -> ShapeTable {
        let mut table = ShapeTable::with_capacity(entries.len());
        for &(k, w) in entries {
            table.insert(k, w);
        }
        table
    }

    /// Room for about `entries` patterns before the table must grow.
    fn with_capacity(entries: usize) -> ShapeTable {
        let capacity = (entries * 2).next_power_of_two().max(8);
        ShapeTable { keys: vec![EMPTY; capacity], values: vec![0.0; capacity], len: 0 }
    }

    /// Stores `weight` for `key`; false (and the weight replaced) if the
    /// key was there already.
    fn insert(&mut self, key: u64, weight: f32) -> bool {
        if 2 * (self.len + 1) > self.keys.len() {
            let old = std::mem::replace(self, ShapeTable::with_capacity(self.keys.len()));
            for (k, w) in old.entries() {
                self.insert(k, w);
            }
        }
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        while self.keys[i] != EMPTY && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        let new = self.keys[i] == EMPTY;
        self.len += usize::from(new);
        self.keys[i] = key;
        self.values[i] = weight;
        new
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        let mixed = (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize & (self.keys.len() - 1)
    }

    #[inline]
    fn get(&self, key: u64) -> Option<f32> {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            match self.keys[i] {
                k if k == key => return Some(self.values[i]),
                EMPTY => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn entries(&self) -> impl Iterator<Item = (u64, f32)> + '_ {
        self.keys.iter().zip(&self.values).filter(|(k, _)| **k != EMPTY).map(|(k, v)| (*k, *v))
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
    Near,
}

impl fmt::Display for PatternsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.problem {
            PatternsProblem::Header => format!("the file must start with '{HEADER}'"),
            PatternsProblem::Fields => "expected a pattern and a weight separated by a space".into(),
            PatternsProblem::Pattern => "the pattern is not a canonical 36-bit shape in hexadecimal".into(),
            PatternsProblem::Weight => {
                format!(
                    "the weight must be a whole number from -{MAX_LOG} to {MAX_LOG} (its natural logarithm in thousandths)"
                )
            }
            PatternsProblem::Duplicate => "this pattern (or the 'near' line) is listed twice".into(),
            PatternsProblem::Near => format!(
                "'near' takes {} whole numbers from -{MAX_LOG} to {MAX_LOG}, one factor per distance to the last move",
                near::CLASSES
            ),
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

#[cfg(test)]
mod tests;
