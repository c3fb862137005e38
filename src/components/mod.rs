//! Building blocks shared by the pages.

pub mod board;
pub mod board_geometry;
pub mod board_view;
pub mod layout;
