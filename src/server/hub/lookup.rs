//! Finding tables and what they show: by id on this instance, and every
//! table's snapshot or view, asked of its task (or, in a cluster, of the
//! instance that owns it).

use std::sync::Arc;

use tokio::sync::oneshot;

use super::actor::Command;
use super::{Hub, TableHandle};
use crate::online::{SlotSnapshot, TableView};

impl Hub {
    /// The table with this id.
    pub fn table(&self, id: u64) -> Option<Arc<TableHandle>> {
        self.0.tables.read().ok()?.get(&id).cloned()
    }

    pub(super) fn all_tables(&self) -> Vec<Arc<TableHandle>> {
        self.0.tables.read().map(|t| t.values().cloned().collect()).unwrap_or_default()
    }

    /// The public snapshot of one table.
    pub async fn snapshot_of(&self, handle: &TableHandle) -> Option<SlotSnapshot> {
        let (reply, answer) = oneshot::channel();
        if !handle.send(Command::Snapshot { reply }) {
            return None;
        }
        answer.await.ok().flatten()
    }

    /// The browser view of table `id` (asked of its owner when another
    /// instance runs it).
    pub async fn view(&self, id: u64) -> Option<TableView> {
        let Some(handle) = self.table(id) else {
            return self.remote_view(id).await;
        };
        let (reply, answer) = oneshot::channel();
        if !handle.send(Command::View { reply }) {
            return None;
        }
        answer.await.ok()
    }

    /// Snapshots of every table, fresh, in id order (for `GET /slots`).
    pub async fn snapshots(&self) -> Vec<SlotSnapshot> {
        let mut answers = Vec::new();
        for handle in self.all_tables() {
            let (reply, answer) = oneshot::channel();
            if handle.send(Command::Snapshot { reply }) {
                answers.push(answer);
            }
        }
        let mut out = Vec::with_capacity(answers.len());
        for a in answers {
            if let Ok(Some(s)) = a.await {
                out.push(s);
            }
        }
        if let Some(cluster) = &self.0.cluster {
            match cluster.listed_slots().await {
                Ok(listed) => out.extend(listed.into_iter().filter(|s| self.table(s.slot_id).is_none())),
                Err(e) => tracing::warn!(error = %e, "other instances' tables could not be listed"),
            }
        }
        out.sort_by_key(|s| s.slot_id);
        out
    }

    /// The ids of the tables this instance runs.
    pub fn local_table_ids(&self) -> Vec<u64> {
        self.0.tables.read().map(|t| t.keys().copied().collect()).unwrap_or_default()
    }
}
