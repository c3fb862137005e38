//! What a running server counts, and `GET /metrics`, which shows it in
//! Prometheus' text format: live tables and connections, moves and games,
//! refusals by reason, journal and archive latency, queue depth, errors.
//! Counting is a relaxed atomic add, cheap enough for every move.

use std::fmt::Write;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;

use super::hub::Hub;
use crate::online::ErrorCode;

/// The kinds of connection counted apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionKind {
    /// A seated (or seeking) player, either protocol.
    Player,
    Spectator,
    /// `/ws/slots` and `/ws/overview` subscribers.
    Feed,
}

impl ConnectionKind {
    const ALL: [ConnectionKind; 3] = [ConnectionKind::Player, ConnectionKind::Spectator, ConnectionKind::Feed];

    fn label(self) -> &'static str {
        match self {
            ConnectionKind::Player => "player",
            ConnectionKind::Spectator => "spectator",
            ConnectionKind::Feed => "feed",
        }
    }
}

/// Upper bounds (seconds) of the latency histograms' buckets.
const BUCKETS: [f64; 9] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 2.5];

/// A latency histogram.
#[derive(Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        if let Some(i) = BUCKETS.iter().position(|&b| seconds <= b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros.fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, bucket) in BUCKETS.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {count}");
    }
}

/// The archive's counts: its queue, its commits, its failures.
#[derive(Default)]
pub struct ArchiveStats {
    pub queued: std::sync::atomic::AtomicUsize,
    pub commit: Histogram,
    pub failures: AtomicU64,
}

/// The hub's counters.
pub struct Metrics {
    connections: [AtomicI64; 3],
    moves: AtomicU64,
    games_started: AtomicU64,
    games_finished: AtomicU64,
    refusals: [AtomicU64; ErrorCode::ALL.len()],
    pub journal_write: Histogram,
    journal_failures: AtomicU64,
    judge_violations: AtomicU64,
}

/// One open connection, counted while it lives.
pub struct Counted<'a> {
    metrics: &'a Metrics,
    kind: ConnectionKind,
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        self.metrics.connections[self.kind as usize].fetch_sub(1, Ordering::Relaxed);
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            connections: Default::default(),
            moves: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            refusals: std::array::from_fn(|_| AtomicU64::new(0)),
            journal_write: Histogram::default(),
            journal_failures: AtomicU64::new(0),
            judge_violations: AtomicU64::new(0),
        }
    }
}

impl Metrics {
    /// Counts a connection of `kind` until the returned guard drops.
    pub fn connection(&self, kind: ConnectionKind) -> Counted<'_> {
        self.connections[kind as usize].fetch_add(1, Ordering::Relaxed);
        Counted { metrics: self, kind }
    }

    pub fn connections(&self, kind: ConnectionKind) -> i64 {
        self.connections[kind as usize].load(Ordering::Relaxed)
    }

    pub fn moved(&self) {
        self.moves.fetch_add(1, Ordering::Relaxed);
    }

    pub fn game_started(&self) {
        self.games_started.fetch_add(1, Ordering::Relaxed);
    }

    pub fn game_finished(&self) {
        self.games_finished.fetch_add(1, Ordering::Relaxed);
    }

    pub fn refused(&self, code: ErrorCode) {
        self.refusals[code as usize].fetch_add(1, Ordering::Relaxed);
    }

    pub fn refusals(&self, code: ErrorCode) -> u64 {
        self.refusals[code as usize].load(Ordering::Relaxed)
    }

    pub fn journal_failed(&self) {
        self.journal_failures.fetch_add(1, Ordering::Relaxed);
    }

    pub fn judge_violation(&self) {
        self.judge_violations.fetch_add(1, Ordering::Relaxed);
    }

    pub fn judge_violations(&self) -> u64 {
        self.judge_violations.load(Ordering::Relaxed)
    }

    /// The text exposition, with the gauges read from the hub and the
    /// archive's own counts now.
    pub fn render(&self, tables: usize, archive: &ArchiveStats) -> String {
        let mut out = String::with_capacity(4096);
        let gauge = |out: &mut String, name: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        };
        let counter = |out: &mut String, name: &str, help: &str, value: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        };
        gauge(&mut out, "hexarena_tables", "Live tables (waiting, playing or lingering).", tables.to_string());
        let _ = writeln!(
            out,
            "# HELP hexarena_connections Open WebSocket connections by kind.\n# TYPE hexarena_connections gauge"
        );
        for kind in ConnectionKind::ALL {
            let _ = writeln!(out, "hexarena_connections{{kind=\"{}\"}} {}", kind.label(), self.connections(kind));
        }
        let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
        counter(&mut out, "hexarena_moves_total", "Moves played and kept.", load(&self.moves));
        counter(&mut out, "hexarena_games_started_total", "Games started.", load(&self.games_started));
        counter(&mut out, "hexarena_games_finished_total", "Games finished.", load(&self.games_finished));
        let _ = writeln!(
            out,
            "# HELP hexarena_refusals_total Requests, frames and moves refused, by reason.\n\
             # TYPE hexarena_refusals_total counter"
        );
        for code in ErrorCode::ALL {
            let _ = writeln!(out, "hexarena_refusals_total{{reason=\"{}\"}} {}", code.name(), self.refusals(code));
        }
        self.journal_write.render(&mut out, "hexarena_journal_write_seconds", "Time to keep a run of journal entries.");
        archive.commit.render(&mut out, "hexarena_archive_commit_seconds", "Time to commit a batch of games.");
        let queue = archive.queued.load(Ordering::Relaxed).to_string();
        gauge(&mut out, "hexarena_archive_queue", "Finished games waiting for the archive.", queue);
        counter(
            &mut out,
            "hexarena_journal_failures_total",
            "Journal writes that failed.",
            load(&self.journal_failures),
        );
        counter(
            &mut out,
            "hexarena_archive_failures_total",
            "Games the archive could not commit (kept in the journal).",
            load(&archive.failures),
        );
        counter(
            &mut out,
            "hexarena_judge_violations_total",
            "Table invariants found broken by the judge.",
            load(&self.judge_violations),
        );
        out
    }
}

/// `GET /metrics`.
pub async fn metrics(State(hub): State<Hub>) -> impl IntoResponse {
    let none = ArchiveStats::default();
    let archive = hub.archive().map_or(&none, |a| a.stats());
    let text = hub.metrics().render(hub.table_count(), archive);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exposition_has_every_family_and_counts() {
        let m = Metrics::default();
        let held = m.connection(ConnectionKind::Spectator);
        m.moved();
        m.refused(ErrorCode::NotYourTurn);
        m.journal_write.observe(Duration::from_micros(700));
        let archive = ArchiveStats::default();
        archive.queued.store(1, Ordering::Relaxed);
        let text = m.render(3, &archive);
        assert!(text.contains("hexarena_tables 3\n"), "{text}");
        assert!(text.contains("hexarena_connections{kind=\"spectator\"} 1\n"));
        assert!(text.contains("hexarena_moves_total 1\n"));
        assert!(text.contains("hexarena_refusals_total{reason=\"not_your_turn\"} 1\n"));
        assert!(text.contains("hexarena_journal_write_seconds_bucket{le=\"0.0005\"} 0\n"));
        assert!(text.contains("hexarena_journal_write_seconds_bucket{le=\"0.001\"} 1\n"));
        assert!(text.contains("hexarena_journal_write_seconds_count 1\n"));
        assert!(text.contains("hexarena_archive_queue 1\n"));
        drop(held);
        assert_eq!(m.connections(ConnectionKind::Spectator), 0);
    }
}
