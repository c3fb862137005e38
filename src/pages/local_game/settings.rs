//! The options of a new local game, read from the address bar
//! (`/play/local?size=9&swap=on&new=1`), with a clear complaint about any
//! value that cannot be used.

use serde::{Deserialize, Serialize};

use crate::engine::Color;
use crate::engine::cell::check_size;
use crate::engine::search::Level;

/// Board side when none is asked for.
pub const DEFAULT_SIZE: u8 = 11;
/// Boards at least this big use the swap rule unless told otherwise: on
/// smaller ones the first player's advantage is not what decides games.
pub const SWAP_DEFAULT_FROM: u8 = 9;

/// Size and swap rule of a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    pub size: u8,
    pub swap: bool,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings { size: DEFAULT_SIZE, swap: true }
    }
}

impl GameSettings {
    /// Reads the query values; unusable ones fall back to the defaults and
    /// are explained in the returned messages.
    pub fn from_query(size: Option<&str>, swap: Option<&str>) -> (GameSettings, Vec<String>) {
        let mut problems = Vec::new();
        let size = match size.map(str::trim) {
            None | Some("") => DEFAULT_SIZE,
            Some(text) => match text.parse::<u32>() {
                Ok(n) if u8::try_from(n).is_ok_and(|n| check_size(n).is_ok()) => n as u8,
                Ok(n) => {
                    problems.push(format!(
                        "Board size {n} is not supported (3 to 19); playing on {DEFAULT_SIZE}×{DEFAULT_SIZE}."
                    ));
                    DEFAULT_SIZE
                }
                Err(_) => {
                    problems.push(format!("'{text}' is not a board size; playing on {DEFAULT_SIZE}×{DEFAULT_SIZE}."));
                    DEFAULT_SIZE
                }
            },
        };
        let default_swap = size >= SWAP_DEFAULT_FROM;
        let swap = match swap.map(|s| s.trim().to_ascii_lowercase()) {
            None => default_swap,
            Some(s) if s.is_empty() => default_swap,
            Some(s) if matches!(s.as_str(), "on" | "1" | "true" | "yes") => true,
            Some(s) if matches!(s.as_str(), "off" | "0" | "false" | "no") => false,
            Some(s) => {
                problems.push(format!("'{s}' is not a swap setting (on or off); using the default."));
                default_swap
            }
        };
        (GameSettings { size, swap }, problems)
    }
}

/// The engine as an opponent: how strong, and which side it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    pub level: Level,
    pub engine: Color,
}

impl Opponent {
    /// Reads `level` and `colour` (the side the person plays) from the
    /// query; unusable values fall back to casual / Red and are explained.
    pub fn from_query(level: Option<&str>, colour: Option<&str>) -> (Opponent, Vec<String>) {
        let mut problems = Vec::new();
        let level = match level.map(str::trim).filter(|l| !l.is_empty()) {
            None => Level::Casual,
            Some(text) => text.parse().unwrap_or_else(|e| {
                problems.push(format!("{e}; playing at casual."));
                Level::Casual
            }),
        };
        let you = match colour.map(|c| c.trim().to_ascii_lowercase()) {
            None => Color::Red,
            Some(c) if c.is_empty() || c == "red" => Color::Red,
            Some(c) if c == "blue" => Color::Blue,
            Some(c) => {
                problems.push(format!("'{c}' is not a colour (red or blue); you play Red."));
                Color::Red
            }
        };
        (Opponent { level, engine: you.opponent() }, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_values_are_taken_and_bad_ones_explained() {
        assert_eq!(GameSettings::from_query(Some("5"), Some("off")).0, GameSettings { size: 5, swap: false });
        assert_eq!(GameSettings::from_query(None, None).0, GameSettings { size: 11, swap: true });
        assert_eq!(GameSettings::from_query(Some("7"), None).0, GameSettings { size: 7, swap: false });
        let (s, problems) = GameSettings::from_query(Some("25"), Some("maybe"));
        assert_eq!(s, GameSettings { size: 11, swap: true });
        assert_eq!(problems.len(), 2);
        assert!(problems[0].contains("25"));
        let (_, problems) = GameSettings::from_query(Some("99999999999"), None);
        assert!(problems[0].contains("not a board size"));
    }

    #[test]
    fn the_engine_opponent_is_read_from_the_query() {
        let (o, p) = Opponent::from_query(Some("strong"), Some("blue"));
        assert_eq!((o, p.len()), (Opponent { level: Level::Strong, engine: Color::Red }, 0));
        let (o, p) = Opponent::from_query(Some("godlike"), Some("green"));
        assert_eq!(o, Opponent { level: Level::Casual, engine: Color::Blue });
        assert_eq!(p.len(), 2);
    }
}
