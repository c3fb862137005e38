//! The build's files and the pages over real sockets: compressed by what the
//! client accepts, cached for good under hashed names, revalidated with
//! ETags (304), and never served from outside the site root.

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};

use leptos::prelude::LeptosOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const CSS_HASH: &str = "c55h4sh";
const WASM_HASH: &str = "w4smh4sh";

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Sends `GET path` with extra header lines and reads the raw answer.
async fn get(addr: std::net::SocketAddr, path: &str, extra: &[(&str, &str)]) -> Answer {
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in extra {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut raw = Vec::new();
    tokio::time::timeout(std::time::Duration::from_secs(20), stream.read_to_end(&mut raw))
        .await
        .expect("a whole answer within 20 s")
        .expect("read");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().and_then(|l| l.split(' ').nth(1)).and_then(|s| s.parse().ok()).expect("a status");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Answer { status, headers, body }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).trim(), 16).unwrap_or(0);
        raw = &raw[end + 2..];
        if size == 0 || raw.len() < size {
            break;
        }
        out.extend_from_slice(&raw[..size]);
        raw = &raw[(size + 2).min(raw.len())..];
    }
    out
}

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

/// A site as a hashed release build leaves it: bundles named by hash (one
/// with a precompressed copy), the hash file, and an engine worker.
fn site() -> (PathBuf, LeptosOptions) {
    let unique = format!("{}-{:?}", std::process::id(), std::thread::current().id()).replace(['(', ')'], "");
    let root = std::env::temp_dir().join(format!("hexarena-site-{unique}-{}", rand_suffix()));
    let pkg = root.join("pkg");
    std::fs::create_dir_all(&pkg).expect("a site folder");
    std::fs::create_dir_all(root.join("engine")).expect("an engine folder");
    std::fs::write(pkg.join(format!("hexarena.{CSS_HASH}.css")), css()).expect("css");
    std::fs::write(pkg.join(format!("hexarena.{WASM_HASH}.wasm")), wasm()).expect("wasm");
    // A precompressed copy as `cargo leptos build --precompress` makes.
    let mut packed = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut packed, 4096, 11, 22);
        std::io::Write::write_all(&mut w, &wasm()).expect("compress");
    }
    std::fs::write(pkg.join(format!("hexarena.{WASM_HASH}.wasm.br")), &packed).expect("wasm.br");
    std::fs::write(root.join("engine/engine-worker.1234.js"), "import init from './x.js';\n".repeat(40))
        .expect("loader");
    std::fs::write(root.join("engine/manifest.json"), r#"{"loader":"/engine/engine-worker.1234.js"}"#)
        .expect("manifest");
    std::fs::write(root.join("favicon.svg"), format!("<svg>{}</svg>", "<g/>".repeat(300))).expect("icon");
    let hash_file = root.join("hash.txt");
    std::fs::write(&hash_file, format!("js: j5h4sh\nwasm: {WASM_HASH}\ncss: {CSS_HASH}\n")).expect("hash file");
    let options = LeptosOptions::builder()
        .output_name("hexarena")
        .site_root(root.display().to_string())
        .hash_files(true)
        .hash_file(std::sync::Arc::from(hash_file.display().to_string()))
        .build();
    (root, options)
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
}

fn css() -> Vec<u8> {
    ".board { fill: var(--red); stroke: none; }\n".repeat(300).into_bytes()
}

fn wasm() -> Vec<u8> {
    let mut bytes = b"\0asm\x01\0\0\0".to_vec();
    bytes.extend((0..20_000u32).map(|i| (i % 17) as u8));
    bytes
}

#[tokio::test]
async fn a_hashed_bundle_comes_precompressed_and_cached_for_good() {
    let (root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let path = format!("/pkg/hexarena.{WASM_HASH}.wasm");
    let br = get(addr, &path, &[("accept-encoding", "gzip, deflate, br")]).await;
    assert_eq!(br.status, 200);
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert_eq!(br.header("content-type"), Some("application/wasm"));
    assert_eq!(br.header("vary"), Some("accept-encoding"));
    assert_eq!(br.header("cache-control"), Some("public, max-age=31536000, immutable"));
    let stored = std::fs::read(root.join(format!("pkg/hexarena.{WASM_HASH}.wasm.br"))).expect("the copy");
    assert_eq!(br.body, stored, "the build's own brotli copy is sent, not one made per request");
    assert_eq!(unbrotli(&br.body), wasm());

    let gz = get(addr, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert_eq!(ungzip(&gz.body), wasm());

    let plain = get(addr, &path, &[]).await;
    assert_eq!(plain.header("content-encoding"), None);
    assert_eq!(plain.body, wasm());
    assert_eq!(plain.header("content-length"), Some(wasm().len().to_string().as_str()));
}

#[tokio::test]
async fn a_stylesheet_is_compressed_once_and_revalidates_with_its_etag() {
    let (_root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let path = format!("/pkg/hexarena.{CSS_HASH}.css");
    let first = get(addr, &path, &[("accept-encoding", "gzip")]).await;
    assert_eq!(first.status, 200);
    assert_eq!(first.header("content-encoding"), Some("gzip"));
    assert_eq!(first.header("vary"), Some("accept-encoding"));
    assert!(first.header("content-type").is_some_and(|t| t.starts_with("text/css")));
    assert_eq!(ungzip(&first.body), css());
    let etag = first.header("etag").expect("an etag").to_string();

    let again = get(addr, &path, &[("accept-encoding", "gzip"), ("if-none-match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));

    let other = get(addr, &path, &[("accept-encoding", "br"), ("if-none-match", &etag)]).await;
    assert_eq!(other.status, 200, "the brotli copy is another representation with its own tag");
    assert_eq!(unbrotli(&other.body), css());
}

#[tokio::test]
async fn unhashed_files_are_revalidated_and_the_engine_worker_is_immutable() {
    let (_root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let icon = get(addr, "/favicon.svg", &[("accept-encoding", "br")]).await;
    assert_eq!(icon.status, 200);
    assert_eq!(icon.header("cache-control"), Some("no-cache"));
    assert!(icon.header("etag").is_some());
    let loader = get(addr, "/engine/engine-worker.1234.js", &[]).await;
    assert_eq!(loader.header("cache-control"), Some("public, max-age=31536000, immutable"));
    let manifest = get(addr, "/engine/manifest.json", &[]).await;
    assert_eq!(manifest.header("cache-control"), Some("no-cache"));
}

#[tokio::test]
async fn a_page_is_compressed_and_a_build_page_answers_304_to_its_etag() {
    let (_root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let page = get(addr, "/docs", &[("accept-encoding", "gzip, br")]).await;
    assert_eq!(page.status, 200);
    assert_eq!(page.header("content-encoding"), Some("br"));
    assert_eq!(page.header("vary"), Some("accept-encoding"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    let html = String::from_utf8(unbrotli(&page.body)).expect("utf-8 html");
    assert!(html.contains("</html>"), "the whole page decodes");
    assert!(html.contains(&format!("/pkg/hexarena.{CSS_HASH}.css")), "the page links the hashed stylesheet");
    assert!(html.contains(&format!("/pkg/hexarena.{WASM_HASH}.wasm")), "and the hashed bundle");
    assert!(html.contains("content=\"/engine/engine-worker.1234.js\""), "and names the engine worker's loader");
    let etag = page.header("etag").expect("a build page has an etag").to_string();
    assert!(etag.starts_with("W/"));

    let again = get(addr, "/docs", &[("accept-encoding", "gzip, br"), ("if-none-match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("content-security-policy"), None, "the stored page keeps its own policy and nonce");
    let stale = get(addr, "/docs", &[("if-none-match", "W/\"another-build\"")]).await;
    assert_eq!(stale.status, 200);
    assert_eq!(stale.header("content-encoding"), None, "no coding accepted, none used");
    assert!(String::from_utf8_lossy(&stale.body).contains("</html>"));
}

#[tokio::test]
async fn pages_of_live_data_are_rendered_afresh_and_404s_carry_no_etag() {
    let (_root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let stats = get(addr, "/overview", &[("accept-encoding", "gzip")]).await;
    assert_eq!(stats.status, 200);
    assert_eq!(stats.header("cache-control"), Some("no-cache"));
    assert_eq!(stats.header("etag"), None);
    assert_eq!(stats.header("content-encoding"), Some("gzip"));
    let missing = get(addr, "/nowhere", &[]).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.header("etag"), None);
}

#[tokio::test]
async fn nothing_outside_the_site_root_or_a_compressed_copy_by_name_is_served() {
    let (root, options) = site();
    std::fs::write(root.parent().unwrap_or(Path::new("/")).join("hexarena-secret.txt"), "secret").ok();
    let addr = common::start_server_for_site(options).await;
    for path in
        ["/../hexarena-secret.txt", "/pkg/../../hexarena-secret.txt", "/%2e%2e/hexarena-secret.txt", "/hash.txt.br"]
    {
        let answer = get(addr, path, &[]).await;
        assert!(!String::from_utf8_lossy(&answer.body).contains("secret"), "{path}");
        assert_ne!(answer.status, 200, "{path}");
    }
    let copy = get(addr, &format!("/pkg/hexarena.{WASM_HASH}.wasm.br"), &[]).await;
    assert_eq!(copy.status, 404);
}

#[tokio::test]
async fn a_file_changed_on_disk_is_served_anew_not_from_memory() {
    let (root, options) = site();
    let addr = common::start_server_for_site(options).await;
    let icon = root.join("favicon.svg");
    let first = get(addr, "/favicon.svg", &[("accept-encoding", "gzip")]).await;
    assert_eq!(ungzip(&first.body), std::fs::read(&icon).expect("the icon"));
    std::fs::write(&icon, format!("<svg>{}</svg>", "<circle/>".repeat(300))).expect("a new icon");
    for coding in [("accept-encoding", "gzip"), ("accept-encoding", "identity")] {
        let again = get(addr, "/favicon.svg", &[coding]).await;
        let body =
            if again.header("content-encoding") == Some("gzip") { ungzip(&again.body) } else { again.body.clone() };
        assert_eq!(body, std::fs::read(&icon).expect("the icon"), "{coding:?}");
        assert_ne!(again.header("etag"), first.header("etag"));
    }
}
