//! Online pages: live tables, the overview of live games, and the lobby's
//! server functions.

pub mod live_game;
pub mod live_socket;
pub mod lobby;
pub mod overview;
pub mod play_online;

pub use live_game::{LiveGamePage, QuickMatchPage};
pub use overview::OverviewPage;
