//! The game hub: every live table runs in its own task (see [`actor`]);
//! the hub only finds tables: by id, by room code, and by matchmaking pool.
//! Those lookups take short locks when a player arrives, never per move.

pub mod actor;
pub mod admission;
pub mod config;
pub mod conn;
pub mod liveness;
pub mod overview;
pub mod room_code;
mod seating;
pub mod socket;
pub mod table;
pub mod throttle;
pub mod token;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use self::actor::Command;
use self::config::HubConfig;
use self::conn::Conn;
use self::table::Table;
use crate::online::{SlotSnapshot, TableOptions, TableView};
use crate::server::archive::{Archive, FinishedGame};
use crate::server::journal::{Journal, JournalPlace, Restored};

pub use self::seating::JoinError;

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

struct HubInner {
    config: HubConfig,
    epoch: Instant,
    next_table: AtomicU64,
    next_conn: AtomicU64,
    tables: RwLock<HashMap<u64, Arc<TableHandle>>>,
    rooms: Mutex<HashMap<String, u64>>,
    /// Who opened each open room (by table id), for the per-address limit.
    room_creators: Mutex<HashMap<u64, std::net::IpAddr>>,
    /// Wrong room codes per client address.
    room_guesses: throttle::Throttle,
    /// Open sockets per client address.
    sockets: Arc<admission::Admission>,
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
    /// Finished games the journal held that were archived at start-up.
    pub archived_at_start: usize,
}

impl Persistence {
    /// Opens the journal at `place` and the archive on `pool`, archives
    /// the finished games the journal still held (a crash came before the
    /// archive had them), and reads back the tables in play.
    pub async fn open(pool: sqlx::AnyPool, place: &JournalPlace) -> Result<Persistence, String> {
        let (journal, loaded) = Journal::open(place, &pool).await?;
        let archive = Archive::start(pool, Some(journal.clone()));
        let archived_at_start = archive.commit_now(Some(&journal), &loaded.finished).await;
        Ok(Persistence { archive, journal, restored: loaded.tables, archived_at_start })
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
        let room_guesses = throttle::Throttle::new(config.room_code_guesses);
        let sockets = admission::Admission::new(config.connections_per_address);
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
            room_creators: Mutex::new(HashMap::new()),
            room_guesses,
            sockets,
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

    /// A place for one more socket from `address`, or why not.
    pub fn admit_socket(
        &self,
        address: crate::server::client_address::ClientAddress,
    ) -> Result<admission::Permit, admission::TooMany> {
        self.0.sockets.admit(address.0)
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

    /// Removes a closed table from every index.
    pub(crate) fn forget(&self, id: u64, room_code: Option<&str>) {
        if let Ok(mut tables) = self.0.tables.write() {
            tables.remove(&id);
        }
        if let (Some(code), Ok(mut rooms)) = (room_code, self.0.rooms.lock()) {
            rooms.remove(code);
        }
        if let Ok(mut creators) = self.0.room_creators.lock() {
            creators.remove(&id);
        }
        self.mark_changed(id);
    }
}
