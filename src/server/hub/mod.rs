//! The game hub: every live table runs in its own task (see [`actor`]);
//! the hub only finds tables: by id, by room code, and by matchmaking pool.
//! Those lookups take short locks when a player arrives, never per move.

pub mod actor;
pub mod config;
pub mod conn;
pub mod overview;
pub mod room_code;
pub mod socket;
pub mod table;
pub mod token;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use self::actor::Command;
use self::config::HubConfig;
use self::conn::Conn;
use self::table::{Arrival, SeatError, Table};
use crate::online::{ErrorCode, PlayerId, SlotSnapshot, SlotState, TableOptions, TableView};
use crate::server::archive::{Archive, FinishedGame};
use crate::server::journal::{Journal, JournalPlace, Restored};

/// A running table as the hub sees it.
pub struct TableHandle {
    pub id: u64,
    pub room_code: Option<String>,
    commands: mpsc::UnboundedSender<Command>,
    /// Set by the table when it changes, cleared by the overview when it
    /// has read the new snapshot: one notification per table per tick.
    pub dirty: AtomicBool,
}

impl TableHandle {
    /// Sends a command; `false` once the table has closed.
    pub fn send(&self, command: Command) -> bool {
        self.commands.send(command).is_ok()
    }
}

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
            JoinError::Seat(e) => e.code(),
        }
    }
}

struct HubInner {
    config: HubConfig,
    epoch: Instant,
    next_table: AtomicU64,
    next_conn: AtomicU64,
    tables: RwLock<HashMap<u64, Arc<TableHandle>>>,
    rooms: Mutex<HashMap<String, u64>>,
    /// Tables waiting for an opponent, per pool; only matchmaking takes it.
    pools: tokio::sync::Mutex<HashMap<TableOptions, VecDeque<u64>>>,
    changes: mpsc::UnboundedSender<u64>,
    overview: overview::Feeds,
    archive: Option<Archive>,
    journal: Option<Journal>,
    /// Wall-clock milliseconds at `epoch` (see [`Hub::now_ms`]).
    wall_at_epoch: u64,
}

/// Where a hub keeps games: the archive of finished ones, the journal of
/// those in play, and what the journal held at start-up.
pub struct Persistence {
    pub archive: Archive,
    pub journal: Journal,
    pub restored: Vec<Restored>,
}

impl Persistence {
    /// Opens the archive on `pool` and the journal at `place`, and reads
    /// back the tables in play.
    pub async fn open(pool: sqlx::AnyPool, place: &JournalPlace) -> Result<Persistence, String> {
        let (journal, restored) = Journal::open(place, &pool).await?;
        Ok(Persistence { archive: Archive::start(pool), journal, restored })
    }
}

/// The hub; cheap to clone.
#[derive(Clone)]
pub struct Hub(Arc<HubInner>);

impl Hub {
    /// A hub with its overview task running that keeps nothing (needs a
    /// Tokio runtime).
    pub fn start(config: HubConfig) -> Hub {
        Hub::start_with(config, None, 1)
    }

    /// A hub that archives finished games and journals those in play,
    /// reopening the tables the journal held; new tables are numbered from
    /// `first_table` or after any table reopened.
    pub fn start_with(config: HubConfig, persistence: Option<Persistence>, first_table: u64) -> Hub {
        let (changes, changed) = mpsc::unbounded_channel();
        let (overview, bases) = overview::Feeds::new();
        let (archive, journal, restored) = match persistence {
            Some(p) => (Some(p.archive), Some(p.journal), p.restored),
            None => (None, None, Vec::new()),
        };
        let first_table = restored.iter().map(|r| r.header.id + 1).max().unwrap_or(1).max(first_table);
        let hub = Hub(Arc::new(HubInner {
            config,
            epoch: Instant::now(),
            archive,
            journal,
            wall_at_epoch: crate::server::archive::wall_ms(),
            next_table: AtomicU64::new(first_table.max(1)),
            next_conn: AtomicU64::new(1),
            tables: RwLock::new(HashMap::new()),
            rooms: Mutex::new(HashMap::new()),
            pools: tokio::sync::Mutex::new(HashMap::new()),
            changes,
            overview,
        }));
        tokio::spawn(overview::run(hub.clone(), changed, bases));
        for saved in restored {
            hub.reopen(saved);
        }
        hub
    }

    /// Runs a table read back from the journal.
    fn reopen(&self, saved: Restored) {
        let table = Table::restore(saved, self.0.config.reconnect.as_millis() as u64, self.now_ms());
        let (tx, rx) = mpsc::unbounded_channel();
        let handle = Arc::new(TableHandle {
            id: table.id,
            room_code: table.room_code.clone(),
            commands: tx,
            dirty: AtomicBool::new(false),
        });
        if let Ok(mut tables) = self.0.tables.write() {
            tables.insert(table.id, handle.clone());
        }
        if let (Some(code), Ok(mut rooms)) = (&table.room_code, self.0.rooms.lock()) {
            rooms.insert(code.clone(), table.id);
        }
        self.mark_changed(table.id);
        tokio::spawn(actor::run(self.clone(), handle, table, rx));
    }

    /// The journal of tables in play, when kept.
    pub fn journal(&self) -> Option<&Journal> {
        self.0.journal.as_ref()
    }

    pub fn config(&self) -> &HubConfig {
        &self.0.config
    }

    /// Now, in milliseconds since the Unix epoch but read from the
    /// monotonic clock (so it never goes back): the time base of tables,
    /// the archive and the journal alike.
    pub fn now_ms(&self) -> u64 {
        self.0.wall_at_epoch + self.0.epoch.elapsed().as_millis() as u64
    }

    /// The instant a [`Hub::now_ms`] time falls on.
    pub(crate) fn instant_of(&self, ms: u64) -> Instant {
        self.0.epoch + std::time::Duration::from_millis(ms.saturating_sub(self.0.wall_at_epoch))
    }

    /// The archive, when finished games are kept.
    pub fn archive(&self) -> Option<&Archive> {
        self.0.archive.as_ref()
    }

    /// Hands a finished game to the archive.
    pub(crate) fn archive_game(&self, game: FinishedGame) {
        if let Some(archive) = &self.0.archive {
            archive.record(game);
        }
    }

    pub fn feeds(&self) -> &overview::Feeds {
        &self.0.overview
    }

    /// A fresh secret for a seat.
    pub fn new_token(&self) -> String {
        token::new_token()
    }

    /// A connection queue with a new id.
    pub fn new_conn(&self, dialect: crate::online::Dialect, capacity: usize) -> (Conn, mpsc::Receiver<conn::Frame>) {
        Conn::new(self.0.next_conn.fetch_add(1, Ordering::Relaxed), dialect, capacity)
    }

    /// The table with this id.
    pub fn table(&self, id: u64) -> Option<Arc<TableHandle>> {
        self.0.tables.read().ok()?.get(&id).cloned()
    }

    fn all_tables(&self) -> Vec<Arc<TableHandle>> {
        self.0.tables.read().map(|t| t.values().cloned().collect()).unwrap_or_default()
    }

    /// Opens a new table; with `room`, it gets a private code.
    pub fn open_table(&self, options: TableOptions, room: bool) -> Result<Arc<TableHandle>, JoinError> {
        let mut tables = self.0.tables.write().map_err(|_| JoinError::NoSlot)?;
        if tables.len() >= self.0.config.max_tables {
            return Err(JoinError::NoSlot);
        }
        let id = self.0.next_table.fetch_add(1, Ordering::Relaxed);
        let room_code = if room {
            let mut rooms = self.0.rooms.lock().map_err(|_| JoinError::NoSlot)?;
            let code = loop {
                let code = room_code::new_code();
                if !rooms.contains_key(&code) {
                    break code;
                }
            };
            rooms.insert(code.clone(), id);
            Some(code)
        } else {
            None
        };
        let (tx, rx) = mpsc::unbounded_channel();
        let handle =
            Arc::new(TableHandle { id, room_code: room_code.clone(), commands: tx, dirty: AtomicBool::new(false) });
        tables.insert(id, handle.clone());
        drop(tables);
        let table = Table::new(id, options, room_code, self.0.config.reconnect.as_millis() as u64);
        tokio::spawn(actor::run(self.clone(), handle.clone(), table, rx));
        Ok(handle)
    }

    /// Seats a player in the first waiting table of their pool, or opens
    /// one and waits there.
    pub async fn quick_match(
        &self,
        options: TableOptions,
        who: Arrival,
        conn: Conn,
    ) -> Result<(Arc<TableHandle>, PlayerId), JoinError> {
        let mut pools = self.0.pools.lock().await;
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
                    return Ok((handle, seat));
                }
                Err((_, back)) => {
                    queue.pop_front();
                    conn = back;
                }
            }
        }
        let conn = conn.ok_or(JoinError::NoSuchTable)?;
        let handle = self.open_table(options, false)?;
        let seat = self.seat(&handle, who, conn, true).await.map_err(|(e, _)| e)?;
        queue.push_back(handle.id);
        Ok((handle, seat))
    }

    /// Seats a player at table `id` if it waits for an opponent (hexgame's
    /// `/ws/join-slot`).
    pub async fn join_table(
        &self,
        id: u64,
        who: Arrival,
        conn: Conn,
    ) -> Result<(Arc<TableHandle>, PlayerId), JoinError> {
        let handle = self.table(id).ok_or(JoinError::NoSuchTable)?;
        let snapshot = self.snapshot_of(&handle).await.ok_or(JoinError::NoSuchTable)?;
        if snapshot.state != SlotState::Waiting {
            return Err(JoinError::NotWaiting);
        }
        if snapshot.connected_player_count < snapshot.player_count {
            return Err(JoinError::OwnerAway);
        }
        let seat = self.seat(&handle, who, conn, false).await.map_err(|(e, _)| e)?;
        self.unlist(id, snapshot_options(&snapshot)).await;
        Ok((handle, seat))
    }

    /// Seats a player at the table of a private room.
    pub async fn join_room(
        &self,
        code: &str,
        who: Arrival,
        conn: Conn,
    ) -> Result<(Arc<TableHandle>, PlayerId), JoinError> {
        let code = room_code::normalise(code).ok_or(JoinError::NoSuchRoom)?;
        let id = self.0.rooms.lock().ok().and_then(|r| r.get(&code).copied()).ok_or(JoinError::NoSuchRoom)?;
        let handle = self.table(id).ok_or(JoinError::NoSuchRoom)?;
        let seat = self.seat(&handle, who, conn, false).await.map_err(|(e, _)| e)?;
        Ok((handle, seat))
    }

    /// The table of a private room.
    pub fn room(&self, code: &str) -> Option<u64> {
        let code = room_code::normalise(code)?;
        self.0.rooms.lock().ok()?.get(&code).copied()
    }

    /// Resumes a seat with its token.
    pub async fn reconnect(
        &self,
        id: u64,
        token: String,
        conn: Conn,
    ) -> Result<(Arc<TableHandle>, PlayerId), JoinError> {
        let handle = self.table(id).ok_or(JoinError::Seat(SeatError::Closed))?;
        let (reply, answer) = oneshot::channel();
        if !handle.send(Command::Reconnect(Box::new(actor::ReconnectRequest { token, conn, reply }))) {
            return Err(JoinError::Seat(SeatError::Closed));
        }
        let seat = answer.await.map_err(|_| JoinError::Seat(SeatError::Closed))?.map_err(JoinError::Seat)?;
        Ok((handle, seat))
    }

    /// Adds a spectator.
    pub fn watch(&self, id: u64, conn: Conn) -> Option<Arc<TableHandle>> {
        let handle = self.table(id)?;
        handle.send(Command::Watch { conn }).then_some(handle)
    }

    /// Asks a table to seat a player; a refusal hands the connection
    /// back so matchmaking can try the next table.
    async fn seat(
        &self,
        handle: &TableHandle,
        who: Arrival,
        conn: Conn,
        quick: bool,
    ) -> Result<PlayerId, (JoinError, Option<Conn>)> {
        let (reply, answer) = oneshot::channel();
        let token = self.new_token();
        if let Err(refused) =
            handle.commands.send(Command::Join(Box::new(actor::JoinRequest { who, token, conn, quick, reply })))
        {
            let conn = match refused.0 {
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

    /// The public snapshot of one table.
    pub async fn snapshot_of(&self, handle: &TableHandle) -> Option<SlotSnapshot> {
        let (reply, answer) = oneshot::channel();
        if !handle.send(Command::Snapshot { reply }) {
            return None;
        }
        answer.await.ok().flatten()
    }

    /// The browser view of table `id`.
    pub async fn view(&self, id: u64) -> Option<TableView> {
        let handle = self.table(id)?;
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
        out.sort_by_key(|s| s.slot_id);
        out
    }

    pub(crate) fn mark_changed(&self, id: u64) {
        let _ = self.0.changes.send(id);
    }

    /// Lists a table in its pool again (after `keep_slot`).
    pub(crate) fn relist(&self, id: u64, options: TableOptions) {
        let hub = self.clone();
        tokio::spawn(async move {
            hub.0.pools.lock().await.entry(options).or_default().push_back(id);
        });
    }

    async fn unlist(&self, id: u64, options: TableOptions) {
        if let Some(queue) = self.0.pools.lock().await.get_mut(&options) {
            queue.retain(|&t| t != id);
        }
    }

    /// Removes a closed table from every index.
    pub(crate) fn forget(&self, id: u64, room_code: Option<&str>) {
        if let Ok(mut tables) = self.0.tables.write() {
            tables.remove(&id);
        }
        if let (Some(code), Ok(mut rooms)) = (room_code, self.0.rooms.lock()) {
            rooms.remove(code);
        }
        self.mark_changed(id);
    }
}

fn snapshot_options(s: &SlotSnapshot) -> TableOptions {
    TableOptions { size: s.board_size, series_length: s.series_length, swap: s.swap, time_control: s.time_control }
}
