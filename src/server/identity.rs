//! Names registered before accounts: the browser kept a player id and a
//! secret (192 random bits; only its SHA-256 is stored, compared in
//! constant time). They still prove the name until a password is set.

use sha2::{Digest, Sha256};
use sqlx::AnyPool;

use crate::online::{ErrorCode, Refusal};
use crate::server::hub::token::constant_time_eq;

/// Why an identity was refused.
#[derive(Debug)]
pub enum IdentityError {
    /// No such player, the wrong secret, or a name with a password now.
    Unknown,
    Database(sqlx::Error),
}

impl std::fmt::Display for IdentityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdentityError::Unknown => {
                f.write_str("This browser's saved name is unknown here, or has a password now: log in on /login")
            }
            IdentityError::Database(e) => write!(f, "the player list cannot be read: {e}"),
        }
    }
}

impl IdentityError {
    /// What a connection that presented this identity is told.
    pub fn refusal(&self) -> Refusal {
        let code = match self {
            IdentityError::Unknown => ErrorCode::UnknownPlayer,
            IdentityError::Database(_) => ErrorCode::Unavailable,
        };
        Refusal::new(code, self.to_string())
    }
}

fn hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The display name of player `id` if `secret` is theirs and the name has
/// no password yet: setting one (see `accounts::claim`) retires the secret.
pub async fn verify(pool: &AnyPool, id: &str, secret: &str) -> Result<String, IdentityError> {
    let row: Option<(String, Option<String>)> = sqlx::query_as(
        "SELECT display_name, secret_hash FROM players WHERE id = $1 AND kind = 'human' AND password_hash IS NULL",
    )
    .bind(id.to_string())
    .fetch_optional(pool)
    .await
    .map_err(IdentityError::Database)?;
    match row {
        Some((name, Some(stored))) if constant_time_eq(&stored, &hash(secret)) => Ok(name),
        _ => Err(IdentityError::Unknown),
    }
}
