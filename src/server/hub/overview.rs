//! Live feeds of every table for dashboards: hexgame's `/ws/slots` (the
//! whole list, as hexgame sends it) and our `/ws/overview` (only changes).
//! Tables only flag themselves as changed; this task reads the changed
//! snapshots a few times a second, writes each once, and publishes through
//! channels that never wait for a slow subscriber: a `watch` keeps only the
//! latest list, a bounded `broadcast` lets laggards resynchronise.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::Hub;
use super::actor::Command;

/// The publishing ends of the feeds.
pub struct Feeds {
    /// The whole list as hexgame's `/ws/slots` sends it: `[snapshot, …]`.
    pub slots: watch::Sender<Utf8Bytes>,
    /// Our changes, as `{"type":"slots","payload":{…}}` texts.
    pub changes: broadcast::Sender<Utf8Bytes>,
}

impl Feeds {
    pub(crate) fn new() -> Feeds {
        let (slots, _) = watch::channel(Utf8Bytes::from_static("[]"));
        let (changes, _) = broadcast::channel(64);
        Feeds { slots, changes }
    }

    fn has_subscribers(&self) -> bool {
        self.slots.receiver_count() > 0 || self.changes.receiver_count() > 0
    }

    /// The full update a new `/ws/overview` subscriber starts from.
    pub fn full_update(&self) -> Utf8Bytes {
        let list = self.slots.borrow().clone();
        Utf8Bytes::from(format!(
            r#"{{"type":"slots","payload":{{"full":true,"slots":{},"removed":[]}}}}"#,
            list.as_str()
        ))
    }
}

/// Collects changed tables and publishes them every `overview_interval`.
pub async fn run(hub: Hub, mut changed: mpsc::UnboundedReceiver<u64>) {
    let mut cache: BTreeMap<u64, String> = BTreeMap::new();
    let mut stale: BTreeSet<u64> = BTreeSet::new();
    let mut ticker = tokio::time::interval(hub.config().overview_interval);
    let mut ticks = 0u64;
    let mut last_list: Option<tokio::time::Instant> = None;
    // The cache changed since the whole list was last built.
    let mut list_stale = false;
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticker.tick().await;
        loop {
            match changed.try_recv() {
                Ok(id) => {
                    stale.insert(id);
                }
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            }
        }
        // /ws/slots readers take a list at most every `slots_feed_interval`:
        // building it more often would only be thrown away.
        let slots_due = hub.feeds().slots.receiver_count() > 0
            && last_list.is_none_or(|t: tokio::time::Instant| t.elapsed() >= hub.config().slots_feed_interval);
        if stale.is_empty() || !hub.feeds().has_subscribers() {
            if list_stale && slots_due {
                publish_list(&hub, &cache);
                last_list = Some(tokio::time::Instant::now());
                list_stale = false;
            }
            continue;
        }
        let mut answers = Vec::new();
        let mut removed = Vec::new();
        for id in std::mem::take(&mut stale) {
            match hub.table(id) {
                Some(handle) => {
                    handle.dirty.store(false, Ordering::Release);
                    let (reply, answer) = oneshot::channel();
                    if handle.send(Command::Snapshot { reply }) {
                        answers.push((id, answer));
                    }
                }
                None => removed.push(id),
            }
        }
        let mut changed_json = Vec::with_capacity(answers.len());
        for (id, answer) in answers {
            match answer.await {
                Ok(Some(mut snapshot)) => {
                    cache.insert(id, serde_json::to_string(&snapshot).unwrap_or_default());
                    // Changes go out without the board: pages place the
                    // last move themselves, and the periodic full update
                    // brings every board up to date.
                    snapshot.board = None;
                    changed_json.push(serde_json::to_string(&snapshot).unwrap_or_default());
                }
                Ok(None) | Err(_) => removed.push(id),
            }
        }
        for id in &removed {
            cache.remove(id);
        }
        list_stale = true;
        ticks += 1;
        let full_due = ticks.is_multiple_of(FULL_EVERY) && hub.feeds().changes.receiver_count() > 0;
        // The whole list is for /ws/slots readers and the periodic full update.
        if slots_due || full_due {
            publish_list(&hub, &cache);
            last_list = Some(tokio::time::Instant::now());
            list_stale = false;
        }
        let removed: Vec<String> = removed.iter().map(u64::to_string).collect();
        let update = format!(
            r#"{{"type":"slots","payload":{{"full":false,"slots":[{}],"removed":[{}]}}}}"#,
            changed_json.join(","),
            removed.join(",")
        );
        let _ = hub.feeds().changes.send(Utf8Bytes::from(update));
        if full_due {
            let _ = hub.feeds().changes.send(hub.feeds().full_update());
        }
    }
}

/// Builds the whole list from the cached snapshots and publishes it.
fn publish_list(hub: &Hub, cache: &BTreeMap<u64, String>) {
    let list = format!("[{}]", cache.values().map(String::as_str).collect::<Vec<_>>().join(","));
    hub.feeds().slots.send_replace(Utf8Bytes::from(list));
}

/// Every this many ticks with changes, overview subscribers get the whole
/// list again (boards included).
const FULL_EVERY: u64 = 40;
