//! Entry point of the engine worker's own WASM bundle. It holds the engine
//! and the worker loop only, so the worker never downloads the pages and
//! the pages never download the search. `scripts/build-engine-worker.sh`
//! builds it and writes the loader that calls this.

use wasm_bindgen::prelude::wasm_bindgen;

/// Registers the worker's message handler; the loader calls it once the
/// bundle is instantiated inside the worker, with the text of the learned
/// pattern file it fetched (empty if it could not).
#[wasm_bindgen]
pub fn start_engine_worker(patterns: String) {
    hexarena::engine_worker::worker::register(&patterns);
}
