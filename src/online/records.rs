//! What the archive answers, shared by the server (which reads the
//! database) and the pages (which draw it). `Statistics` serialises to
//! hexgame's `/api/statistics` shape, with a few fields of ours added.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::account::SeatKind;
use super::game_end::GameEnd;
use crate::engine::Color;

/// Games listed per page on `/games`.
pub const PAGE_SIZE: u32 = 25;

/// `/api/statistics`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Statistics {
    pub persistence_enabled: bool,
    pub totals: Totals,
    pub leaderboard: Vec<LeaderboardRow>,
    /// Finished series per board size (keys are sizes as text, as hexgame's).
    pub board_sizes: BTreeMap<String, u64>,
    /// Finished series per series length.
    pub series_lengths: BTreeMap<String, u64>,
    pub recent_matches: Vec<RecentMatch>,
    /// Ours: finished games per day (UTC), oldest first, for the last 30 days.
    #[serde(default)]
    pub games_per_day: Vec<DayCount>,
}

/// Counts over every finished series.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub matches: u64,
    pub games: u64,
    pub models: u64,
    pub model_entries: u64,
}

/// One player (hexgame: one model name + username) on the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeaderboardRow {
    pub model_name: String,
    pub username: Option<String>,
    /// Series played, won and lost.
    pub matches: u64,
    pub wins: u64,
    pub losses: u64,
    pub games_won: u64,
    pub games_lost: u64,
    /// Series won / series played.
    pub win_rate: f64,
    // Ours:
    #[serde(default)]
    pub player_id: Option<String>,
    #[serde(default)]
    pub display_name: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub rating: Option<f64>,
    #[serde(default)]
    pub deviation: Option<f64>,
}

/// A finished series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecentMatch {
    pub id: u64,
    pub slot_id: u64,
    pub board_size: u8,
    pub series_length: u8,
    pub games_played: u32,
    /// −1 or 1.
    pub winner: i8,
    pub player_1_model: Option<String>,
    pub player_2_model: Option<String>,
    pub player_1_username: Option<String>,
    pub player_2_username: Option<String>,
    /// Ours: whether each side was an account, a guest or an unverified bot.
    #[serde(default)]
    pub player_1_kind: SeatKind,
    #[serde(default)]
    pub player_2_kind: SeatKind,
    pub player_1_wins: u32,
    pub player_2_wins: u32,
    /// ISO 8601, UTC.
    pub completed_at: String,
    /// Ours: the archived games of the series, for replay links.
    #[serde(default)]
    pub games: Vec<String>,
}

/// Games finished on one day.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DayCount {
    /// `YYYY-MM-DD`.
    pub day: String,
    pub games: u64,
}

/// One archived game, as listed on `/games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    pub id: String,
    pub series_id: u64,
    pub number: u32,
    pub board_size: u8,
    pub red: Option<String>,
    pub blue: Option<String>,
    pub winner: Color,
    pub reason: GameEnd,
    pub moves: u32,
    pub finished_at_ms: i64,
}

/// One archived game in full, for `/games/:id`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub summary: GameSummary,
    pub swap: bool,
    pub first: Color,
    /// Moves in notation (`c3`, `swap`), with when each was played.
    pub moves: Vec<String>,
    pub played_at_ms: Vec<i64>,
    pub started_at_ms: i64,
}

/// A page of `/games`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GamePage {
    pub games: Vec<GameSummary>,
    pub total: u64,
}

/// `YYYY-MM-DD` of a Unix time in milliseconds (UTC).
pub fn day_of(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// ISO 8601 UTC time of a Unix time in milliseconds.
pub fn iso_time(ms: i64) -> String {
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    format!("{}T{:02}:{:02}:{:02}Z", day_of(ms), secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc_dates() {
        assert_eq!(day_of(0), "1970-01-01");
        assert_eq!(day_of(951_782_400_000), "2000-02-29");
        assert_eq!(iso_time(1_795_301_445_000), "2026-11-21T22:50:45Z");
        assert_eq!(day_of(-1), "1969-12-31");
    }
}
