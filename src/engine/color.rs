//! The two players.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player, and the colour of their stones. Red moves first and connects
/// the left and right edges; Blue connects top and bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    Red,
    Blue,
}

impl Color {
    /// The other player.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// Lower-case name, as used in DOM hooks and messages (`"red"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
        }
    }

    /// Capitalised name for people (`"Red"`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Blue => "Blue",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
