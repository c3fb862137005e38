//! How a game ended, in the three forms it takes: hexgame's `game_over`
//! reason on the wire and in the journal, the archive's column, and words
//! for people. One type so that no file compares the texts itself.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How a game of a series ended. Serialised as hexgame's reason
/// (`"connected_sides"`, `"resignation"`, `"timeout"`, `"forfeit"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// The winner linked their two edges.
    ConnectedSides,
    /// The loser resigned.
    Resignation,
    /// The loser's clock ran out.
    Timeout,
    /// The loser did not come back within the reconnect window; it ends
    /// the whole series.
    Forfeit,
}

impl GameEnd {
    /// Every way a game can end.
    pub const ALL: [GameEnd; 4] = [GameEnd::ConnectedSides, GameEnd::Resignation, GameEnd::Timeout, GameEnd::Forfeit];

    /// hexgame's `game_over` reason.
    pub const fn wire(self) -> &'static str {
        match self {
            GameEnd::ConnectedSides => "connected_sides",
            GameEnd::Resignation => "resignation",
            GameEnd::Timeout => "timeout",
            GameEnd::Forfeit => "forfeit",
        }
    }

    /// The archive's `games.reason` value (its schema predates the wire
    /// names, and rows already written use these).
    pub const fn stored(self) -> &'static str {
        match self {
            GameEnd::ConnectedSides => "connection",
            GameEnd::Resignation => "resign",
            GameEnd::Timeout => "timeout",
            GameEnd::Forfeit => "forfeit",
        }
    }

    /// Reads an archive value; `None` for a value no version wrote.
    pub fn from_stored(text: &str) -> Option<GameEnd> {
        GameEnd::ALL.into_iter().find(|e| e.stored() == text)
    }

    /// A short noun for lists: "Red won (on time)".
    pub const fn noun(self) -> &'static str {
        match self {
            GameEnd::ConnectedSides => "connected",
            GameEnd::Resignation => "resignation",
            GameEnd::Timeout => "on time",
            GameEnd::Forfeit => "forfeit",
        }
    }

    /// How the winner won, after "wins" or "won": "by resignation".
    pub const fn adverb(self) -> &'static str {
        match self {
            GameEnd::ConnectedSides => "by connecting",
            GameEnd::Resignation => "by resignation",
            GameEnd::Timeout => "on time",
            GameEnd::Forfeit => "by forfeit",
        }
    }

    /// Whether the series stops here whatever the score.
    pub const fn ends_series(self) -> bool {
        matches!(self, GameEnd::Forfeit)
    }
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.wire())
    }
}

/// A reason that is not one of hexgame's four.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGameEnd(pub String);

impl fmt::Display for UnknownGameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "“{}” is not a way a game ends (connected_sides, resignation, timeout or forfeit)", self.0)
    }
}

impl std::error::Error for UnknownGameEnd {}

impl FromStr for GameEnd {
    type Err = UnknownGameEnd;

    fn from_str(text: &str) -> Result<GameEnd, UnknownGameEnd> {
        GameEnd::ALL.into_iter().find(|e| e.wire() == text).ok_or_else(|| UnknownGameEnd(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_back_to_the_same_end() {
        for end in GameEnd::ALL {
            assert_eq!(end.wire().parse::<GameEnd>(), Ok(end));
            assert_eq!(GameEnd::from_stored(end.stored()), Some(end));
            assert_eq!(serde_json::to_string(&end).unwrap(), format!("\"{}\"", end.wire()));
            assert_eq!(serde_json::from_str::<GameEnd>(&format!("\"{}\"", end.wire())).unwrap(), end);
        }
        assert!("draw".parse::<GameEnd>().unwrap_err().to_string().contains("“draw”"));
        assert_eq!(GameEnd::from_stored("connected_sides"), None);
    }
}
