//! Accounts over real HTTP: signing up, logging in from a second browser,
//! logging out, throttled guessing, the cookie's flags, and no password or
//! session id in the database in the clear, on SQLite and PostgreSQL.
#![cfg(feature = "ssr")]

mod common;

use common::{Response, call, form, fresh_database, session_cookie, start_server_keeping};
use hexarena::server::hub::config::HubConfig;

const PASSWORD: &str = "bridges and ladders 42";

async fn sign_up(addr: std::net::SocketAddr, name: &str, password: &str) -> Response {
    call(addr, "/api/signup", &form(&[("name", name), ("password", password)]), None).await
}

async fn log_in(addr: std::net::SocketAddr, name: &str, password: &str) -> Response {
    call(addr, "/api/login", &form(&[("name", name), ("password", password)]), None).await
}

async fn me(addr: std::net::SocketAddr, cookie: &str) -> serde_json::Value {
    let answer = call(addr, "/api/me", "", Some(cookie)).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    serde_json::from_str(&answer.body).expect("JSON")
}

/// Everything a test database holds as text, to look for secrets in.
async fn database_text(url: &str) -> String {
    if let Some(path) = url.strip_prefix("sqlite://").and_then(|p| p.split('?').next()) {
        let mut bytes = Vec::new();
        for file in [path.to_string(), format!("{path}-wal")] {
            bytes.extend(std::fs::read(&file).unwrap_or_default());
        }
        return String::from_utf8_lossy(&bytes).into_owned();
    }
    let pool = hexarena::server::database::open(Some(url), false).await.expect("open");
    let mut text = String::new();
    for table in ["players", "sessions", "bot_tokens"] {
        let rows: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT t::text FROM {table} t")))
            .fetch_all(&pool)
            .await
            .expect("dump a table");
        text.push_str(&rows.join("\n"));
    }
    text
}

async fn accounts_work(postgres: bool) {
    let Some(url) = fresh_database(postgres).await else { return };
    let config = HubConfig { login_failures_per_name: 3, login_failures_per_address: 100, ..HubConfig::default() };
    let addr = start_server_keeping(&url, None, config).await;

    let made = sign_up(addr, "Ada", PASSWORD).await;
    assert_eq!(made.status, 200, "{}", made.body);
    assert!(made.body.contains(r#""Done""#), "{}", made.body);
    let set_cookie = made.headers.iter().find(|h| h.starts_with("set-cookie: hexarena_session=")).expect("a cookie");
    for flag in ["httponly", "samesite=lax", "path=/", "max-age="] {
        assert!(set_cookie.contains(flag), "{set_cookie} lacks {flag}");
    }
    assert!(!set_cookie.contains("secure"), "plain HTTP without a proxy: not Secure ({set_cookie})");
    let first = session_cookie(&made).expect("a session");
    assert_eq!(me(addr, &first).await["name"], "Ada");

    // Taken, look-alike, weak: refused with a reason, nothing changed.
    for (name, password, why) in [
        ("ada", PASSWORD, "taken"),
        ("4da", PASSWORD, "looks too much like"),
        ("Grace", "password1", "most common"),
        ("Grace", "short", "at least 8"),
    ] {
        let refused = sign_up(addr, name, password).await;
        assert!(refused.body.contains(why), "{name}/{password}: {}", refused.body);
        assert!(session_cookie(&refused).is_none());
    }

    // A second browser logs in to the same account; each has its session.
    let second = session_cookie(&log_in(addr, "ADA", PASSWORD).await).expect("logged in");
    assert_ne!(first, second);
    assert_eq!(me(addr, &second).await["id"], me(addr, &first).await["id"]);

    // Wrong password and unknown name: one answer, no cookie.
    for (name, password) in [("Ada", "not the password"), ("Nobody", PASSWORD)] {
        let refused = log_in(addr, name, password).await;
        assert!(refused.body.contains("Wrong name or password"), "{}", refused.body);
        assert!(session_cookie(&refused).is_none());
    }

    // Logging out ends that session only.
    let out = call(addr, "/api/logout", "", Some(&first)).await;
    assert!(out.headers.iter().any(|h| h.starts_with("set-cookie: hexarena_session=;") && h.contains("max-age=0")));
    assert!(me(addr, &first).await.is_null(), "the first session ended");
    assert_eq!(me(addr, &second).await["name"], "Ada", "the second lives on");

    // Guessing: after 3 failures for a name, even the right password waits.
    for _ in 0..2 {
        log_in(addr, "Ada", "guess guess guess").await;
    }
    let throttled = log_in(addr, "Ada", PASSWORD).await;
    assert_eq!(throttled.status, 429, "{}", throttled.body);
    assert!(throttled.body.contains("try again in"), "{}", throttled.body);
    assert!(throttled.headers.iter().any(|h| h.starts_with("retry-after: ")));

    // Log out everywhere ends the rest.
    call(addr, "/api/logout_everywhere", "", Some(&second)).await;
    assert!(me(addr, &second).await.is_null());

    let stored = database_text(&url).await;
    let session_ids = [&first, &second].map(|c| c.trim_start_matches("hexarena_session=").to_string());
    assert!(!stored.contains(PASSWORD), "a password in the clear");
    for id in session_ids {
        assert!(!stored.contains(&id), "a session id in the clear");
    }
    assert!(stored.contains("$argon2id$v=19$m=19456,t=2,p=1$"), "the hash is there");
}

#[tokio::test]
async fn accounts_on_sqlite() {
    accounts_work(false).await;
}

#[tokio::test]
async fn accounts_on_postgres() {
    accounts_work(true).await;
}
