//! Accounts as the pages and the live views see them: who is logged in,
//! and what kind of player sits in a seat.

use serde::{Deserialize, Serialize};

/// A password has at least this many characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// And at most this many: hashing cost must not be the client's to choose.
pub const MAX_PASSWORD_CHARS: usize = 128;

/// What kind of account a player id belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// A person, who logs in with a password.
    #[default]
    Person,
    /// A bot, owned by a person, that proves itself with a token.
    Bot,
}

impl AccountKind {
    /// As the database's `players.kind` stores it.
    pub const fn stored(self) -> &'static str {
        match self {
            AccountKind::Person => "human",
            AccountKind::Bot => "bot",
        }
    }
}

/// Who sits in a seat, as everyone sees it: only accounts are rated, and a
/// name that is not an account's is marked wherever it is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person without an account, under the name they typed.
    #[default]
    Guest,
    /// A person's account.
    Person,
    /// A bot account, authenticated by its token.
    Bot,
    /// A bot that gave no token: its declared names prove nothing.
    UnverifiedBot,
}

impl SeatKind {
    /// The kind of a stored player: `players.kind` and whether the row has
    /// an owner (bots from before accounts, counted by the names they
    /// declared, have none and stay unverified).
    pub fn of_stored(kind: &str, owned: bool) -> SeatKind {
        match (kind, owned) {
            ("human", _) => SeatKind::Person,
            ("bot", true) => SeatKind::Bot,
            _ => SeatKind::UnverifiedBot,
        }
    }

    /// The kind of a seat from what its player proved.
    pub fn of(account: Option<AccountKind>, declared_model: bool) -> SeatKind {
        match (account, declared_model) {
            (Some(AccountKind::Person), _) => SeatKind::Person,
            (Some(AccountKind::Bot), _) => SeatKind::Bot,
            (None, true) => SeatKind::UnverifiedBot,
            (None, false) => SeatKind::Guest,
        }
    }

    /// Whether the seat is an account's, so its games can be rated.
    pub const fn is_account(self) -> bool {
        matches!(self, SeatKind::Person | SeatKind::Bot)
    }

    /// The mark shown after the name, if any.
    pub const fn mark(self) -> Option<&'static str> {
        match self {
            SeatKind::Guest => Some("guest"),
            SeatKind::UnverifiedBot => Some("unverified bot"),
            SeatKind::Bot => Some("bot"),
            SeatKind::Person => None,
        }
    }
}

impl SeatKind {
    /// `name` as pages show it: marked when it is not an account's, so a
    /// guest or an unverified bot can never pass for an account.
    pub fn decorate(self, name: String) -> String {
        match self {
            SeatKind::Guest | SeatKind::UnverifiedBot => format!("{name} · {}", self.mark().unwrap_or_default()),
            SeatKind::Person | SeatKind::Bot => name,
        }
    }
}

/// A seat's label from the name it gave and the model a bot declared:
/// `name (model)`, either alone, or nothing.
pub fn seat_label(name: Option<&str>, model: Option<&str>) -> Option<String> {
    match (name, model) {
        (Some(n), Some(m)) => Some(format!("{n} ({m})")),
        (Some(n), None) => Some(n.to_string()),
        (None, Some(m)) => Some(m.to_string()),
        (None, None) => None,
    }
}

/// The logged-in person, as the pages show them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    pub id: String,
    pub name: String,
}

/// One of a person's sessions, for the list on their settings page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// A short, non-secret handle of the session (not its id).
    pub handle: String,
    pub user_agent: Option<String>,
    pub created_at_ms: i64,
    pub last_used_ms: i64,
    /// The session this request came with.
    pub current: bool,
}

/// One of a person's bots, with its tokens (never the tokens themselves).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotInfo {
    pub id: String,
    pub name: String,
    pub description: String,
    pub tokens: Vec<TokenInfo>,
}

/// A bot token as its owner sees it after it was shown once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenInfo {
    pub id: String,
    /// The token's first characters, to tell tokens apart.
    pub prefix: String,
    pub created_at_ms: i64,
    pub last_used_ms: Option<i64>,
    pub revoked: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_accounts_are_rated_and_others_are_marked() {
        assert_eq!(SeatKind::of(Some(AccountKind::Person), false), SeatKind::Person);
        assert_eq!(SeatKind::of(Some(AccountKind::Bot), true), SeatKind::Bot);
        assert_eq!(SeatKind::of(None, true), SeatKind::UnverifiedBot);
        assert_eq!(SeatKind::of(None, false), SeatKind::Guest);
        assert!(SeatKind::Bot.is_account() && !SeatKind::UnverifiedBot.is_account());
        assert_eq!(SeatKind::Guest.mark(), Some("guest"));
        assert_eq!(SeatKind::Person.mark(), None);
        assert_eq!(SeatKind::Guest.decorate("Ann".into()), "Ann · guest");
        assert_eq!(SeatKind::UnverifiedBot.decorate("mcts".into()), "mcts · unverified bot");
        assert_eq!(SeatKind::Bot.decorate("Hexy".into()), "Hexy");
        assert_eq!(SeatKind::of_stored("human", false), SeatKind::Person);
        assert_eq!(SeatKind::of_stored("bot", true), SeatKind::Bot);
        assert_eq!(SeatKind::of_stored("bot", false), SeatKind::UnverifiedBot);
        assert_eq!(seat_label(Some("ann"), Some("mcts")).as_deref(), Some("ann (mcts)"));
        assert_eq!(seat_label(None, None), None);
    }
}
