//! Cache headers for pages. Every page is revalidated before use
//! (`no-cache`). The pages whose HTML depends on nothing but the build and
//! the address — the ones that work offline — carry the build's id as ETag,
//! so a return visit costs one small request answered 304 without
//! rendering; pages that show live data are rendered afresh, and are
//! `private` for a logged-in visitor (they may show the account).

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use super::SiteAssets;
use super::encoding::not_modified;

/// The pages rendered from the build alone: no database, no live games,
/// nothing from the request but its address. A page added here must stay so.
pub const BUILD_PAGES: [&str; 6] = ["/", "/play", "/play/local", "/play/engine", "/analysis", "/docs"];

/// The middleware: answers 304 for a build page the browser holds from
/// this build, and sets the pages' cache headers.
pub async fn page_cache(State(site): State<Arc<SiteAssets>>, request: Request, next: Next) -> Response {
    let build_page = (request.method() == Method::GET || request.method() == Method::HEAD)
        && BUILD_PAGES.contains(&request.uri().path());
    // A logged-in visitor's pages may show their account: never for a
    // shared cache to keep.
    let personal = crate::server::accounts::sessions::from_headers(request.headers()).is_some();
    let etag = format!("W/\"{}\"", site.build_id);
    if build_page && not_modified(request.headers(), &etag) {
        // No Content-Security-Policy here: the browser keeps the one stored
        // with the page, whose nonce its scripts carry.
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        set(&mut response, Some(&etag), false);
        return response;
    }
    let mut response = next.run(request).await;
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if html && !response.headers().contains_key(header::CACHE_CONTROL) {
        let validator = (build_page && response.status() == StatusCode::OK).then_some(etag.as_str());
        set(&mut response, validator, personal && !build_page);
    }
    response
}

fn set(response: &mut Response, etag: Option<&str>, private: bool) {
    let h = response.headers_mut();
    let policy = if private { "private, no-cache" } else { "no-cache" };
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    if let Some(v) = etag.and_then(|e| HeaderValue::from_str(e).ok()) {
        h.insert(header::ETAG, v);
    }
}
