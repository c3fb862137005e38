//! One module per page.

pub mod account;
pub mod analysis;
pub mod archive;
pub mod docs;
pub mod landing;
pub mod local_game;
pub mod not_found;
pub mod online;
pub mod play;
