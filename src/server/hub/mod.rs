//! The game hub: every live table runs in its own task (see [`actor`]);
//! the hub only finds tables: by id, by room code, and by matchmaking pool.
//! Those lookups take short locks when a player arrives, never per move.

pub mod actor;
pub mod admission;
mod clustered;
pub mod config;
pub mod conn;
mod delivery;
pub mod lifecycle;
pub mod link;
pub mod liveness;
mod lookup;
pub mod overview;
pub mod rate;
pub mod rematch;
pub mod room_code;
mod seating;
mod shared_seating;
pub mod socket;
pub mod table;
pub mod throttle;
pub mod token;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use tokio::sync::mpsc;
use tokio::time::Instant;

use self::actor::Command;
use self::config::HubConfig;
use self::conn::Conn;
use self::table::Table;
use crate::online::TableOptions;
use crate::server::archive::{Archive, FinishedGame};
use crate::server::journal::{Journal, JournalPlace, Restored};

pub use self::link::TableLink;
pub use self::seating::JoinError;
use crate::server::cluster::Cluster;

/// A running table as the hub sees it.
pub struct TableHandle {
    pub id: u64,
    pub room_code: Option<String>,
    commands: mpsc::Sender<Command>,
    /// Set by the table when it changes, cleared by the overview when it
    /// has read the new snapshot: one notification per table per tick.
    pub dirty: AtomicBool,
}

/// Commands a table's queue holds: far more than players at a person's
/// pace (or bots within the per-connection rates) can send between two
/// turns of its task, and a bound on what a stalled table can hoard.
pub const TABLE_QUEUE: usize = 512;

/// Why a command was not queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotQueued {
    /// The table's queue is full: it is behind; try again shortly.
    Busy,
    /// The table's task has ended.
    Closed,
}

impl TableHandle {
    /// Queues a command; `false` once the table has closed or while its
    /// queue is full.
    pub fn send(&self, command: Command) -> bool {
        self.try_send(command).is_ok()
    }

    /// Queues a command, or says why not.
    pub fn try_send(&self, command: Command) -> Result<(), NotQueued> {
        self.commands.try_send(command).map_err(|e| match e {
            mpsc::error::TrySendError::Full(_) => NotQueued::Busy,
            mpsc::error::TrySendError::Closed(_) => NotQueued::Closed,
        })
    }

    /// Queues a command that must not be lost (a connection's end), waiting
    /// for room if the queue is full.
    pub fn send_surely(&self, command: Command) {
        if let Err(mpsc::error::TrySendError::Full(command)) = self.commands.try_send(command) {
            let commands = self.commands.clone();
            tokio::spawn(async move {
                let _ = commands.send(command).await;
            });
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
    /// Who opened each open room (by table id), for the per-address limit.
    room_creators: Mutex<HashMap<u64, std::net::IpAddr>>,
    /// Quick-match tables waiting for an opponent, by who opened them.
    waiting_owners: Mutex<HashMap<u64, std::net::IpAddr>>,
    /// Wrong room codes per client address.
    room_guesses: throttle::Throttle,
    /// Rooms created, names registered and `/api` calls per address per minute.
    quotas: Quotas,
    /// Failed logins per account name and per address.
    logins: crate::server::accounts::LoginThrottle,
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
    metrics: crate::server::metrics::Metrics,
    /// Set once the server is stopping.
    closing: tokio::sync::watch::Sender<bool>,
    /// The other instances, when live play is shared through Redis.
    cluster: Option<Cluster>,
}

/// What one client address may do per minute.
pub struct Quotas {
    pub rooms: throttle::Quota,
    pub registrations: throttle::Quota,
    pub api_calls: throttle::Quota,
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
        let (hub, restored) = Hub::build(config, persistence, first_table, None);
        for saved in restored {
            hub.reopen(saved);
        }
        hub
    }

    pub(super) fn build(
        config: HubConfig,
        persistence: Option<Persistence>,
        first_table: u64,
        cluster: Option<Cluster>,
    ) -> (Hub, Vec<Restored>) {
        let (changes, changed) = mpsc::unbounded_channel();
        let (overview, bases) = overview::Feeds::new();
        let (archive, journal, restored) = match persistence {
            Some(p) => (Some(p.archive), Some(p.journal), p.restored),
            None => (None, None, Vec::new()),
        };
        let first_table = restored.iter().map(|r| r.header.id + 1).max().unwrap_or(1).max(first_table);
        let room_guesses = throttle::Throttle::new(config.room_code_guesses);
        let quotas = Quotas {
            rooms: throttle::Quota::new(config.rooms_per_minute),
            registrations: throttle::Quota::new(config.registrations_per_minute),
            api_calls: throttle::Quota::new(config.api_calls_per_minute),
        };
        let sockets = admission::Admission::new(config.connections_per_address);
        let logins = crate::server::accounts::LoginThrottle::new(
            config.login_failures_per_name,
            config.login_failures_per_address,
        )
        .shared(cluster.clone());
        let hub = Hub(Arc::new(HubInner {
            config,
            epoch: Instant::now(),
            archive,
            journal,
            wall_at_epoch: crate::server::archive::wall_ms(),
            next_table: AtomicU64::new(first_table.max(1)),
            next_conn: AtomicU64::new(cluster.as_ref().map_or(1, Cluster::first_conn_id)),
            tables: RwLock::new(HashMap::new()),
            rooms: Mutex::new(HashMap::new()),
            room_creators: Mutex::new(HashMap::new()),
            waiting_owners: Mutex::new(HashMap::new()),
            room_guesses,
            quotas,
            logins,
            sockets,
            pools: tokio::sync::Mutex::new(HashMap::new()),
            changes,
            overview,
            metrics: Default::default(),
            closing: tokio::sync::watch::Sender::new(false),
            cluster,
        }));
        tokio::spawn(overview::run(hub.clone(), changed, bases));
        (hub, restored)
    }

    /// The cluster this hub is an instance of, if live play is shared.
    pub fn cluster(&self) -> Option<&Cluster> {
        self.0.cluster.as_ref()
    }

    /// Runs a table read back from the journal.
    pub(super) fn reopen(&self, saved: Restored) {
        let table = Table::restore(saved, self.0.config.reconnect.as_millis() as u64, self.now_ms());
        let (tx, rx) = mpsc::channel(TABLE_QUEUE);
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

    /// Tables open now.
    pub fn table_count(&self) -> usize {
        self.0.tables.read().map_or(0, |t| t.len())
    }

    /// Failed logins, per name and per address.
    pub fn logins(&self) -> &crate::server::accounts::LoginThrottle {
        &self.0.logins
    }

    /// The per-minute quotas of client addresses.
    pub fn quotas(&self) -> &Quotas {
        &self.0.quotas
    }

    pub fn feeds(&self) -> &overview::Feeds {
        &self.0.overview
    }

    /// A fresh secret for a seat.
    pub fn new_token(&self) -> String {
        token::new_token()
    }

    /// A table broke an invariant: counted for `/metrics` and logged; in a
    /// debug build (every test) it stops the table's task loudly, unless a
    /// simulation wants to count on.
    /// With `HEXARENA_REGRESSIONS_DIR` set, the table's replay is written
    /// there first, for a test to replay.
    pub(crate) fn judge_violation(&self, table_id: u64, violation: &table::Violation, replay: Option<&table::Replay>) {
        self.0.metrics.judge_violation();
        tracing::error!(table = table_id, %violation, "judge");
        if let (Some(dir), Some(replay)) = (&self.0.config.regressions_dir, replay) {
            let mut replay = replay.clone();
            replay.violation = Some(violation.to_string());
            let path = dir.join(format!("table-{table_id}-{}.json", self.now_ms()));
            let written = serde_json::to_string_pretty(&replay)
                .map_err(std::io::Error::other)
                .and_then(|text| std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text)));
            match written {
                Ok(()) => tracing::error!(path = %path.display(), "replay of the broken table written"),
                Err(e) => tracing::error!(error = %e, "the replay could not be written"),
            }
        }
        if self.0.config.panic_on_violation {
            panic!("table {table_id}: {violation}");
        }
    }

    /// What the server counts, for `/metrics`.
    pub fn metrics(&self) -> &crate::server::metrics::Metrics {
        &self.0.metrics
    }

    /// A connection queue with a new id.
    pub fn new_conn(&self, dialect: crate::online::Dialect, capacity: usize) -> (Conn, mpsc::Receiver<conn::Frame>) {
        Conn::new(self.0.next_conn.fetch_add(1, Ordering::Relaxed), dialect, capacity)
    }

    pub(crate) fn mark_changed(&self, id: u64) {
        let _ = self.0.changes.send(id);
    }

    /// Removes a closed table from every index.
    pub(crate) fn forget(&self, id: u64, room_code: Option<&str>, options: TableOptions) {
        // A table stopped by a shutdown lives on in the journal: its owner
        // record, room code and listing stay for the instance that takes it over.
        if let Some(cluster) = self.0.cluster.clone().filter(|_| !self.is_closing()) {
            let room = room_code.map(str::to_string);
            tokio::spawn(async move {
                if let Err(e) = cluster.forget_table(id, room.as_deref(), options).await {
                    tracing::warn!(table = id, error = %e, "a closed table's traces stay in Redis until they expire");
                }
            });
        }
        if let Ok(mut tables) = self.0.tables.write() {
            tables.remove(&id);
        }
        if let (Some(code), Ok(mut rooms)) = (room_code, self.0.rooms.lock()) {
            rooms.remove(code);
        }
        if let Ok(mut creators) = self.0.room_creators.lock() {
            creators.remove(&id);
        }
        self.stop_waiting(id);
        self.mark_changed(id);
    }
}
