//! Registering people and checking their secrets. The secret is 192 random
//! bits; only its SHA-256 is stored, and it is compared in constant time.

use sha2::{Digest, Sha256};
use sqlx::AnyPool;

use crate::online::identity::{Identity, check_name};
use crate::online::{ErrorCode, Refusal};
use crate::server::hub::token::{constant_time_eq, new_token};

/// Why a name or an identity was refused.
#[derive(Debug)]
pub enum IdentityError {
    /// The name breaks the rules (the text says which).
    BadName(String),
    /// Someone has this name already.
    Taken(String),
    /// No such player, or the wrong secret.
    Unknown,
    Database(sqlx::Error),
}

impl std::fmt::Display for IdentityError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdentityError::BadName(why) => f.write_str(why),
            IdentityError::Taken(name) => write!(f, "The name “{name}” is taken: pick another"),
            IdentityError::Unknown => {
                f.write_str("This browser's player is unknown here: pick your name again on /play")
            }
            IdentityError::Database(e) => write!(f, "the player list cannot be read: {e}"),
        }
    }
}

impl IdentityError {
    /// What a connection that presented this identity is told.
    pub fn refusal(&self) -> Refusal {
        let code = match self {
            IdentityError::BadName(_) | IdentityError::Taken(_) => ErrorCode::BadRequest,
            IdentityError::Unknown => ErrorCode::UnknownPlayer,
            IdentityError::Database(_) => ErrorCode::Unavailable,
        };
        Refusal::new(code, self.to_string())
    }
}

fn hash(secret: &str) -> String {
    Sha256::digest(secret.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates a player with this display name.
pub async fn register(pool: &AnyPool, name: &str) -> Result<Identity, IdentityError> {
    let name = check_name(name).map_err(IdentityError::BadName)?;
    let key = name.to_lowercase();
    let taken: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE name_key = $1")
        .bind(key.clone())
        .fetch_one(pool)
        .await
        .map_err(IdentityError::Database)?;
    if taken > 0 {
        return Err(IdentityError::Taken(name));
    }
    let id = format!("p_{}", &new_token()[..24]);
    let secret = new_token();
    let inserted = sqlx::query(
        "INSERT INTO players (id, display_name, name_key, kind, created_at_ms, secret_hash) VALUES ($1, $2, $3, 'human', $4, $5)",
    )
    .bind(id.clone())
    .bind(name.clone())
    .bind(key)
    .bind(crate::server::archive::wall_ms() as i64)
    .bind(hash(&secret))
    .execute(pool)
    .await;
    match inserted {
        Ok(_) => Ok(Identity { id, secret, name }),
        // Two people racing for one name: the unique key decides.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(IdentityError::Taken(name)),
        Err(e) => Err(IdentityError::Database(e)),
    }
}

/// The display name of player `id` if `secret` is theirs.
pub async fn verify(pool: &AnyPool, id: &str, secret: &str) -> Result<String, IdentityError> {
    let row: Option<(String, Option<String>)> =
        sqlx::query_as("SELECT display_name, secret_hash FROM players WHERE id = $1 AND kind = 'human'")
            .bind(id.to_string())
            .fetch_optional(pool)
            .await
            .map_err(IdentityError::Database)?;
    match row {
        Some((name, Some(stored))) if constant_time_eq(&stored, &hash(secret)) => Ok(name),
        _ => Err(IdentityError::Unknown),
    }
}
