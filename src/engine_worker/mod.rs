//! The engine in a Web Worker, so that analysis and engine moves never
//! block the page: the protocol, the worker itself (browser build only)
//! and the page's handle on it.

pub mod client;
pub mod protocol;
#[cfg(feature = "hydrate")]
pub mod worker;
