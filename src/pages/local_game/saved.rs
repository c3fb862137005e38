//! A local game as kept in browser storage, so it survives a reload.

use serde::{Deserialize, Serialize};

use crate::engine::{Game, Record, RecordError};

/// Storage key of the hot-seat game; versioned so a change of shape later
/// does not misread an old save.
pub const STORAGE_KEY: &str = "hexarena.local-game.v1";

/// The game as stored: the swap option and the move-list record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    pub swap: bool,
    pub record: String,
}

impl SavedGame {
    /// What to store for `game`.
    pub fn of(game: &Game) -> SavedGame {
        SavedGame { swap: game.swap_allowed(), record: Record::from_game(game).to_text() }
    }

    /// Replays the stored game.
    pub fn restore(&self) -> Result<Game, RecordError> {
        Record::from_text(&self.record, 11)?.to_game(self.swap)
    }

    /// Reads a stored JSON value; `None` for anything unreadable, which is
    /// then simply replaced by a new game.
    pub fn parse(json: &str) -> Option<Game> {
        serde_json::from_str::<SavedGame>(json).ok()?.restore().ok()
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
        let json = SavedGame::of(&g).to_json();
        assert_eq!(SavedGame::parse(&json), Some(g));
        let off = Game::new(5, false).unwrap();
        assert_eq!(SavedGame::parse(&SavedGame::of(&off).to_json()), Some(off));
    }

    #[test]
    fn garbage_in_storage_is_ignored() {
        assert_eq!(SavedGame::parse("{"), None);
        assert_eq!(SavedGame::parse(r#"{"swap":true,"record":"5x5 a1 a1"}"#), None);
        assert_eq!(SavedGame::parse(r#"{"swap":1,"record":"5x5"}"#), None);
    }
}
