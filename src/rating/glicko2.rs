//! The Glicko-2 update, on the familiar scale (new players start at 1500,
//! deviation 350, volatility 0.06).

use serde::{Deserialize, Serialize};

/// Converts between the Glicko and Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much volatility may change (0.3–1.2 is usual).
pub const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A player's rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko2 {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Glicko2 {
    /// A new player.
    fn default() -> Self {
        Glicko2 { rating: 1500.0, deviation: 350.0, volatility: 0.06 }
    }
}

/// A game's result for the player being rated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
}

impl Outcome {
    fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Loss => 0.0,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

impl Glicko2 {
    /// The rating after one period with these games (opponent's rating
    /// before the period, result). No games: only the deviation grows.
    pub fn update(self, games: &[(Glicko2, Outcome)]) -> Glicko2 {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Glicko2 { deviation: (phi_star * SCALE).min(350.0), ..self };
        }
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for (opponent, outcome) in games {
            let mu_j = (opponent.rating - 1500.0) / SCALE;
            let g_j = g(opponent.deviation / SCALE);
            let e = 1.0 / (1.0 + (-g_j * (mu - mu_j)).exp());
            v_inv += g_j * g_j * e * (1.0 - e);
            sum += g_j * (outcome.score() - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;

        // The new volatility: the root of f by the Illinois method.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        for _ in 0..200 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma_new = (big_a / 2.0).exp();
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko2 { rating: mu_new * SCALE + 1500.0, deviation: phi_new * SCALE, volatility: sigma_new }
    }

    /// Both players after one game between them.
    pub fn after_game(winner: Glicko2, loser: Glicko2) -> (Glicko2, Glicko2) {
        (winner.update(&[(loser, Outcome::Win)]), loser.update(&[(winner, Outcome::Loss)]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn glickmans_worked_example() {
        // Glickman, "Example of the Glicko-2 system" (2013), section 3.
        let player = Glicko2 { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let games = [
            (Glicko2 { rating: 1400.0, deviation: 30.0, volatility: 0.06 }, Outcome::Win),
            (Glicko2 { rating: 1550.0, deviation: 100.0, volatility: 0.06 }, Outcome::Loss),
            (Glicko2 { rating: 1700.0, deviation: 300.0, volatility: 0.06 }, Outcome::Loss),
        ];
        let after = player.update(&games);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_win_raises_and_a_loss_lowers_and_both_grow_surer() {
        let (w, l) = Glicko2::after_game(Glicko2::default(), Glicko2::default());
        assert!(w.rating > 1500.0 && l.rating < 1500.0);
        assert!(close(w.rating - 1500.0, 1500.0 - l.rating, 1e-9), "symmetric for equal players");
        assert!(w.deviation < 350.0 && l.deviation < 350.0);
        // Beating a much weaker, well-known player gains little.
        let strong = Glicko2 { rating: 2000.0, deviation: 50.0, volatility: 0.06 };
        let weak = Glicko2 { rating: 1200.0, deviation: 50.0, volatility: 0.06 };
        let (s, _) = Glicko2::after_game(strong, weak);
        assert!(s.rating - strong.rating < 2.0);
    }

    #[test]
    fn an_idle_period_only_widens_the_deviation() {
        let p = Glicko2 { rating: 1600.0, deviation: 80.0, volatility: 0.06 };
        let q = p.update(&[]);
        assert_eq!(q.rating, 1600.0);
        assert!(q.deviation > 80.0);
    }
}
