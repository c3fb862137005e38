//! The options of a new local game, read from the address bar
//! (`/play/local?size=9&swap=on&new=1`), with a clear complaint about any
//! value that cannot be used.

use crate::engine::cell::check_size;

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
}
