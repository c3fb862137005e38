//! The HTTP server: routes beside the Leptos pages.

pub mod database;
pub mod health;
pub mod router;
