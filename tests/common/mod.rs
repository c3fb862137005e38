//! A real server on a loopback port, and a bare HTTP/1.1 client, so the
//! tests exercise the same router and sockets as production.

#![allow(dead_code)]

pub mod ws;

use leptos::prelude::LeptosOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Starts the application router on a free port and returns its address.
pub async fn start_server() -> std::net::SocketAddr {
    start_server_with(hexarena::server::hub::config::HubConfig::default()).await
}

/// Starts a server that archives into the database at `url` (migrated).
pub async fn start_server_with_archive(url: &str) -> std::net::SocketAddr {
    start_server_with_journal(url, None).await
}

/// The same, with the journal where `journal` says (`HEXARENA_JOURNAL`'s
/// values: `database` or a file path; `None` for the default).
pub async fn start_server_with_journal(url: &str, journal: Option<&str>) -> std::net::SocketAddr {
    start_server_keeping(url, journal, hexarena::server::hub::config::HubConfig::default()).await
}

/// A server that archives and journals as [`start_server_with_journal`]
/// does, with hub settings of the test's choosing.
pub async fn start_server_keeping(
    url: &str,
    journal: Option<&str>,
    config: hexarena::server::hub::config::HubConfig,
) -> std::net::SocketAddr {
    let pool = hexarena::server::database::open(Some(url), true).await.expect("open the test database");
    let place = hexarena::server::journal::JournalPlace::choose(journal, url);
    let persistence = hexarena::server::hub::Persistence::open(pool, &place).await.expect("read the journal");
    let first = persistence.archive.last_series_id().await.expect("read the archive") + 1;
    let hub = hexarena::server::hub::Hub::start_with(config, Some(persistence), first);
    serve(hub).await
}

/// A fresh database for one test: a new SQLite file, or with `postgres`
/// a new database on the local server (`None` when there is none, after a
/// loud message).
pub async fn fresh_database(postgres: bool) -> Option<String> {
    let unique = format!(
        "{}_{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
    );
    if !postgres {
        let dir = std::env::temp_dir().join(format!("hexarena-test-{unique}"));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        return Some(format!("sqlite://{}?mode=rwc", dir.join("hexarena.db").display()));
    }
    let admin_url = std::env::var("HEXARENA_TEST_POSTGRES").unwrap_or("postgres://postgres@127.0.0.1:5432/test".into());
    let admin = match hexarena::server::database::open(Some(&admin_url), false).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("\n!!!!!!!! SKIPPED: no PostgreSQL at {admin_url} ({e}); CI provides one.\n");
            return None;
        }
    };
    let name = format!("hexarena_test_{unique}");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&admin)
        .await
        .expect("create a database");
    admin.close().await;
    admin_url.rsplit_once('/').map(|(base, _)| format!("{base}/{name}"))
}

/// Same, with hub settings of the test's choosing.
pub async fn start_server_with(config: hexarena::server::hub::config::HubConfig) -> std::net::SocketAddr {
    serve(hexarena::server::hub::Hub::start(config)).await
}

/// Serves the app around `hub` on a free loopback port, as production does
/// (no Nagle delay), and returns the address.
async fn serve(hub: hexarena::server::hub::Hub) -> std::net::SocketAddr {
    let options = LeptosOptions::builder().output_name("hexarena").site_root("target/site").build();
    serve_site(hub, options).await
}

/// A server (default settings, no archive) whose site is described by
/// `options`: its root, bundle name and hash file.
pub async fn start_server_for_site(options: LeptosOptions) -> std::net::SocketAddr {
    let hub = hexarena::server::hub::Hub::start(hexarena::server::hub::config::HubConfig::default());
    serve_site(hub, options).await
}

async fn serve_site(hub: hexarena::server::hub::Hub, options: LeptosOptions) -> std::net::SocketAddr {
    let header_read = hub.config().header_read;
    let app = hexarena::server::router::router(options, hub);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
    let addr = listener.local_addr().expect("local address");
    tokio::spawn(hexarena::server::listen::serve(listener, app, header_read, std::future::pending()));
    addr
}

/// A response: status code, lower-cased header lines and body.
pub struct Response {
    pub status: u16,
    pub headers: Vec<String>,
    pub body: String,
}

/// Sends `GET path` and reads the whole answer.
pub async fn get(addr: std::net::SocketAddr, path: &str) -> Response {
    exchange(addr, format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")).await
}

/// Sends a raw request and reads the whole answer.
async fn exchange(addr: std::net::SocketAddr, request: String) -> Response {
    exchange_on(TcpStream::connect(addr).await.expect("connect"), request).await
}

/// Sends a raw request on `stream` and reads the whole answer.
async fn exchange_on(mut stream: TcpStream, request: String) -> Response {
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    // A whole answer within 10 s, or a failure that shows what came.
    let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut raw)).await;
    let text = String::from_utf8_lossy(&raw).into_owned();
    match read {
        Ok(r) => {
            r.expect("read");
        }
        Err(_) => panic!(
            "no whole answer within 10 s to {:?}; got {} bytes, ending: {:?}",
            request.lines().next().unwrap_or(""),
            raw.len(),
            text.chars().skip(text.chars().count().saturating_sub(600)).collect::<String>()
        ),
    }
    let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("a status line");
    let headers = lines.map(str::to_ascii_lowercase).collect();
    let body =
        if head.to_ascii_lowercase().contains("transfer-encoding: chunked") { dechunk(body) } else { body.to_string() };
    Response { status, headers, body }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Sends a form `POST path` (as a browser without JavaScript would) and
/// reads the whole answer.
pub async fn post_form(addr: std::net::SocketAddr, path: &str, body: &str) -> Response {
    exchange(addr, form_request(addr, path, body)).await
}

/// [`post_form`] from another loopback address (`127.0.0.2`, …), as a
/// second client machine would send it.
pub async fn post_form_from(addr: std::net::SocketAddr, path: &str, body: &str, local: std::net::IpAddr) -> Response {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.bind(std::net::SocketAddr::new(local, 0)).expect("bind the local address");
    let stream = socket.connect(addr).await.expect("connect");
    exchange_on(stream, form_request(addr, path, body)).await
}

fn form_request(addr: std::net::SocketAddr, path: &str, body: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nAccept: text/html\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Calls a server function as a script does: a form body, a JSON answer,
/// with the session cookie `cookie` (`name=value`) if given.
pub async fn call(addr: std::net::SocketAddr, path: &str, body: &str, cookie: Option<&str>) -> Response {
    let cookie = cookie.map(|c| format!("Cookie: {c}\r\n")).unwrap_or_default();
    exchange(
        addr,
        format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{cookie}Content-Type: application/x-www-form-urlencoded\r\nAccept: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ),
    )
    .await
}

/// The `name=value` of the session cookie a response sets, if it sets one.
pub fn session_cookie(response: &Response) -> Option<String> {
    response
        .headers
        .iter()
        .find_map(|h| h.strip_prefix("set-cookie: "))
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
        .filter(|c| c.starts_with("hexarena_session=") && c.len() > "hexarena_session=".len())
}

/// `application/x-www-form-urlencoded` of `pairs`.
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| {
            let enc: String = v
                .bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
                    b' ' => "+".to_string(),
                    _ => format!("%{b:02X}"),
                })
                .collect();
            format!("{k}={enc}")
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// `GET path` with a session cookie (`name=value`), as a logged-in browser.
pub async fn get_with_cookie(addr: std::net::SocketAddr, path: &str, cookie: &str) -> Response {
    exchange(addr, format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\r\n"))
        .await
}

/// The hexgame reference client (`hexgame` 0.4.3 from PyPI, which
/// scripts/test.sh installs in target/hexgame-venv, or `HEXGAME_BIN`);
/// `None`, after a loud message, when it is not installed.
pub fn hexgame_bin() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("HEXGAME_BIN").map(std::path::PathBuf::from).unwrap_or_else(|| {
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/hexgame-venv/bin/hexgame")
    });
    if path.exists() {
        return Some(path);
    }
    eprintln!(
        "\n!!!!!!!! SKIPPED: the hexgame reference client is not installed at {}.\n\
         !!!!!!!! Run scripts/test.sh (it installs hexgame==0.4.3 from PyPI) or set HEXGAME_BIN.\n",
        path.display()
    );
    None
}
