//! Compresses responses made on the fly (pages, JSON, server functions) by
//! what the client accepts, flushing after every chunk so that a page still
//! streams: a part rendered later still reaches the browser as soon as it is
//! ready, as it did uncompressed. (tower-http's compression holds a streamed
//! body until it ends, tower-http issue 292.) Files from the build are
//! compressed by [`super::files`], once.

use std::io::Write;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::{self, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;

use super::encoding::{Coding, preferred};

/// Marks a response whose coding is already chosen (a file of the build).
#[derive(Clone, Copy, Debug)]
pub struct Negotiated;

/// Bodies shorter than this gain nothing from compression.
const MIN_BYTES: u64 = 256;
/// Fast settings: pages are compressed per request.
const BROTLI_QUALITY: u32 = 5;
const BROTLI_WINDOW: u32 = 20;
const GZIP_LEVEL: u32 = 6;

/// The middleware: compresses the response when its type is text-like, the
/// client accepts a coding, and nothing has chosen a coding before.
pub async fn compress(request: Request, next: Next) -> Response {
    let coding = preferred(request.headers());
    let head = request.method() == Method::HEAD;
    let response = next.run(request).await;
    if head || coding == Coding::Identity || !compressible(&response) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Some(encoding) = coding.header() else {
        return Response::from_parts(parts, body);
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    vary_on_encoding(&mut parts.headers);
    // A different representation: a strong validator of the plain one no
    // longer identifies it byte for byte.
    if let Some(etag) = parts.headers.get(header::ETAG).and_then(|v| v.to_str().ok())
        && !etag.starts_with("W/")
        && let Ok(weak) = HeaderValue::from_str(&format!("W/{etag}"))
    {
        parts.headers.insert(header::ETAG, weak);
    }
    Response::from_parts(parts, Body::from_stream(compressed(body, coding)))
}

/// Adds `Accept-Encoding` to `Vary` (once).
pub fn vary_on_encoding(headers: &mut axum::http::HeaderMap) {
    let already = headers
        .get_all(header::VARY)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|s| s.trim().eq_ignore_ascii_case("accept-encoding")));
    if !already {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
}

fn compressible(response: &Response) -> bool {
    let status = response.status();
    if status == StatusCode::SWITCHING_PROTOCOLS
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED
        || status == StatusCode::PARTIAL_CONTENT
    {
        return false;
    }
    let headers = response.headers();
    if headers.contains_key(header::CONTENT_ENCODING) || response.extensions().get::<Negotiated>().is_some() {
        return false;
    }
    let small = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .or_else(|| axum::body::HttpBody::size_hint(response.body()).exact())
        .is_some_and(|n| n < MIN_BYTES);
    let text = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(is_text_like);
    text && !small
}

/// Types worth compressing. Event streams are left alone: a proxy or a
/// browser may wait for a compressed block before showing an event.
pub fn is_text_like(content_type: &str) -> bool {
    let t = content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    (t.starts_with("text/") && t != "text/event-stream")
        || matches!(
            t.as_str(),
            "application/json"
                | "application/javascript"
                | "application/wasm"
                | "application/manifest+json"
                | "image/svg+xml"
                | "application/xml"
                | "application/x-www-form-urlencoded"
                | "application/cbor"
        )
}

/// A streaming encoder that can hand over what it has so far.
enum Encoder {
    Brotli(Box<brotli::CompressorWriter<Vec<u8>>>),
    Gzip(flate2::write::GzEncoder<Vec<u8>>),
}

impl Encoder {
    fn new(coding: Coding) -> Option<Encoder> {
        match coding {
            Coding::Brotli => Some(Encoder::Brotli(Box::new(brotli::CompressorWriter::new(
                Vec::new(),
                4096,
                BROTLI_QUALITY,
                BROTLI_WINDOW,
            )))),
            Coding::Gzip => {
                Some(Encoder::Gzip(flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(GZIP_LEVEL))))
            }
            Coding::Identity => None,
        }
    }

    /// Compresses `chunk` and flushes, returning every byte produced so far.
    fn chunk(&mut self, chunk: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            Encoder::Brotli(w) => {
                w.write_all(chunk)?;
                w.flush()?;
                Ok(std::mem::take(w.get_mut()))
            }
            Encoder::Gzip(w) => {
                w.write_all(chunk)?;
                w.flush()?;
                Ok(std::mem::take(w.get_mut()))
            }
        }
    }

    /// Ends the stream.
    fn finish(self) -> std::io::Result<Vec<u8>> {
        match self {
            Encoder::Brotli(w) => Ok(w.into_inner()),
            Encoder::Gzip(w) => w.finish(),
        }
    }
}

/// `body`, compressed chunk by chunk.
fn compressed(body: Body, coding: Coding) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
    let encoder = Encoder::new(coding);
    futures_util::stream::unfold(Some((body.into_data_stream(), encoder)), |state| async move {
        let (mut stream, mut encoder) = state?;
        loop {
            match stream.next().await {
                Some(Ok(chunk)) => {
                    let out = match encoder.as_mut() {
                        Some(e) => e.chunk(&chunk),
                        None => Ok(chunk.to_vec()),
                    };
                    match out {
                        Ok(out) if out.is_empty() => continue,
                        Ok(out) => return Some((Ok(Bytes::from(out)), Some((stream, encoder)))),
                        Err(e) => return Some((Err(e), None)),
                    }
                }
                Some(Err(e)) => return Some((Err(std::io::Error::other(e)), None)),
                None => {
                    let tail = encoder.map_or(Ok(Vec::new()), Encoder::finish);
                    return match tail {
                        Ok(tail) if tail.is_empty() => None,
                        Ok(tail) => Some((Ok(Bytes::from(tail)), None)),
                        Err(e) => Some((Err(e), None)),
                    };
                }
            }
        }
    })
}

/// Compresses a whole buffer (a file of the build, once).
pub fn compress_all(bytes: &[u8], coding: Coding, best: bool) -> std::io::Result<Vec<u8>> {
    match coding {
        Coding::Brotli => {
            let quality = if best { 11 } else { BROTLI_QUALITY };
            let mut w = brotli::CompressorWriter::new(Vec::new(), 4096, quality, 22);
            w.write_all(bytes)?;
            Ok(w.into_inner())
        }
        Coding::Gzip => {
            let level = if best { 9 } else { GZIP_LEVEL };
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
            w.write_all(bytes)?;
            w.finish()
        }
        Coding::Identity => Ok(bytes.to_vec()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn unbrotli(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out).expect("valid brotli");
        out
    }

    fn ungzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).expect("valid gzip");
        out
    }

    #[test]
    fn every_flushed_chunk_decodes_to_its_input_so_far() {
        for coding in [Coding::Brotli, Coding::Gzip] {
            let mut encoder = Encoder::new(coding).expect("an encoder");
            let mut sent = Vec::new();
            let first = encoder.chunk(b"<html><body>first part, ").expect("compresses");
            sent.extend_from_slice(&first);
            // What has been sent so far already holds the first part whole:
            // a browser can show it before the rest is rendered.
            let so_far = match coding {
                Coding::Brotli => {
                    let mut out = Vec::new();
                    let _ = brotli::Decompressor::new(&sent[..], 4096).read_to_end(&mut out);
                    out
                }
                _ => {
                    let mut out = Vec::new();
                    let _ = flate2::read::GzDecoder::new(&sent[..]).read_to_end(&mut out);
                    out
                }
            };
            assert_eq!(so_far, b"<html><body>first part, ", "{coding:?}");
            sent.extend_from_slice(&encoder.chunk(b"second part</body></html>").expect("compresses"));
            sent.extend_from_slice(&encoder.finish().expect("finishes"));
            let whole = if coding == Coding::Brotli { unbrotli(&sent) } else { ungzip(&sent) };
            assert_eq!(whole, b"<html><body>first part, second part</body></html>");
        }
    }

    #[test]
    fn whole_buffers_round_trip() {
        let text = "Hex ".repeat(1000);
        assert_eq!(unbrotli(&compress_all(text.as_bytes(), Coding::Brotli, true).expect("br")), text.as_bytes());
        assert_eq!(ungzip(&compress_all(text.as_bytes(), Coding::Gzip, false).expect("gz")), text.as_bytes());
    }

    #[test]
    fn text_types_are_compressed_event_streams_and_images_are_not() {
        assert!(is_text_like("text/html; charset=utf-8"));
        assert!(is_text_like("application/wasm"));
        assert!(!is_text_like("text/event-stream"));
        assert!(!is_text_like("image/png"));
    }
}
