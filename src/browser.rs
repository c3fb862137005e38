//! The few things only a browser can do: storage, the address bar, the
//! clipboard and file downloads.
//!
//! They are called from event handlers and effects, which never run on the
//! server; the server build gets inert versions so shared components compile
//! for both targets without `cfg` at every call site.

#[cfg(feature = "hydrate")]
mod imp {
    use wasm_bindgen::JsCast;

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    pub fn load(key: &str) -> Option<String> {
        storage()?.get_item(key).ok().flatten()
    }

    pub fn save(key: &str, value: &str) -> bool {
        storage().is_some_and(|s| s.set_item(key, value).is_ok())
    }

    pub fn mark_hydrated() {
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            let _ = body.set_attribute("data-hydrated", "true");
        }
    }

    pub fn go_to(path: &str) {
        if let Some(window) = web_sys::window() {
            let _ = window.location().assign(path);
        }
    }

    pub fn reload() {
        if let Some(window) = web_sys::window() {
            let _ = window.location().reload();
        }
    }

    pub fn replace_path(path: &str) {
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(path));
        }
    }

    pub async fn copy(text: &str) -> bool {
        let Some(window) = web_sys::window() else { return false };
        let promise = window.navigator().clipboard().write_text(text);
        wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
    }

    pub fn download(file_name: &str, mime: &str, text: &str) -> bool {
        let run = || -> Option<()> {
            let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
            let options = web_sys::BlobPropertyBag::new();
            options.set_type(mime);
            let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
            let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
            let document = web_sys::window()?.document()?;
            let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
            a.set_href(&url);
            a.set_download(file_name);
            a.click();
            let _ = web_sys::Url::revoke_object_url(&url);
            Some(())
        };
        run().is_some()
    }
}

#[cfg(not(feature = "hydrate"))]
mod imp {
    pub fn load(_key: &str) -> Option<String> {
        None
    }

    pub fn save(_key: &str, _value: &str) -> bool {
        false
    }

    pub fn mark_hydrated() {}

    pub fn replace_path(_path: &str) {}

    pub fn go_to(_path: &str) {}

    pub fn reload() {}

    pub async fn copy(_text: &str) -> bool {
        false
    }

    pub fn download(_file_name: &str, _mime: &str, _text: &str) -> bool {
        false
    }
}

/// The value stored under `key` in the browser's local storage.
pub fn load(key: &str) -> Option<String> {
    imp::load(key)
}

/// Stores `value` under `key`; false when storage is unavailable or full.
pub fn save(key: &str, value: &str) -> bool {
    imp::save(key, value)
}

/// Marks `<body data-hydrated="true">` once the client has taken over the
/// server's HTML, so people's tools and browser tests know the page reacts.
pub fn mark_hydrated() {
    imp::mark_hydrated()
}

/// Changes the address bar to `path` without a navigation, so a reload
/// lands there.
pub fn replace_path(path: &str) {
    imp::replace_path(path)
}

/// Loads the current address again from the server (or the offline copy).
pub fn reload() {
    imp::reload()
}

/// Opens `path` as a new page load.
pub fn go_to(path: &str) {
    imp::go_to(path)
}

/// Puts `text` on the clipboard; false if the browser refused.
pub async fn copy(text: &str) -> bool {
    imp::copy(text).await
}

/// Offers `text` as a file download named `file_name`.
pub fn download(file_name: &str, mime: &str, text: &str) -> bool {
    imp::download(file_name, mime, text)
}
