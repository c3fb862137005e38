//! Learning pattern weights from games: the generalised Bradley–Terry model
//! of Coulom's "Computing Elo ratings of move patterns in the game of Go"
//! (2007), fitted by minorization-maximization.
//!
//! Each position of a training game is a competition among its empty cells,
//! won by the cell that was played; a cell's strength is the weight γ of its
//! pattern, and the model says a cell wins with probability γ / Σγ. With one
//! pattern per cell the MM update has a closed form:
//! γᵢ ← Wᵢ / Σⱼ (cᵢⱼ / Eⱼ), with Wᵢ the wins of pattern i, cᵢⱼ how many
//! candidates of competition j have it and Eⱼ = Σₖ cₖⱼγₖ. A prior of one
//! win and one loss against a pattern of weight 1 keeps rare patterns near 1.
//!
//! A fit may also learn how much nearness to the move just played weighs
//! ([`super::near`]): a cell's strength is then its pattern's γ times its
//! distance class's, and the two kinds are updated in turn, each with the
//! other held fixed (the cᵢⱼ above then sum the other factor's γ).

use std::collections::HashMap;

use super::super::cell::Cell;
use super::super::game::{Game, Move};
use super::super::position::Position;
use super::near::{self, Proximity};
use super::{Patterns, Shapes, answers, shape};

/// One position of a training game: the patterns of the empty cells (as the
/// side to move sees them) and which of them was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    pub chosen: u64,
    pub candidates: Vec<u64>,
    /// The distance class of the played cell to the move before it.
    pub chosen_near: u8,
    /// The distance class of each candidate, in the same order.
    pub near: Vec<u8>,
}

/// How much of a cell's surroundings a pattern reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The whole shape, to distance 2: the tree's priors.
    Shape,
    /// The whole shape, fitted in layers ([`layer`]): the tree's priors,
    /// a rare shape weighing as its inner rings.
    Layered,
    /// The six adjacent cells only: the playouts' weights, cheap enough to
    /// read at every playout move.
    Adjacent,
    /// The twelve cells of an answer to the last stone, every cell far
    /// from it one pattern: the playouts' answers ([`answers`]).
    Answer,
}

impl Extent {
    /// The pattern of `cell`, whose shape is `shape`, read to this extent
    /// after a move on `last`.
    pub fn pattern(self, shape: u64, cell: Cell, last: Option<Cell>) -> u64 {
        match self {
            Extent::Shape | Extent::Layered => shape::canonical(shape),
            Extent::Adjacent => shape::canonical(shape & shape::ADJACENT),
            Extent::Answer => answers::key(shape, cell, last),
        }
    }
}

impl Sample {
    /// The competition of `position` (side to move, after `last`) won by
    /// `played`.
    pub fn of(shapes: &mut Shapes, position: &Position, last: Option<Cell>, played: Cell, extent: Extent) -> Sample {
        shapes.load_position(position);
        let n = position.size();
        let pattern = |cell: Cell| extent.pattern(shapes.loaded(cell.index(n)), cell, last);
        let class = |cell: Cell| near::class(cell.index(n), last.map(|l| l.index(n)), n);
        Sample {
            chosen: pattern(played),
            candidates: position.empty_cells().map(pattern).collect(),
            chosen_near: class(played),
            near: position.empty_cells().map(class).collect(),
        }
    }

    /// The competitions of a game's stones from move `from` on (a swap
    /// ends the list: what follows is still fine, but rare enough not to
    /// matter).
    pub fn of_game(game: &Game, from: usize, extent: Extent) -> Vec<Sample> {
        let mut shapes = Shapes::new(game.size());
        let mut samples = Vec::new();
        let mut last = None;
        for (i, m) in game.moves().iter().enumerate() {
            let Move::Place(cell) = m else { break };
            if i >= from {
                samples.push(Sample::of(&mut shapes, game.prefix(i).position(), last, *cell, extent));
            }
            last = Some(*cell);
        }
        samples
    }
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct Fitting {
    /// A pattern seen among the candidates fewer times than this shares the
    /// file's default weight.
    pub min_seen: u32,
    /// MM iterations.
    pub iterations: u32,
    /// Whether to learn factors for nearness to the last move as well.
    pub proximity: bool,
}

/// What the fit achieved, for the command's report.
#[derive(Clone, Debug, PartialEq)]
pub struct Fitted {
    pub patterns: Patterns,
    /// Mean log-likelihood of the chosen moves, per position, after each
    /// iteration.
    pub log_likelihood: Vec<f64>,
    /// Positions whose played cell had the heaviest pattern (ties shared).
    pub top_one: f64,
    /// Positions whose played cell was among the ten heaviest.
    pub top_ten: f64,
}

/// Rewrites samples of whole shapes ([`Extent::Shape`]) for a layered fit:
/// each candidate's pattern becomes the finest of its shape and its
/// coarser patterns ([`shape::coarser`]) seen at least `min_seen` times
/// among the candidates that no finer pattern took. A fit of the result
/// lists exactly the patterns that a lookup in the fitted table
/// ([`Patterns::weight`]) then finds first for each shape, so that rare
/// shapes weigh as their inner rings do rather than all alike.
pub fn layer(samples: &mut [Sample], min_seen: u32) {
    let seen = seen(samples);
    // Each shape's pattern, settled a level at a time.
    let mut settled: HashMap<u64, u64> = seen.iter().filter(|(_, n)| **n >= min_seen).map(|(p, _)| (*p, *p)).collect();
    for level in 0..2 {
        let at_level = |p: u64| shape::coarser(p).nth(level);
        let mut counts: HashMap<u64, u32> = HashMap::new();
        for (&p, &n) in seen.iter().filter(|(p, _)| !settled.contains_key(*p)) {
            if let Some(q) = at_level(p) {
                *counts.entry(q).or_default() += n;
            }
        }
        let open: Vec<u64> = seen.keys().filter(|p| !settled.contains_key(*p)).copied().collect();
        for p in open {
            // The coarsest level takes every shape left: the fit gives
            // the rare ones among them the default weight.
            match at_level(p) {
                Some(q) if level == 1 || counts[&q] >= min_seen => {
                    settled.insert(p, q);
                }
                _ => {}
            }
        }
    }
    let layered = |p: u64| settled.get(&p).copied().unwrap_or(p);
    for s in samples.iter_mut() {
        s.chosen = layered(s.chosen);
        s.candidates.iter_mut().for_each(|p| *p = layered(*p));
    }
}

/// A kind of candidate in a competition: its pattern's dense id (0: the
/// rare ones) and its distance class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Kind {
    id: u32,
    class: u8,
}

/// Competitions with patterns replaced by dense ids.
struct Competitions {
    chosen: Vec<Kind>,
    /// Each competition's kinds of candidates, with how many of each.
    members: Vec<Vec<(Kind, u32)>>,
    patterns: Vec<u64>,
}

/// The two kinds of weights being fitted.
struct Gammas {
    pattern: Vec<f64>,
    near: [f64; near::CLASSES],
}

impl Gammas {
    #[inline]
    fn of(&self, kind: Kind) -> f64 {
        self.pattern[kind.id as usize] * self.near[kind.class as usize]
    }
}

/// How many times each pattern is among the candidates.
fn seen(samples: &[Sample]) -> HashMap<u64, u32> {
    let mut seen: HashMap<u64, u32> = HashMap::new();
    for s in samples {
        for &p in &s.candidates {
            *seen.entry(p).or_default() += 1;
        }
    }
    seen
}

fn index(samples: &[Sample], min_seen: u32) -> Competitions {
    let seen = seen(samples);
    let mut patterns: Vec<u64> = seen.iter().filter(|(_, n)| **n >= min_seen).map(|(p, _)| *p).collect();
    patterns.sort_unstable();
    let ids: HashMap<u64, u32> = patterns.iter().enumerate().map(|(i, p)| (*p, i as u32 + 1)).collect();
    let id = |p: u64| ids.get(&p).copied().unwrap_or(0);
    let mut chosen = Vec::with_capacity(samples.len());
    let mut members = Vec::with_capacity(samples.len());
    // A candidate without a class counts as far.
    let far = (near::CLASSES - 1) as u8;
    for s in samples {
        let mut counts: HashMap<Kind, u32> = HashMap::new();
        for (i, &p) in s.candidates.iter().enumerate() {
            let class = s.near.get(i).copied().unwrap_or(far);
            *counts.entry(Kind { id: id(p), class }).or_default() += 1;
        }
        let mut list: Vec<(Kind, u32)> = counts.into_iter().collect();
        list.sort_unstable();
        chosen.push(Kind { id: id(s.chosen), class: s.chosen_near });
        members.push(list);
    }
    Competitions { chosen, members, patterns }
}

/// Fits pattern weights to `samples` (whose chosen pattern must be among
/// their candidates).
pub fn fit(samples: &[Sample], fitting: Fitting) -> Fitted {
    let c = index(samples, fitting.min_seen);
    let k = c.patterns.len() + 1;
    let mut wins = vec![1.0f64; k];
    let mut near_wins = [1.0f64; near::CLASSES];
    for &w in &c.chosen {
        wins[w.id as usize] += 1.0;
        near_wins[w.class as usize] += 1.0;
    }
    let mut gamma = Gammas { pattern: vec![1.0f64; k], near: [1.0; near::CLASSES] };
    let mut log_likelihood = Vec::new();
    for _ in 0..fitting.iterations {
        let mut denominator: Vec<f64> = gamma.pattern.iter().map(|g| 2.0 / (g + 1.0)).collect();
        let mut ll = 0.0;
        for (members, &chosen) in c.members.iter().zip(&c.chosen) {
            let total: f64 = members.iter().map(|&(kind, n)| n as f64 * gamma.of(kind)).sum();
            ll += (gamma.of(chosen) / total).ln();
            for &(kind, n) in members {
                denominator[kind.id as usize] += n as f64 * gamma.near[kind.class as usize] / total;
            }
        }
        for i in 0..k {
            gamma.pattern[i] = wins[i] / denominator[i];
        }
        if fitting.proximity {
            let mut denominator = gamma.near.map(|g| 2.0 / (g + 1.0));
            for members in &c.members {
                let total: f64 = members.iter().map(|&(kind, n)| n as f64 * gamma.of(kind)).sum();
                for &(kind, n) in members {
                    denominator[kind.class as usize] += n as f64 * gamma.pattern[kind.id as usize] / total;
                }
            }
            for (g, (w, d)) in gamma.near.iter_mut().zip(near_wins.iter().zip(denominator)) {
                *g = w / d;
            }
        }
        log_likelihood.push(ll / samples.len().max(1) as f64);
    }
    let (top_one, top_ten) = ranks(&c, &gamma);
    // Weights relative to the rare patterns' shared weight, and to the
    // furthest class.
    let base = gamma.pattern[0];
    let patterns = Patterns::new(c.patterns.iter().zip(&gamma.pattern[1..]).map(|(p, g)| (*p, (g / base) as f32)), 1.0);
    let far = gamma.near[near::CLASSES - 1];
    let proximity = fitting.proximity.then(|| Proximity { factors: gamma.near.map(|g| (g / far) as f32) });
    Fitted { patterns: patterns.with_proximity(proximity), log_likelihood, top_one, top_ten }
}

/// How far up its competition the chosen candidate ranks, given the
/// weight of each kind of candidate and how many there are of it: its
/// share of the first place and of the ten first places (ties shared).
fn placing(chosen: f64, members: impl Iterator<Item = (f64, u32)> + Clone) -> (f64, f64) {
    let heavier: u32 = members.clone().filter(|&(w, _)| w > chosen).map(|(_, n)| n).sum();
    let equal: u32 = members.filter(|&(w, _)| w == chosen).map(|(_, n)| n).sum::<u32>().max(1);
    let one = if heavier == 0 { 1.0 / equal as f64 } else { 0.0 };
    let ten = if heavier < 10 { (10 - heavier).min(equal) as f64 / equal as f64 } else { 0.0 };
    (one, ten)
}

/// Shares of competitions won by the heaviest and a top-ten candidate.
fn ranks(c: &Competitions, gamma: &Gammas) -> (f64, f64) {
    let (mut one, mut ten) = (0.0, 0.0);
    for (members, &chosen) in c.members.iter().zip(&c.chosen) {
        let (o, t) = placing(gamma.of(chosen), members.iter().map(|&(kind, n)| (gamma.of(kind), n)));
        one += o;
        ten += t;
    }
    let n = c.chosen.len().max(1) as f64;
    (one / n, ten / n)
}

/// How well a pattern file predicts the moves of some games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Mean log-likelihood of the chosen moves, per position.
    pub log_likelihood: f64,
    /// Share of positions whose played cell weighed the most (ties shared).
    pub top_one: f64,
    /// Share of positions whose played cell was among the ten heaviest.
    pub top_ten: f64,
}

/// How well `patterns` (with their nearness factors, if any) predict the
/// moves of `samples`: the figures a fit reports about its own games, for
/// games it was not fitted to.
pub fn predict(samples: &[Sample], patterns: &Patterns) -> Prediction {
    let far = (near::CLASSES - 1) as u8;
    let weight = |pattern: u64, class: u8| {
        (patterns.weight(pattern) * patterns.proximity().map_or(1.0, |p| p.factor(class))) as f64
    };
    let (mut log_likelihood, mut top_one, mut top_ten) = (0.0, 0.0, 0.0);
    for s in samples {
        let chosen = weight(s.chosen, s.chosen_near);
        let members =
            s.candidates.iter().enumerate().map(|(i, &p)| (weight(p, s.near.get(i).copied().unwrap_or(far)), 1));
        log_likelihood += (chosen / members.clone().map(|(w, _)| w).sum::<f64>()).ln();
        let (one, ten) = placing(chosen, members);
        top_one += one;
        top_ten += ten;
    }
    let n = samples.len().max(1) as f64;
    Prediction { log_likelihood: log_likelihood / n, top_one: top_one / n, top_ten: top_ten / n }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A competition with no move before it: every candidate is far.
    fn sample(chosen: u64, candidates: Vec<u64>) -> Sample {
        let far = (near::CLASSES - 1) as u8;
        Sample { chosen, near: vec![far; candidates.len()], candidates, chosen_near: far }
    }

    #[test]
    fn a_fit_with_proximity_learns_that_answers_come_next_to_the_last_move() {
        // Four cells of one pattern; the one adjacent to the last move is
        // played three times in four, the one two away otherwise.
        let samples: Vec<Sample> = (0..200)
            .map(|i| Sample {
                chosen: 9,
                candidates: vec![9; 4],
                chosen_near: if i % 4 == 0 { 1 } else { 0 },
                near: vec![0, 1, 3, 3],
            })
            .collect();
        let fitted = fit(&samples, Fitting { min_seen: 1, iterations: 200, proximity: true });
        let factors = fitted.patterns.proximity().expect("factors fitted").factors;
        assert_eq!(factors[3], 1.0, "the furthest class is the unit");
        assert!(factors[0] > 2.5 * factors[1], "{factors:?}");
        assert!(factors[1] > 5.0 * factors[3], "{factors:?}");
        // The pattern alone predicts nothing here; with the classes, the
        // adjacent cell is the heaviest, as it was played most.
        assert!(fitted.top_one > 0.7, "{}", fitted.top_one);
        // Without proximity the same games leave every candidate equal.
        let plain = fit(&samples, Fitting { min_seen: 1, iterations: 50, proximity: false });
        assert_eq!(plain.patterns.proximity(), None);
        assert!(plain.log_likelihood.last() < fitted.log_likelihood.last());
        // Measured again from the written weights, the fit's own games
        // score as the fit reported (up to the file's precision).
        let again = predict(&samples, &fitted.patterns);
        assert!((again.top_one - fitted.top_one).abs() < 1e-9, "{again:?}");
        assert!((again.top_ten - fitted.top_ten).abs() < 1e-9, "{again:?}");
        assert!((again.log_likelihood - fitted.log_likelihood[199]).abs() < 1e-2, "{again:?}");
        assert!(predict(&samples, &plain.patterns).log_likelihood < again.log_likelihood);
    }

    #[test]
    fn a_pattern_always_chosen_outweighs_one_never_chosen() {
        // Pattern 1 wins every competition against two of pattern 2.
        let samples: Vec<Sample> = (0..50).map(|_| sample(1, vec![1, 2, 2])).collect();
        let fitted = fit(&samples, Fitting { min_seen: 1, iterations: 50, proximity: false });
        let (a, b) = (fitted.patterns.weight(1), fitted.patterns.weight(2));
        assert!(a > 20.0 * b, "{a} vs {b}");
        assert_eq!(fitted.top_one, 1.0);
        // The likelihood only grows.
        assert!(fitted.log_likelihood.windows(2).all(|w| w[1] >= w[0] - 1e-9));
    }

    #[test]
    fn weights_follow_the_share_of_choices() {
        // Against each other, 3 chosen 3 times as often as 4: the fitted
        // ratio is close to 3 (the prior pulls it a little towards 1).
        let mut samples = Vec::new();
        for i in 0..400 {
            let chosen = if i % 4 == 0 { 4 } else { 3 };
            samples.push(sample(chosen, vec![3, 4]));
        }
        let fitted = fit(&samples, Fitting { min_seen: 1, iterations: 100, proximity: false });
        let ratio = fitted.patterns.weight(3) / fitted.patterns.weight(4);
        assert!((2.7..3.1).contains(&ratio), "{ratio}");
    }

    #[test]
    fn a_layered_fit_weighs_rare_shapes_by_their_inner_rings_as_its_lookup_does() {
        // A lone stone of the mover's beside the cell is common and often chosen; the rare
        // shapes with the same adjacent cells and something further out
        // are chosen as often as it, the rare shapes with an empty
        // neighbourhood never.
        let common = shape::canonical(0b01);
        // Six outer rings, one stone on cell 13, 14 or 15: each seen 20
        // times, too rarely for a weight of its own.
        let outer = |i: u64| ((i % 2) + 1) << (2 * (13 + (i / 2) % 3));
        let rare = |i: u64| shape::canonical(0b01 | outer(i));
        let empty_rare = |i: u64| shape::canonical(outer(i));
        let mut samples: Vec<Sample> = (0..120u64)
            .map(|i| {
                let chosen = if i % 2 == 0 { common } else { rare(i) };
                sample(chosen, vec![common, rare(i), empty_rare(i), 0])
            })
            .collect();
        let whole = samples.clone();
        layer(&mut samples, 40);
        assert!(samples.iter().all(|s| s.candidates.contains(&s.chosen)));
        let fitted = fit(&samples, Fitting { min_seen: 40, iterations: 100, proximity: false });
        // A rare shape weighs as its adjacent cells (those of `common`
        // with nothing beyond, read as any beyond), far above the rare
        // shapes with empty adjacent cells.
        let (r, e) = (fitted.patterns.weight(rare(1)), fitted.patterns.weight(empty_rare(1)));
        assert!(r > 5.0 * e, "{r} against {e}");
        // The fitted table, looked up shape by shape, predicts the whole
        // shapes as the fit predicted its layered samples.
        let again = predict(&whole, &fitted.patterns);
        assert!(
            (again.log_likelihood - fitted.log_likelihood[99]).abs() < 1e-2,
            "{again:?} {:?}",
            fitted.log_likelihood[99]
        );
        // Without layers the rare shapes all share the default.
        let flat = fit(&whole, Fitting { min_seen: 40, iterations: 100, proximity: false });
        assert_eq!(flat.patterns.weight(rare(1)), flat.patterns.weight(empty_rare(1)));
        assert!(predict(&whole, &flat.patterns).log_likelihood < again.log_likelihood);
    }

    #[test]
    fn rare_patterns_share_the_default_weight() {
        let mut samples = vec![sample(7, vec![7, 8])];
        samples.extend((0..30).map(|_| sample(5, vec![5, 6])));
        let fitted = fit(&samples, Fitting { min_seen: 5, iterations: 30, proximity: false });
        assert_eq!(fitted.patterns.len(), 2);
        assert_eq!(fitted.patterns.weight(7), 1.0);
        assert_eq!(fitted.patterns.weight(8), 1.0);
        assert!(fitted.patterns.weight(5) > fitted.patterns.weight(6));
    }
}
