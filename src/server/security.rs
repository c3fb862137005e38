//! Security headers for every response, the pages' Content-Security-Policy
//! (built around the nonce Leptos gives its inline scripts), and the
//! same-origin rule for WebSocket upgrades.

use axum::extract::Request;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The policy for a page whose inline scripts carry `nonce`: scripts only
/// from this origin or with the nonce (and WebAssembly compiled from
/// them), no plugins, no framing, forms and sockets to this origin only.
pub fn content_security_policy(nonce: &str) -> String {
    format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}' 'wasm-unsafe-eval'; \
         style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; \
         object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Adds the headers every response carries: no MIME sniffing, no framing
/// (for browsers that read only `X-Frame-Options`), and no referrer to
/// other sites.
pub async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}

/// Refuses a WebSocket upgrade sent by a page of another site: a browser
/// always says where the page came from (`Origin`), and it must be this
/// server. Clients that send no `Origin` (bots, tools) are let through.
pub async fn same_origin_sockets(request: Request, next: Next) -> Response {
    if is_upgrade(request.headers()) && !same_origin(request.headers()) {
        return (StatusCode::FORBIDDEN, "WebSocket connections from other sites are refused").into_response();
    }
    next.run(request).await
}

fn is_upgrade(headers: &HeaderMap) -> bool {
    headers.get(header::UPGRADE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Whether the `Origin` (if any) names the host the request was sent to.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let (Ok(origin), Some(Ok(host))) = (origin.to_str(), headers.get(header::HOST).map(|h| h.to_str())) else {
        return false;
    };
    let authority = origin.split_once("://").map_or(origin, |(_, rest)| rest).trim_end_matches('/');
    authority.eq_ignore_ascii_case(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn only_this_sites_pages_and_originless_clients_may_open_sockets() {
        assert!(same_origin(&headers(&[("host", "hex.example:3000")])));
        assert!(same_origin(&headers(&[("host", "hex.example:3000"), ("origin", "https://hex.example:3000")])));
        assert!(!same_origin(&headers(&[("host", "hex.example:3000"), ("origin", "https://evil.example")])));
        assert!(!same_origin(&headers(&[("host", "hex.example"), ("origin", "https://hex.example.evil.example")])));
        assert!(!same_origin(&headers(&[("origin", "https://hex.example")])), "an origin with no host to match");
        assert!(content_security_policy("abc").contains("'nonce-abc'"));
    }
}
