//! The published solutions the solver is checked against.

/// Who wins each opening (R: Red's first stone there wins, b: it loses),
/// rows 1 to n, columns a to n, as Hayward et al. (2005) and Benzene's
/// regression suite have them, turned into this board's orientation (Red
/// joins left and right). Only for sizes where that is published.
pub fn published_openings(n: u8) -> Option<&'static [&'static str]> {
    match n {
        6 => Some(&["bbRRRR", "bRRRRb", "bRRRRb", "bRRRRb", "bRRRRb", "RRRRbb"]),
        7 => Some(&["bbbRbRR", "bbRRRRb", "bRRRRRb", "bbRRRbb", "bRRRRRb", "bRRRRbb", "RRbRbbb"]),
        _ => None,
    }
}
