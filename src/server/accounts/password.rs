//! Passwords: the rules a new one must meet, and argon2id hashing with the
//! parameters OWASP recommends (19 MiB of memory, two passes, one lane),
//! kept as a PHC string so that stronger parameters later still verify
//! the hashes made today.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::online::account::{MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS};

/// OWASP's argon2id configuration: m = 19 MiB, t = 2, p = 1.
const MEMORY_KIB: u32 = 19 * 1024;
const PASSES: u32 = 2;
const LANES: u32 = 1;

const COMMON: &str = include_str!("common_passwords.txt");

/// Why a new password is refused; the text says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeakPassword {
    TooShort,
    TooLong,
    Common,
    SameAsName,
}

impl std::fmt::Display for WeakPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WeakPassword::TooShort => write!(f, "A password has at least {MIN_PASSWORD_CHARS} characters"),
            WeakPassword::TooLong => write!(f, "A password has at most {MAX_PASSWORD_CHARS} characters"),
            WeakPassword::Common => {
                f.write_str("This password is one of the most common ones, which are tried first: pick another")
            }
            WeakPassword::SameAsName => f.write_str("The password cannot be your name: pick another"),
        }
    }
}

/// Checks a new password for the account `name`.
pub fn check(password: &str, name: &str) -> Result<(), WeakPassword> {
    let count = password.chars().count();
    if count < MIN_PASSWORD_CHARS {
        return Err(WeakPassword::TooShort);
    }
    if count > MAX_PASSWORD_CHARS {
        return Err(WeakPassword::TooLong);
    }
    let lower = password.to_lowercase();
    if lower == name.trim().to_lowercase() {
        return Err(WeakPassword::SameAsName);
    }
    if COMMON.lines().filter(|l| !l.starts_with('#')).any(|l| l.trim() == lower) {
        return Err(WeakPassword::Common);
    }
    Ok(())
}

fn hasher(memory_kib: u32, passes: u32, lanes: u32) -> Argon2<'static> {
    // The parameters are constants within argon2's bounds.
    let params = Params::new(memory_kib, passes, lanes, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of `password` with a fresh random salt. Slow on purpose
/// (tens of milliseconds): call it off the async threads.
pub fn hash(password: &str) -> Result<String, String> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| format!("no randomness for a salt: {e}"))?;
    hash_with_salt(password, &salt, MEMORY_KIB, PASSES, LANES)
}

fn hash_with_salt(password: &str, salt: &[u8], memory_kib: u32, passes: u32, lanes: u32) -> Result<String, String> {
    let salt = SaltString::encode_b64(salt).map_err(|e| e.to_string())?;
    hasher(memory_kib, passes, lanes)
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("the password could not be hashed: {e}"))
}

/// Whether `password` matches the PHC string `stored` (whatever argon2
/// parameters it names). A malformed string matches nothing.
pub fn verify(password: &str, stored: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(stored) else { return false };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
}

/// A PHC string no password matches, verified against when the name is
/// unknown so that a wrong name costs as long as a wrong password.
pub fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        hash_with_salt("\u{0}not a password", b"hexarena-decoy-s", MEMORY_KIB, PASSES, LANES).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // The reference implementation's argon2id vectors (phc-winner-argon2, src/test.c).
    const VECTORS: [(u32, u32, u32, &str); 2] = [
        (256, 2, 1, "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4"),
        (65536, 2, 1, "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"),
    ];

    #[test]
    fn hashing_matches_the_reference_vectors_and_verifies_them() {
        for (memory, passes, lanes, expected) in VECTORS {
            assert_eq!(hash_with_salt("password", b"somesalt", memory, passes, lanes).unwrap(), expected);
            assert!(verify("password", expected));
            assert!(!verify("passwore", expected));
        }
    }

    #[test]
    fn new_hashes_use_owasp_parameters_and_fresh_salts() {
        let (a, b) = (hash("correct horse").unwrap(), hash("correct horse").unwrap());
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "a fresh salt each time");
        assert!(verify("correct horse", &a) && verify("correct horse", &b));
        assert!(!verify("correct horse", "not a phc string"));
        assert!(!verify("anything", decoy()));
    }

    #[test]
    fn weak_passwords_are_refused_with_a_reason() {
        assert_eq!(check("short", "ann"), Err(WeakPassword::TooShort));
        assert_eq!(check(&"x".repeat(129), "ann"), Err(WeakPassword::TooLong));
        assert_eq!(check("Password123", "ann"), Err(WeakPassword::Common));
        assert_eq!(check("qwertyuiop", "ann"), Err(WeakPassword::Common));
        assert_eq!(check("Ann Smith1", "ann smith1"), Err(WeakPassword::SameAsName));
        assert_eq!(check("hex is a game of bridges", "ann"), Ok(()));
        assert!(WeakPassword::Common.to_string().contains("pick another"));
    }
}
