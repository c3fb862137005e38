//! The HTTP server: routes beside the Leptos pages.

pub mod accounts;
pub mod api_quota;
pub mod archive;
pub mod assets;
pub mod batch;
pub mod browser_play;
pub mod client_address;
pub mod cluster;
pub mod database;
pub mod health;
pub mod hub;
pub mod identity;
pub mod journal;
pub mod listen;
pub mod metrics;
pub mod online;
pub mod ratings_command;
pub mod router;
pub mod security;
