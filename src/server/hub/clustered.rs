//! A hub as one instance of a cluster: starting up (reopening only the
//! journal's tables no live instance owns) and adopting the tables of an
//! instance that stopped.

use super::Hub;
use super::Persistence;
use super::config::HubConfig;
use crate::server::cluster::{Cluster, ClusterError};

impl Hub {
    /// A hub that is one instance of a cluster: it numbers tables, lists
    /// them and matches players through Redis, and reopens only the tables
    /// of the journal that no live instance owns.
    pub async fn start_clustered(
        config: HubConfig,
        persistence: Persistence,
        first_table: u64,
        cluster: Cluster,
    ) -> Result<Hub, ClusterError> {
        let (hub, restored) = Hub::build(config, Some(persistence), first_table, Some(cluster.clone()));
        let last = restored.iter().map(|r| r.header.id).max().unwrap_or(0).max(first_table.saturating_sub(1));
        cluster.number_tables_after(last).await?;
        for saved in restored {
            if cluster.claim(saved.header.id).await? {
                hub.reopen(saved);
            }
        }
        crate::server::cluster::start(hub.clone(), cluster);
        Ok(hub)
    }

    /// Reopens table `id` from the journal after claiming it from an
    /// instance that stopped; its finished games the archive had not
    /// committed are committed first. A table the journal no longer holds
    /// had closed: its traces in the cluster are removed.
    pub async fn adopt(&self, id: u64) {
        let (Some(archive), Some(journal)) = (&self.0.archive, &self.0.journal) else { return };
        let loaded = match crate::server::journal::load_table(archive.pool(), id).await {
            Ok(loaded) => loaded,
            Err(e) => {
                tracing::error!(table = id, error = %e, "a table to take over could not be read from the journal");
                return;
            }
        };
        archive.commit_now(Some(journal), &loaded.finished).await;
        match loaded.tables.into_iter().next() {
            Some(saved) => {
                tracing::info!(table = id, "reopening a table taken over from an instance that stopped");
                self.reopen(saved);
            }
            None => {
                if let Some(cluster) = &self.0.cluster
                    && let Err(e) = cluster.release(id).await
                {
                    tracing::warn!(table = id, error = %e, "a closed table's owner stays recorded in Redis");
                }
            }
        }
    }
}
