// Starts hexarena's engine worker: load the same WASM bundle as the page,
// then register the worker's message handler (see src/engine_worker).
import init, { start_engine_worker } from '/pkg/hexarena.js';

await init({ module_or_path: '/pkg/hexarena.wasm' });
start_engine_worker();
