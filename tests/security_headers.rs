//! Headers and the same-origin rule for sockets, over real sockets against
//! the real router.
#![cfg(feature = "ssr")]

mod common;

use common::{get, start_server};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

#[tokio::test]
async fn every_response_carries_the_security_headers_and_pages_a_policy() {
    let addr = start_server().await;
    for path in ["/", "/docs", "/health", "/slots", "/no-such-page"] {
        let r = get(addr, path).await;
        for wanted in ["x-content-type-options: nosniff", "x-frame-options: deny", "referrer-policy: same-origin"] {
            assert!(r.headers.iter().any(|h| h == wanted), "{path} lacks {wanted}: {:?}", r.headers);
        }
    }
    let page = get(addr, "/docs").await;
    let policy = page.headers.iter().find(|h| h.starts_with("content-security-policy: ")).expect("a policy");
    let nonce = policy.split("'nonce-").nth(1).and_then(|n| n.split('\'').next()).expect("a nonce");
    assert!(policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"), "{policy}");
    // Every inline script of the page carries this response's nonce (the
    // test client lower-cases header lines, so compare without case).
    let body = page.body.to_ascii_lowercase();
    let inline = body.matches("<script").count();
    assert!(inline > 0 && body.matches(&format!("nonce=\"{nonce}\"")).count() >= inline, "{policy}");
    assert_ne!(get(addr, "/docs").await.headers, page.headers, "a fresh nonce per response");
}

/// Opens `/ws/watch` sending `origin` (if any); whether the upgrade was accepted.
async fn upgrade_with(addr: std::net::SocketAddr, origin: Option<&str>) -> bool {
    let mut request = format!("ws://{addr}/ws/watch?game=1").into_client_request().expect("a request");
    if let Some(origin) = origin {
        request.headers_mut().insert("origin", HeaderValue::from_str(origin).expect("a header value"));
    }
    tokio_tungstenite::connect_async(request).await.is_ok()
}

#[tokio::test]
async fn sockets_open_from_this_site_or_from_tools_but_not_from_other_sites() {
    let addr = start_server().await;
    assert!(upgrade_with(addr, None).await, "bots send no Origin");
    assert!(upgrade_with(addr, Some(&format!("http://{addr}"))).await, "our own pages");
    assert!(!upgrade_with(addr, Some("https://evil.example")).await, "another site's page");
    // A plain request to the same routes is not an upgrade and is answered.
    assert_eq!(get(addr, "/slots").await.status, 200);
}
