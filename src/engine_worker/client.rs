//! A page's handle on the engine worker. The worker starts after
//! hydration (never during server rendering) and lives as long as the page
//! component that started it.

use leptos::prelude::*;

use super::protocol::{EngineRequest, EngineUpdate};

#[cfg(feature = "hydrate")]
type Bridge = gloo_worker::WorkerBridge<super::worker::EngineWorker>;
#[cfg(not(feature = "hydrate"))]
type Bridge = ();

/// The engine worker's loader, which the server names in the page (its
/// name changes with every build of the worker bundle).
#[cfg(feature = "hydrate")]
fn loader_address() -> Option<String> {
    let selector = format!("meta[name=\"{}\"]", crate::app::ENGINE_WORKER_META);
    let meta = web_sys::window()?.document()?.query_selector(&selector).ok()??;
    meta.get_attribute("content").filter(|c| !c.is_empty())
}

/// Sends requests to the engine worker and exposes its latest update.
#[derive(Clone, Copy)]
pub struct EngineClient {
    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    bridge: StoredValue<Option<Bridge>, LocalStorage>,
    /// Requests made before the worker was up, sent once it is.
    #[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
    pending: StoredValue<Option<EngineRequest>, LocalStorage>,
    next_job: StoredValue<u64>,
    /// The worker's latest report.
    pub update: RwSignal<Option<EngineUpdate>>,
    /// Whether the worker has been spawned (requests can be sent).
    pub ready: RwSignal<bool>,
    /// Whether the worker has loaded and answered (its first report).
    pub running: RwSignal<bool>,
}

impl EngineClient {
    /// A client whose worker starts once the page has hydrated.
    pub fn start() -> EngineClient {
        let client = EngineClient {
            bridge: StoredValue::new_local(None),
            pending: StoredValue::new_local(None),
            next_job: StoredValue::new(1),
            update: RwSignal::new(None),
            ready: RwSignal::new(false),
            running: RwSignal::new(false),
        };
        Effect::new(move |_| client.spawn());
        client
    }

    #[cfg(feature = "hydrate")]
    fn spawn(self) {
        use gloo_worker::Spawnable;
        if self.bridge.with_value(Option::is_some) {
            return;
        }
        let Some(loader) = loader_address() else {
            leptos::logging::error!("this page names no engine worker: was the site built with scripts/build-site.sh?");
            return;
        };
        let (update, running) = (self.update, self.running);
        let bridge = super::worker::EngineWorker::spawner()
            .callback(move |u| {
                if !running.get_untracked() {
                    running.set(true);
                }
                update.set(Some(u));
            })
            .with_loader(true)
            .as_module(true)
            .spawn(&loader);
        if let Some(request) = self.pending.try_update_value(Option::take).flatten() {
            bridge.send(request);
        }
        self.bridge.set_value(Some(bridge));
        self.ready.set(true);
    }

    #[cfg(not(feature = "hydrate"))]
    fn spawn(self) {}

    /// A fresh job number; updates carry it so stale ones can be ignored.
    pub fn new_job(&self) -> u64 {
        let id = self.next_job.get_value();
        self.next_job.set_value(id + 1);
        id
    }

    /// Sends `request`, replacing whatever the worker was doing.
    pub fn send(&self, request: EngineRequest) {
        #[cfg(feature = "hydrate")]
        {
            let sent = self.bridge.with_value(|b| match b {
                Some(bridge) => {
                    bridge.send(request.clone());
                    true
                }
                None => false,
            });
            if !sent {
                self.pending.set_value(Some(request));
            }
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = request;
    }
}
