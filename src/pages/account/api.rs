//! The account server functions. Those a form posts take its fields, so
//! that signing up, logging in and out work without JavaScript (a plain
//! post, then a redirect); a refusal is an [`Answer::Refused`] the page shows.

use leptos::prelude::*;
use serde::{Deserialize, Serialize};

use crate::app_error::{Answer, AppError};
use crate::online::account::{BotInfo, Me, SessionInfo};

/// Where to go after logging in: a path on this site, else `/account`.
pub fn next_page(next: Option<&str>) -> String {
    match next.map(str::trim) {
        Some(path) if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') => path.to_string(),
        _ => "/account".to_string(),
    }
}

#[cfg(feature = "ssr")]
mod server {
    use axum::http::request::Parts;
    use axum::http::{HeaderValue, header};
    use leptos::prelude::use_context;

    use crate::app_error::{Answer, AppError};
    use crate::online::account::Me;
    use crate::server::accounts::{AccountError, sessions};
    use crate::server::client_address::ClientAddress;
    use crate::server::hub::Hub;
    use crate::server::hub::config::SecureCookies;

    pub fn pool(hub: &Hub) -> Result<sqlx::AnyPool, AppError> {
        hub.archive()
            .map(|a| a.pool().clone())
            .ok_or_else(|| AppError::Unavailable("This server keeps no accounts (it runs without a database)".into()))
    }

    fn parts() -> Option<Parts> {
        use_context::<Parts>()
    }

    /// The session id the request carries.
    pub fn session_id() -> Option<String> {
        parts().and_then(|p| sessions::from_headers(&p.headers))
    }

    /// The person logged in on this request, if any.
    pub async fn me(hub: &Hub) -> Result<Option<Me>, AppError> {
        let Some(id) = session_id() else { return Ok(None) };
        let pool = pool(hub)?;
        sessions::person(&pool, &id).await.map_err(|e| AppError::Unavailable(AccountError::Database(e).to_string()))
    }

    /// The logged-in person, or a refusal saying to log in.
    pub async fn require_me(hub: &Hub) -> Result<Result<Me, String>, AppError> {
        Ok(me(hub).await?.ok_or_else(|| "You are not logged in (or your session ended): log in again".to_string()))
    }

    /// Sets (or, with `None`, clears) the session cookie on the response.
    pub fn set_cookie(hub: &Hub, id: Option<&str>) {
        let secure = match hub.config().secure_cookies {
            SecureCookies::Always => true,
            SecureCookies::Never => false,
            SecureCookies::Auto => parts().is_some_and(|p| ClientAddress::over_https(&p)),
        };
        if let (Some(response), Ok(value)) =
            (use_context::<leptos_axum::ResponseOptions>(), HeaderValue::from_str(&sessions::cookie(id, secure)))
        {
            response.append_header(header::SET_COOKIE, value);
        }
    }

    /// Opens a session for `me` and hands its cookie to the browser.
    pub async fn start_session(hub: &Hub, me: &Me) -> Result<(), AppError> {
        let pool = pool(hub)?;
        let agent =
            parts().and_then(|p| p.headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(String::from));
        let session = sessions::open(&pool, &me.id, agent.as_deref()).await.map_err(database)?;
        set_cookie(hub, Some(&session.id));
        Ok(())
    }

    pub fn database(e: sqlx::Error) -> AppError {
        AppError::Unavailable(AccountError::Database(e).to_string())
    }

    /// An account error as the function answers it.
    pub fn answer<T>(e: AccountError) -> Result<Answer<T>, AppError> {
        match e {
            AccountError::Throttled(wait) => Err(AppError::too_many(e.to_string(), wait.seconds())),
            e if e.is_refusal() => Ok(Answer::Refused(e.to_string())),
            e => Err(AppError::Unavailable(e.to_string())),
        }
    }

    pub fn address() -> Option<std::net::IpAddr> {
        ClientAddress::of_server_fn().0
    }
}

/// Creates an account and logs it in.
#[server(endpoint = "signup")]
pub async fn sign_up(name: String, password: String, next: Option<String>) -> Result<Answer<Me>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    let pool = pool(&hub)?;
    if let Err(wait) = hub.quotas().registrations.take(address(), std::time::Instant::now()) {
        let message = format!("Too many accounts made from your address: try again in {} s", wait.seconds());
        return Err(AppError::too_many(message, wait.seconds()));
    }
    match crate::server::accounts::sign_up(&pool, &name, &password).await {
        Ok(me) => {
            start_session(&hub, &me).await?;
            leptos_axum::redirect(&next_page(next.as_deref()));
            Ok(Answer::Done(me))
        }
        Err(e) => answer(e),
    }
}

/// Logs in with a name and password.
#[server(endpoint = "login")]
pub async fn log_in(name: String, password: String, next: Option<String>) -> Result<Answer<Me>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    let pool = pool(&hub)?;
    match crate::server::accounts::log_in(&pool, hub.logins(), address(), &name, &password).await {
        Ok(me) => {
            start_session(&hub, &me).await?;
            leptos_axum::redirect(&next_page(next.as_deref()));
            Ok(Answer::Done(me))
        }
        Err(e) => answer(e),
    }
}

/// Ends this browser's session.
#[server(endpoint = "logout")]
pub async fn log_out() -> Result<(), AppError> {
    use server::*;
    let hub = AppError::hub()?;
    if let Some(id) = session_id() {
        crate::server::accounts::sessions::close(&pool(&hub)?, &id).await.map_err(database)?;
    }
    set_cookie(&hub, None);
    leptos_axum::redirect("/");
    Ok(())
}

/// Ends every session of the logged-in person, this one too.
#[server(endpoint = "logout_everywhere")]
pub async fn log_out_everywhere() -> Result<Answer<u64>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    let me = match require_me(&hub).await? {
        Ok(me) => me,
        Err(why) => return Ok(Answer::Refused(why)),
    };
    let ended = crate::server::accounts::sessions::close_all(&pool(&hub)?, &me.id, None).await.map_err(database)?;
    set_cookie(&hub, None);
    leptos_axum::redirect("/login");
    Ok(Answer::Done(ended))
}

/// Replaces the logged-in person's password; their other sessions end.
#[server(endpoint = "change_password")]
pub async fn change_password(current: String, password: String) -> Result<Answer<()>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    let pool = pool(&hub)?;
    let me = match require_me(&hub).await? {
        Ok(me) => me,
        Err(why) => return Ok(Answer::Refused(why)),
    };
    if let Err(e) = crate::server::accounts::change_password(&pool, &me, &current, &password).await {
        return answer(e);
    }
    let keep = session_id();
    crate::server::accounts::sessions::close_all(&pool, &me.id, keep.as_deref()).await.map_err(database)?;
    Ok(Answer::Done(()))
}

/// Sets a password on a name registered before accounts, which this
/// browser proves with the id and secret it kept, and logs it in.
#[server(endpoint = "claim_name")]
pub async fn claim_name(player: String, secret: String, password: String) -> Result<Answer<Me>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    match crate::server::accounts::claim(&pool(&hub)?, &player, &secret, &password).await {
        Ok(me) => {
            start_session(&hub, &me).await?;
            Ok(Answer::Done(me))
        }
        Err(e) => answer(e),
    }
}

/// Who is logged in on this browser.
#[server(endpoint = "me")]
pub async fn who_am_i() -> Result<Option<Me>, AppError> {
    server::me(&AppError::hub()?).await
}

/// What the settings page shows: the person, their sessions and bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountSummary {
    pub me: Me,
    pub sessions: Vec<SessionInfo>,
    pub bots: Vec<BotInfo>,
}

/// The logged-in person's settings; `None` when nobody is logged in.
#[server(endpoint = "account_overview")]
pub async fn account_overview() -> Result<Option<AccountSummary>, AppError> {
    use server::*;
    let hub = AppError::hub()?;
    let Some(me) = me(&hub).await? else { return Ok(None) };
    let pool = pool(&hub)?;
    let current = session_id().unwrap_or_default();
    let sessions = crate::server::accounts::sessions::list(&pool, &me.id, &current).await.map_err(database)?;
    let bots = crate::server::accounts::bots::of_owner(&pool, &me).await.map_err(database)?;
    Ok(Some(AccountSummary { me, sessions, bots }))
}

/// A token just made, shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownToken {
    pub bot_id: String,
    pub token: String,
}

#[cfg(feature = "ssr")]
async fn with_bots<T>(
    act: impl AsyncFnOnce(&sqlx::AnyPool, &Me) -> Result<T, crate::server::accounts::bots::BotError>,
) -> Result<Answer<T>, AppError> {
    use crate::server::accounts::bots::BotError;
    use server::*;
    let hub = AppError::hub()?;
    let pool = pool(&hub)?;
    let me = match require_me(&hub).await? {
        Ok(me) => me,
        Err(why) => return Ok(Answer::Refused(why)),
    };
    match act(&pool, &me).await {
        Ok(done) => Ok(Answer::Done(done)),
        Err(BotError::Account(e)) => answer(e),
        Err(e) => Ok(Answer::Refused(e.to_string())),
    }
}

/// Creates a bot under the logged-in person, with its first token.
#[server(endpoint = "create_bot")]
pub async fn create_bot(name: String, description: String) -> Result<Answer<ShownToken>, AppError> {
    with_bots(async |pool, me| {
        let made = crate::server::accounts::bots::create(pool, me, &name, &description).await?;
        Ok(ShownToken { bot_id: made.bot_id, token: made.token })
    })
    .await
}

/// A new token for one of the person's bots; the earlier ones stop working.
#[server(endpoint = "rotate_bot_token")]
pub async fn rotate_bot_token(bot: String) -> Result<Answer<ShownToken>, AppError> {
    with_bots(async |pool, me| {
        let made = crate::server::accounts::bots::rotate(pool, me, &bot).await?;
        Ok(ShownToken { bot_id: made.bot_id, token: made.token })
    })
    .await
}

/// Revokes one token of one of the person's bots.
#[server(endpoint = "revoke_bot_token")]
pub async fn revoke_bot_token(token: String) -> Result<Answer<()>, AppError> {
    with_bots(async |pool, me| crate::server::accounts::bots::revoke(pool, me, &token).await).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_paths_on_this_site_are_followed_after_login() {
        assert_eq!(super::next_page(Some("/play?x=1")), "/play?x=1");
        for outside in [Some("//evil.example"), Some("https://evil.example"), Some("/\\evil"), None, Some("")] {
            assert_eq!(super::next_page(outside), "/account", "{outside:?}");
        }
    }
}
