//! The application's router: plain Axum routes first (health, live play),
//! then the Leptos pages, then static files from the site root.

use axum::Router;
use axum::routing::get;
use leptos::prelude::*;
use leptos_axum::{LeptosRoutes, generate_route_list};

use super::health::health;
use super::hub::Hub;
use crate::app::{App, shell};

/// Every route of the server for the given Leptos options. Pages and
/// server functions reach the hub through Leptos context.
pub fn router(options: LeptosOptions, hub: Hub) -> Router {
    let routes = route_list();
    let proxies = hub.config().trusted_proxies.clone();
    let quota_hub = hub.clone();
    Router::new()
        .route("/health", get(health).with_state(hub.clone()))
        .route("/metrics", get(super::metrics::metrics).with_state(hub.clone()))
        .merge(super::online::routes(hub.clone()))
        .leptos_routes_with_context(&options, routes, move || provide_context(hub.clone()), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .layer(axum::middleware::from_fn_with_state(quota_hub, super::api_quota::api_quota))
        .layer(axum::middleware::from_fn(super::security::headers))
        // Outermost, so every route reads the client address the same way.
        .layer(axum::Extension(proxies))
        .with_state(options)
}

/// The pages' routes, generated once per process. Generating them sets a
/// process-wide flag in `leptos_server` that parks every resource first
/// polled meanwhile, for good (leptos issue #4773): a second router built
/// while another serves pages (as the integration tests do) would hang
/// those pages' responses.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> = std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(App)).clone()
}
