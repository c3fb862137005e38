//! Per-address limits over real sockets: the limit bites for the address
//! that reaches it, with a clear refusal, and a client on another address
//! is not affected.
#![cfg(feature = "ssr")]

mod common;

use std::time::Duration;

use common::start_server_with;
use common::ws::Client;
use hexarena::server::hub::config::HubConfig;
use tokio_tungstenite::tungstenite;

/// The HTTP status an upgrade from this machine's 127.0.0.1 gets, if refused.
async fn refused_status(addr: std::net::SocketAddr, path: &str) -> Option<u16> {
    match tokio_tungstenite::connect_async(format!("ws://{addr}{path}")).await {
        Ok(_) => None,
        Err(tungstenite::Error::Http(response)) => Some(response.status().as_u16()),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

#[tokio::test]
async fn sockets_per_address_are_capped_and_given_back_when_closed() {
    let config = HubConfig { connections_per_address: 3, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let mut held = Vec::new();
    for path in ["/ws/slots", "/ws/overview", "/ws/play?mode=quick&size=5&name=Ann"] {
        held.push(Client::connect(addr, path).await);
    }
    // The fourth socket from the same address is refused, whatever it is for.
    for path in ["/ws/slots", "/ws/matchmake?board_size=9", "/ws/watch?game=1"] {
        assert_eq!(refused_status(addr, path).await, Some(429), "{path}");
    }
    // Another address is not affected.
    let mut other =
        Client::connect_from(addr, "/ws/play?mode=quick&size=5&name=Bo", "127.0.0.2".parse().unwrap()).await;
    assert_eq!(other.expect("joined").await["player"], 1);
    // A closed socket gives its place back.
    drop(held.pop());
    let mut again = None;
    for _ in 0..50 {
        if refused_status(addr, "/ws/slots").await.is_none() {
            again = Some(());
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "the address got its place back");
}

#[tokio::test]
async fn private_rooms_per_address_are_capped() {
    let config = HubConfig { rooms_per_address: 2, ..HubConfig::default() };
    let addr = start_server_with(config).await;
    let form = "size=7&series=1&swap=off&time=none&name=Ann";
    for _ in 0..2 {
        let r = common::post_form(addr, "/api/create_room", form).await;
        assert!(r.status == 302 || r.status == 303, "a room: {} {}", r.status, r.body);
    }
    let refused = common::post_form(addr, "/api/create_room", form).await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert!(refused.headers.iter().any(|h| h == "retry-after: 60"), "{:?}", refused.headers);
    assert!(refused.body.contains("private rooms open already"), "{}", refused.body);
    // Someone on another address opens theirs.
    let other = common::post_form_from(addr, "/api/create_room", form, "127.0.0.2".parse().unwrap()).await;
    assert!(other.status == 302 || other.status == 303, "{} {}", other.status, other.body);
}
