//! The archive's pages: `/statistics`, `/games` and `/games/:id`.

pub mod game_record;
pub mod games;
pub mod queries;
pub mod statistics;

pub use game_record::ArchivedGamePage;
pub use games::GamesPage;
pub use statistics::StatisticsPage;
