//! `/sw.js`: the service worker that lets hexarena start offline, written
//! for this build (its id, its files, the pages that work without the
//! server), so that a new build is a new worker the browser notices.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};

use super::SiteAssets;
use super::pages::BUILD_PAGES;

const TEMPLATE: &str = include_str!("service_worker.js");

/// The service worker for this build. Always revalidated, so a deployment
/// reaches every browser on its next navigation.
pub async fn service_worker(State(site): State<Arc<SiteAssets>>) -> Response {
    let mut response = script(&site).into_response();
    let h = response.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/javascript; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// The worker's source with this build's facts filled in.
pub fn script(site: &SiteAssets) -> String {
    let json = |v: &[String]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    let pages: Vec<String> = BUILD_PAGES.iter().map(|p| p.to_string()).collect();
    TEMPLATE
        .replace("__BUILD__", &site.build_id)
        .replace("__ASSETS__", &json(&site.offline_files))
        .replace("__PAGES__", &json(&pages))
        .replace("__STYLESHEET__", &site.stylesheet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_names_this_builds_files_and_pages() {
        let site = SiteAssets {
            root: "target/site".into(),
            stylesheet: "/pkg/hexarena.abc.css".into(),
            engine_worker: None,
            hashed_bundles: true,
            build_id: "b1d".into(),
            offline_files: vec!["/pkg/hexarena.abc.css".into(), "/engine/hexarena_engine.0f.wasm".into()],
        };
        let js = script(&site);
        assert!(js.contains("const BUILD = 'b1d';"));
        assert!(js.contains(r#"const PRECACHE = ["/pkg/hexarena.abc.css","/engine/hexarena_engine.0f.wasm"];"#));
        assert!(js.contains(r#""/play/local""#));
        assert!(!js.contains("__"), "every placeholder is filled");
    }
}
