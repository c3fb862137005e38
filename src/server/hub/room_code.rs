//! Private room codes: six characters from an alphabet without look-alikes
//! (no 0/O, 1/I/L), read back case-insensitively.

/// The characters a code is made of.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a code.
pub const LENGTH: usize = 6;

/// A new random code.
pub fn new_code() -> String {
    let mut bytes = [0u8; LENGTH];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    // 256 is not a multiple of 31; the slight bias does not matter for a
    // code that is also guarded by its short life.
    bytes.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
}

/// The code as typed (any case, spaces and dashes ignored), if it can be one.
pub fn normalise(text: &str) -> Option<String> {
    let code: String =
        text.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
    (code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_use_the_unambiguous_alphabet_and_read_back() {
        for _ in 0..100 {
            let code = new_code();
            assert_eq!(normalise(&code.to_lowercase()), Some(code.clone()));
            assert!(!code.contains(['0', 'O', '1', 'I', 'L']));
        }
        assert_eq!(normalise("abc-def"), Some("ABCDEF".into()));
        assert_eq!(normalise("ABCDE0"), None);
        assert_eq!(normalise("ABC"), None);
    }
}
