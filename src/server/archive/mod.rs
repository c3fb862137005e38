//! The archive: finished games, their series, the players and their
//! Glicko-2 ratings, in the database (SQLite or PostgreSQL through sqlx's
//! Any driver). Tables hand finished games to a writer task, so play never
//! waits for the database; each game is written in one transaction with the
//! rating change it causes.

pub mod profile;
pub mod ratings;
pub mod read;
pub mod write;

use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};
use sqlx::AnyPool;
use tokio::sync::Notify;

use crate::server::journal::{Entry, GameKey, Journal};
use crate::server::metrics::ArchiveStats;
use tokio::sync::mpsc;

use crate::engine::{ByColor, Move};
use crate::online::account::{AccountKind, SeatKind};
use crate::online::{GameEnd, PlayerId, TableOptions};

/// Who sat in a seat, as the table knew them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatLabel {
    /// A person's display name, or a bot's username.
    pub name: Option<String>,
    /// A bot's model name (hexgame's `model_name`).
    pub model: Option<String>,
    /// The account's player id, when the seat was an account's.
    pub player_id: Option<String>,
    /// What kind of account that is (people's, in records from before bot
    /// accounts).
    #[serde(default)]
    pub account_kind: AccountKind,
}

impl SeatLabel {
    /// The account this seat was, if any: only accounts are players of
    /// record (rated, listed, with a profile). A guest's typed name and an
    /// unverified bot's declared names stay labels on the series.
    pub fn account(&self) -> Option<&str> {
        self.player_id.as_deref()
    }

    /// How the seat is shown.
    pub fn kind(&self) -> SeatKind {
        SeatKind::of(self.player_id.as_ref().map(|_| self.account_kind), self.model.is_some())
    }
}

/// A game as a table hands it over when it ends; times are milliseconds
/// since the Unix epoch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedGame {
    pub series_id: u64,
    /// The private room's code, when the series was played in one.
    pub room_code: Option<String>,
    pub number: u32,
    pub options: TableOptions,
    pub first: PlayerId,
    pub moves: Vec<Move>,
    pub times: Vec<u64>,
    pub clocks: Vec<Option<u64>>,
    pub seats: ByColor<SeatLabel>,
    pub winner: PlayerId,
    pub reason: GameEnd,
    pub started_ms: u64,
    pub finished_ms: u64,
    /// Series score after this game.
    pub score: ByColor<u32>,
    /// Set when this game decided the series.
    pub series_winner: Option<PlayerId>,
}

/// The archive's handle: the pool for reading, a queue to the writer.
#[derive(Clone)]
pub struct Archive {
    pool: AnyPool,
    writes: mpsc::UnboundedSender<FinishedGame>,
    queued: Arc<Queued>,
}

/// The writer's counts (games handed over and not yet through, commit
/// times, failures), and a wake-up for whoever waits for the queue to empty.
#[derive(Default)]
struct Queued {
    stats: ArchiveStats,
    drained: Notify,
}

impl Archive {
    /// Starts the writer task on `pool` (needs a Tokio runtime). With a
    /// journal, each game the writer commits is then marked archived there.
    pub fn start(pool: AnyPool, journal: Option<Journal>) -> Archive {
        let (writes, mut queue) = mpsc::unbounded_channel::<FinishedGame>();
        let writer = pool.clone();
        let queued = Arc::new(Queued::default());
        let done = queued.clone();
        tokio::spawn(async move {
            while let Some(first) = queue.recv().await {
                // Games that finished meanwhile share one transaction.
                let games = crate::server::batch::gather(first, &mut queue, 256);
                let started = std::time::Instant::now();
                let committed = commit(&writer, journal.as_ref(), &games).await;
                done.stats.commit.observe(started.elapsed());
                done.stats.failures.fetch_add((games.len() - committed) as u64, Ordering::Relaxed);
                if done.stats.queued.fetch_sub(games.len(), Ordering::AcqRel) == games.len() {
                    done.drained.notify_waiters();
                }
            }
        });
        Archive { pool, writes, queued }
    }

    /// Waits until every game queued so far has been through the writer
    /// (committed, or left in the journal for the next start).
    pub async fn drained(&self) {
        loop {
            let woken = self.queued.drained.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            if self.queued.stats.queued.load(Ordering::Acquire) == 0 {
                return;
            }
            woken.await;
        }
    }

    /// The writer's counts, for `/metrics`.
    pub fn stats(&self) -> &ArchiveStats {
        &self.queued.stats
    }

    /// Archives `games` now (the journal's leftovers at start-up), before
    /// the server answers anyone; returns how many were committed.
    pub async fn commit_now(&self, journal: Option<&Journal>, games: &[FinishedGame]) -> usize {
        commit(&self.pool, journal, games).await
    }

    /// Queues a finished game.
    pub fn record(&self, game: FinishedGame) {
        self.queued.stats.queued.fetch_add(1, Ordering::AcqRel);
        if self.writes.send(game).is_err() {
            self.queued.stats.queued.fetch_sub(1, Ordering::AcqRel);
        }
    }

    /// The pool, for reading.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// The highest series number stored, so a restarted hub numbers new
    /// tables after it.
    pub async fn last_series_id(&self) -> Result<u64, sqlx::Error> {
        let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM series").fetch_one(&self.pool).await?;
        Ok(max.unwrap_or(0).max(0) as u64)
    }
}

/// Writes `games` and tells the journal which are now safe; a game that
/// failed stays in the journal, to be archived at the next start.
async fn commit(pool: &AnyPool, journal: Option<&Journal>, games: &[FinishedGame]) -> usize {
    let failed = write::record_all(pool, games).await;
    for (game, e) in &failed {
        tracing::error!(
            series = game.series_id,
            game = game.number,
            error = %e,
            "game not archived; the journal keeps it for the next start"
        );
    }
    let done: Vec<Entry> = games
        .iter()
        .map(GameKey::of)
        .filter(|key| !failed.iter().any(|(g, _)| GameKey::of(g) == *key))
        .map(Entry::Archived)
        .collect();
    let count = done.len();
    if let (Some(journal), false) = (journal, done.is_empty()) {
        // Unmarked, a game stays in the journal and is archived again at the
        // next start, which writes nothing twice: the journal's own failure
        // is reported by its writer and /health.
        let _ = journal.write(done).await;
    }
    count
}

/// Milliseconds since the Unix epoch.
pub fn wall_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_accounts_are_players_of_record() {
        let unverified = SeatLabel { name: Some("Alice".into()), model: Some("MCTS".into()), ..SeatLabel::default() };
        assert_eq!((unverified.account(), unverified.kind()), (None, SeatKind::UnverifiedBot));
        let bot = SeatLabel {
            name: Some("Alice".into()),
            model: Some("MCTS".into()),
            player_id: Some("b_1".into()),
            account_kind: AccountKind::Bot,
        };
        assert_eq!((bot.account(), bot.kind()), (Some("b_1"), SeatKind::Bot));
        let person = SeatLabel { name: Some("Bob".into()), player_id: Some("p_1".into()), ..SeatLabel::default() };
        assert_eq!((person.account(), person.kind()), (Some("p_1"), SeatKind::Person));
        let guest = SeatLabel { name: Some("Typed".into()), ..SeatLabel::default() };
        assert_eq!((guest.account(), guest.kind()), (None, SeatKind::Guest));
        let legacy: SeatLabel = serde_json::from_str(r#"{"name":"Bob","model":null,"player_id":"p_1"}"#).unwrap();
        assert_eq!(legacy.kind(), SeatKind::Person, "records from before bot accounts were people's");
    }
}
