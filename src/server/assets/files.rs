//! Serves the build's files (bundles, stylesheet, icons) from the site
//! root: compressed by what the client accepts — a precompressed copy
//! (`file.br`, `file.gz`, made by the release build) when there is one,
//! else compressed once and kept — with an ETag, a 304 for a copy the
//! browser already has, and `immutable` caching for names that carry their
//! content's hash.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use axum::body::{Body, Bytes};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::response::Response;
use tokio::sync::OnceCell;

use super::SiteAssets;
use super::compress::{Negotiated, compress_all, is_text_like, vary_on_encoding};
use super::encoding::{Coding, not_modified, preferred};

/// A year: the longest lifetime caches honour, for files that never change.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Anything else is revalidated (a cheap 304) before each use.
const REVALIDATE: &str = "no-cache";
/// Files smaller than this are sent as they are.
const MIN_COMPRESS: u64 = 512;

/// One version of a file on disk, as it was when read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Version {
    len: u64,
    modified: Option<SystemTime>,
}

/// One representation (coding) of one version of one file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct CopyKey {
    file: PathBuf,
    version: Version,
    coding: Coding,
}

/// The build's files, each representation kept in memory once read.
pub struct SiteFiles {
    site: Arc<SiteAssets>,
    made: Mutex<HashMap<CopyKey, Arc<OnceCell<Bytes>>>>,
}

impl SiteFiles {
    pub fn new(site: Arc<SiteAssets>) -> SiteFiles {
        SiteFiles { site, made: Mutex::new(HashMap::new()) }
    }

    /// The response for `path` if it names a file of the site; `None` lets
    /// the pages answer (a page, or the 404 page).
    pub async fn serve(&self, method: &Method, path: &str, headers: &HeaderMap) -> Option<Response> {
        if method != Method::GET && method != Method::HEAD {
            return None;
        }
        let file = self.locate(path)?;
        let meta = tokio::fs::metadata(&file).await.ok().filter(|m| m.is_file())?;
        let version = Version { len: meta.len(), modified: meta.modified().ok() };
        let content_type = content_type(&file);
        let compressible = is_text_like(content_type) && version.len >= MIN_COMPRESS;
        let coding = if compressible { preferred(headers) } else { Coding::Identity };
        let cache = if self.site.is_immutable(path) { IMMUTABLE } else { REVALIDATE };
        let etag = etag(version, coding);

        let mut response = if not_modified(headers, &etag) {
            let mut r = Response::new(Body::empty());
            *r.status_mut() = StatusCode::NOT_MODIFIED;
            r
        } else {
            let bytes = self.body(&file, version, coding).await?;
            let mut r = Response::new(if method == Method::HEAD { Body::empty() } else { Body::from(bytes.clone()) });
            r.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(bytes.len()));
            r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            if let Some(encoding) = coding.header() {
                r.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            r
        };
        let h = response.headers_mut();
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        if let Ok(v) = HeaderValue::from_str(&etag) {
            h.insert(header::ETAG, v);
        }
        if compressible {
            vary_on_encoding(h);
        }
        response.extensions_mut().insert(Negotiated);
        Some(response)
    }

    /// The file under the site root that `path` names; never outside it,
    /// and never a precompressed copy by its own name.
    fn locate(&self, path: &str) -> Option<PathBuf> {
        let relative = Path::new(path.trim_start_matches('/'));
        let plain =
            relative.components().all(|c| matches!(c, Component::Normal(s) if !s.to_string_lossy().starts_with('.')));
        let copy = path.ends_with(".br") || path.ends_with(".gz");
        (plain && !copy && !path.contains('\\') && !relative.as_os_str().is_empty())
            .then(|| self.site.root.join(relative))
    }

    /// The bytes of `file` in `coding`, read (or made) once per version of
    /// the file and then served from memory: the file itself, its
    /// precompressed copy when that is at least as new, or a copy
    /// compressed here.
    async fn body(&self, file: &Path, version: Version, coding: Coding) -> Option<Bytes> {
        let cell = {
            let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
            // A file that changed leaves its old versions behind: drop them.
            made.retain(|key, _| key.file != file || key.version == version);
            made.entry(CopyKey { file: file.to_path_buf(), version, coding }).or_default().clone()
        };
        cell.get_or_try_init(|| read(file.to_path_buf(), version, coding)).await.ok().cloned()
    }
}

/// Reads one representation of `file` from disk.
async fn read(file: PathBuf, version: Version, coding: Coding) -> Result<Bytes, ()> {
    let Some(suffix) = coding.suffix() else {
        return tokio::fs::read(&file).await.map(Bytes::from).map_err(|_| ());
    };
    let copy = PathBuf::from(format!("{}.{suffix}", file.display()));
    if let Ok(meta) = tokio::fs::metadata(&copy).await
        && meta.modified().ok() >= version.modified
        && let Ok(bytes) = tokio::fs::read(&copy).await
    {
        return Ok(Bytes::from(bytes));
    }
    let plain = tokio::fs::read(&file).await.map_err(|_| ())?;
    // Quick settings: release builds bring their own best copies, so this
    // serves debug builds and files added by hand.
    let packed = tokio::task::spawn_blocking(move || compress_all(&plain, coding, false));
    Ok(Bytes::from(packed.await.map_err(|_| ())?.map_err(|_| ())?))
}

/// A validator for one representation of one version of a file.
fn etag(version: Version, coding: Coding) -> String {
    let nanos =
        version.modified.and_then(|m| m.duration_since(SystemTime::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
    let coding = coding.suffix().unwrap_or("id");
    format!("\"{:x}-{nanos:x}-{coding}\"", version.len)
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "wasm" => "application/wasm",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files() -> SiteFiles {
        let site = SiteAssets {
            root: PathBuf::from("/srv/site"),
            stylesheet: String::new(),
            engine_worker: None,
            hashed_bundles: true,
            build_id: String::new(),
            offline_files: Vec::new(),
        };
        SiteFiles::new(Arc::new(site))
    }

    #[test]
    fn only_plain_paths_inside_the_root_are_files() {
        let f = files();
        assert_eq!(f.locate("/pkg/hexarena.wasm"), Some(PathBuf::from("/srv/site/pkg/hexarena.wasm")));
        assert_eq!(f.locate("/../etc/passwd"), None);
        assert_eq!(f.locate("/pkg/../../etc/passwd"), None);
        assert_eq!(f.locate("/.env"), None);
        assert_eq!(f.locate("/pkg/hexarena.wasm.br"), None);
        assert_eq!(f.locate("/"), None);
    }

    #[test]
    fn each_representation_has_its_own_validator() {
        let v = Version { len: 10, modified: None };
        assert_ne!(etag(v, Coding::Brotli), etag(v, Coding::Gzip));
        assert_ne!(etag(v, Coding::Identity), etag(Version { len: 11, modified: None }, Coding::Identity));
    }
}
