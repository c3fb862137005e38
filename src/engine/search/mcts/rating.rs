//! How the tree search rates the moves of a node on the way down.

use std::sync::LazyLock;

use super::super::SearchConfig;
use super::Edge;

/// `1 / √(n + 1)` for the visit counts most moves have: a load from a
/// table that stays in the first-level cache instead of a square root and
/// a division for every move of every node on the way down.
static SHRINK: LazyLock<Box<[f32]>> =
    LazyLock::new(|| (0..4096u32).map(|n| (1.0 / f64::from(n + 1).sqrt()) as f32).collect());

/// How [`super::Mcts::select`] rates a move of a node: RAVE blended with the
/// plain mean, plus the prior's bonus and a little exploration.
///
/// With `n` visits winning `w`, `m` all-moves-as-first visits (prior
/// included) winning `a` and `k = 4 b²`, the minimum-error blend
/// `(1 − β) w/n + β a/m` with `β = m / (n + m + k n m)` is
/// `(w (1 + k m) + a) / (n + m + k n m)`: one division instead of three,
/// and the same value at `n = 0`. The prior's and the exploration's terms
/// share their `1 / √(n + 1)`, read from a table. This is the search's hottest loop
/// (docs/benchmarks.md, "The tree's own cost").
pub(super) struct Rating {
    /// The node's exploration constant times `√ln(parent visits + 1)`.
    exploration: f32,
    /// `4 b²` of the RAVE bias `b`.
    k: f32,
    rave_prior: f32,
    prior_weight: f32,
    shrink: &'static [f32],
}

impl Rating {
    /// The rating below a node visited `parent_visits` times; `at_root`
    /// picks the root's exploration constant.
    pub(super) fn at(config: &SearchConfig, parent_visits: u32, at_root: bool) -> Rating {
        let exploration = if at_root { config.root_exploration } else { config.exploration };
        Rating {
            exploration: exploration * ((parent_visits + 1) as f32).ln().sqrt(),
            k: 4.0 * config.rave_bias * config.rave_bias,
            rave_prior: config.rave_prior,
            prior_weight: config.prior_weight,
            shrink: &SHRINK,
        }
    }

    #[inline]
    pub(super) fn of(&self, edge: &Edge) -> f32 {
        let n_mc = edge.visits as f32;
        let n_rave = edge.amaf_visits as f32 + self.rave_prior;
        let amaf_wins = edge.amaf_wins + 0.5 * self.rave_prior;
        let km = self.k * n_rave;
        let blended = (edge.wins * (1.0 + km) + amaf_wins) / (n_mc + n_rave + km * n_mc);
        let shrink = match self.shrink.get(edge.visits as usize) {
            Some(&s) => s,
            None => 1.0 / (n_mc + 1.0).sqrt(),
        };
        blended + (self.prior_weight * edge.prior + self.exploration) * shrink
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::mcts::NONE;

    /// The rating as the minimum-error schedule writes it, term by term.
    fn textbook(config: &SearchConfig, parent_visits: u32, e: &Edge) -> f64 {
        let (n, w) = (f64::from(e.visits), f64::from(e.wins));
        let prior = f64::from(config.rave_prior);
        let (m, a) = (f64::from(e.amaf_visits) + prior, f64::from(e.amaf_wins) + 0.5 * prior);
        let b = f64::from(config.rave_bias);
        let beta = m / (n + m + 4.0 * b * b * n * m);
        let mean = if n > 0.0 { w / n } else { 0.0 };
        let blended = (1.0 - beta) * mean + beta * a / m;
        let bonus = f64::from(config.prior_weight) * f64::from(e.prior) / (n + 1.0).sqrt();
        let explore = f64::from(config.exploration) * (f64::from(parent_visits + 1).ln() / (n + 1.0)).sqrt();
        blended + bonus + explore
    }

    #[test]
    fn the_rating_is_the_minimum_error_blend_with_its_bonuses() {
        let config = SearchConfig { rave_prior: 2.0, ..SearchConfig::default() };
        let mut checked = 0;
        for visits in [0u32, 1, 7, 300, 4095, 4096, 90_000] {
            for won in [0.0f32, 0.3, 1.0] {
                for amaf_visits in [0u32, 1, 40, 250_000] {
                    for amaf_won in [0.0f32, 0.55, 1.0] {
                        let edge = Edge {
                            cell: 0,
                            visits,
                            wins: won * visits as f32,
                            amaf_visits,
                            amaf_wins: amaf_won * amaf_visits as f32,
                            child: NONE,
                            prior: 0.04,
                        };
                        let parent = visits * 3 + 5;
                        let fast = f64::from(Rating::at(&config, parent, false).of(&edge));
                        let expected = textbook(&config, parent, &edge);
                        assert!((fast - expected).abs() < 1e-5, "{edge:?}: {fast} against {expected}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 252);
    }

    #[test]
    fn the_root_explores_by_its_own_constant() {
        let config = SearchConfig { exploration: 0.1, root_exploration: 0.5, ..SearchConfig::default() };
        let edge = Edge { cell: 0, visits: 40, wins: 20.0, amaf_visits: 90, amaf_wins: 45.0, child: NONE, prior: 0.04 };
        let as_root = SearchConfig { exploration: 0.5, ..config };
        let root = f64::from(Rating::at(&config, 1000, true).of(&edge));
        let inner = f64::from(Rating::at(&config, 1000, false).of(&edge));
        assert!((root - textbook(&as_root, 1000, &edge)).abs() < 1e-5);
        assert!((inner - textbook(&config, 1000, &edge)).abs() < 1e-5);
        assert!(root > inner);
    }
}
