//! Seating in a cluster: tables numbered and matched through Redis, and
//! players seated at (or watching) a table another instance owns, through
//! a question to its owner. Each function here is the shared counterpart
//! of one in `seating.rs`.

use std::sync::atomic::Ordering;

use super::conn::Conn;
use super::table::{Arrival, SeatError};
use super::{Hub, JoinError, TableLink, room_code};
use crate::online::{PlayerId, SlotState, TableOptions, TableView};
use crate::server::client_address::ClientAddress;
use crate::server::cluster::Cluster;
use crate::server::cluster::wire::{Answer, Question};

/// A refusal, with the connection back when it was not used.
type Refused = (JoinError, Option<Conn>);

impl Hub {
    /// A number for a new table, and its room code, unique across the cluster;
    /// the table is recorded as this instance's.
    pub(super) async fn number_shared_table(
        &self,
        cluster: &Cluster,
        room: bool,
    ) -> Result<(u64, Option<String>), JoinError> {
        let id = cluster.next_table_id().await.map_err(|_| JoinError::Unreachable)?;
        let mut code = None;
        while room && code.is_none() {
            let candidate = room_code::new_code();
            if cluster.reserve_room(&candidate, id).await.map_err(|_| JoinError::Unreachable)? {
                code = Some(candidate);
            }
        }
        if !cluster.claim(id).await.map_err(|_| JoinError::Unreachable)? {
            return Err(JoinError::NoSlot);
        }
        Ok((id, code))
    }

    /// Matchmaking across the cluster: one instance at a time takes the
    /// oldest waiting table of the pool (wherever it runs) or opens one here.
    pub(super) async fn quick_match_shared(
        &self,
        cluster: &Cluster,
        options: TableOptions,
        who: Arrival,
        conn: Conn,
        address: ClientAddress,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        // One matchmaker per instance at a time asks Redis for the pool's
        // lock: with every waiting player polling it, thousands of players
        // arriving at once flooded Redis and matched a tenth as fast.
        let _local = self.0.pools.lock().await;
        let lock = cluster.lock_pool(&options).await.map_err(|_| JoinError::Unreachable)?;
        let matched = self.match_in_shared_pool(cluster, options, who, conn, address).await;
        cluster.unlock_pool(lock).await;
        matched
    }

    async fn match_in_shared_pool(
        &self,
        cluster: &Cluster,
        options: TableOptions,
        who: Arrival,
        conn: Conn,
        address: ClientAddress,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        let mut conn = conn;
        while let Some(id) = cluster.pop_waiting(&options).await.map_err(|_| JoinError::Unreachable)? {
            let tried = match self.table(id) {
                Some(handle) => {
                    self.seat(&handle, who.clone(), conn, true).await.map(|seat| (TableLink::Local(handle), seat))
                }
                None => self.seat_remote(id, who.clone(), conn, true).await,
            };
            match tried {
                Ok(seated) => {
                    self.stop_waiting(id);
                    return Ok(seated);
                }
                Err((_, Some(back))) => conn = back,
                Err((e, None)) => return Err(e),
            }
        }
        let (handle, seat) = self.wait_in_new_table(options, who, conn, address).await?;
        cluster.push_waiting(&options, handle.id).await.map_err(|_| JoinError::Unreachable)?;
        Ok((TableLink::Local(handle), seat))
    }

    /// hexgame's `/ws/join-slot` for a table another instance owns.
    pub(super) async fn join_remote_table(
        &self,
        id: u64,
        who: Arrival,
        conn: Conn,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        let Some(cluster) = &self.0.cluster else { return Err(JoinError::NoSuchTable) };
        let owner = self.owner(cluster, id).await.ok_or(JoinError::NoSuchTable)?;
        let route = self.0.next_conn.fetch_add(1, Ordering::Relaxed);
        let snapshot = match cluster.ask(owner, id, route, Question::Snapshot).await {
            Ok(Answer::Snapshot { snapshot: Some(s) }) => s,
            Ok(_) => return Err(JoinError::NoSuchTable),
            Err(_) => return Err(JoinError::Unreachable),
        };
        if snapshot.state != SlotState::Waiting {
            return Err(JoinError::NotWaiting);
        }
        if snapshot.connected_player_count < snapshot.player_count {
            return Err(JoinError::OwnerAway);
        }
        let seated = self.seat_remote(id, who, conn, false).await.map_err(|(e, _)| e)?;
        self.unlist(id, super::seating::snapshot_options(&snapshot)).await;
        Ok(seated)
    }

    /// Seats a player at a table another instance owns.
    pub(super) async fn seat_remote(
        &self,
        id: u64,
        who: Arrival,
        conn: Conn,
        quick: bool,
    ) -> Result<(TableLink, PlayerId), Refused> {
        let question = Question::Join { who: who.into(), quick, dialect: conn.dialect };
        match self.ask_for_place(id, conn, question).await? {
            (link, Answer::Seated { seat }) => Ok((link, seat)),
            (_, _) => Err((JoinError::NoSuchTable, None)),
        }
    }

    /// Resumes a seat at a table another instance owns.
    pub(super) async fn reconnect_remote(
        &self,
        id: u64,
        token: String,
        conn: Conn,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        let question = Question::Reconnect { token, dialect: conn.dialect };
        match self.ask_for_place(id, conn, question).await {
            Ok((link, Answer::Seated { seat })) => Ok((link, seat)),
            Ok(_) | Err((JoinError::NoSuchTable, _)) => Err(JoinError::Seat(SeatError::Closed)),
            Err((e, _)) => Err(e),
        }
    }

    /// Adds a spectator to a table another instance owns.
    pub(super) async fn watch_remote(&self, id: u64, conn: Conn) -> Option<TableLink> {
        match self.ask_for_place(id, conn, Question::Watch).await {
            Ok((link, Answer::Watching)) => Some(link),
            _ => None,
        }
    }

    /// The browser view of a table another instance owns.
    pub(super) async fn remote_view(&self, id: u64) -> Option<TableView> {
        let cluster = self.0.cluster.as_ref()?;
        let owner = self.owner(cluster, id).await?;
        let route = self.0.next_conn.fetch_add(1, Ordering::Relaxed);
        match cluster.ask(owner, id, route, Question::View).await {
            Ok(Answer::View { view }) => Some(*view),
            _ => None,
        }
    }

    /// Asks the owner of table `id` for a place for `conn`: the frames the
    /// owner sends on it arrive from the moment the question is asked.
    async fn ask_for_place(&self, id: u64, conn: Conn, question: Question) -> Result<(TableLink, Answer), Refused> {
        let Some(cluster) = &self.0.cluster else { return Err((JoinError::NoSuchTable, Some(conn))) };
        let Some(owner) = self.owner(cluster, id).await else { return Err((JoinError::NoSuchTable, Some(conn))) };
        // A fresh number per attempt: frames of a refused attempt can
        // never reach the socket's next one.
        let route = self.0.next_conn.fetch_add(1, Ordering::Relaxed);
        cluster.add_route(route, conn, owner);
        let answer = cluster.ask(owner, id, route, question).await;
        let refused = |e: JoinError| Err((e, cluster.take_route(route)));
        match answer {
            Ok(answer @ (Answer::Seated { .. } | Answer::Watching)) => {
                Ok((TableLink::Remote(cluster.seat(id, route, owner)), answer))
            }
            Ok(Answer::Refused { reason }) => match SeatError::from(reason) {
                SeatError::Full => refused(JoinError::Full),
                e => refused(JoinError::Seat(e)),
            },
            Ok(_) => refused(JoinError::NoSuchTable),
            Err(e) => {
                tracing::warn!(table = id, instance = owner, error = %e, "a table's owner did not answer");
                refused(JoinError::Unreachable)
            }
        }
    }

    /// The live instance other than this one that owns table `id` (a dead
    /// owner's table is unavailable until another takes it over).
    async fn owner(&self, cluster: &Cluster, id: u64) -> Option<u64> {
        let owner = cluster.owner_of(id).await.ok()??;
        let alive = owner != cluster.instance() && cluster.is_alive(owner).await.unwrap_or(false);
        alive.then_some(owner)
    }
}
