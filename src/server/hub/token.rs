//! Seat secrets: 192 random bits from the operating system, URL-safe.

/// A new reconnect token (48 hex digits).
pub fn new_token() -> String {
    let mut bytes = [0u8; 24];
    // Without OS randomness no secret can be made; the server cannot run
    // safely, so this is the one place that may stop it.
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What is kept of a token: its SHA-256, in hex. A journal or a memory
/// dump then holds nothing that resumes a seat.
pub fn token_hash(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares secrets without stopping at the first difference.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_long_and_different() {
        let (a, b) = (super::new_token(), super::new_token());
        assert_eq!(a.len(), 48);
        assert_ne!(a, b);
    }
}
