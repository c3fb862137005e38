//! Public pictures of a table: hexgame's slot snapshot (for `/slots`,
//! `/ws/slots`, `reconnected` and `/overview`) and the richer view a browser
//! draws a live game from. Neither ever holds a reconnect token.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::account::{SeatKind, seat_label};
use super::game_end::GameEnd;
use super::player::PlayerId;
use super::slot_patch::SlotPatch;
use crate::engine::{ByColor, Game, Move};

/// hexgame's public slot snapshot, plus a few fields of ours that its
/// clients ignore (`spectators`, `swap`, `time_control`, `last_move`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlotSnapshot {
    pub slot_id: u64,
    pub state: SlotState,
    pub board_size: u8,
    pub series_length: u8,
    pub player_count: u8,
    pub connected_player_count: u8,
    pub players: Vec<PlayerId>,
    pub player_models: BTreeMap<String, String>,
    pub player_usernames: BTreeMap<String, String>,
    pub connected_players: Vec<PlayerId>,
    pub disconnected_players: Vec<PlayerId>,
    pub current_turn: Option<PlayerId>,
    pub winner: Option<PlayerId>,
    pub move_count: u32,
    /// `board[r][q]`: 0 empty, −1 Red, 1 Blue; null before the game starts.
    pub board: Option<Vec<Vec<i8>>>,
    pub wins_required: u32,
    pub current_game_number: u32,
    pub player_1_wins: u32,
    pub player_2_wins: u32,
    pub series_winner: Option<PlayerId>,
    #[serde(default)]
    pub spectators: u32,
    #[serde(default)]
    pub swap: bool,
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    #[serde(default)]
    pub last_move: Option<[u8; 2]>,
    /// Each seated player's kind (account, guest, unverified bot), keyed
    /// like `player_usernames`.
    #[serde(default)]
    pub player_kinds: BTreeMap<String, SeatKind>,
}

/// hexgame's slot state: `"waiting"` for a second player, `"full"` once
/// both seats are taken and the series has begun.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotState {
    Waiting,
    Full,
}

/// What `/ws/overview` sends: first every live table (`full`), then only
/// what changed: tables that opened (whole), patches to the others, and the
/// ids of those that closed. `seq` numbers the updates so a subscriber that
/// starts again from a full list skips the changes it already holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OverviewUpdate {
    pub full: bool,
    #[serde(default)]
    pub seq: u64,
    pub slots: Vec<SlotSnapshot>,
    #[serde(default)]
    pub changed: Vec<SlotPatch>,
    pub removed: Vec<u64>,
}

/// Fischer time control: a base time and an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControl {
    pub base_ms: u64,
    pub increment_ms: u64,
}

impl TimeControl {
    /// Reads `"5+3"` (minutes + seconds, as chess sites write it); `"none"`
    /// or an empty text is an untimed game.
    pub fn parse(text: &str) -> Result<Option<TimeControl>, String> {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("none") || t.eq_ignore_ascii_case("untimed") {
            return Ok(None);
        }
        let bad = || format!("“{t}” is not a time control: write minutes+seconds, like 5+3, or none");
        let (base, inc) = t.split_once('+').ok_or_else(bad)?;
        let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
        let seconds: u64 = inc.trim().parse().map_err(|_| bad())?;
        if !(minutes.is_finite() && minutes > 0.0 && minutes <= 180.0) || seconds > 180 {
            return Err(format!("“{t}”: the base must be over 0 and at most 180 minutes, the increment at most 180 s"));
        }
        Ok(Some(TimeControl { base_ms: (minutes * 60_000.0).round() as u64, increment_ms: seconds * 1000 }))
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let minutes = self.base_ms as f64 / 60_000.0;
        if minutes.fract() == 0.0 {
            write!(f, "{}+{}", minutes as u64, self.increment_ms / 1000)
        } else {
            write!(f, "{minutes}+{}", self.increment_ms / 1000)
        }
    }
}

/// Where a table is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// One seat taken, waiting for an opponent.
    Waiting,
    /// A game is being played.
    Playing,
    /// A player dropped; the game waits for them within the reconnect window.
    Paused,
    /// The series is decided.
    Over,
    /// A player left for good before the series was decided.
    Abandoned,
}

/// One seat as everyone may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub name: Option<String>,
    pub model: Option<String>,
    /// Whether the name is an account's, a guest's or an unverified bot's.
    #[serde(default)]
    pub kind: SeatKind,
    pub connected: bool,
    /// Remaining clock time (ms) at the moment the view was made.
    pub clock_ms: Option<u64>,
}

impl SeatView {
    /// What to call the player on a page: a name that is not an account's
    /// is marked as a guest's or an unverified bot's, so it can never pass
    /// for an account.
    pub fn label(&self, seat: PlayerId) -> String {
        let base = seat_label(self.name.as_deref(), self.model.as_deref())
            .unwrap_or_else(|| format!("Anonymous {}", seat.color().name()));
        self.kind.decorate(base)
    }
}

/// A finished game of the series.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    pub number: u32,
    pub first: PlayerId,
    pub moves: Vec<Move>,
    pub winner: PlayerId,
    pub reason: GameEnd,
}

/// A live table as a browser page draws it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableView {
    pub id: u64,
    pub phase: Phase,
    pub size: u8,
    pub swap: bool,
    pub series_length: u8,
    pub wins_required: u32,
    pub game_number: u32,
    pub score: ByColor<u32>,
    pub series_winner: Option<PlayerId>,
    /// Who moved first in the current game.
    pub first: PlayerId,
    /// The current game's moves.
    pub moves: Vec<Move>,
    pub turn: Option<PlayerId>,
    pub winner: Option<PlayerId>,
    pub reason: Option<GameEnd>,
    pub seats: ByColor<Option<SeatView>>,
    pub spectators: u32,
    pub time_control: Option<TimeControl>,
    /// The seat whose clock is running, if any.
    pub clock_running: Option<PlayerId>,
    /// Seconds left for an absent player to come back, while paused.
    pub reconnect_seconds_left: Option<u64>,
    /// Private room code (shown to make the share link), while waiting.
    pub room_code: Option<String>,
    /// Earlier games of the series, oldest first.
    pub finished: Vec<GameResult>,
    /// Set when `finished` is left out because it has not changed since
    /// the last `state` sent on this connection: keep the list you have.
    /// (A long series is sent whole only when a game ends.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub finished_omitted: bool,
}

impl TableView {
    /// The current game, replayed from its moves.
    pub fn game(&self) -> Game {
        Game::starting_with_moves(self.size, self.swap, self.first.color(), &self.moves)
            .unwrap_or_else(|_| Game::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_like_chess_sites_write_them() {
        assert_eq!(TimeControl::parse("5+3"), Ok(Some(TimeControl { base_ms: 300_000, increment_ms: 3000 })));
        assert_eq!(TimeControl::parse("0.5+0"), Ok(Some(TimeControl { base_ms: 30_000, increment_ms: 0 })));
        assert_eq!(TimeControl::parse("none"), Ok(None));
        assert_eq!(TimeControl::parse(""), Ok(None));
        for bad in ["5", "x+3", "0+3", "-1+2", "5+-1", "999+0", "5+999", "nan+1"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(TimeControl { base_ms: 300_000, increment_ms: 3000 }.to_string(), "5+3");
    }
}
