//! Player ratings. hexarena uses Glicko-2 (Glickman, 2013): a rating, a
//! deviation that says how sure the rating is, and a volatility. Every
//! rated game is its own rating period, so a result moves both players at
//! once and new players (high deviation) move fast.

pub mod class;
pub mod glicko2;

pub use class::{PROVISIONAL_DEVIATION, RatingClass};
pub use glicko2::{Glicko2, Outcome};
