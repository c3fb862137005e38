//! A WebSocket client for tests: JSON in, JSON out, with timeouts so a
//! missing message fails the test instead of hanging it.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// One client connection.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// For `/ws/play`, the browser's secrets (`token`, `player`, `secret`)
/// leave the address and become the credentials frame it sends first, as
/// the browser does; tests write them in the query for brevity.
fn split_credentials(path: &str) -> (String, Option<String>) {
    let Some(query) = path.strip_prefix("/ws/play?") else { return (path.to_string(), None) };
    let mut kept = Vec::new();
    let mut credentials = serde_json::Map::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some((key @ ("token" | "player" | "secret"), value)) => {
                credentials.insert(key.to_string(), Value::String(value.to_string()));
            }
            _ => kept.push(pair),
        }
    }
    let frame = serde_json::json!({"type": "credentials", "payload": credentials}).to_string();
    (format!("/ws/play?{}", kept.join("&")), Some(frame))
}

impl Client {
    /// Connects to `path` (with its query) on the test server.
    pub async fn connect(addr: std::net::SocketAddr, path: &str) -> Client {
        let (path, first) = split_credentials(path);
        let handshake = tokio_tungstenite::connect_async(format!("ws://{addr}{path}"));
        let (ws, _) = tokio::time::timeout(Duration::from_secs(10), handshake)
            .await
            .unwrap_or_else(|_| panic!("no WebSocket handshake within 10 s for {path}"))
            .expect("WebSocket handshake");
        Client::begin(ws, first).await
    }

    /// [`Client::connect`] with a browser's session cookie (`name=value`),
    /// or, with `bearer`, a bot's `Authorization: Bearer` token instead.
    pub async fn connect_with(
        addr: std::net::SocketAddr,
        path: &str,
        cookie: Option<&str>,
        bearer: Option<&str>,
    ) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let (path, first) = split_credentials(path);
        let mut request = format!("ws://{addr}{path}").into_client_request().expect("a request");
        if let Some(cookie) = cookie {
            request.headers_mut().insert("cookie", cookie.parse().expect("a cookie header"));
        }
        if let Some(token) = bearer {
            request.headers_mut().insert("authorization", format!("Bearer {token}").parse().expect("a header"));
        }
        let (ws, _) = tokio::time::timeout(Duration::from_secs(10), tokio_tungstenite::connect_async(request))
            .await
            .unwrap_or_else(|_| panic!("no WebSocket handshake within 10 s for {path}"))
            .expect("WebSocket handshake");
        Client::begin(ws, first).await
    }

    /// Connects to `path` exactly as given, sending nothing first.
    pub async fn connect_raw(addr: std::net::SocketAddr, path: &str) -> Client {
        let handshake = tokio_tungstenite::connect_async(format!("ws://{addr}{path}"));
        let (ws, _) = tokio::time::timeout(Duration::from_secs(10), handshake)
            .await
            .unwrap_or_else(|_| panic!("no WebSocket handshake within 10 s for {path}"))
            .expect("WebSocket handshake");
        Client { ws }
    }

    /// Wraps a socket opened by the test itself.
    pub fn wrap(ws: WebSocketStream<MaybeTlsStream<TcpStream>>) -> Client {
        Client { ws }
    }

    async fn begin(ws: WebSocketStream<MaybeTlsStream<TcpStream>>, first: Option<String>) -> Client {
        let mut client = Client { ws };
        if let Some(first) = first {
            client.send_text(&first).await;
        }
        client
    }

    /// Connects from another loopback address (`127.0.0.2`, …), as a
    /// second client machine would.
    pub async fn connect_from(addr: std::net::SocketAddr, path: &str, local: std::net::IpAddr) -> Client {
        let (path, first) = split_credentials(path);
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket.bind(std::net::SocketAddr::new(local, 0)).expect("bind the local address");
        let stream = socket.connect(addr).await.expect("connect");
        let handshake = tokio_tungstenite::client_async(format!("ws://{addr}{path}"), MaybeTlsStream::Plain(stream));
        let (ws, _) = tokio::time::timeout(Duration::from_secs(10), handshake)
            .await
            .unwrap_or_else(|_| panic!("no WebSocket handshake within 10 s for {path}"))
            .expect("WebSocket handshake");
        Client::begin(ws, first).await
    }

    /// Sends a text frame as is.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.expect("send");
    }

    /// Sends `{"type": kind, "payload": payload}`.
    pub async fn send(&mut self, kind: &str, payload: Value) {
        self.send_text(&serde_json::json!({"type": kind, "payload": payload}).to_string()).await;
    }

    /// Sends a move.
    pub async fn play(&mut self, q: i64, r: i64) {
        self.send("move", serde_json::json!({"q": q, "r": r})).await;
    }

    /// The next JSON message, or `None` when the server closed.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            let frame =
                tokio::time::timeout(Duration::from_secs(10), self.ws.next()).await.expect("a message within 10 s");
            match frame {
                Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(&t).expect("JSON from the server")),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => continue,
            }
        }
    }

    /// The next message, which must be of type `kind`; returns its payload.
    pub async fn expect(&mut self, kind: &str) -> Value {
        let m = self.next().await.unwrap_or_else(|| panic!("connection closed while waiting for {kind}"));
        assert_eq!(m["type"], kind, "expected {kind}, got {m}");
        m["payload"].clone()
    }

    /// Skips messages until one of type `kind` (e.g. past `state` updates).
    pub async fn until(&mut self, kind: &str) -> Value {
        loop {
            let m = self.next().await.unwrap_or_else(|| panic!("connection closed while waiting for {kind}"));
            if m["type"] == kind {
                return m["payload"].clone();
            }
        }
    }

    /// Waits for the server to close the connection, skipping messages.
    pub async fn closed(&mut self) {
        while self.next().await.is_some() {}
    }

    /// Closes from the client side.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Plays `moves` in order, each `(who, q, r)` by Red's client (`who` 0) or
/// Blue's (1), and waits until both have seen each one as it was played.
pub async fn play_moves(red: &mut Client, blue: &mut Client, moves: &[(u8, i64, i64)]) {
    for &(who, q, r) in moves {
        let mover = if who == 0 { &mut *red } else { &mut *blue };
        mover.play(q, r).await;
        let seen = red.until("move").await;
        blue.until("move").await;
        assert_eq!((seen["q"].as_i64(), seen["r"].as_i64()), (Some(q), Some(r)));
    }
}

/// Skips `state` messages until one whose game is being played; returns it.
pub async fn until_playing(client: &mut Client) -> Value {
    loop {
        let s = client.until("state").await;
        if s["phase"] == "playing" {
            return s;
        }
    }
}
