//! Where players sit: matchmaking pools, private rooms by code, a table by
//! id, a seat resumed with its token, and spectators; each refusal typed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::{mpsc, oneshot};

use super::actor::{self, Command};
use super::conn::Conn;
use super::table::{Arrival, SeatError, Table};
use super::throttle::RetryAfter;
use super::{Hub, TableHandle, TableLink, room_code};
use crate::online::{ErrorCode, PlayerId, Refusal, SlotSnapshot, SlotState, TableOptions};
use crate::server::client_address::ClientAddress;

/// The window wrong room codes are counted over (the throttle's minute).
const ROOM_GUESS_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

/// Why a player could not be seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinError {
    /// Too many tables are open (`HEXARENA_MAX_TABLES`).
    NoSlot,
    NoSuchTable,
    NotWaiting,
    OwnerAway,
    Full,
    NoSuchRoom,
    /// Too many wrong room codes from this address lately.
    TooManyGuesses(RetryAfter),
    /// The address has this many rooms open already.
    TooManyRooms(u32),
    /// The address has created rooms this fast lately.
    RoomsTooFast(RetryAfter),
    /// The address has this many quick-match tables waiting already.
    TooManyTables(u32),
    /// Matchmaking keeps this many kinds of game waiting already.
    TooManyPools,
    /// The instances of a cluster could not reach each other (Redis).
    Unreachable,
    Seat(SeatError),
}

impl JoinError {
    /// The code (and with it the text) for the `error` message.
    pub const fn code(&self) -> ErrorCode {
        match self {
            JoinError::NoSlot => ErrorCode::NoSlot,
            JoinError::NoSuchTable => ErrorCode::NoSuchSlot,
            JoinError::NotWaiting => ErrorCode::SlotNotWaiting,
            JoinError::OwnerAway => ErrorCode::OwnerAway,
            JoinError::Full => ErrorCode::SlotFull,
            JoinError::NoSuchRoom => ErrorCode::NoSuchRoom,
            JoinError::TooManyGuesses(_) => ErrorCode::TooManyAttempts,
            JoinError::TooManyRooms(_) => ErrorCode::TooManyRooms,
            JoinError::RoomsTooFast(_) => ErrorCode::TooManyRequests,
            JoinError::TooManyTables(_) => ErrorCode::TooManyTables,
            JoinError::TooManyPools => ErrorCode::TooManyPools,
            JoinError::Unreachable => ErrorCode::Unavailable,
            JoinError::Seat(e) => e.code(),
        }
    }

    /// What the client is told: the code's text, with the wait where
    /// there is one.
    pub fn refusal(&self) -> Refusal {
        match self {
            JoinError::TooManyGuesses(wait) => Refusal::new(
                ErrorCode::TooManyAttempts,
                format!("Too many wrong room codes from your address: try again in {} s", wait.seconds()),
            ),
            JoinError::TooManyRooms(n) => Refusal::new(
                ErrorCode::TooManyRooms,
                format!("You have {n} private rooms open already: play in one, or let one expire, first"),
            ),
            JoinError::RoomsTooFast(wait) => Refusal::new(
                ErrorCode::TooManyRequests,
                format!("You have created rooms too quickly: try again in {} s", wait.seconds()),
            ),
            JoinError::TooManyTables(n) => Refusal::new(
                ErrorCode::TooManyTables,
                format!("You have {n} games waiting for an opponent already: play one first"),
            ),
            JoinError::Unreachable => Refusal::new(
                ErrorCode::Unavailable,
                "The game servers could not reach each other just now: try again in a moment",
            ),
            other => other.code().into(),
        }
    }
}

impl Hub {
    /// Opens a private room for the person at `address`, unless that
    /// address has `HEXARENA_ROOMS_PER_ADDRESS` rooms open already or has
    /// created `HEXARENA_ROOMS_PER_MINUTE` this minute.
    pub async fn open_room(
        &self,
        options: TableOptions,
        address: ClientAddress,
    ) -> Result<Arc<TableHandle>, JoinError> {
        let limit = self.0.config.rooms_per_address;
        self.0.quotas.rooms.take(address.0, std::time::Instant::now()).map_err(JoinError::RoomsTooFast)?;
        let ip = address.0.filter(|_| limit > 0);
        if let Some(ip) = ip {
            let open = self.0.room_creators.lock().map_or(0, |c| c.values().filter(|&&a| a == ip).count());
            if open >= limit as usize {
                return Err(JoinError::TooManyRooms(limit));
            }
        }
        let handle = self.open_table(options, true).await?;
        if let (Some(ip), Ok(mut creators)) = (ip, self.0.room_creators.lock()) {
            creators.insert(handle.id, ip);
        }
        Ok(handle)
    }

    /// Opens a new table; with `room`, it gets a private code. In a
    /// cluster its number and code are unique across every instance, and
    /// this instance owns it.
    pub async fn open_table(&self, options: TableOptions, room: bool) -> Result<Arc<TableHandle>, JoinError> {
        if self.table_count() >= self.0.config.max_tables {
            return Err(JoinError::NoSlot);
        }
        let (id, room_code) = match &self.0.cluster {
            Some(cluster) => self.number_shared_table(cluster, room).await?,
            None => (self.0.next_table.fetch_add(1, Ordering::Relaxed), room.then(|| self.local_room_code())),
        };
        let mut tables = self.0.tables.write().map_err(|_| JoinError::NoSlot)?;
        if tables.len() >= self.0.config.max_tables {
            return Err(JoinError::NoSlot);
        }
        if let (Some(code), Ok(mut rooms)) = (&room_code, self.0.rooms.lock()) {
            rooms.insert(code.clone(), id);
        }
        let (tx, rx) = mpsc::channel(super::TABLE_QUEUE);
        let handle =
            Arc::new(TableHandle { id, room_code: room_code.clone(), commands: tx, dirty: AtomicBool::new(false) });
        tables.insert(id, handle.clone());
        drop(tables);
        let table = Table::new(id, options, room_code, self.0.config.reconnect.as_millis() as u64);
        tokio::spawn(actor::run(self.clone(), handle.clone(), table, rx));
        Ok(handle)
    }

    /// A room code no open room of this instance has.
    fn local_room_code(&self) -> String {
        let taken = |code: &str| self.0.rooms.lock().is_ok_and(|rooms| rooms.contains_key(code));
        loop {
            let code = room_code::new_code();
            if !taken(&code) {
                return code;
            }
        }
    }

    /// Seats a player in the first waiting table of their pool, or opens
    /// one and waits there (unless the address has
    /// `HEXARENA_WAITING_TABLES_PER_ADDRESS` waiting already, or the pool
    /// would be one more than `HEXARENA_MAX_POOLS`).
    pub async fn quick_match(
        &self,
        options: TableOptions,
        who: Arrival,
        conn: Conn,
        address: ClientAddress,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        if let Some(cluster) = &self.0.cluster {
            return self.quick_match_shared(cluster, options, who, conn, address).await;
        }
        let mut pools = self.0.pools.lock().await;
        let max_pools = self.0.config.max_pools as usize;
        if max_pools > 0 && !pools.contains_key(&options) && pools.len() >= max_pools {
            // Pools whose tables have all been taken or closed no longer count.
            pools.retain(|_, queue| {
                queue.retain(|&id| self.table(id).is_some());
                !queue.is_empty()
            });
            if pools.len() >= max_pools {
                return Err(JoinError::TooManyPools);
            }
        }
        let queue = pools.entry(options).or_default();
        let mut conn = Some(conn);
        while let Some(&id) = queue.front() {
            let Some(handle) = self.table(id) else {
                queue.pop_front();
                continue;
            };
            let Some(c) = conn.take() else { break };
            match self.seat(&handle, who.clone(), c, true).await {
                Ok(seat) => {
                    queue.pop_front();
                    self.stop_waiting(id);
                    return Ok((TableLink::Local(handle), seat));
                }
                Err((_, back)) => {
                    queue.pop_front();
                    conn = back;
                }
            }
        }
        let conn = conn.ok_or(JoinError::NoSuchTable)?;
        let (handle, seat) = self.wait_in_new_table(options, who, conn, address).await?;
        queue.push_back(handle.id);
        Ok((TableLink::Local(handle), seat))
    }

    /// Opens a table and seats the player there to wait for an opponent,
    /// unless their address has enough tables waiting already.
    pub(super) async fn wait_in_new_table(
        &self,
        options: TableOptions,
        who: Arrival,
        conn: Conn,
        address: ClientAddress,
    ) -> Result<(Arc<TableHandle>, PlayerId), JoinError> {
        let limit = self.0.config.waiting_tables_per_address;
        let ip = address.0.filter(|_| limit > 0);
        if let Some(ip) = ip {
            let waiting = self.0.waiting_owners.lock().map_or(0, |w| w.values().filter(|&&a| a == ip).count());
            if waiting >= limit as usize {
                return Err(JoinError::TooManyTables(limit));
            }
        }
        let handle = self.open_table(options, false).await?;
        let seat = self.seat(&handle, who, conn, true).await.map_err(|(e, _)| e)?;
        if let (Some(ip), Ok(mut owners)) = (ip, self.0.waiting_owners.lock()) {
            owners.insert(handle.id, ip);
        }
        Ok((handle, seat))
    }

    /// A waiting table found its opponent (or closed): it no longer counts
    /// against its opener's address.
    pub(crate) fn stop_waiting(&self, id: u64) {
        if let Ok(mut owners) = self.0.waiting_owners.lock() {
            owners.remove(&id);
        }
    }

    /// Seats a player at table `id` if it waits for an opponent (hexgame's
    /// `/ws/join-slot`).
    pub async fn join_table(&self, id: u64, who: Arrival, conn: Conn) -> Result<(TableLink, PlayerId), JoinError> {
        let Some(handle) = self.table(id) else {
            return self.join_remote_table(id, who, conn).await;
        };
        let snapshot = self.snapshot_of(&handle).await.ok_or(JoinError::NoSuchTable)?;
        if snapshot.state != SlotState::Waiting {
            return Err(JoinError::NotWaiting);
        }
        if snapshot.connected_player_count < snapshot.player_count {
            return Err(JoinError::OwnerAway);
        }
        let seat = self.seat(&handle, who, conn, false).await.map_err(|(e, _)| e)?;
        self.unlist(id, snapshot_options(&snapshot)).await;
        self.stop_waiting(id);
        Ok((TableLink::Local(handle), seat))
    }

    /// Seats a player at the table of a private room.
    pub async fn join_room(
        &self,
        code: &str,
        who: Arrival,
        conn: Conn,
        address: ClientAddress,
    ) -> Result<(TableLink, PlayerId), JoinError> {
        let id = self.find_room(code, address).await?;
        match self.table(id) {
            Some(handle) => {
                let seat = self.seat(&handle, who, conn, false).await.map_err(|(e, _)| e)?;
                Ok((TableLink::Local(handle), seat))
            }
            None if self.0.cluster.is_some() => self.seat_remote(id, who, conn, false).await.map_err(|(e, _)| e),
            None => Err(JoinError::NoSuchRoom),
        }
    }

    /// The table of the private room with this code. Wrong codes count
    /// against the address, which must wait once it has tried too many.
    pub async fn find_room(&self, code: &str, address: ClientAddress) -> Result<u64, JoinError> {
        let now = std::time::Instant::now();
        self.0.room_guesses.check(address.0, now).map_err(JoinError::TooManyGuesses)?;
        self.shared_guesses_wait(address).await?;
        let code = room_code::normalise(code);
        let mut found = code.as_ref().and_then(|code| self.0.rooms.lock().ok()?.get(code).copied());
        if let (None, Some(cluster), Some(code)) = (found, &self.0.cluster, &code) {
            found = cluster.room(code).await.map_err(|_| JoinError::Unreachable)?;
        }
        if found.is_none() {
            self.0.room_guesses.fail(address.0, now);
            if let (Some(cluster), Some(ip)) = (&self.0.cluster, address.0)
                && let Err(e) = cluster.record_failure("room-guess", &ip.to_string(), ROOM_GUESS_WINDOW).await
            {
                tracing::warn!(error = %e, "a wrong room code was counted by this instance alone");
            }
        }
        found.ok_or(JoinError::NoSuchRoom)
    }

    /// In a cluster, wrong room codes count on every instance.
    async fn shared_guesses_wait(&self, address: ClientAddress) -> Result<(), JoinError> {
        let (Some(cluster), Some(ip)) = (&self.0.cluster, address.0) else { return Ok(()) };
        let limit = self.0.config.room_code_guesses;
        match cluster.failure_wait("room-guess", &ip.to_string(), limit, ROOM_GUESS_WINDOW).await {
            Ok(Some(wait)) => Err(JoinError::TooManyGuesses(RetryAfter(wait))),
            Ok(None) => Ok(()),
            Err(e) => {
                tracing::warn!(error = %e, "room codes checked against this instance's count alone");
                Ok(())
            }
        }
    }

    /// Resumes a seat with its token.
    pub async fn reconnect(&self, id: u64, token: String, conn: Conn) -> Result<(TableLink, PlayerId), JoinError> {
        let Some(handle) = self.table(id) else {
            return self.reconnect_remote(id, token, conn).await;
        };
        let (reply, answer) = oneshot::channel();
        if !handle.send(Command::Reconnect(Box::new(actor::ReconnectRequest { token, conn, reply }))) {
            return Err(JoinError::Seat(SeatError::Closed));
        }
        let seat = answer.await.map_err(|_| JoinError::Seat(SeatError::Closed))?.map_err(JoinError::Seat)?;
        Ok((TableLink::Local(handle), seat))
    }

    /// Adds a spectator.
    pub async fn watch(&self, id: u64, conn: Conn) -> Option<TableLink> {
        let Some(handle) = self.table(id) else {
            return self.watch_remote(id, conn).await;
        };
        handle.send(Command::Watch { conn }).then_some(TableLink::Local(handle))
    }

    /// Asks a table to seat a player; a refusal hands the connection
    /// back so matchmaking can try the next table.
    pub(super) async fn seat(
        &self,
        handle: &TableHandle,
        who: Arrival,
        conn: Conn,
        quick: bool,
    ) -> Result<PlayerId, (JoinError, Option<Conn>)> {
        let (reply, answer) = oneshot::channel();
        let token = self.new_token();
        if let Err(refused) =
            handle.commands.try_send(Command::Join(Box::new(actor::JoinRequest { who, token, conn, quick, reply })))
        {
            let (mpsc::error::TrySendError::Full(command) | mpsc::error::TrySendError::Closed(command)) = refused;
            let conn = match command {
                Command::Join(request) => Some(request.conn),
                _ => None,
            };
            return Err((JoinError::NoSuchTable, conn));
        }
        match answer.await {
            Ok(Ok(seat)) => Ok(seat),
            Ok(Err((SeatError::Full, conn))) => Err((JoinError::Full, Some(conn))),
            Ok(Err((e, conn))) => Err((JoinError::Seat(e), Some(conn))),
            Err(_) => Err((JoinError::NoSuchTable, None)),
        }
    }

    /// Lists a table in its pool again (after `keep_slot`).
    pub(crate) fn relist(&self, id: u64, options: TableOptions) {
        let hub = self.clone();
        tokio::spawn(async move {
            match &hub.0.cluster {
                Some(cluster) => {
                    if let Err(e) = cluster.push_waiting(&options, id).await {
                        tracing::warn!(table = id, error = %e, "a table waiting again could not be listed");
                    }
                }
                None => hub.0.pools.lock().await.entry(options).or_default().push_back(id),
            }
        });
    }

    pub(super) async fn unlist(&self, id: u64, options: TableOptions) {
        if let Some(cluster) = &self.0.cluster {
            if let Err(e) = cluster.remove_waiting(&options, id).await {
                tracing::warn!(table = id, error = %e, "a table still lists as waiting; matchmaking skips it");
            }
            return;
        }
        if let Some(queue) = self.0.pools.lock().await.get_mut(&options) {
            queue.retain(|&t| t != id);
        }
    }
}

pub(super) fn snapshot_options(s: &SlotSnapshot) -> TableOptions {
    TableOptions { size: s.board_size, series_length: s.series_length, swap: s.swap, time_control: s.time_control }
}
