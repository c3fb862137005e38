//! Seat secrets: 192 random bits from the operating system, URL-safe.

/// A new reconnect token (48 hex digits).
pub fn new_token() -> String {
    let mut bytes = [0u8; 24];
    // Without OS randomness no secret can be made; the server cannot run
    // safely, so this is the one place that may stop it.
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
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
