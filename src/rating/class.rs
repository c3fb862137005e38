//! Which ratings a game moves: everyone's overall rating and the rating of
//! its board-size class, since strength on 7×7 says little about 19×19.

use serde::{Deserialize, Serialize};

/// A rating kept per player: overall, or for one class of board sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RatingClass {
    All,
    /// Boards up to 9×9.
    Small,
    /// 10×10 to 12×12: the 11×11 of tournaments.
    Medium,
    /// 13×13 and larger.
    Large,
}

/// A rating whose deviation is above this is shown as provisional: after a
/// dozen games against established players it falls below.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl RatingClass {
    pub const ALL: [RatingClass; 4] = [RatingClass::All, RatingClass::Small, RatingClass::Medium, RatingClass::Large];

    /// The class of a board size.
    pub fn of_size(size: u8) -> RatingClass {
        match size {
            0..=9 => RatingClass::Small,
            10..=12 => RatingClass::Medium,
            _ => RatingClass::Large,
        }
    }

    /// The ratings a game on a board of `size` moves.
    pub fn moved_by(size: u8) -> [RatingClass; 2] {
        [RatingClass::All, RatingClass::of_size(size)]
    }

    /// How the database and addresses name it.
    pub const fn as_str(self) -> &'static str {
        match self {
            RatingClass::All => "all",
            RatingClass::Small => "small",
            RatingClass::Medium => "medium",
            RatingClass::Large => "large",
        }
    }

    pub fn parse(text: &str) -> Option<RatingClass> {
        RatingClass::ALL.into_iter().find(|c| c.as_str() == text)
    }

    /// How people read it.
    pub const fn label(self) -> &'static str {
        match self {
            RatingClass::All => "All sizes",
            RatingClass::Small => "Up to 9×9",
            RatingClass::Medium => "11×11 (10–12)",
            RatingClass::Large => "13×13 and up",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_fall_in_their_class_and_names_round_trip() {
        assert_eq!(RatingClass::of_size(9), RatingClass::Small);
        assert_eq!(RatingClass::of_size(11), RatingClass::Medium);
        assert_eq!(RatingClass::of_size(13), RatingClass::Large);
        assert_eq!(RatingClass::moved_by(19), [RatingClass::All, RatingClass::Large]);
        for class in RatingClass::ALL {
            assert_eq!(RatingClass::parse(class.as_str()), Some(class));
        }
        assert_eq!(RatingClass::parse("huge"), None);
    }
}
