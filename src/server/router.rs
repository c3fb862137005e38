//! The application's router: plain Axum routes first, then the Leptos
//! pages, then static files from the site root.

use axum::Router;
use axum::routing::get;
use leptos::prelude::*;
use leptos_axum::{LeptosRoutes, generate_route_list};

use super::health::health;
use crate::app::{App, shell};

/// Every route of the server for the given Leptos options.
pub fn router(options: LeptosOptions) -> Router {
    let routes = generate_route_list(App);
    Router::new()
        .route("/health", get(health))
        .leptos_routes(&options, routes, {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler(shell))
        .with_state(options)
}
