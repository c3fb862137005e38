//! Content negotiation for compression (`Accept-Encoding`) and the
//! conditional-request check (`If-None-Match`), shared by the file server,
//! the response compressor and the pages.

use axum::http::HeaderMap;
use axum::http::header::{ACCEPT_ENCODING, IF_NONE_MATCH};

/// A content coding hexarena sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// The `Content-Encoding` value, none for identity.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gzip"),
            Coding::Identity => None,
        }
    }

    /// The file suffix of a precompressed copy.
    pub fn suffix(self) -> Option<&'static str> {
        match self {
            Coding::Brotli => Some("br"),
            Coding::Gzip => Some("gz"),
            Coding::Identity => None,
        }
    }
}

/// The best coding the client accepts: brotli, then gzip, then none.
/// Honours `q=0` (refused) and `*`; an unreadable header means identity.
pub fn preferred(headers: &HeaderMap) -> Coding {
    let Some(value) = headers.get(ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) else {
        return Coding::Identity;
    };
    let mut brotli = None;
    let mut gzip = None;
    let mut any = None;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok()))
            .next()
            .unwrap_or(1.0);
        match name.as_str() {
            "br" => brotli = Some(q),
            "gzip" | "x-gzip" => gzip = Some(q),
            "*" => any = Some(q),
            _ => {}
        }
    }
    let brotli = brotli.or(any).unwrap_or(0.0);
    let gzip = gzip.or(any).unwrap_or(0.0);
    if brotli > 0.0 && brotli >= gzip {
        Coding::Brotli
    } else if gzip > 0.0 {
        Coding::Gzip
    } else {
        Coding::Identity
    }
}

/// Whether the request's `If-None-Match` names `etag` (weak comparison,
/// as RFC 9110 asks for this header), or is `*`.
pub fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    let bare = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let ours = bare(etag);
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || bare(t) == ours)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn with(name: axum::http::HeaderName, value: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(name, HeaderValue::from_static(value));
        h
    }

    #[test]
    fn brotli_is_preferred_then_gzip_and_q0_refuses() {
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "gzip, deflate, br, zstd")), Coding::Brotli);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "gzip, deflate")), Coding::Gzip);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "br;q=0, gzip")), Coding::Gzip);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "br;q=0.2, gzip;q=0.8")), Coding::Gzip);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "*")), Coding::Brotli);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "*;q=0")), Coding::Identity);
        assert_eq!(preferred(&with(ACCEPT_ENCODING, "identity")), Coding::Identity);
        assert_eq!(preferred(&HeaderMap::new()), Coding::Identity);
    }

    #[test]
    fn if_none_match_compares_weakly_and_lists() {
        assert!(not_modified(&with(IF_NONE_MATCH, "\"a\", W/\"b\""), "\"b\""));
        assert!(not_modified(&with(IF_NONE_MATCH, "W/\"a\""), "W/\"a\""));
        assert!(not_modified(&with(IF_NONE_MATCH, "*"), "\"z\""));
        assert!(!not_modified(&with(IF_NONE_MATCH, "\"a\""), "\"b\""));
        assert!(!not_modified(&HeaderMap::new(), "\"b\""));
    }
}
