//! Stopping the hub: every table told to stop (its players hear the
//! server is restarting; the journal keeps each game as it stands), new
//! sockets refused, and a wait until tables, sockets and the archive's
//! queue are done.

use super::Hub;
use super::actor::Command;

impl Hub {
    /// Stops every table (their players are told the server is
    /// restarting; the journal keeps each game as it stands) and closes the
    /// overview feeds; new sockets are refused from now on.
    pub fn shut_down(&self) {
        self.0.closing.send_replace(true);
        for handle in self.all_tables() {
            handle.send_surely(Command::Shutdown);
        }
        if let Some(cluster) = &self.0.cluster {
            cluster.drop_all_routes();
        }
    }

    /// Stops one table as a shutdown does (its players are told the server
    /// is restarting); the journal keeps it as it stands.
    pub fn stop_table(&self, id: u64) {
        if let Some(handle) = self.table(id) {
            handle.send_surely(Command::Shutdown);
        }
    }

    /// Whether the server is stopping.
    pub fn is_closing(&self) -> bool {
        *self.0.closing.borrow()
    }

    /// Resolves once the server starts stopping.
    pub async fn closing(&self) {
        let mut closing = self.0.closing.subscribe();
        let _ = closing.wait_for(|&c| c).await;
    }

    /// After [`Hub::shut_down`]: waits, at most `within`, for every table
    /// to stop and the archive to take every finished game. Returns whether
    /// all did in time (what did not is still in the journal).
    pub async fn drained(&self, within: std::time::Duration) -> bool {
        tokio::time::timeout(within, async {
            use crate::server::metrics::ConnectionKind;
            // Tables first, then the sockets they let go, so every player
            // has had the last word before the process ends.
            let sockets = || {
                [ConnectionKind::Player, ConnectionKind::Spectator, ConnectionKind::Feed]
                    .into_iter()
                    .map(|k| self.0.metrics.connections(k))
                    .sum::<i64>()
            };
            while self.table_count() > 0 || sockets() > 0 {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
            if let Some(archive) = &self.0.archive {
                archive.drained().await;
            }
            // The journal has everything: another instance may take over
            // this one's tables at once rather than when its heartbeat expires.
            if let Some(cluster) = &self.0.cluster {
                cluster.leave().await;
            }
        })
        .await
        .is_ok()
    }
}
