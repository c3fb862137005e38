//! Seats as hexgame numbers them: −1 is player 1 (Red, left↔right), 1 is
//! player 2 (Blue, top↔bottom). A seat keeps its colour for a whole series.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::engine::{ByColor, Color};

/// A seat at a table, written `-1` or `1` on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayerId {
    /// Player 1, `-1`, Red.
    Red,
    /// Player 2, `1`, Blue.
    Blue,
}

impl PlayerId {
    /// Both seats, player 1 first.
    pub const BOTH: [PlayerId; 2] = [PlayerId::Red, PlayerId::Blue];

    /// The protocol number: −1 or 1.
    pub const fn number(self) -> i8 {
        match self {
            PlayerId::Red => -1,
            PlayerId::Blue => 1,
        }
    }

    /// The seat for a protocol number.
    pub const fn from_number(n: i64) -> Option<PlayerId> {
        match n {
            -1 => Some(PlayerId::Red),
            1 => Some(PlayerId::Blue),
            _ => None,
        }
    }

    /// The seat's stone colour.
    pub const fn color(self) -> Color {
        match self {
            PlayerId::Red => Color::Red,
            PlayerId::Blue => Color::Blue,
        }
    }

    /// The seat playing `color`.
    pub const fn of(color: Color) -> PlayerId {
        match color {
            Color::Red => PlayerId::Red,
            Color::Blue => PlayerId::Blue,
        }
    }

    /// The other seat.
    pub const fn opponent(self) -> PlayerId {
        PlayerId::of(self.color().opponent())
    }

    /// The key hexgame uses in `player_models` maps: `"-1"` or `"1"`.
    pub const fn key(self) -> &'static str {
        match self {
            PlayerId::Red => "-1",
            PlayerId::Blue => "1",
        }
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A per-seat pair is a per-colour pair: a seat keeps its colour for the
/// whole series.
impl<T> std::ops::Index<PlayerId> for ByColor<T> {
    type Output = T;

    fn index(&self, seat: PlayerId) -> &T {
        &self[seat.color()]
    }
}

impl<T> std::ops::IndexMut<PlayerId> for ByColor<T> {
    fn index_mut(&mut self, seat: PlayerId) -> &mut T {
        &mut self[seat.color()]
    }
}

impl Serialize for PlayerId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i8(self.number())
    }
}

impl<'de> Deserialize<'de> for PlayerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = i64::deserialize(d)?;
        PlayerId::from_number(n).ok_or_else(|| serde::de::Error::custom(format!("player must be -1 or 1, not {n}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_numbered_as_hexgame_does() {
        assert_eq!(serde_json::to_string(&PlayerId::Red).unwrap(), "-1");
        assert_eq!(serde_json::from_str::<PlayerId>("1").unwrap(), PlayerId::Blue);
        assert!(serde_json::from_str::<PlayerId>("0").is_err());
        assert_eq!(PlayerId::Red.opponent(), PlayerId::Blue);
        assert_eq!(PlayerId::of(Color::Blue).key(), "1");
    }
}
