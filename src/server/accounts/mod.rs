//! Accounts: people who sign up with a name and a password, their
//! sessions, and the bots they own. Names follow the display-name rules and
//! may not look like a name already taken (see `online::identity::skeleton`).

pub mod bots;
pub mod password;
pub mod sessions;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use sqlx::AnyPool;

use crate::online::account::Me;
use crate::online::identity::{check_name, skeleton};
use crate::server::hub::throttle::{RetryAfter, Throttle};
use crate::server::hub::token::new_token;
use password::WeakPassword;

/// Why an account request was refused or failed.
#[derive(Debug)]
pub enum AccountError {
    BadName(String),
    Taken(String),
    /// The name looks like one already taken.
    LooksLike {
        name: String,
        existing: String,
    },
    Weak(WeakPassword),
    /// Unknown name or wrong password: the same answer for both.
    BadLogin,
    /// The account predates passwords and has none yet.
    NoPassword,
    Throttled(RetryAfter),
    /// The player id and secret a browser kept do not match.
    UnknownIdentity,
    Database(sqlx::Error),
    Hashing(String),
}

impl std::fmt::Display for AccountError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AccountError::BadName(why) => f.write_str(why),
            AccountError::Taken(name) => write!(f, "The name “{name}” is taken: pick another"),
            AccountError::LooksLike { name, existing } => {
                write!(f, "“{name}” looks too much like “{existing}”, which is taken: pick another")
            }
            AccountError::Weak(why) => write!(f, "{why}"),
            AccountError::BadLogin => f.write_str("Wrong name or password"),
            AccountError::NoPassword => f.write_str(
                "This account has no password yet: open /account in the browser that registered the name to set one",
            ),
            AccountError::Throttled(wait) => {
                write!(f, "Too many failed logins: try again in {} s", wait.seconds())
            }
            AccountError::UnknownIdentity => f.write_str("This browser's saved name is unknown here: sign up instead"),
            AccountError::Database(e) => write!(f, "the accounts cannot be read right now: {e}"),
            AccountError::Hashing(e) => write!(f, "the password could not be processed: {e}"),
        }
    }
}

impl AccountError {
    /// Whether the person can fix it (as opposed to the server failing).
    pub fn is_refusal(&self) -> bool {
        !matches!(self, AccountError::Database(_) | AccountError::Hashing(_))
    }
}

impl From<sqlx::Error> for AccountError {
    fn from(e: sqlx::Error) -> Self {
        AccountError::Database(e)
    }
}

/// Failed logins, per account name and per client address, over 5 minutes.
pub struct LoginThrottle {
    names: Throttle<String>,
    addresses: Throttle<IpAddr>,
    /// In a cluster, failures are counted in Redis for every instance;
    /// the counts here stand in while Redis is out of reach.
    shared: Option<crate::server::cluster::Cluster>,
}

const LOGIN_WINDOW: Duration = Duration::from_secs(300);

impl LoginThrottle {
    pub fn new(per_name: u32, per_address: u32) -> LoginThrottle {
        LoginThrottle {
            names: Throttle::with_window(per_name, LOGIN_WINDOW),
            addresses: Throttle::with_window(per_address, LOGIN_WINDOW),
            shared: None,
        }
    }

    /// The same limits, counted for every instance of `cluster`.
    pub fn shared(self, cluster: Option<crate::server::cluster::Cluster>) -> LoginThrottle {
        LoginThrottle { shared: cluster, ..self }
    }

    async fn check(&self, name_key: &str, address: Option<IpAddr>) -> Result<(), AccountError> {
        if let Some(cluster) = &self.shared {
            match self.check_shared(cluster, name_key, address).await {
                Ok(result) => return result,
                Err(e) => tracing::warn!(error = %e, "login failures counted by this instance alone for now"),
            }
        }
        let now = Instant::now();
        self.names.check(Some(name_key.to_string()), now).map_err(AccountError::Throttled)?;
        self.addresses.check(address, now).map_err(AccountError::Throttled)
    }

    async fn check_shared(
        &self,
        cluster: &crate::server::cluster::Cluster,
        name_key: &str,
        address: Option<IpAddr>,
    ) -> Result<Result<(), AccountError>, crate::server::cluster::ClusterError> {
        let (per_name, per_address) = (self.names.limit(), self.addresses.limit());
        let mut wait = cluster.failure_wait("name", name_key, per_name, LOGIN_WINDOW).await?;
        if let (None, Some(ip)) = (wait, address) {
            wait = cluster.failure_wait("address", &ip.to_string(), per_address, LOGIN_WINDOW).await?;
        }
        Ok(match wait {
            Some(wait) => Err(AccountError::Throttled(RetryAfter(wait))),
            None => Ok(()),
        })
    }

    async fn fail(&self, name_key: &str, address: Option<IpAddr>) {
        let now = Instant::now();
        self.names.fail(Some(name_key.to_string()), now);
        self.addresses.fail(address, now);
        if let Some(cluster) = &self.shared {
            let mut recorded = cluster.record_failure("name", name_key, LOGIN_WINDOW).await;
            if let (Ok(()), Some(ip)) = (&recorded, address) {
                recorded = cluster.record_failure("address", &ip.to_string(), LOGIN_WINDOW).await;
            }
            if let Err(e) = recorded {
                tracing::warn!(error = %e, "a failed login was counted by this instance alone");
            }
        }
    }
}

/// Hashing costs tens of milliseconds of one core: off the async threads.
async fn hash_password(password: &str) -> Result<String, AccountError> {
    let password = password.to_string();
    tokio::task::spawn_blocking(move || password::hash(&password))
        .await
        .map_err(|e| AccountError::Hashing(e.to_string()))?
        .map_err(AccountError::Hashing)
}

async fn verify_password(password: &str, stored: &str) -> bool {
    let (password, stored) = (password.to_string(), stored.to_string());
    tokio::task::spawn_blocking(move || password::verify(&password, &stored)).await.unwrap_or(false)
}

/// Checks that `name` is well-formed and free, also of look-alikes; returns
/// it trimmed with its key and skeleton.
pub async fn free_name(pool: &AnyPool, name: &str) -> Result<(String, String, String), AccountError> {
    let name = check_name(name).map_err(AccountError::BadName)?;
    let (key, shape) = (name.to_lowercase(), skeleton(&name));
    let existing: Option<String> =
        sqlx::query_scalar("SELECT display_name FROM players WHERE name_key = $1 OR name_skeleton = $2 LIMIT 1")
            .bind(key.clone())
            .bind(shape.clone())
            .fetch_optional(pool)
            .await?;
    match existing {
        Some(existing) if existing.to_lowercase() == key => Err(AccountError::Taken(name)),
        Some(existing) => Err(AccountError::LooksLike { name, existing }),
        None => Ok((name, key, shape)),
    }
}

/// A unique-key violation from an insert that raced another for a name.
pub(crate) fn name_race(e: sqlx::Error, name: &str) -> AccountError {
    match e {
        sqlx::Error::Database(d) if d.is_unique_violation() => AccountError::Taken(name.to_string()),
        e => AccountError::Database(e),
    }
}

/// Creates a person's account.
pub async fn sign_up(pool: &AnyPool, name: &str, password: &str) -> Result<Me, AccountError> {
    let (name, key, shape) = free_name(pool, name).await?;
    password::check(password, &name).map_err(AccountError::Weak)?;
    let hash = hash_password(password).await?;
    let id = format!("p_{}", &new_token()[..24]);
    sqlx::query(
        "INSERT INTO players (id, display_name, name_key, name_skeleton, kind, created_at_ms, password_hash) \
         VALUES ($1, $2, $3, $4, 'human', $5, $6)",
    )
    .bind(id.clone())
    .bind(name.clone())
    .bind(key)
    .bind(shape)
    .bind(crate::server::archive::wall_ms() as i64)
    .bind(hash)
    .execute(pool)
    .await
    .map_err(|e| name_race(e, &name))?;
    Ok(Me { id, name })
}

/// Checks a name and password; failures are counted against the name and
/// the address, and past the limits refused before any check.
pub async fn log_in(
    pool: &AnyPool,
    throttle: &LoginThrottle,
    address: Option<IpAddr>,
    name: &str,
    password: &str,
) -> Result<Me, AccountError> {
    // No account has a longer name or password: refused before it costs a
    // hash or a place in the throttle's table.
    if name.trim().chars().count() > 24 || password.chars().count() > crate::online::account::MAX_PASSWORD_CHARS {
        return Err(AccountError::BadLogin);
    }
    let key = name.trim().to_lowercase();
    throttle.check(&key, address).await?;
    let row: Option<(String, String, Option<String>)> =
        sqlx::query_as("SELECT id, display_name, password_hash FROM players WHERE name_key = $1 AND kind = 'human'")
            .bind(key.clone())
            .fetch_optional(pool)
            .await?;
    let stored = row.as_ref().and_then(|r| r.2.clone());
    // An unknown name is checked against a decoy: it costs the same time.
    let matches = verify_password(password, stored.as_deref().unwrap_or(password::decoy())).await;
    match row {
        Some((id, name, Some(_))) if matches => Ok(Me { id, name }),
        Some((_, _, None)) => Err(AccountError::NoPassword),
        _ => {
            throttle.fail(&key, address).await;
            Err(AccountError::BadLogin)
        }
    }
}

/// Replaces a person's password after checking the current one (which an
/// account from before passwords does not have).
pub async fn change_password(pool: &AnyPool, me: &Me, current: &str, new: &str) -> Result<(), AccountError> {
    let stored: Option<String> = sqlx::query_scalar("SELECT password_hash FROM players WHERE id = $1")
        .bind(me.id.clone())
        .fetch_one(pool)
        .await?;
    if let Some(stored) = stored
        && !verify_password(current, &stored).await
    {
        return Err(AccountError::BadLogin);
    }
    set_password(pool, &me.id, &me.name, new).await
}

async fn set_password(pool: &AnyPool, id: &str, name: &str, new: &str) -> Result<(), AccountError> {
    password::check(new, name).map_err(AccountError::Weak)?;
    let hash = hash_password(new).await?;
    sqlx::query("UPDATE players SET password_hash = $1 WHERE id = $2")
        .bind(hash)
        .bind(id.to_string())
        .execute(pool)
        .await?;
    Ok(())
}

/// Turns a name registered before accounts (the browser kept its player id
/// and secret) into an account with this password; the name, its rating
/// and its games stay.
pub async fn claim(pool: &AnyPool, id: &str, secret: &str, new: &str) -> Result<Me, AccountError> {
    let name = crate::server::identity::verify(pool, id, secret).await.map_err(|e| match e {
        crate::server::identity::IdentityError::Database(e) => AccountError::Database(e),
        _ => AccountError::UnknownIdentity,
    })?;
    let has_password: Option<String> = sqlx::query_scalar("SELECT password_hash FROM players WHERE id = $1")
        .bind(id.to_string())
        .fetch_one(pool)
        .await?;
    if has_password.is_some() {
        return Err(AccountError::Taken(name));
    }
    set_password(pool, id, &name, new).await?;
    Ok(Me { id: id.to_string(), name })
}

/// Gives every player a skeleton: those from before accounts have none.
/// Two old names that look alike both stay, the later one's skeleton made
/// unique with its id.
pub async fn backfill_skeletons(pool: &AnyPool) -> Result<(), sqlx::Error> {
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT id, display_name FROM players WHERE name_skeleton IS NULL ORDER BY created_at_ms, id")
            .fetch_all(pool)
            .await?;
    for (id, name) in rows {
        let shape = if id.starts_with("bot:") { id.clone() } else { skeleton(&name) };
        let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE name_skeleton = $1")
            .bind(shape.clone())
            .fetch_one(pool)
            .await?;
        let shape = if taken > 0 { format!("{shape}#{id}") } else { shape };
        sqlx::query("UPDATE players SET name_skeleton = $1 WHERE id = $2").bind(shape).bind(id).execute(pool).await?;
    }
    Ok(())
}
