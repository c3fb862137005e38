//! hexarena: a Hex platform. The engine is pure Rust; the web app (Leptos)
//! is compiled for the server with `ssr` and for the browser with `hydrate`.

pub mod engine;
