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

/// What a name looks like, for telling look-alikes apart: case, the
/// separators (space, `-`, `_`, `.`) and the usual disguises (digits for
/// letters, `rn` for `m`, Cyrillic and Greek letters drawn like Latin ones)
/// are all folded away. Two names with one skeleton cannot both be taken.
pub fn skeleton(name: &str) -> String {
    let folded: String = name
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
        .map(look_alike)
        .collect();
    // Pairs last: "rn" and "vv" pass for "m" and "w" once the letters are folded.
    folded.replace("rn", "m").replace("vv", "w")
}

/// The Latin letter a character passes for.
fn look_alike(c: char) -> char {
    match c {
        '0' | 'о' | 'ο' | 'σ' | 'ө' => 'o',
        '1' | 'i' | 'ı' | 'і' | 'ι' | 'ӏ' | '|' | 'ł' => 'l',
        '2' => 'z',
        '3' | 'з' => 'e',
        '4' => 'a',
        '5' | 'ѕ' => 's',
        '6' | 'б' => 'b',
        '7' => 't',
        '8' | 'в' | 'β' => 'b',
        '9' => 'g',
        'а' | 'α' => 'a',
        'е' | 'ё' | 'є' | 'ε' => 'e',
        'р' | 'ρ' => 'p',
        'с' | 'ϲ' => 'c',
        'у' | 'γ' => 'y',
        'х' | 'χ' => 'x',
        'ј' => 'j',
        'ԁ' => 'd',
        'ɡ' => 'g',
        'к' | 'κ' => 'k',
        'м' => 'm',
        'н' | 'η' => 'h',
        'т' | 'τ' => 't',
        'ν' => 'v',
        'ω' | 'ш' => 'w',
        'п' | 'π' => 'n',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_names_share_a_skeleton() {
        let ada = skeleton("Ada Lovelace");
        for disguise in ["ada_lovelace", "AdaLove1ace", "Аda Lovelace", "ada.lovelace", "4da Lovelace"] {
            assert_eq!(skeleton(disguise), ada, "{disguise}");
        }
        assert_eq!(skeleton("Morn"), skeleton("Mom"));
        assert_eq!(skeleton("Hex0r"), skeleton("hexor"));
        assert_ne!(skeleton("Ada"), skeleton("Adam"));
    }

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
