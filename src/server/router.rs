//! The application's router: plain Axum routes first (health, live play),
//! then the Leptos pages, then the build's files from the site root, then
//! the 404 page.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::routing::get;
use leptos::prelude::*;
use leptos_axum::{LeptosRoutes, generate_route_list};

use super::assets::SiteAssets;
use super::assets::files::SiteFiles;
use super::health::health;
use super::hub::Hub;
use crate::app::{App, shell};

/// Every route of the server for the given Leptos options. Pages and
/// server functions reach the hub through Leptos context.
pub fn router(options: LeptosOptions, hub: Hub) -> Router {
    let routes = route_list();
    let proxies = hub.config().trusted_proxies.clone();
    let quota_hub = hub.clone();
    let site = Arc::new(SiteAssets::load(&options));
    let context = {
        let (hub, site) = (hub.clone(), site.clone());
        move || {
            provide_context(hub.clone());
            provide_context(site.clone());
        }
    };
    let app = {
        let options = options.clone();
        move || shell(options.clone())
    };
    let files = Arc::new(SiteFiles::new(site.clone()));
    let not_found = leptos_axum::render_app_to_stream_with_context(context.clone(), app.clone());
    let fallback = move |request: Request| {
        let (files, not_found) = (files.clone(), not_found.clone());
        async move {
            match files.serve(request.method(), request.uri().path(), request.headers()).await {
                Some(response) => response,
                None => not_found(request).await,
            }
        }
    };
    Router::new()
        .route("/health", get(health).with_state(hub.clone()))
        .route("/metrics", get(super::metrics::metrics).with_state(hub.clone()))
        .route("/sw.js", get(super::assets::offline::service_worker).with_state(site.clone()))
        .merge(super::online::routes(hub.clone()))
        .leptos_routes_with_context(&options, routes, context, app)
        .fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(site, super::assets::pages::page_cache))
        .layer(axum::middleware::from_fn(super::assets::compress::compress))
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
