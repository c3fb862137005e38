//! Bot accounts: a person creates bots under their account and gives each
//! a token, shown once and kept only as its SHA-256. A bot that presents a
//! live token plays, and is rated, as that bot.

use sqlx::AnyPool;

use super::{AccountError, free_name, name_race};
use crate::online::account::{BotInfo, Me, TokenInfo};
use crate::server::archive::wall_ms;
use crate::server::hub::token::{new_token, token_hash};

/// Bots one person may own.
pub const MAX_BOTS: i64 = 20;
/// What every token starts with, so that one pasted where it should not
/// be is recognised (secret scanners look for such prefixes).
pub const TOKEN_PREFIX: &str = "hxb_";
const MAX_DESCRIPTION_CHARS: usize = 300;

/// Why a token was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenError {
    Unknown,
    Revoked,
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Unknown => f.write_str("Unknown bot token: copy it again from your account page"),
            TokenError::Revoked => f.write_str("This bot token was revoked: make a new one on your account page"),
        }
    }
}

/// The bot a token proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotAccount {
    pub id: String,
    pub name: String,
}

/// A token made just now: the only time it is seen.
#[derive(Clone, Debug)]
pub struct NewToken {
    pub bot_id: String,
    pub token: String,
}

/// Refusals a bot owner can fix.
#[derive(Debug)]
pub enum BotError {
    Account(AccountError),
    TooMany,
    /// No bot of this owner has that id (or that token).
    NotYours,
    LongDescription,
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Account(e) => e.fmt(f),
            BotError::TooMany => write!(f, "You have {MAX_BOTS} bots already: delete or reuse one"),
            BotError::NotYours => f.write_str("No bot of yours has this id: reload the page"),
            BotError::LongDescription => write!(f, "A description has at most {MAX_DESCRIPTION_CHARS} characters"),
        }
    }
}

impl From<sqlx::Error> for BotError {
    fn from(e: sqlx::Error) -> Self {
        BotError::Account(AccountError::Database(e))
    }
}

/// Creates a bot owned by `owner`, with its first token.
pub async fn create(pool: &AnyPool, owner: &Me, name: &str, description: &str) -> Result<NewToken, BotError> {
    let description = description.trim();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(BotError::LongDescription);
    }
    let owned: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE owner_id = $1")
        .bind(owner.id.clone())
        .fetch_one(pool)
        .await?;
    if owned >= MAX_BOTS {
        return Err(BotError::TooMany);
    }
    let (name, key, shape) = free_name(pool, name).await.map_err(BotError::Account)?;
    let id = format!("b_{}", &new_token()[..24]);
    sqlx::query(
        "INSERT INTO players (id, display_name, name_key, name_skeleton, kind, owner_id, description, created_at_ms) \
         VALUES ($1, $2, $3, $4, 'bot', $5, $6, $7)",
    )
    .bind(id.clone())
    .bind(name.clone())
    .bind(key)
    .bind(shape)
    .bind(owner.id.clone())
    .bind(description.to_string())
    .bind(wall_ms() as i64)
    .execute(pool)
    .await
    .map_err(|e| BotError::Account(name_race(e, &name)))?;
    issue(pool, &id).await.map_err(BotError::from)
}

async fn issue(pool: &AnyPool, bot_id: &str) -> Result<NewToken, sqlx::Error> {
    let token = format!("{TOKEN_PREFIX}{}", new_token());
    sqlx::query("INSERT INTO bot_tokens (id, token_hash, bot_id, created_at_ms) VALUES ($1, $2, $3, $4)")
        .bind(format!("t_{}", &new_token()[..16]))
        .bind(token_hash(&token))
        .bind(bot_id.to_string())
        .bind(wall_ms() as i64)
        .execute(pool)
        .await?;
    Ok(NewToken { bot_id: bot_id.to_string(), token })
}

async fn owns(pool: &AnyPool, owner: &Me, bot_id: &str) -> Result<(), BotError> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM players WHERE id = $1 AND owner_id = $2")
        .bind(bot_id.to_string())
        .bind(owner.id.clone())
        .fetch_one(pool)
        .await?;
    if count == 0 { Err(BotError::NotYours) } else { Ok(()) }
}

/// A new token for the bot, every earlier one revoked.
pub async fn rotate(pool: &AnyPool, owner: &Me, bot_id: &str) -> Result<NewToken, BotError> {
    owns(pool, owner, bot_id).await?;
    sqlx::query("UPDATE bot_tokens SET revoked_at_ms = $1 WHERE bot_id = $2 AND revoked_at_ms IS NULL")
        .bind(wall_ms() as i64)
        .bind(bot_id.to_string())
        .execute(pool)
        .await?;
    Ok(issue(pool, bot_id).await?)
}

/// Revokes one token of a bot of `owner`.
pub async fn revoke(pool: &AnyPool, owner: &Me, token_id: &str) -> Result<(), BotError> {
    let done = sqlx::query(
        "UPDATE bot_tokens SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL \
         AND bot_id IN (SELECT id FROM players WHERE owner_id = $3)",
    )
    .bind(wall_ms() as i64)
    .bind(token_id.to_string())
    .bind(owner.id.clone())
    .execute(pool)
    .await?;
    if done.rows_affected() == 0 { Err(BotError::NotYours) } else { Ok(()) }
}

/// The bot whose live token this is.
pub async fn authenticate(pool: &AnyPool, token: &str) -> Result<Result<BotAccount, TokenError>, sqlx::Error> {
    if !token.starts_with(TOKEN_PREFIX) || token.len() > 100 {
        return Ok(Err(TokenError::Unknown));
    }
    let hash = token_hash(token);
    let row: Option<(String, String, Option<i64>)> = sqlx::query_as(
        "SELECT p.id, p.display_name, t.revoked_at_ms FROM bot_tokens t JOIN players p ON p.id = t.bot_id \
         WHERE t.token_hash = $1",
    )
    .bind(hash.clone())
    .fetch_optional(pool)
    .await?;
    match row {
        None => Ok(Err(TokenError::Unknown)),
        Some((_, _, Some(_))) => Ok(Err(TokenError::Revoked)),
        Some((id, name, None)) => {
            sqlx::query("UPDATE bot_tokens SET last_used_ms = $1 WHERE token_hash = $2")
                .bind(wall_ms() as i64)
                .bind(hash)
                .execute(pool)
                .await?;
            Ok(Ok(BotAccount { id, name }))
        }
    }
}

#[derive(sqlx::FromRow)]
struct TokenRow {
    id: String,
    token_hash: String,
    created_at_ms: i64,
    last_used_ms: Option<i64>,
    revoked_at_ms: Option<i64>,
}

/// The bots of `owner`, with their tokens.
pub async fn of_owner(pool: &AnyPool, owner: &Me) -> Result<Vec<BotInfo>, sqlx::Error> {
    let bots: Vec<(String, String, Option<String>)> = sqlx::query_as(
        "SELECT id, display_name, description FROM players WHERE owner_id = $1 ORDER BY created_at_ms, id",
    )
    .bind(owner.id.clone())
    .fetch_all(pool)
    .await?;
    let mut list = Vec::with_capacity(bots.len());
    for (id, name, description) in bots {
        let tokens: Vec<TokenRow> = sqlx::query_as(
            "SELECT id, token_hash, created_at_ms, last_used_ms, revoked_at_ms FROM bot_tokens WHERE bot_id = $1 \
             ORDER BY created_at_ms DESC, id",
        )
        .bind(id.clone())
        .fetch_all(pool)
        .await?;
        let tokens = tokens
            .into_iter()
            .map(|t| TokenInfo {
                // Of the hash: the token's own characters are nowhere to show.
                prefix: format!("{TOKEN_PREFIX}…{}", t.token_hash.get(..6).unwrap_or_default()),
                id: t.id,
                created_at_ms: t.created_at_ms,
                last_used_ms: t.last_used_ms,
                revoked: t.revoked_at_ms.is_some(),
            })
            .collect();
        list.push(BotInfo { id, name, description: description.unwrap_or_default(), tokens });
    }
    Ok(list)
}
