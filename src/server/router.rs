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
    let routes = generate_route_list(App);
    Router::new()
        .route("/health", get(health))
        .merge(super::online::routes(hub.clone()))
        .leptos_routes_with_context(&options, routes, move || provide_context(hub.clone()), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(options)
}
