//! The archive's pages: `/statistics`, `/games`, `/games/:id` and `/players/:name`.

pub mod game_record;
pub mod games;
pub mod profile;
pub mod queries;
pub mod statistics;

pub use game_record::ArchivedGamePage;
pub use games::GamesPage;
pub use profile::ProfilePage;
pub use statistics::StatisticsPage;
