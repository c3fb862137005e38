//! The engine in a Web Worker, so that analysis and engine moves never
//! block the page: the protocol, the worker itself (built into the worker's
//! own bundle, see engine-worker/) and the page's handle on it.

#[cfg(feature = "web")]
pub mod client;
pub mod protocol;
#[cfg(feature = "worker")]
pub mod worker;
