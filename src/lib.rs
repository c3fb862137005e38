//! hexarena: a Hex platform. The engine is pure Rust; the web app (Leptos)
//! is compiled for the server with `ssr` and for the browser with `hydrate`.

// The server build computes the layout of each page's whole view type; the
// landing page's (a suspense around the demo board's SVG) nests deeper
// than the default limit of 128.
#![recursion_limit = "256"]
pub mod engine;
pub mod rating;

#[cfg(feature = "web")]
pub mod app;
#[cfg(feature = "web")]
pub mod app_error;
#[cfg(feature = "web")]
pub mod browser;
#[cfg(feature = "ssr")]
pub mod cli;
#[cfg(feature = "web")]
pub mod components;
#[cfg(any(feature = "web", feature = "worker"))]
pub mod engine_worker;
#[cfg(feature = "web")]
pub mod lazy_pages;
#[cfg(feature = "web")]
pub mod online;
#[cfg(feature = "web")]
pub mod pages;
#[cfg(feature = "ssr")]
pub mod server;

/// Browser entry point: attaches the app to the server-rendered page. The
/// page's own code may first have to be fetched (lazy_pages), so hydration
/// is asynchronous; `<body data-hydrated>` is set once it is complete.
#[cfg(feature = "hydrate")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    // An error only means the executor was already set up.
    let _ = any_spawner::Executor::init_wasm_bindgen();
    let Some(body) = leptos::prelude::document().body() else { return };
    leptos::task::spawn_local(async move {
        let owner = leptos::mount::hydrate_from_async(body, app::App).await;
        owner.forget();
        browser::mark_hydrated();
    });
}
