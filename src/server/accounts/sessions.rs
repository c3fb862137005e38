//! Sessions: a row per logged-in browser, found by the SHA-256 of the
//! random id its cookie carries (a copy of the table logs no one in). A
//! session lasts 30 days from its last use; use within that time renews
//! it, at most once per ten minutes so that reading pages costs no writes.

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use sqlx::AnyPool;

use crate::online::account::{Me, SessionInfo};
use crate::server::archive::wall_ms;
use crate::server::hub::token::{new_token, token_hash};

/// The cookie's name.
pub const COOKIE_NAME: &str = "hexarena_session";
/// How long a session lasts unused.
pub const LIFETIME_MS: i64 = 30 * 24 * 3600 * 1000;
/// How stale `last_used_ms` may get before a use writes it again.
const RENEW_AFTER_MS: i64 = 10 * 60 * 1000;

/// A new session's secret id, for the cookie, and when it expires.
pub struct NewSession {
    pub id: String,
    pub expires_at_ms: i64,
}

/// Opens a session for `player_id`.
pub async fn open(pool: &AnyPool, player_id: &str, user_agent: Option<&str>) -> Result<NewSession, sqlx::Error> {
    let id = new_token();
    let now = wall_ms() as i64;
    let agent = user_agent.map(|a| a.chars().filter(|c| !c.is_control()).take(200).collect::<String>());
    sqlx::query(
        "INSERT INTO sessions (id_hash, player_id, created_at_ms, last_used_ms, expires_at_ms, user_agent) \
         VALUES ($1, $2, $3, $3, $4, $5)",
    )
    .bind(token_hash(&id))
    .bind(player_id.to_string())
    .bind(now)
    .bind(now + LIFETIME_MS)
    .bind(agent)
    .execute(pool)
    .await?;
    Ok(NewSession { id, expires_at_ms: now + LIFETIME_MS })
}

/// The person whose unexpired session `id` is, renewing it.
pub async fn person(pool: &AnyPool, id: &str) -> Result<Option<Me>, sqlx::Error> {
    let now = wall_ms() as i64;
    let hash = token_hash(id);
    let row: Option<(String, String, i64)> = sqlx::query_as(
        "SELECT p.id, p.display_name, s.last_used_ms FROM sessions s JOIN players p ON p.id = s.player_id \
         WHERE s.id_hash = $1 AND s.expires_at_ms > $2 AND p.kind = 'human'",
    )
    .bind(hash.clone())
    .bind(now)
    .fetch_optional(pool)
    .await?;
    let Some((player, name, last_used)) = row else { return Ok(None) };
    if now - last_used > RENEW_AFTER_MS {
        sqlx::query("UPDATE sessions SET last_used_ms = $1, expires_at_ms = $2 WHERE id_hash = $3")
            .bind(now)
            .bind(now + LIFETIME_MS)
            .bind(hash)
            .execute(pool)
            .await?;
    }
    Ok(Some(Me { id: player, name }))
}

/// Ends the session `id`.
pub async fn close(pool: &AnyPool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1").bind(token_hash(id)).execute(pool).await?;
    Ok(())
}

/// Ends every session of `player_id` but `keep` (the hash of one to keep).
pub async fn close_all(pool: &AnyPool, player_id: &str, keep: Option<&str>) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM sessions WHERE player_id = $1 AND ($2 IS NULL OR id_hash <> $2)")
        .bind(player_id.to_string())
        .bind(keep.map(token_hash))
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

/// A person's live sessions, most recently used first; `current` is the
/// id of the session asking.
pub async fn list(pool: &AnyPool, player_id: &str, current: &str) -> Result<Vec<SessionInfo>, sqlx::Error> {
    let rows: Vec<(String, Option<String>, i64, i64)> = sqlx::query_as(
        "SELECT id_hash, user_agent, created_at_ms, last_used_ms FROM sessions \
         WHERE player_id = $1 AND expires_at_ms > $2 ORDER BY last_used_ms DESC",
    )
    .bind(player_id.to_string())
    .bind(wall_ms() as i64)
    .fetch_all(pool)
    .await?;
    let mine = token_hash(current);
    Ok(rows
        .into_iter()
        .map(|(hash, user_agent, created_at_ms, last_used_ms)| SessionInfo {
            // A hash of the hash: naming a session must not help to forge it.
            handle: token_hash(&hash)[..12].to_string(),
            current: hash == mine,
            user_agent,
            created_at_ms,
            last_used_ms,
        })
        .collect())
}

/// The session id the request's cookie carries, if any.
pub fn from_headers(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE_NAME)
        .map(|(_, value)| value.trim().to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The `Set-Cookie` value that gives the browser session `id` (or, with
/// `None`, takes it away).
pub fn cookie(id: Option<&str>, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    match id {
        Some(id) => {
            format!("{COOKIE_NAME}={id}; Path=/; Max-Age={}; HttpOnly; SameSite=Lax{secure}", LIFETIME_MS / 1000)
        }
        None => format!("{COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_read_back_and_carries_its_flags() {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, "theme=dark; hexarena_session=abc123; other=1".parse().unwrap());
        assert_eq!(from_headers(&headers).as_deref(), Some("abc123"));
        headers.insert(COOKIE, "hexarena_session=a%20b".parse().unwrap());
        assert_eq!(from_headers(&headers), None, "only what we issue is read");
        let set = cookie(Some("abc123"), true);
        assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax") && set.ends_with("; Secure"), "{set}");
        assert!(!cookie(Some("x"), false).contains("Secure"));
        assert!(cookie(None, false).contains("Max-Age=0"));
    }
}
