//! The server over real sockets: health, server-rendered pages, 404s.
#![cfg(feature = "ssr")]

mod common;

use common::{get, start_server};

#[tokio::test]
async fn health_answers_ok_as_json() {
    let addr = start_server().await;
    let r = get(addr, "/health").await;
    assert_eq!(r.status, 200);
    assert!(r.headers.iter().any(|h| h == "content-type: application/json"), "{:?}", r.headers);
    assert_eq!(r.body, r#"{"status":"ok"}"#);
}

#[tokio::test]
async fn pages_are_rendered_on_the_server() {
    let addr = start_server().await;
    let landing = get(addr, "/").await;
    assert_eq!(landing.status, 200);
    assert!(landing.body.contains("Hex, the connection game."));
    // The showcase board is in the HTML, winning chain included.
    assert!(landing.body.contains(r#"data-winning="true""#));

    let docs = get(addr, "/docs").await;
    assert_eq!(docs.status, 200);
    assert!(docs.body.contains("The swap rule"));

    let play = get(addr, "/play").await;
    assert_eq!(play.status, 200);
    assert!(play.body.contains(r#"action="/play/local""#));
}

#[tokio::test]
async fn the_local_board_is_in_the_html_at_the_asked_size() {
    let addr = start_server().await;
    let page = get(addr, "/play/local?size=5&swap=off&new=1").await;
    assert_eq!(page.status, 200);
    assert_eq!(page.body.matches("data-cell=").count(), 25);
    assert!(page.body.contains(r#"data-cell="e5""#));
    assert!(page.body.contains(r#"data-testid="game-status""#));
    assert!(page.body.contains("Red to move"));
}

#[tokio::test]
async fn bad_settings_are_explained_not_obeyed() {
    let addr = start_server().await;
    let page = get(addr, "/play/local?size=42&swap=sideways").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Board size 42 is not supported"));
    assert!(page.body.contains("is not a swap setting"));
    assert_eq!(page.body.matches("data-cell=").count(), 121);
}

#[tokio::test]
async fn unknown_addresses_get_a_404_page() {
    let addr = start_server().await;
    let r = get(addr, "/no/such/page").await;
    assert_eq!(r.status, 404);
    assert!(r.body.contains("Page not found"));
}
