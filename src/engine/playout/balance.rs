//! Simulation balancing: playout weights fitted so that the playouts'
//! average result from a position matches a stronger judge's value of it
//! (Silver and Tesauro, "Monte-Carlo simulation balancing", 2009; Huang,
//! Coulom and Lin, "Simulation balancing in practice", 2010), where
//! [`crate::engine::patterns::mm`] fits them to predict the moves played.
//! Playouts that predict moves well can still misjudge positions, since
//! nothing makes their mistakes cancel between the sides; balancing fits
//! the misjudgement itself.
//!
//! The policy is the engine's weighted playout ([`BridgePlayouts`]):
//! bridges saved first, else a draw among the empty cells in proportion to
//! the weight of the shape the mover sees around each cell (its six
//! neighbours, up to a half turn). There is one parameter per canonical
//! shape, the weight's logarithm; the gradient of the mean result is the
//! result times the sum of `∇ log π` over the drawn moves of both sides
//! (the saved bridges are not drawn and add nothing).

use super::super::bits::{Bits, Masks};
use super::super::color::Color;
use super::super::patterns::playout::{CODES, mover_frame};
use super::super::patterns::{Patterns, shape};
use super::super::position::Position;
pub use super::super::rng::Rng;
use super::super::stones::Stones;
use super::{BridgePlayouts, EMPTY, RED, code, with_stone};

/// The largest board the balancer plays on (its boards are 128-bit sets).
pub const MAX_SIZE: u8 = 11;

/// The largest size of a logarithmic weight: keeps every cell drawable.
pub const MAX_LOG: f64 = 7.0;

/// A position and the judge's value of it.
#[derive(Clone, Debug)]
pub struct Sample {
    size: u8,
    stones: Stones<u128>,
    /// The chance that the side to move wins, 0 to 1.
    value: f64,
}

/// Why a position cannot be a sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SampleError {
    /// The board is larger than [`MAX_SIZE`].
    TooLarge,
    /// The value is not a chance from 0 to 1.
    Value,
    /// No empty cell is left to play out.
    Full,
}

impl std::fmt::Display for SampleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SampleError::TooLarge => write!(f, "the balancer plays boards of up to {MAX_SIZE}×{MAX_SIZE}"),
            SampleError::Value => write!(f, "a value must be a win chance from 0 to 1"),
            SampleError::Full => write!(f, "the position has no empty cell to play out"),
        }
    }
}

impl std::error::Error for SampleError {}

impl Sample {
    /// `position`, which the side to move wins with chance `value`.
    pub fn new(position: &Position, value: f64) -> Result<Sample, SampleError> {
        let size = position.size();
        if size > MAX_SIZE {
            return Err(SampleError::TooLarge);
        }
        if !(0.0..=1.0).contains(&value) {
            return Err(SampleError::Value);
        }
        let stones = Stones::from_position(position);
        if stones.empty_cells(&Masks::<u128>::new(size)).is_zero() {
            return Err(SampleError::Full);
        }
        Ok(Sample { size, stones, value })
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    pub fn value(&self) -> f64 {
        self.value
    }
}

/// The parameters: one logarithmic weight per canonical shape of the six
/// adjacent cells.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    shapes: Vec<u64>,
    logs: Vec<f64>,
}

impl Weights {
    /// Every valid canonical shape at weight 1: the uniform playout.
    pub fn uniform() -> Weights {
        let shapes: Vec<u64> = (0..1u64 << 12).filter(|&s| shape::is_valid(s) && shape::canonical(s) == s).collect();
        let logs = vec![0.0; shapes.len()];
        Weights { shapes, logs }
    }

    /// The shapes' weights as a pattern table, the open cell's weight 1,
    /// and the cap that keeps every weight in proportion when the engine's
    /// playouts read it (see [`crate::engine::patterns::playout`]).
    pub fn to_patterns(&self) -> (Patterns, f32) {
        let open = self.logs[self.index(0)];
        let table = Patterns::new(self.shapes.iter().zip(&self.logs).map(|(&s, &l)| (s, (l - open).exp() as f32)), 1.0);
        let top = self.logs.iter().fold(f64::MIN, |a, &b| a.max(b));
        (table, (top - open).exp() as f32)
    }

    fn index(&self, shape: u64) -> usize {
        self.shapes.binary_search(&shape).unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }
}

/// How hard a balancing step pushes.
#[derive(Clone, Copy, Debug)]
pub struct Balancing {
    /// Playouts that estimate a sample's value.
    pub value_playouts: usize,
    /// Further playouts that estimate its gradient.
    pub gradient_playouts: usize,
    pub rate: f64,
    /// The largest size a weight's logarithm may take (up to
    /// [`MAX_LOG`]): a small one keeps the playouts near uniform.
    pub limit: f64,
}

/// Plays out samples with given weights, recording what the gradient
/// needs.
#[derive(Clone, Debug)]
pub struct Balancer {
    size: u8,
    playouts: BridgePlayouts<u128>,
    masks: Masks<u128>,
    /// Per mover and neighbour code: the index of the shape the mover sees.
    shape_of: Box<[[u16; CODES]; 2]>,
    empties: Vec<u16>,
    /// The neighbour code of each cell, kept up to date move by move.
    codes: Vec<u16>,
    /// `∇ log π` summed over one playout's draws.
    score: Vec<f64>,
    /// The current weights, exponentiated.
    gammas: Vec<f64>,
}

impl Balancer {
    pub fn new(size: u8, weights: &Weights) -> Result<Balancer, SampleError> {
        if size > MAX_SIZE {
            return Err(SampleError::TooLarge);
        }
        let mut shape_of = Box::new([[0u16; CODES]; 2]);
        for (m, mover) in [Color::Red, Color::Blue].into_iter().enumerate() {
            for (c, slot) in shape_of[m].iter_mut().enumerate() {
                *slot = mover_frame(c, mover).map_or(0, |f| weights.index(shape::canonical(f)) as u16);
            }
        }
        let cells = size as usize * size as usize;
        Ok(Balancer {
            size,
            playouts: BridgePlayouts::new(size),
            masks: Masks::new(size),
            shape_of,
            empties: Vec::with_capacity(cells),
            codes: vec![0; cells],
            score: vec![0.0; weights.len()],
            gammas: weights.logs.iter().map(|l| l.exp()).collect(),
        })
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// Takes up new weights (of the same shapes).
    pub fn set_weights(&mut self, weights: &Weights) {
        for (g, l) in self.gammas.iter_mut().zip(&weights.logs) {
            *g = l.exp();
        }
    }

    /// One playout from `sample`; whether its side to move won. With
    /// `scoring`, `self.score` holds the playout's `∇ log π` afterwards.
    fn playout(&mut self, sample: &Sample, rng: &mut Rng, scoring: bool) -> bool {
        let from = &sample.stones;
        let p = &mut self.playouts;
        let cells = p.cells();
        p.set_board(from);
        self.empties.clear();
        self.empties.extend(from.empty_cells(&self.masks).ones().map(|i| i as u16));
        for &c in &self.empties {
            self.codes[c as usize] = p.code(c as usize) as u16;
        }
        if scoring {
            self.score.fill(0.0);
        }
        let mut mover = from.to_move;
        let mut reply: Option<usize> = None;
        while !self.empties.is_empty() {
            let m = mover as usize & 1;
            let at = match reply.take().filter(|&c| self.playouts.owner[c] == EMPTY) {
                Some(c) => self.empties.iter().position(|&e| e as usize == c).unwrap_or(0),
                None => self.draw(m, rng, scoring),
            };
            let cell = self.empties.swap_remove(at) as usize;
            let colour = code(mover);
            let p = &mut self.playouts;
            p.owner[cell] = colour;
            for (k, &n) in p.adjacent[cell].iter().enumerate() {
                if p.owner[n as usize] == EMPTY {
                    self.codes[n as usize] = with_stone(self.codes[n as usize], k, colour);
                }
            }
            mover = mover.opponent();
            reply = p.bridge_reply(cell, code(mover));
        }
        let red = (0..cells).filter(|&c| self.playouts.owner[c] == RED).fold(0u128, |r, c| r | 1 << c);
        let red_won = self.masks.red_connects(red);
        red_won == (from.to_move == Color::Red)
    }

    /// Draws the next cell for mover `m` by the weights, as an index into
    /// `empties`, adding its `∇ log π` to the score when asked.
    fn draw(&mut self, m: usize, rng: &mut Rng, scoring: bool) -> usize {
        let shapes = &self.shape_of[m];
        let total: f64 =
            self.empties.iter().map(|&c| self.gammas[shapes[self.codes[c as usize] as usize] as usize]).sum();
        let mut r = rng.unit() * total;
        let mut chosen = self.empties.len() - 1;
        for (i, &c) in self.empties.iter().enumerate() {
            r -= self.gammas[shapes[self.codes[c as usize] as usize] as usize];
            if r < 0.0 {
                chosen = i;
                break;
            }
        }
        if scoring {
            for &c in &self.empties {
                let s = shapes[self.codes[c as usize] as usize] as usize;
                self.score[s] -= self.gammas[s] / total;
            }
            let s = shapes[self.codes[self.empties[chosen] as usize] as usize] as usize;
            self.score[s] += 1.0;
        }
        chosen
    }

    /// The share of `playouts` playouts from `sample` that its side to
    /// move wins.
    pub fn estimate(&mut self, sample: &Sample, playouts: usize, rng: &mut Rng) -> f64 {
        let wins = (0..playouts).filter(|_| self.playout(sample, rng, false)).count();
        wins as f64 / playouts.max(1) as f64
    }

    /// Adds `sample`'s balancing step to `step` (one entry per shape):
    /// `(value − V̂) · mean((z − V̂) ∇ log π)`, from two independent sets of
    /// playouts, and returns the squared error `(value − V̂)²`.
    pub fn accumulate(&mut self, sample: &Sample, how: Balancing, rng: &mut Rng, step: &mut [f64]) -> f64 {
        let estimate = self.estimate(sample, how.value_playouts, rng);
        let error = sample.value - estimate;
        let scale = error / how.gradient_playouts.max(1) as f64;
        for _ in 0..how.gradient_playouts {
            let won = f64::from(u8::from(self.playout(sample, rng, true)));
            let factor = scale * (won - estimate);
            for (s, g) in step.iter_mut().zip(&self.score) {
                *s += factor * g;
            }
        }
        error * error
    }
}

impl Weights {
    /// Moves the weights by `step` times `rate`, each logarithm kept within
    /// `limit` and the open cell's weight held at 1 (the draw depends only
    /// on ratios).
    pub fn apply(&mut self, step: &[f64], rate: f64, limit: f64) {
        let limit = limit.clamp(0.0, MAX_LOG);
        let open = self.index(0);
        for (i, (l, s)) in self.logs.iter_mut().zip(step).enumerate() {
            if i != open {
                *l = (*l + rate * s).clamp(-limit, limit);
            }
        }
    }

    /// The weights of a playout pattern file (the engine's playout.txt
    /// format), missing shapes at the file's default.
    pub fn from_patterns(patterns: &Patterns) -> Weights {
        let mut w = Weights::uniform();
        let open = patterns.weight(0).max(f32::MIN_POSITIVE).ln() as f64;
        for (s, l) in w.shapes.iter().zip(w.logs.iter_mut()) {
            *l = (patterns.weight(*s).max(f32::MIN_POSITIVE).ln() as f64 - open).clamp(-MAX_LOG, MAX_LOG);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;

    fn position(text: &str, n: u8) -> Position {
        Record::from_text(text, n).unwrap().to_game(false).unwrap().position().clone()
    }

    #[test]
    fn bad_samples_are_refused() {
        let p = position("5x5 c3", 5);
        assert_eq!(Sample::new(&p, 1.5).unwrap_err(), SampleError::Value);
        assert_eq!(Sample::new(&p, f64::NAN).unwrap_err(), SampleError::Value);
        assert_eq!(Sample::new(&position("13x13 g7", 13), 0.5).unwrap_err(), SampleError::TooLarge);
        assert!(Sample::new(&p, 0.25).is_ok());
    }

    #[test]
    fn uniform_weights_play_like_the_uniform_bridge_playout() {
        // On the empty 7×7 board the first player wins most random games,
        // more so when bridges are saved; both draws must agree.
        let p = position("7x7", 7);
        let sample = Sample::new(&p, 0.5).unwrap();
        let mut balancer = Balancer::new(7, &Weights::uniform()).unwrap();
        let mut rng = Rng::new(1);
        let ours = balancer.estimate(&sample, 4000, &mut rng);
        let mut engine = BridgePlayouts::<u128>::new(7);
        let empties: Vec<u16> = (0..49).collect();
        let red_wins = (0..4000)
            .filter(|_| {
                let full = engine.run(&sample.stones, &empties, None, &mut rng);
                engine.winner(&full) == Color::Red
            })
            .count();
        let theirs = red_wins as f64 / 4000.0;
        assert!((ours - theirs).abs() < 0.04, "{ours} against {theirs}");
        assert!(ours > 0.5, "{ours}");
    }

    #[test]
    fn balancing_moves_the_playouts_towards_the_values() {
        // Red, to move on the empty 5×5 board, wins with perfect play;
        // random playouts give it little more than half. Told that it wins
        // nine times in ten, a few hundred steps must make the playouts
        // play well enough to raise their estimate. (Both sides share the
        // weights, so no weights could take the first player's edge away.)
        let sample = Sample::new(&position("5x5", 5), 0.9).unwrap();
        let mut weights = Weights::uniform();
        let mut balancer = Balancer::new(5, &weights).unwrap();
        let mut rng = Rng::new(7);
        let before = balancer.estimate(&sample, 4000, &mut rng);
        let how = Balancing { value_playouts: 16, gradient_playouts: 16, rate: 4.0, limit: MAX_LOG };
        for _ in 0..500 {
            let mut step = vec![0.0; weights.len()];
            balancer.accumulate(&sample, how, &mut rng, &mut step);
            weights.apply(&step, how.rate, how.limit);
            balancer.set_weights(&weights);
        }
        let after = balancer.estimate(&sample, 4000, &mut rng);
        assert!(before > 0.52, "{before}");
        assert!(after > before + 0.1, "{before} → {after}");
        assert_ne!(weights, Weights::uniform());
    }

    #[test]
    fn weights_read_back_from_their_pattern_table() {
        let mut weights = Weights::uniform();
        let step: Vec<f64> = (0..weights.len()).map(|i| (i % 7) as f64 - 3.0).collect();
        weights.apply(&step, 0.5, MAX_LOG);
        let (table, cap) = weights.to_patterns();
        let back = Weights::from_patterns(&table);
        assert!(weights.logs.iter().zip(&back.logs).all(|(a, b)| (a - b).abs() < 2e-3));
        assert!((cap - 1.5f32.exp()).abs() < 0.01, "{cap}");
        // The engine's playouts read the table.
        assert!(crate::engine::patterns::playout::parse(&table.to_text("")).is_ok());
    }
}
