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
    // The settings page is rendered for the account, and kept by no shared cache.
    let page = common::get_with_cookie(addr, "/account", &first).await;
    assert!(page.body.contains(r#"data-testid="account-name">Ada<"#), "rendered for Ada");
    assert!(page.headers.iter().any(|h| h == "cache-control: private, no-cache"), "{:?}", page.headers);
    let anonymous = common::get(addr, "/account").await;
    assert!(anonymous.body.contains("account-logged-out"));

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

    // An oversized name or password is refused at once, and not counted.
    let huge = log_in(addr, &"A".repeat(5000), PASSWORD).await;
    assert!(huge.body.contains("Wrong name or password"), "{}", huge.body);
    let long_password = log_in(addr, "Ada", &"x".repeat(200)).await;
    assert!(long_password.body.contains("Wrong name or password"), "{}", long_password.body);

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

    // A bot and its token, which must not be stored in the clear either.
    let bot = call(addr, "/api/create_bot", &form(&[("name", "Adabot"), ("description", "")]), Some(&second)).await;
    let bot: serde_json::Value = serde_json::from_str(&bot.body).expect("JSON");
    let token = bot["Done"]["token"].as_str().unwrap_or_else(|| panic!("a token: {bot}")).to_string();

    // Changing the password ends the other sessions and the old password.
    let third = session_cookie(&log_in(addr, "Grace", PASSWORD).await);
    assert!(third.is_none(), "no such account");
    let other = session_cookie(&sign_up(addr, "Grace", PASSWORD).await).expect("Grace");
    let grace_elsewhere = session_cookie(&log_in(addr, "grace", PASSWORD).await).expect("Grace again");
    let new_password = "a longer bridge of stones";
    let wrong = call(
        addr,
        "/api/change_password",
        &form(&[("current", "nope nope"), ("password", new_password)]),
        Some(&other),
    )
    .await;
    assert!(wrong.body.contains("Wrong name or password"), "{}", wrong.body);
    let changed =
        call(addr, "/api/change_password", &form(&[("current", PASSWORD), ("password", new_password)]), Some(&other))
            .await;
    assert_eq!(changed.body, r#"{"Done":null}"#);
    assert_eq!(me(addr, &other).await["name"], "Grace", "this session stays");
    assert!(me(addr, &grace_elsewhere).await.is_null(), "the others end");
    assert!(session_cookie(&log_in(addr, "Grace", PASSWORD).await).is_none());
    assert!(session_cookie(&log_in(addr, "Grace", new_password).await).is_some());

    // Log out everywhere ends the rest.
    call(addr, "/api/logout_everywhere", "", Some(&second)).await;
    assert!(me(addr, &second).await.is_null());

    let stored = database_text(&url).await;
    let session_ids = [&first, &second].map(|c| c.trim_start_matches("hexarena_session=").to_string());
    assert!(!stored.contains(PASSWORD), "a password in the clear");
    assert!(!stored.contains(new_password), "a password in the clear");
    assert!(!stored.contains(&token), "a bot token in the clear");
    for id in session_ids {
        assert!(!stored.contains(&id), "a session id in the clear");
    }
    assert!(stored.contains("$argon2id$v=19$m=19456,t=2,p=1$"), "the hash is there");
}

/// A name registered before accounts (a player id and a secret kept by the
/// browser) becomes an account when that browser sets a password; the
/// secret then proves nothing.
async fn old_names_become_accounts(postgres: bool) {
    let Some(url) = fresh_database(postgres).await else { return };
    let addr = start_server_keeping(&url, None, HubConfig::default()).await;
    let pool = hexarena::server::database::open(Some(&url), false).await.expect("open");
    let secret = "0123456789abcdef0123456789abcdef0123456789abcdef";
    sqlx::query(
        "INSERT INTO players (id, display_name, name_key, kind, created_at_ms, secret_hash) \
         VALUES ('p_old', 'Oldtimer', 'oldtimer', 'human', 0, $1)",
    )
    .bind(hexarena::server::hub::token::token_hash(secret))
    .execute(&pool)
    .await
    .expect("a name from before accounts");
    let claim = |secret: &str, password: &str| form(&[("player", "p_old"), ("secret", secret), ("password", password)]);
    let wrong = call(addr, "/api/claim_name", &claim("guess", PASSWORD), None).await;
    assert!(wrong.body.contains("unknown here"), "{}", wrong.body);
    let weak = call(addr, "/api/claim_name", &claim(secret, "password"), None).await;
    assert!(weak.body.contains("most common"), "{}", weak.body);
    let claimed = call(addr, "/api/claim_name", &claim(secret, PASSWORD), None).await;
    let cookie = session_cookie(&claimed).unwrap_or_else(|| panic!("logged in: {}", claimed.body));
    assert_eq!(me(addr, &cookie).await["id"], "p_old", "the same player, with its games and rating");
    assert!(session_cookie(&log_in(addr, "Oldtimer", PASSWORD).await).is_some());
    let again = call(addr, "/api/claim_name", &claim(secret, "another password 9"), None).await;
    assert!(session_cookie(&again).is_none(), "the secret is retired: {}", again.body);
}

#[tokio::test]
async fn old_names_become_accounts_on_sqlite() {
    old_names_become_accounts(false).await;
}

#[tokio::test]
async fn old_names_become_accounts_on_postgres() {
    old_names_become_accounts(true).await;
}

#[tokio::test]
async fn accounts_on_sqlite() {
    accounts_work(false).await;
}

#[tokio::test]
async fn accounts_on_postgres() {
    accounts_work(true).await;
}
