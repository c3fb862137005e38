//! A player's page, `/players/NAME`, as the server reads it from the
//! archive: ratings per size class with their history, results by colour
//! and board size, recent games.

use serde::{Deserialize, Serialize};

use super::account::SeatKind;
use super::records::GameSummary;
use crate::rating::{PROVISIONAL_DEVIATION, RatingClass};

/// One rating of a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClassRating {
    pub class: RatingClass,
    pub rating: f64,
    pub deviation: f64,
    pub games: u32,
}

impl ClassRating {
    /// Too few games against established players to trust yet.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

/// A rating after one game, for the graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    pub game_id: String,
    pub at_ms: i64,
    pub rating: f64,
    pub deviation: f64,
}

/// Games won and lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub won: u32,
    pub lost: u32,
}

/// Games won and lost on one board size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SizeRecord {
    pub size: u8,
    pub record: Record,
}

/// Everything `/players/NAME` shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub kind: SeatKind,
    /// A bot's owner's name.
    pub owner: Option<String>,
    pub description: Option<String>,
    pub created_at_ms: i64,
    pub ratings: Vec<ClassRating>,
    /// Per class, the rating after each rated game, oldest first.
    pub history: Vec<(RatingClass, Vec<RatingPoint>)>,
    pub as_red: Record,
    pub as_blue: Record,
    pub by_size: Vec<SizeRecord>,
    pub recent: Vec<GameSummary>,
    /// A person's bots' names.
    pub bots: Vec<String>,
}
