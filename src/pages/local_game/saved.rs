//! A local game as kept in browser storage, so it survives a reload.

use serde::{Deserialize, Serialize};

use super::settings::Opponent;
use crate::engine::{Game, Record, RecordError};

/// Storage key of the hot-seat game; versioned so a change of shape later
/// does not misread an old save.
pub const STORAGE_KEY: &str = "hexarena.local-game.v1";
/// Storage key of the game against the engine, kept apart so one does not
/// overwrite the other.
pub const ENGINE_STORAGE_KEY: &str = "hexarena.engine-game.v1";

/// The storage key for a game with or without an engine opponent.
pub fn storage_key(opponent: Option<Opponent>) -> &'static str {
    if opponent.is_some() { ENGINE_STORAGE_KEY } else { STORAGE_KEY }
}

/// The game as stored: the swap option, the move-list record and, against
/// the engine, its level and colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    pub swap: bool,
    pub record: String,
    #[serde(default)]
    pub opponent: Option<Opponent>,
}

impl SavedGame {
    /// What to store for `game`.
    pub fn of(game: &Game, opponent: Option<Opponent>) -> SavedGame {
        SavedGame { swap: game.swap_allowed(), record: Record::from_game(game).to_text(), opponent }
    }

    /// Replays the stored game.
    pub fn restore(&self) -> Result<Game, RecordError> {
        Record::from_text(&self.record, 11)?.to_game(self.swap)
    }

    /// Reads a stored JSON value; `None` for anything unreadable, which is
    /// then simply replaced by a new game.
    pub fn parse(json: &str) -> Option<(Game, Option<Opponent>)> {
        let saved = serde_json::from_str::<SavedGame>(json).ok()?;
        Some((saved.restore().ok()?, saved.opponent))
    }

    /// The JSON to store.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Move;

    #[test]
    fn a_game_round_trips_through_storage() {
        let mut g = Game::new(9, true).unwrap();
        for m in ["e5", "swap", "c3"] {
            g.play(Move::parse(m, 9).unwrap()).unwrap();
        }
        let json = SavedGame::of(&g, None).to_json();
        assert_eq!(SavedGame::parse(&json), Some((g.clone(), None)));
        let off = Game::new(5, false).unwrap();
        assert_eq!(SavedGame::parse(&SavedGame::of(&off, None).to_json()), Some((off, None)));
        let engine = Some(Opponent { level: crate::engine::search::Level::Casual, engine: crate::engine::Color::Red });
        assert_eq!(SavedGame::parse(&SavedGame::of(&g, engine).to_json()), Some((g, engine)));
    }

    #[test]
    fn garbage_in_storage_is_ignored() {
        assert_eq!(SavedGame::parse("{"), None);
        assert_eq!(SavedGame::parse(r#"{"swap":true,"record":"5x5 a1 a1"}"#), None);
        assert_eq!(SavedGame::parse(r#"{"swap":1,"record":"5x5"}"#), None);
    }
}
