//! Live feeds of every table for dashboards: hexgame's `/ws/slots` (the
//! whole list, as hexgame sends it) and our `/ws/overview` (a full list,
//! then only what changed: a patch per changed table, a few dozen bytes a
//! move). Tables only flag themselves as changed; this task reads the
//! changed snapshots a few times a second, writes each update once, and
//! publishes through channels that never wait for a slow subscriber: a
//! `watch` keeps only the latest list, a bounded `broadcast` carries the
//! numbered changes, and a laggard asks for a new full list.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::Hub;
use super::actor::Command;
use crate::online::slot_patch::{SlotPatch, Split};

/// A numbered `/ws/overview` update: `{"type":"slots","payload":{…}}`.
#[derive(Clone, Debug)]
pub struct Numbered {
    pub seq: u64,
    pub text: Utf8Bytes,
}

/// A subscriber's request for the full list the next changes apply to.
pub type BaseRequest = oneshot::Sender<Numbered>;

/// The publishing ends of the feeds.
pub struct Feeds {
    /// The whole list as hexgame's `/ws/slots` sends it: `[snapshot, …]`.
    pub slots: watch::Sender<Utf8Bytes>,
    /// Our numbered changes.
    pub changes: broadcast::Sender<Numbered>,
    bases: mpsc::UnboundedSender<BaseRequest>,
}

impl Feeds {
    /// The feeds, and the receiving end of full-list requests for [`run`].
    pub(crate) fn new() -> (Feeds, mpsc::UnboundedReceiver<BaseRequest>) {
        let (slots, _) = watch::channel(Utf8Bytes::from_static("[]"));
        let (changes, _) = broadcast::channel(64);
        let (bases, requests) = mpsc::unbounded_channel();
        (Feeds { slots, changes, bases }, requests)
    }

    fn has_subscribers(&self) -> bool {
        self.slots.receiver_count() > 0 || self.changes.receiver_count() > 0
    }

    /// The full list an `/ws/overview` subscriber starts from, consistent
    /// with the changes numbered after it. Subscribe to [`Feeds::changes`]
    /// first, then ask; `None` if the hub is shutting down.
    pub async fn base(&self) -> Option<Numbered> {
        let (reply, answer) = oneshot::channel();
        self.bases.send(reply).ok()?;
        answer.await.ok()
    }
}

/// One table as the feeds last saw it.
struct Seen {
    split: Split,
    /// The snapshot as hexgame's list carries it, written once.
    json: String,
}

/// Collects changed tables and publishes them every `overview_interval`
/// (less often when many tables change at once).
pub async fn run(hub: Hub, mut changed: mpsc::UnboundedReceiver<u64>, mut bases: mpsc::UnboundedReceiver<BaseRequest>) {
    let mut seen: BTreeMap<u64, Seen> = BTreeMap::new();
    let mut stale: BTreeSet<u64> = BTreeSet::new();
    let mut wait = hub.config().overview_interval;
    let mut seq = 0u64;
    let mut last_list: Option<tokio::time::Instant> = None;
    // `seen` changed since the whole list was last built.
    let mut list_stale = false;
    let mut list_every = hub.config().slots_feed_interval;
    loop {
        tokio::time::sleep(wait).await;
        wait = hub.config().overview_interval;
        loop {
            match changed.try_recv() {
                Ok(id) => {
                    stale.insert(id);
                }
                Err(mpsc::error::TryRecvError::Empty) => break,
                Err(mpsc::error::TryRecvError::Disconnected) => return,
            }
        }
        let mut waiting = Vec::new();
        while let Ok(reply) = bases.try_recv() {
            waiting.push(reply);
        }
        // /ws/slots readers take a list at most every `slots_feed_interval`:
        // building it more often would only be thrown away.
        let slots_due = hub.feeds().slots.receiver_count() > 0
            && last_list.is_none_or(|t: tokio::time::Instant| t.elapsed() >= list_every);
        // In a cluster the other instances' lists need this one's changes
        // whether or not anyone here subscribes.
        if !stale.is_empty() && (hub.feeds().has_subscribers() || hub.cluster().is_some()) {
            // Many busy tables: read them less often rather than let
            // dashboards take the CPU the games need.
            wait = wait.max(READ_COST * u32::try_from(stale.len()).unwrap_or(u32::MAX));
            seq += 1;
            let update = read_changes(&hub, std::mem::take(&mut stale), &mut seen, seq).await;
            list_stale = true;
            let _ = hub.feeds().changes.send(Numbered { seq, text: update });
        }
        if list_stale && slots_due {
            let bytes = publish_list(&hub, &seen);
            list_every =
                hub.config().slots_feed_interval.max(LIST_BYTE_COST * u32::try_from(bytes).unwrap_or(u32::MAX));
            last_list = Some(tokio::time::Instant::now());
            list_stale = false;
        }
        if !waiting.is_empty() {
            let base = full_update(&seen, seq);
            for reply in waiting {
                let _ = reply.send(base.clone());
            }
        }
    }
}

/// Reads the tables in `stale`, updates `seen` and writes the change.
async fn read_changes(hub: &Hub, stale: BTreeSet<u64>, seen: &mut BTreeMap<u64, Seen>, seq: u64) -> Utf8Bytes {
    let mut answers = Vec::new();
    let mut removed = Vec::new();
    // Another instance's table, as its owner last announced it.
    let mut remote = Vec::new();
    for id in stale {
        match hub.table(id) {
            Some(handle) => {
                handle.dirty.store(false, Ordering::Release);
                let (reply, answer) = oneshot::channel();
                if handle.send(Command::Snapshot { reply }) {
                    answers.push((id, answer));
                }
            }
            // (A closed table of ours was announced gone as it closed.)
            None => match hub.cluster().and_then(|c| c.remote_slot(id)) {
                Some(snapshot) => remote.push((id, snapshot)),
                None => removed.push(id),
            },
        }
    }
    let mut opened = Vec::new();
    let mut patches = Vec::new();
    let mut read = Vec::new();
    let mut news = Vec::new();
    for (id, answer) in answers {
        let snapshot = answer.await.ok().flatten();
        let json = snapshot.as_ref().map(|s| serde_json::to_string(s).unwrap_or_default());
        if hub.cluster().is_some() {
            news.push((id, json.clone()));
        }
        read.push((id, snapshot.zip(json)));
    }
    // The other instances of a cluster hear of this one's changed tables.
    if let Some(cluster) = hub.cluster()
        && let Err(e) = cluster.announce_slots(&news).await
    {
        tracing::warn!(error = %e, "other instances could not be told of changed tables");
    }
    // Each snapshot is written as JSON once, for the news and the feeds alike.
    let remote = remote.into_iter().map(|(id, s)| {
        let json = serde_json::to_string(&s).unwrap_or_default();
        (id, Some((s, json)))
    });
    for (id, snapshot) in read.into_iter().chain(remote) {
        match snapshot {
            Some((snapshot, json)) => {
                let split = Split::of(snapshot);
                match seen.get(&id) {
                    Some(old) => patches.extend(SlotPatch::between_split(id, &old.split, &split)),
                    None => opened.push(json.clone()),
                }
                seen.insert(id, Seen { split, json });
            }
            None => removed.push(id),
        }
    }
    // A table the feeds never saw needs no removal.
    removed.retain(|id| seen.remove(id).is_some());
    let patches: Vec<String> = patches.iter().map(|p| serde_json::to_string(p).unwrap_or_default()).collect();
    let removed: Vec<String> = removed.iter().map(u64::to_string).collect();
    Utf8Bytes::from(format!(
        r#"{{"type":"slots","payload":{{"full":false,"seq":{seq},"slots":[{}],"changed":[{}],"removed":[{}]}}}}"#,
        opened.join(","),
        patches.join(","),
        removed.join(",")
    ))
}

/// Every table the feeds know, as of update `seq`.
fn full_update(seen: &BTreeMap<u64, Seen>, seq: u64) -> Numbered {
    let text = format!(
        r#"{{"type":"slots","payload":{{"full":true,"seq":{seq},"slots":{},"changed":[],"removed":[]}}}}"#,
        list(seen)
    );
    Numbered { seq, text: Utf8Bytes::from(text) }
}

fn list(seen: &BTreeMap<u64, Seen>) -> String {
    format!("[{}]", seen.values().map(|s| s.json.as_str()).collect::<Vec<_>>().join(","))
}

/// Builds hexgame's whole list, publishes it and returns its length.
fn publish_list(hub: &Hub, seen: &BTreeMap<u64, Seen>) -> usize {
    let list = list(seen);
    let bytes = list.len();
    hub.feeds().slots.send_replace(Utf8Bytes::from(list));
    bytes
}

/// Time between reads of changed tables per table read (at most 2,000
/// tables a second): 1,000 tables that all changed are read every half
/// second instead of every `overview_interval`.
const READ_COST: std::time::Duration = std::time::Duration::from_micros(500);

/// Time between whole lists per byte of the list (at most 256 KiB a second
/// to each `/ws/slots` reader): hexgame's format resends every table, so a
/// list of 1,000 tables goes out every 2–3 s rather than every second.
const LIST_BYTE_COST: std::time::Duration = std::time::Duration::from_nanos(1_000_000_000 / (256 * 1024));
