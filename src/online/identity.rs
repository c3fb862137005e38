//! A person's identity without a password: a player id and a secret the
//! browser keeps, and the display name they picked (unique, any case).

use serde::{Deserialize, Serialize};

/// What the browser keeps (in local storage) and sends when it sits down.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub id: String,
    /// Never shown to anyone else; the server keeps only its hash.
    pub secret: String,
    pub name: String,
}

/// Checks a display name: 2 to 24 letters, digits, spaces, `-`, `_` or
/// `.`, starting and ending with a letter or digit. Returns it trimmed.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let count = name.chars().count();
    if !(2..=24).contains(&count) {
        return Err("A name has 2 to 24 characters".into());
    }
    if let Some(c) = name.chars().find(|c| !(c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.'))) {
        return Err(format!("“{c}” cannot be in a name: use letters, digits, spaces, - _ or ."));
    }
    let ends_ok = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    if !ends_ok(name.chars().next()) || !ends_ok(name.chars().last()) {
        return Err("A name starts and ends with a letter or a digit".into());
    }
    Ok(name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_trimmed() {
        assert_eq!(check_name("  Ada Lovelace "), Ok("Ada Lovelace".into()));
        assert_eq!(check_name("Łukasz_9"), Ok("Łukasz_9".into()));
        assert!(check_name("a").is_err());
        assert!(check_name(&"x".repeat(25)).is_err());
        assert!(check_name("bot:alpha").unwrap_err().contains("“:”"));
        assert!(check_name("-dash").is_err());
    }
}
