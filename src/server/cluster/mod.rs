//! Several instances sharing live play through Redis (`HEXARENA_REDIS_URL`).
//!
//! Each table has one owner instance whose task applies its moves, as on a
//! single server; sockets stay on the instance that accepted them. What the
//! instances share lives in Redis under one prefix: the instances and their
//! heartbeats, which instance owns each table, room codes, matchmaking
//! pools, the counter that numbers tables, and each listed table's public
//! snapshot. A socket held by one instance talks to a table on another
//! through that instance's inbox channel (see [`wire`]). The games
//! themselves are journalled in PostgreSQL as on one server, so when an
//! instance dies another claims its tables and reopens them from the
//! journal ([`takeover`]).

mod directory;
#[cfg(test)]
mod directory_tests;
mod failures;
pub mod keys;
mod owner;
mod remote;
pub mod takeover;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use tokio::sync::oneshot;

pub use self::keys::Keys;
pub use self::remote::RemoteSeat;
use self::wire::{Answer, Envelope};
use crate::online::SlotSnapshot;
use crate::server::hub::conn::Conn;
use crate::server::journal::JournalPlace;

/// How long an instance's heartbeat lasts without renewal: the longest a
/// dead instance's tables wait before another takes them over.
pub const HEARTBEAT_TTL_MS: u64 = 3_000;
/// How often an instance renews its heartbeat and looks for dead ones.
pub const HEARTBEAT_EVERY_MS: u64 = 1_000;
/// Connection ids (and the routes of cross-instance seats) carry their
/// instance's number above this many bits, so they are unique across the
/// cluster and an owner knows where to send a socket's frames.
pub const ROUTE_BITS: u32 = 40;
/// How long a question to another instance may go unanswered.
pub const ASK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Where the shared back end is, from the environment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub url: String,
    pub prefix: String,
}

impl Settings {
    /// `HEXARENA_REDIS_URL` and `HEXARENA_REDIS_PREFIX`; `None` when no URL
    /// is set (one process, nothing shared).
    pub fn from_env() -> Result<Option<Settings>, String> {
        Settings::read(std::env::var("HEXARENA_REDIS_URL").ok(), std::env::var("HEXARENA_REDIS_PREFIX").ok())
    }

    fn read(url: Option<String>, prefix: Option<String>) -> Result<Option<Settings>, String> {
        let Some(url) = url.map(|u| u.trim().to_string()).filter(|u| !u.is_empty()) else {
            return Ok(None);
        };
        if !(url.starts_with("redis://") || url.starts_with("rediss://") || url.starts_with("redis+unix://")) {
            return Err(format!(
                "HEXARENA_REDIS_URL must be a redis:// or rediss:// URL (such as redis://127.0.0.1:6379/0), not '{url}'"
            ));
        }
        let prefix = prefix.map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).unwrap_or("hexarena".into());
        let fits = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':');
        if prefix.len() > 64 || !prefix.chars().all(fits) {
            return Err(format!(
                "HEXARENA_REDIS_PREFIX must be 1 to 64 letters, digits, '-', '_', '.' or ':', not '{prefix}'"
            ));
        }
        Ok(Some(Settings { url, prefix }))
    }

    /// A cluster keeps its archive and journal in one PostgreSQL database
    /// that every instance reaches: a SQLite file or a journal file belongs
    /// to one machine, and a dead instance's games would die with it.
    pub fn check_storage(&self, database_url: &str, journal: &JournalPlace) -> Result<(), String> {
        if !(database_url.starts_with("postgres://") || database_url.starts_with("postgresql://")) {
            return Err("HEXARENA_REDIS_URL runs several instances as one site, and they must share their games: \
                 set DATABASE_URL to a PostgreSQL database (postgres://…) that every instance reaches. A SQLite \
                 file lives on one machine, so another instance could not take over that machine's games."
                .into());
        }
        if let JournalPlace::File(path) = journal {
            return Err(format!(
                "HEXARENA_JOURNAL points at a file ({}), which only this machine can read: with \
                 HEXARENA_REDIS_URL the journal of games in play must be in the database (unset HEXARENA_JOURNAL \
                 or set it to 'database')",
                path.display()
            ));
        }
        Ok(())
    }
}

/// Starts this instance's inbox and its heartbeat, for `hub`.
pub fn start(hub: crate::server::hub::Hub, cluster: Cluster) {
    owner::start(hub.clone(), cluster.clone());
    takeover::start(hub, cluster);
}

/// Why the cluster could not be joined or used.
#[derive(Debug)]
pub struct ClusterError(pub String);

impl std::fmt::Display for ClusterError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the shared Redis back end failed: {}", self.0)
    }
}

impl std::error::Error for ClusterError {}

impl From<redis::RedisError> for ClusterError {
    fn from(e: redis::RedisError) -> ClusterError {
        ClusterError(e.to_string())
    }
}

/// A socket on this instance seated at (or watching) another instance's table.
pub(crate) struct Route {
    pub conn: Conn,
    pub owner: u64,
}

struct Inner {
    client: redis::Client,
    redis: ConnectionManager,
    keys: Keys,
    instance: u64,
    next_ask: AtomicU64,
    asks: Mutex<HashMap<u64, oneshot::Sender<Answer>>>,
    routes: Mutex<HashMap<u64, Route>>,
    /// Other instances' listed tables, as their owners last announced them.
    remote_slots: Mutex<HashMap<u64, SlotSnapshot>>,
}

/// This instance's membership of the cluster; cheap to clone.
#[derive(Clone)]
pub struct Cluster(Arc<Inner>);

impl Cluster {
    /// Connects, takes an instance number and starts the heartbeat.
    pub async fn join(settings: &Settings) -> Result<Cluster, ClusterError> {
        let client = redis::Client::open(settings.url.as_str())?;
        // One plain attempt first: the manager retries with back-off, which
        // would leave a misconfigured instance silent for many seconds.
        drop(client.get_multiplexed_async_connection().await?);
        let mut redis = client.get_connection_manager().await?;
        let keys = Keys::new(&settings.prefix);
        let instance: u64 = redis.incr(keys.instance_counter(), 1).await?;
        let _: () = heartbeat(&keys, instance).query_async(&mut redis).await?;
        let _: () = redis.sadd(keys.instances(), instance).await?;
        Ok(Cluster(Arc::new(Inner {
            client,
            redis,
            keys,
            instance,
            next_ask: AtomicU64::new(1),
            asks: Mutex::new(HashMap::new()),
            routes: Mutex::new(HashMap::new()),
            remote_slots: Mutex::new(HashMap::new()),
        })))
    }

    /// This instance's number in the cluster.
    pub fn instance(&self) -> u64 {
        self.0.instance
    }

    /// The first connection id this instance hands out.
    pub fn first_conn_id(&self) -> u64 {
        (self.0.instance << ROUTE_BITS) + 1
    }

    pub fn keys(&self) -> &Keys {
        &self.0.keys
    }

    fn redis(&self) -> ConnectionManager {
        self.0.redis.clone()
    }

    /// Sends `envelope` to instance `to`'s inbox.
    pub(crate) async fn tell(&self, to: u64, envelope: &Envelope) -> Result<(), ClusterError> {
        let text = serde_json::to_string(envelope).map_err(|e| ClusterError(e.to_string()))?;
        let _: () = self.redis().publish(self.0.keys.inbox(to), text).await?;
        Ok(())
    }

    /// Renews this instance's heartbeat, and its place among the instances
    /// the others watch (an instance slow to start may have been cleared
    /// away as dead while it owned nothing).
    pub async fn beat(&self) -> Result<(), ClusterError> {
        let _: () = redis::pipe()
            .add_command(heartbeat(&self.0.keys, self.0.instance))
            .ignore()
            .sadd(self.0.keys.instances(), self.0.instance)
            .ignore()
            .query_async(&mut self.redis())
            .await?;
        Ok(())
    }

    /// Whether instance `n`'s heartbeat is current.
    pub async fn is_alive(&self, n: u64) -> Result<bool, ClusterError> {
        Ok(self.redis().exists(self.0.keys.alive(n)).await?)
    }

    /// Stops the heartbeat at once (a clean stop), so another instance
    /// takes over what this one leaves without waiting for it to expire.
    pub async fn leave(&self) {
        let _: Result<(), _> = self.redis().del(self.0.keys.alive(self.0.instance)).await;
    }

    /// A listed table of another instance, as its owner last announced it.
    pub fn remote_slot(&self, id: u64) -> Option<SlotSnapshot> {
        self.0.remote_slots.lock().ok()?.get(&id).cloned()
    }

    fn next_ask(&self) -> u64 {
        self.0.next_ask.fetch_add(1, Ordering::Relaxed)
    }
}

/// `SET alive:N 1 PX ttl`.
fn heartbeat(keys: &Keys, instance: u64) -> redis::Cmd {
    let mut cmd = redis::cmd("SET");
    cmd.arg(keys.alive(instance)).arg(1).arg("PX").arg(HEARTBEAT_TTL_MS);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_and_checked() {
        assert_eq!(Settings::read(None, None), Ok(None));
        assert_eq!(Settings::read(Some("  ".into()), Some("x".into())), Ok(None));
        let s = Settings::read(Some("redis://127.0.0.1:6379/0".into()), None).unwrap().unwrap();
        assert_eq!(s.prefix, "hexarena");
        assert!(Settings::read(Some("http://x".into()), None).unwrap_err().contains("redis://"));
        assert!(Settings::read(Some("redis://h".into()), Some("a b".into())).unwrap_err().contains("PREFIX"));
        assert!(Settings::read(Some("redis://h".into()), Some("p".repeat(65))).is_err());
    }

    #[test]
    fn a_cluster_refuses_storage_only_one_machine_sees() {
        let s = Settings { url: "redis://h".into(), prefix: "p".into() };
        let sqlite = s.check_storage("sqlite://hexarena.db?mode=rwc", &JournalPlace::Database).unwrap_err();
        assert!(sqlite.contains("PostgreSQL"), "{sqlite}");
        let file = s.check_storage("postgres://h/db", &JournalPlace::File("/var/j".into())).unwrap_err();
        assert!(file.contains("HEXARENA_JOURNAL"), "{file}");
        assert!(s.check_storage("postgres://h/db", &JournalPlace::Database).is_ok());
    }
}
