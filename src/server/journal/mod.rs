//! The journal of tables in play. Each table writes its header (options,
//! seats with their tokens, series score) when seats or games change, and
//! every move, and waits for the write before telling anyone, so a crash
//! never loses a move someone has seen. After a restart the hub reads it
//! back and reopens every table, its players away: they come back with
//! their tokens and the game goes on, clocks included.
//!
//! Two places can keep it: an append-only file beside the SQLite database
//! (the default there: a write is one system call, which is what being
//! killed needs), or the database itself (the default on PostgreSQL, where
//! the server's disk may not outlive the process).

mod database;
mod file;
mod live_set;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use crate::engine::{ByColor, Move};
use crate::online::TableOptions;
use crate::online::account::AccountKind;
use crate::online::view::GameResult;
use crate::server::archive::FinishedGame;

pub use database::load_table;
pub use file::{FileJournalError, load as load_file};
pub use live_set::LiveSet;

/// A seat as the journal keeps it: its token only hashed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedSeat {
    pub name: Option<String>,
    pub model: Option<String>,
    #[serde(default)]
    pub player_id: Option<String>,
    /// What kind of account `player_id` is (people's, in journals from
    /// before bot accounts).
    #[serde(default)]
    pub account_kind: AccountKind,
    /// The SHA-256 of the seat's reconnect token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
    /// The token itself, as journals written before hashing kept it; read
    /// (and hashed) so that games in play survive the upgrade, never written.
    #[serde(default, skip_serializing)]
    pub token: Option<String>,
}

impl SavedSeat {
    /// The hash of the seat's token, whichever way it was kept.
    pub fn token_hash(&self) -> String {
        match (&self.token_hash, &self.token) {
            (Some(hash), _) => hash.clone(),
            (None, Some(token)) => crate::server::hub::token::token_hash(token),
            (None, None) => String::new(),
        }
    }
}

/// A table's state between moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveHeader {
    pub id: u64,
    pub options: TableOptions,
    pub room_code: Option<String>,
    pub seats: ByColor<Option<SavedSeat>>,
    pub game_number: u32,
    pub score: ByColor<u32>,
    pub finished: Vec<GameResult>,
}

/// One move of the game in play.
#[derive(Clone, Debug, PartialEq)]
pub struct LiveMove {
    pub table_id: u64,
    pub game_number: u32,
    pub ply: u32,
    pub mv: Move,
    pub at_ms: u64,
    pub clock_ms: Option<u64>,
}

/// What a table asks the journal to keep.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    Header(Box<LiveHeader>),
    Move(LiveMove),
    /// The series is over: forget the table.
    Closed(u64),
    /// A finished game the archive has not committed yet.
    Finished(Box<FinishedGame>),
    /// The archive has committed this game: the journal may forget it.
    Archived(GameKey),
}

/// A game of a series: its series (table) id and its number in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameKey {
    pub series_id: u64,
    pub number: u32,
}

impl GameKey {
    pub fn of(game: &FinishedGame) -> GameKey {
        GameKey { series_id: game.series_id, number: game.number }
    }
}

/// What the journal held at start-up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// Tables in play.
    pub tables: Vec<Restored>,
    /// Finished games the archive had not committed.
    pub finished: Vec<FinishedGame>,
}

/// A table read back after a restart.
#[derive(Clone, Debug, PartialEq)]
pub struct Restored {
    pub header: LiveHeader,
    /// The current game's moves with the time and the mover's clock after each.
    pub moves: Vec<LiveMove>,
}

/// Where the journal is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalPlace {
    /// The `live_tables` and `live_moves` tables of the database.
    Database,
    /// An append-only file.
    File(PathBuf),
}

impl JournalPlace {
    /// The place for a database at `database_url` unless `setting`
    /// (`HEXARENA_JOURNAL`: `database` or a file path) says otherwise: a
    /// file beside a SQLite database file, else the database.
    pub fn choose(setting: Option<&str>, database_url: &str) -> JournalPlace {
        match setting.map(str::trim).filter(|s| !s.is_empty()) {
            Some("database") => JournalPlace::Database,
            Some(path) => JournalPlace::File(PathBuf::from(path)),
            None => match sqlite_file(database_url) {
                Some(db) => JournalPlace::File(PathBuf::from(format!("{db}-live"))),
                None => JournalPlace::Database,
            },
        }
    }
}

/// The file of a `sqlite://` URL, if it names one (not `:memory:`).
fn sqlite_file(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:"))?;
    let path = rest.split('?').next().unwrap_or_default();
    (!path.is_empty() && !path.contains(":memory:")).then_some(path)
}

struct Batch {
    entries: Vec<Entry>,
    done: oneshot::Sender<Result<(), JournalFailure>>,
}

/// A journal write that did not happen: what was to be kept is not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournalFailure(pub String);

impl std::fmt::Display for JournalFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the journal of games in play could not be written: {}", self.0)
    }
}

impl std::error::Error for JournalFailure {}

/// Whether the journal's last write succeeded, shared by its writer and
/// `/health`.
#[derive(Clone, Debug, Default)]
pub struct JournalHealth(Arc<AtomicBool>);

impl JournalHealth {
    fn healthy() -> JournalHealth {
        JournalHealth(Arc::new(AtomicBool::new(true)))
    }

    /// Records how a write went; a failure is logged once, and so is the recovery.
    fn record(&self, outcome: &Result<(), JournalFailure>) {
        let was = self.0.swap(outcome.is_ok(), Ordering::AcqRel);
        match outcome {
            Err(e) if was => {
                tracing::error!(error = %e, "journal failing; tables that write to it stop until it works")
            }
            Ok(()) if !was => tracing::info!("the journal of games in play is written again"),
            _ => {}
        }
    }

    pub fn is_ok(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The journal's handle: cheap to clone, shared by every table.
#[derive(Clone)]
pub struct Journal {
    writes: mpsc::UnboundedSender<Batch>,
    health: JournalHealth,
}

impl Journal {
    /// Opens the journal at `place`, returning the handle and what it
    /// held (needs a Tokio runtime).
    pub async fn open(place: &JournalPlace, pool: &sqlx::AnyPool) -> Result<(Journal, Loaded), String> {
        let (writes, queue) = mpsc::unbounded_channel::<Batch>();
        let health = JournalHealth::healthy();
        let loaded = match place {
            JournalPlace::Database => {
                let loaded = database::load(pool).await?;
                database::start(pool.clone(), queue, health.clone());
                loaded
            }
            JournalPlace::File(path) => file::start(path, queue, health.clone()).map_err(|e| e.to_string())?,
        };
        Ok((Journal { writes, health }, loaded))
    }

    /// Writes `entries`; resolves once they are kept, or with the reason
    /// they are not.
    pub async fn write(&self, entries: Vec<Entry>) -> Result<(), JournalFailure> {
        let (done, written) = oneshot::channel();
        let gone = || JournalFailure("its writer has stopped".into());
        self.writes.send(Batch { entries, done }).map_err(|_| gone())?;
        written.await.map_err(|_| gone())?
    }

    /// Whether the last write succeeded.
    pub fn health(&self) -> &JournalHealth {
        &self.health
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_files_get_a_journal_file_beside_them() {
        assert_eq!(
            JournalPlace::choose(None, "sqlite://hexarena.db?mode=rwc"),
            JournalPlace::File("hexarena.db-live".into())
        );
        assert_eq!(JournalPlace::choose(None, "sqlite:/tmp/x.db"), JournalPlace::File("/tmp/x.db-live".into()));
        assert_eq!(JournalPlace::choose(None, "sqlite::memory:"), JournalPlace::Database);
        assert_eq!(JournalPlace::choose(None, "postgres://localhost/test"), JournalPlace::Database);
        assert_eq!(JournalPlace::choose(Some("database"), "sqlite://a.db"), JournalPlace::Database);
        assert_eq!(JournalPlace::choose(Some("/var/j"), "postgres://h/db"), JournalPlace::File("/var/j".into()));
        assert_eq!(JournalPlace::choose(Some("  "), "postgres://h/db"), JournalPlace::Database);
    }
}
