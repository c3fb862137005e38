//! Heartbeats and take-over. Every instance renews its heartbeat each
//! second and looks for instances whose heartbeat has expired: it claims
//! their tables one by one (a claim is atomic, so two instances never take
//! the same table), reopens each from the journal exactly as a restart
//! would, and lets go of its own sockets that were seated at the dead
//! instance's tables, so those players come back with their tokens.

use std::time::Duration;

use super::{Cluster, ClusterError, HEARTBEAT_EVERY_MS};
use crate::server::hub::Hub;

/// Every this many heartbeats the snapshots of this instance's tables are
/// renewed in Redis.
const RENEW_SLOTS_EVERY: u64 = 15;

/// Runs the heartbeat and the watch over other instances.
pub fn start(hub: Hub, cluster: Cluster) {
    tokio::spawn(async move {
        let mut beats = 0u64;
        let mut every = tokio::time::interval(Duration::from_millis(HEARTBEAT_EVERY_MS));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            if hub.is_closing() {
                continue; // a stopping instance takes nothing over
            }
            if let Err(e) = cluster.beat().await {
                tracing::error!(error = %e, "the heartbeat could not be renewed");
                continue;
            }
            beats += 1;
            if beats.is_multiple_of(RENEW_SLOTS_EVERY)
                && let Err(e) = cluster.renew_slots(&hub.local_table_ids()).await
            {
                tracing::warn!(error = %e, "the tables' snapshots could not be renewed");
            }
            if let Err(e) = give_up_lost(&hub, &cluster).await {
                tracing::warn!(error = %e, "could not check this instance's tables are still its own");
            }
            if let Err(e) = watch_others(&hub, &cluster).await {
                tracing::warn!(error = %e, "could not look for instances that stopped");
            }
        }
    });
}

/// Stops the tables another instance took over while this one's heartbeat
/// had lapsed (Redis out of reach, or the process stalled): two owners must
/// not both apply moves. Their players are told the server restarts and
/// find the new owner with their tokens.
async fn give_up_lost(hub: &Hub, cluster: &Cluster) -> Result<(), ClusterError> {
    for id in cluster.lost(&hub.local_table_ids()).await? {
        tracing::error!(table = id, "another instance took this table over: stopping it here");
        hub.stop_table(id);
    }
    Ok(())
}

async fn watch_others(hub: &Hub, cluster: &Cluster) -> Result<(), ClusterError> {
    for owner in cluster.route_owners() {
        if !cluster.is_alive(owner).await? {
            let dropped = cluster.drop_routes_to(owner);
            tracing::warn!(instance = owner, sockets = dropped, "an instance stopped: its players here reconnect");
        }
    }
    for n in cluster.instances().await? {
        if n != cluster.instance() && !cluster.is_alive(n).await? {
            take_over(hub, cluster, n).await?;
        }
    }
    Ok(())
}

/// Claims and reopens every table of dead instance `n`.
async fn take_over(hub: &Hub, cluster: &Cluster, n: u64) -> Result<(), ClusterError> {
    let started = std::time::Instant::now();
    let mut taken = 0;
    for id in cluster.owned_by(n).await? {
        if cluster.claim(id).await? {
            hub.adopt(id).await;
            taken += 1;
        }
    }
    if taken > 0 {
        let ms = started.elapsed().as_millis() as u64;
        tracing::warn!(instance = n, tables = taken, ms, "took over the tables of an instance that stopped");
    }
    cluster.clear_instance(n).await
}
