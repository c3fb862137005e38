//! Answers to the stone just played: how much more likely a good player is
//! to take each cell near the opponent's last stone than a cell far from
//! it, given what surrounds that stone. The playouts use them to answer
//! locally, as MoHex 2.0's local playout patterns do, instead of only
//! saving bridges.
//!
//! A key is the six cells adjacent to the last stone, as the side to move
//! sees them (a Blue mover's board read transposed, as in [`super::shape`],
//! and a key and its half turn are one); the answer slots are the eighteen
//! cells within two steps of the stone. Each (key, slot) has a weight γ
//! against the far cells' 1, fitted by minorization-maximization on the
//! competitions of self-play positions ([`fit`]).

use super::super::cell::Cell;
use super::super::color::Color;
use super::super::position::Position;

/// Cells within two steps of a stone: six adjacent, six bridge points, six
/// two steps straight.
pub const SLOTS: usize = 18;

/// Keys: the six adjacent cells, each empty, the mover's or the
/// opponent's, as a base-3 number.
pub const KEYS: usize = 729;

/// The first line of an answers file, with its format version.
pub const HEADER: &str = "hexarena-answers 1";

/// The answers this build ships with.
pub const BUILTIN: &str = include_str!("answers.txt");

/// The six directions in ring order; the half turn maps `k` to `k + 3`.
pub const RING: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The offset of answer slot `slot` from the last stone, in the board's
/// own frame.
pub fn slot_offset(slot: usize) -> (i8, i8) {
    let (a, b) = (RING[slot % 6], RING[(slot + 1) % 6]);
    match slot / 6 {
        0 => a,
        1 => (a.0 + b.0, a.1 + b.1),
        _ => (2 * a.0, 2 * a.1),
    }
}

/// A neighbour's colour in an absolute code (two bits each, ring order).
pub const EMPTY: usize = 0;
pub const RED: usize = 1;
pub const BLUE: usize = 2;

/// Where the mover's view of a last stone's surroundings lands in the
/// table: its key, and whether its slots are read half turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub key: u16,
    pub turned: bool,
    /// Whether the key is its own half turn: its slot `k` and `k + 3`
    /// are then the same answer, kept as one.
    pub symmetric: bool,
}

/// Ring direction `k` of the board as a Blue mover's transposed board
/// sees it.
fn transposed(k: usize) -> usize {
    5 - k
}

/// The mover's frame of an absolute code of the six neighbours (`None`
/// for a code no board has).
pub fn frame(code: usize, mover: Color) -> Option<Frame> {
    let mut digits = [0u16; 6];
    for (k, digit) in digits.iter_mut().enumerate() {
        let at = match mover {
            Color::Red => k,
            Color::Blue => transposed(k),
        };
        *digit = match ((code >> (2 * at)) & 3, mover) {
            (EMPTY, _) => 0,
            (RED, Color::Red) | (BLUE, Color::Blue) => 1,
            (RED, Color::Blue) | (BLUE, Color::Red) => 2,
            _ => return None,
        };
    }
    let number = |turn: usize| (0..6).rev().fold(0u16, |n, k| n * 3 + digits[(k + turn) % 6]);
    let (plain, half) = (number(0), number(3));
    Some(Frame { key: plain.min(half), turned: half < plain, symmetric: half == plain })
}

/// The slot of the table that the board's slot `slot` is in `frame`,
/// for `mover`.
pub fn frame_slot(slot: usize, mover: Color, frame: Frame) -> usize {
    let (ring, k) = (slot / 6, slot % 6);
    let k = match (mover, ring) {
        (Color::Red, _) => k,
        // Transposing swaps a bridge point's two directions: the point
        // between k and k+1 becomes the one between 4-k and 5-k.
        (Color::Blue, 1) => (10 - k) % 6,
        (Color::Blue, _) => transposed(k),
    };
    let k = if frame.turned { (k + 3) % 6 } else { k };
    let k = if frame.symmetric { k % 3 } else { k };
    ring * 6 + k
}

/// Weights of the answer slots for every key.
#[derive(Clone, Debug, PartialEq)]
pub struct Answers {
    gamma: Vec<[f32; SLOTS]>,
}

/// Why an answers file did not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswersError {
    pub line: usize,
    pub problem: &'static str,
}

impl std::fmt::Display for AnswersError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "answers file, line {}: {}", self.line, self.problem)
    }
}

/// A weight's largest logarithm in the file, in thousandths.
const MAX_LOG: i32 = 20_000;

impl Answers {
    /// Every slot at the far cells' weight.
    pub fn neutral() -> Answers {
        Answers { gamma: vec![[1.0; SLOTS]; KEYS] }
    }

    /// The weight of `slot` (in the table's frame) under `key`.
    #[inline]
    pub fn gamma(&self, key: u16, slot: usize) -> f32 {
        self.gamma[key as usize][slot]
    }

    /// Sets the weight of `slot` (in the table's frame) under `key`.
    pub fn set(&mut self, key: u16, slot: usize, gamma: f32) {
        self.gamma[key as usize][slot] = gamma;
    }

    /// The answers this build ships with.
    pub fn builtin() -> &'static Answers {
        static BUILT: std::sync::OnceLock<Answers> = std::sync::OnceLock::new();
        // Checked by a test; a broken file only leaves the answers neutral.
        BUILT.get_or_init(|| Answers::parse(BUILTIN).unwrap_or_else(|_| Answers::neutral()))
    }

    /// Reads an answers file: the header, then `KEY SLOT LOG` lines, the
    /// weight's natural logarithm in thousandths (unlisted: weight 1).
    pub fn parse(text: &str) -> Result<Answers, AnswersError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, HEADER)) => {}
            Some((line, _)) => return Err(AnswersError { line, problem: "the first line is not the header" }),
            None => return Err(AnswersError { line: 0, problem: "the file is empty" }),
        }
        let mut answers = Answers::neutral();
        for (line, text) in lines {
            let fail = |problem| AnswersError { line, problem };
            let mut fields = text.split_whitespace().map(str::parse::<i32>);
            let (Some(Ok(key)), Some(Ok(slot)), Some(Ok(log)), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(fail("expected KEY SLOT LOG, three whole numbers"));
            };
            if !(0..KEYS as i32).contains(&key) || !(0..SLOTS as i32).contains(&slot) {
                return Err(fail("key or slot out of range"));
            }
            if !(-MAX_LOG..=MAX_LOG).contains(&log) {
                return Err(fail("weight out of range"));
            }
            answers.gamma[key as usize][slot as usize] = (log as f32 / 1000.0).exp();
        }
        Ok(answers)
    }

    /// The file of these weights (those that differ from 1), after
    /// `comment` lines.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str(HEADER);
        out.push('\n');
        for (key, slots) in self.gamma.iter().enumerate() {
            for (slot, &g) in slots.iter().enumerate() {
                let log = ((g.ln() * 1000.0).round() as i32).clamp(-MAX_LOG, MAX_LOG);
                if log != 0 {
                    out.push_str(&format!("{key} {slot} {log}\n"));
                }
            }
        }
        out
    }
}

/// One position of a training game seen from the last stone: the table
/// slots that were empty, how many empty cells lay further away, and what
/// was played (a slot, or `None` for a far cell).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Competition {
    pub key: u16,
    pub slots: Vec<u8>,
    pub far: u32,
    pub chosen: Option<u8>,
}

impl Competition {
    /// The competition of `position` (side to move) after the opponent's
    /// stone on `last`, won by `played`.
    pub fn of(position: &Position, last: Cell, played: Cell) -> Option<Competition> {
        let n = position.size() as i16;
        let at = |(dq, dr): (i8, i8)| {
            let (q, r) = (last.q as i16 + dq as i16, last.r as i16 + dr as i16);
            // Off the board, the edge's owner (Red's edges bound q).
            if q < 0 || q >= n {
                Err(RED)
            } else if r < 0 || r >= n {
                Err(BLUE)
            } else {
                Ok(Cell::new(q as u8, r as u8))
            }
        };
        let colour = |c: Option<Color>| match c {
            None => EMPTY,
            Some(Color::Red) => RED,
            Some(Color::Blue) => BLUE,
        };
        let code = (0..6).fold(0, |code, k| {
            let bits = at(RING[k]).map_or_else(|edge| edge, |cell| colour(position.stone(cell)));
            code | bits << (2 * k)
        });
        let mover = position.to_move();
        let frame = frame(code, mover)?;
        let mut slots = Vec::with_capacity(SLOTS);
        let mut chosen = None;
        for slot in 0..SLOTS {
            let Ok(cell) = at(slot_offset(slot)) else { continue };
            if position.stone(cell).is_none() {
                let s = frame_slot(slot, mover, frame) as u8;
                slots.push(s);
                if cell == played {
                    chosen = Some(s);
                }
            }
        }
        let far = (position.empty_cells().count() - slots.len()) as u32;
        Some(Competition { key: frame.key, slots, far, chosen })
    }
}

/// What a fit achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub answers: Answers,
    /// Mean log-likelihood of the played moves before and after.
    pub before: f64,
    pub after: f64,
}

/// Fits the slot weights by minorization-maximization (far cells weigh 1),
/// with a prior of one win and one loss against weight 1 for each.
pub fn fit(competitions: &[Competition], iterations: u32) -> Fit {
    let mut answers = Answers::neutral();
    let before = log_likelihood(competitions, &answers);
    let mut wins = vec![[0f64; SLOTS]; KEYS];
    for c in competitions {
        if let Some(s) = c.chosen {
            wins[c.key as usize][s as usize] += 1.0;
        }
    }
    for _ in 0..iterations {
        let mut denominators = vec![[0f64; SLOTS]; KEYS];
        for c in competitions {
            let total = c.far as f64 + c.slots.iter().map(|&s| answers.gamma(c.key, s as usize) as f64).sum::<f64>();
            for &s in &c.slots {
                denominators[c.key as usize][s as usize] += 1.0 / total;
            }
        }
        for key in 0..KEYS {
            for slot in 0..SLOTS {
                let g = answers.gamma[key][slot] as f64;
                let updated = (wins[key][slot] + 1.0) / (denominators[key][slot] + 2.0 / (1.0 + g));
                answers.gamma[key][slot] = updated as f32;
            }
        }
    }
    let after = log_likelihood(competitions, &answers);
    Fit { answers, before, after }
}

/// Mean log-likelihood of the played moves under `answers` (a far cell's
/// chance is shared by all of them: each has weight 1).
pub fn log_likelihood(competitions: &[Competition], answers: &Answers) -> f64 {
    let sum: f64 = competitions
        .iter()
        .map(|c| {
            let total = c.far as f64 + c.slots.iter().map(|&s| answers.gamma(c.key, s as usize) as f64).sum::<f64>();
            let chosen = c.chosen.map_or(1.0, |s| answers.gamma(c.key, s as usize) as f64);
            (chosen / total).ln()
        })
        .sum();
    sum / competitions.len().max(1) as f64
}

#[cfg(test)]
mod tests;
