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

/// One value for each side, named rather than indexed: `score.red`,
/// `clocks[color]`. Serialised as `[red, blue]`, the shape that stored
/// journals and the browser protocol have always used for per-side pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub red: T,
    pub blue: T,
}

impl<T> ByColor<T> {
    /// The pair made by calling `f` for Red, then for Blue.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor { red: f(Color::Red), blue: f(Color::Blue) }
    }

    /// Each side's value turned by `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor { red: f(self.red), blue: f(self.blue) }
    }

    /// Both values by reference.
    pub const fn as_ref(&self) -> ByColor<&T> {
        ByColor { red: &self.red, blue: &self.blue }
    }

    /// Red's value, then Blue's.
    pub fn iter(&self) -> impl Iterator<Item = &T> {
        [&self.red, &self.blue].into_iter()
    }

    /// Red's value, then Blue's, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        [&mut self.red, &mut self.blue].into_iter()
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        match color {
            Color::Red => &self.red,
            Color::Blue => &self.blue,
        }
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::Red => &mut self.red,
            Color::Blue => &mut self.blue,
        }
    }
}

/// Lets a pair be compared with the array it replaced (`[red, blue]`).
impl<T: PartialEq> PartialEq<[T; 2]> for ByColor<T> {
    fn eq(&self, other: &[T; 2]) -> bool {
        self.red == other[0] && self.blue == other[1]
    }
}

impl<T: Serialize> Serialize for ByColor<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.red, &self.blue).serialize(serializer)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ByColor<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (red, blue) = <(T, T)>::deserialize(deserializer)?;
        Ok(ByColor { red, blue })
    }
}
