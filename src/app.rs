//! The HTML shell the server renders and the router shared by server and
//! browser.

use leptos::prelude::*;
use leptos_meta::{MetaTags, Title, provide_meta_context};
use leptos_router::components::{Route, Router, Routes};
use leptos_router::path;

use crate::components::layout::Layout;
use crate::lazy_pages::{
    AccountRoute, AnalysisRoute, ArchivedGameRoute, DocsRoute, EngineGameRoute, GamesRoute, LiveGameRoute,
    LocalGameRoute, LoginRoute, OverviewRoute, PlayRoute, ProfileRoute, QuickMatchRoute, StatisticsRoute,
};
use crate::pages::landing::LandingPage;
use crate::pages::not_found::NotFoundPage;

/// The whole document, rendered on the server.
pub fn shell(options: LeptosOptions) -> impl IntoView {
    #[cfg(feature = "ssr")]
    content_security_policy();
    let links = build_links();
    // The policy allows scripts from this site anyway; the nonce keeps the
    // rule simple: every script tag of a page carries its nonce.
    let nonce = leptos::nonce::use_nonce().map(|n| n.to_string());
    view! {
        <!DOCTYPE html>
        <html lang="en">
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="light dark" />
                <meta name="description" content="Play Hex in your browser: hot-seat games on boards from 3×3 to 19×19, records in SGF and trmph." />
                <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
                <link rel="stylesheet" id="leptos" href=links.stylesheet />
                <link rel="manifest" href="/manifest.webmanifest" />
                <meta name="theme-color" content="#1b2430" />
                <script type="module" src="/pwa.js" nonce=nonce></script>
                <meta name=ENGINE_WORKER_META content=links.engine_worker />
                <HydrationScripts options />
                <MetaTags />
            </head>
            <body>
                <App />
            </body>
        </html>
    }
}

/// The name of the `<meta>` that gives the pages the engine worker's
/// loader, whose name changes with every build of the worker.
pub const ENGINE_WORKER_META: &str = "hexarena-engine-worker";

/// Addresses of this build's files that the shell links to.
struct BuildLinks {
    stylesheet: String,
    engine_worker: String,
}

#[cfg(feature = "ssr")]
fn build_links() -> BuildLinks {
    match use_context::<std::sync::Arc<crate::server::assets::SiteAssets>>() {
        Some(site) => BuildLinks {
            stylesheet: site.stylesheet.clone(),
            engine_worker: site.engine_worker.clone().unwrap_or_default(),
        },
        None => BuildLinks { stylesheet: "/pkg/hexarena.css".into(), engine_worker: String::new() },
    }
}

// The shell is rendered only by the server; the browser hydrates the body.
#[cfg(not(feature = "ssr"))]
fn build_links() -> BuildLinks {
    BuildLinks { stylesheet: String::new(), engine_worker: String::new() }
}

/// Sends the page's Content-Security-Policy, built around the nonce this
/// response's inline scripts carry.
#[cfg(feature = "ssr")]
fn content_security_policy() {
    use axum::http::header::{CONTENT_SECURITY_POLICY, HeaderValue};
    let (Some(nonce), Some(response)) = (leptos::nonce::use_nonce(), use_context::<leptos_axum::ResponseOptions>())
    else {
        return;
    };
    if let Ok(policy) = HeaderValue::from_str(&crate::server::security::content_security_policy(&nonce.to_string())) {
        response.insert_header(CONTENT_SECURITY_POLICY, policy);
    }
}

/// The application: layout and routes.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    view! {
        <Title text="hexarena" />
        <Router>
            <Layout>
                <Routes fallback=NotFoundPage>
                    <Route path=path!("/") view=LandingPage />
                    <Route path=path!("/play") view=PlayRoute::lazy() />
                    <Route path=path!("/play/local") view=LocalGameRoute::lazy() />
                    <Route path=path!("/play/engine") view=EngineGameRoute::lazy() />
                    <Route path=path!("/play/online") view=QuickMatchRoute::lazy() />
                    <Route path=path!("/game/:id") view=LiveGameRoute::lazy() />
                    <Route path=path!("/overview") view=OverviewRoute::lazy() />
                    <Route path=path!("/statistics") view=StatisticsRoute::lazy() />
                    <Route path=path!("/games") view=GamesRoute::lazy() />
                    <Route path=path!("/games/:id") view=ArchivedGameRoute::lazy() />
                    <Route path=path!("/players/:name") view=ProfileRoute::lazy() />
                    <Route path=path!("/login") view=LoginRoute::lazy() />
                    <Route path=path!("/account") view=AccountRoute::lazy() />
                    <Route path=path!("/analysis") view=AnalysisRoute::lazy() />
                    <Route path=path!("/docs") view=DocsRoute::lazy() />
                </Routes>
            </Layout>
        </Router>
    }
}
