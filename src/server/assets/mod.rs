//! Everything between the browser and the build's files: what this build
//! is called (its hashed bundle names, the engine worker's loader, a build
//! id), serving its files compressed and cached, compressing the other
//! responses as they stream, and the pages' cache headers.

pub mod compress;
pub mod encoding;
pub mod files;
pub mod offline;
pub mod pages;

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Where the engine worker's loader is named (written by
/// `scripts/build-engine-worker.sh`), relative to the site root.
const ENGINE_MANIFEST: &str = "engine/manifest.json";

/// What the pages need to know about the build they belong to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteAssets {
    /// The site root the files are served from.
    pub root: PathBuf,
    /// The stylesheet's address.
    pub stylesheet: String,
    /// The engine worker's loader, when the worker bundle was built.
    pub engine_worker: Option<String>,
    /// Whether the bundles under `/pkg/` carry their content's hash in their
    /// names (cargo-leptos `hash-files`), so that they may be cached for good.
    pub hashed_bundles: bool,
    /// Changes whenever the server or the site does: the pages' ETag.
    pub build_id: String,
    /// Addresses of the files a browser keeps to start offline.
    pub offline_files: Vec<String>,
}

impl SiteAssets {
    /// Reads the build's facts for `options`: cargo-leptos's hash file
    /// (`hash.txt` beside the server binary, where it writes it and Leptos
    /// reads it, or wherever an absolute `hash_file` says) and the engine
    /// worker's manifest under the site root.
    pub fn load(options: &leptos::prelude::LeptosOptions) -> SiteAssets {
        let root = Path::new(&*options.site_root);
        let output_name = &*options.output_name;
        let exe = std::env::current_exe().ok();
        let hash_file = exe.as_ref().and_then(|e| e.parent()).map(|dir| dir.join(&*options.hash_file));
        let hashes = hash_file.and_then(|f| std::fs::read_to_string(f).ok()).unwrap_or_default();
        let css_hash = hashes.lines().find_map(|l| l.trim().strip_prefix("css:")).map(str::trim).unwrap_or("");
        // The names in hash.txt count only if those files are really there:
        // a stale hash.txt beside an unhashed build must not break the pages.
        let hashed_bundles =
            !css_hash.is_empty() && root.join("pkg").join(format!("{output_name}.{css_hash}.css")).is_file();
        let stylesheet = if hashed_bundles {
            format!("/pkg/{output_name}.{css_hash}.css")
        } else {
            format!("/pkg/{output_name}.css")
        };
        let manifest = std::fs::read_to_string(root.join(ENGINE_MANIFEST)).unwrap_or_default();
        let engine_worker = engine_loader(&manifest);
        let build_id = build_id(exe.as_deref(), &[&hashes, &manifest]);
        let offline_files = offline_files(root);
        SiteAssets { root: root.to_path_buf(), stylesheet, engine_worker, hashed_bundles, build_id, offline_files }
    }

    /// Whether `path` (an address under the site root) names a file whose
    /// content never changes under that name.
    pub fn is_immutable(&self, path: &str) -> bool {
        let in_pkg = path.starts_with("/pkg/") && self.hashed_bundles;
        let in_engine = path.starts_with("/engine/") && !path.ends_with("/manifest.json");
        in_pkg || in_engine
    }
}

/// Every file a page may need without the server: the bundles (`pkg/`,
/// `engine/`), the icons, and the scripts, icon and manifest at the root.
fn offline_files(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    for dir in ["pkg", "engine", "icons"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let skip = [".br", ".gz", ".ts"].iter().any(|ext| name.ends_with(ext)) || name == "manifest.json";
            if entry.path().is_file() && !skip {
                found.push(format!("/{dir}/{name}"));
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let wanted = [".svg", ".js", ".webmanifest"].iter().any(|ext| name.ends_with(ext));
            if entry.path().is_file() && wanted && name != "sw.js" {
                found.push(format!("/{name}"));
            }
        }
    }
    found.sort();
    found
}

/// The loader's address from the worker manifest (`{"loader":"/engine/…"}`).
fn engine_loader(manifest: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Manifest {
        loader: String,
    }
    let m: Manifest = serde_json::from_str(manifest).ok()?;
    let safe = m.loader.starts_with("/engine/") && m.loader.ends_with(".js") && !m.loader.contains("..");
    safe.then_some(m.loader)
}

/// A short id that changes with the server binary (its size and time) and
/// the site's bundle names: pages rendered by another build must not be
/// taken for these.
fn build_id(exe: Option<&Path>, parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    hash.update(env!("CARGO_PKG_VERSION"));
    if let Some(meta) = exe.and_then(|e| std::fs::metadata(e).ok()) {
        hash.update(meta.len().to_le_bytes());
        if let Ok(since) = meta.modified().map(|m| m.duration_since(std::time::UNIX_EPOCH).unwrap_or_default()) {
            hash.update(since.as_nanos().to_le_bytes());
        }
    }
    for part in parts {
        hash.update(part.as_bytes());
        hash.update([0]);
    }
    hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_manifest_names_a_loader_under_engine_only() {
        assert_eq!(
            engine_loader(r#"{"loader":"/engine/engine-worker.ab12.js"}"#).as_deref(),
            Some("/engine/engine-worker.ab12.js")
        );
        assert_eq!(engine_loader(r#"{"loader":"https://evil.example/x.js"}"#), None);
        assert_eq!(engine_loader(r#"{"loader":"/engine/../x.js"}"#), None);
        assert_eq!(engine_loader("not json"), None);
    }

    #[test]
    fn hashed_bundles_and_engine_files_are_immutable_the_rest_is_not() {
        let mut site = SiteAssets {
            root: PathBuf::from("target/site"),
            stylesheet: "/pkg/hexarena.css".into(),
            engine_worker: None,
            hashed_bundles: true,
            build_id: "x".into(),
            offline_files: Vec::new(),
        };
        assert!(site.is_immutable("/pkg/hexarena.abc.wasm"));
        assert!(site.is_immutable("/engine/hexarena_engine.0123.wasm"));
        assert!(!site.is_immutable("/engine/manifest.json"));
        assert!(!site.is_immutable("/favicon.svg"));
        site.hashed_bundles = false;
        assert!(!site.is_immutable("/pkg/hexarena.wasm"));
    }

    #[test]
    fn the_build_id_changes_with_the_bundle_names() {
        assert_ne!(build_id(None, &["js: a"]), build_id(None, &["js: b"]));
        assert_eq!(build_id(None, &["js: a"]), build_id(None, &["js: a"]));
    }
}
