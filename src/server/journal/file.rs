//! The journal as an append-only file of JSON lines, one entry each. A
//! writer thread appends whatever has queued up with one `write`: once
//! that returns, the entry is in the kernel and survives the process
//! being killed. The file is rewritten with only the tables in play at
//! start-up and whenever it has grown well past them.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{Batch, Entry, GameKey, JournalFailure, JournalHealth, LiveHeader, LiveMove, LiveSet, Loaded, Restored};
use crate::engine::Move;
use crate::server::archive::FinishedGame;

/// Appended bytes after which the file is rewritten, at the least.
const COMPACT_AFTER: u64 = 16 << 20;

/// Why the journal file cannot be used.
#[derive(Debug)]
pub enum FileJournalError {
    /// Reading, writing or replacing the file failed.
    Io { path: PathBuf, error: io::Error },
    /// A line other than a torn last one is not a journal entry.
    Corrupt { path: PathBuf, line: usize, reason: String },
}

impl fmt::Display for FileJournalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileJournalError::Io { path, error } => {
                write!(f, "the journal of games in play ({}) cannot be used: {error}", path.display())
            }
            FileJournalError::Corrupt { path, line, reason } => write!(
                f,
                "line {line} of the journal of games in play ({}) is not a journal entry ({reason}); \
                 move the file away to start without the games it held",
                path.display()
            ),
        }
    }
}

impl std::error::Error for FileJournalError {}

/// One line as written.
#[derive(Serialize)]
enum Line<'a> {
    #[serde(rename = "h")]
    Header(&'a LiveHeader),
    /// Table, game, ply, move, time, clock.
    #[serde(rename = "m")]
    Move(u64, u32, u32, String, u64, Option<u64>),
    #[serde(rename = "c")]
    Closed(u64),
    #[serde(rename = "f")]
    Finished(&'a FinishedGame),
    #[serde(rename = "a")]
    Archived(GameKey),
}

/// One line as read back.
#[derive(Deserialize)]
enum ReadLine {
    #[serde(rename = "h")]
    Header(Box<LiveHeader>),
    #[serde(rename = "m")]
    Move(u64, u32, u32, String, u64, Option<u64>),
    #[serde(rename = "c")]
    Closed(u64),
    #[serde(rename = "f")]
    Finished(Box<FinishedGame>),
    #[serde(rename = "a")]
    Archived(GameKey),
}

fn encode(entry: &Entry, out: &mut Vec<u8>) {
    let line = match entry {
        Entry::Header(h) => Line::Header(h),
        Entry::Move(m) => Line::Move(m.table_id, m.game_number, m.ply, m.mv.to_string(), m.at_ms, m.clock_ms),
        Entry::Closed(id) => Line::Closed(*id),
        Entry::Finished(game) => Line::Finished(game),
        Entry::Archived(key) => Line::Archived(*key),
    };
    // Plain data with string keys: serialising into memory cannot fail.
    let _ = serde_json::to_writer(&mut *out, &line);
    out.push(b'\n');
}

/// Reads the file at `path` (none yet is an empty journal).
fn read(path: &Path) -> Result<LiveSet, FileJournalError> {
    let io_error = |error| FileJournalError::Io { path: path.to_owned(), error };
    let mut set = LiveSet::default();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(set),
        Err(e) => return Err(io_error(e)),
    };
    let mut reader = BufReader::new(file);
    let mut text = String::new();
    let mut number = 0;
    loop {
        text.clear();
        let read = reader.read_line(&mut text);
        number += 1;
        let complete = match read {
            Ok(0) => break,
            Ok(_) => text.ends_with('\n'),
            // Invalid UTF-8 is as corrupt as any other bad line.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => true,
            Err(e) => return Err(io_error(e)),
        };
        let corrupt = |reason: String| FileJournalError::Corrupt { path: path.to_owned(), line: number, reason };
        let parsed: ReadLine = match serde_json::from_str(text.trim_end()) {
            Ok(line) => line,
            // A write cut short by the kill: that entry was never confirmed.
            Err(_) if !complete => break,
            Err(e) => return Err(corrupt(e.to_string())),
        };
        let entry = match parsed {
            ReadLine::Header(h) => Entry::Header(h),
            ReadLine::Closed(id) => Entry::Closed(id),
            ReadLine::Finished(game) => Entry::Finished(game),
            ReadLine::Archived(key) => Entry::Archived(key),
            ReadLine::Move(table_id, game_number, ply, mv, at_ms, clock_ms) => {
                // A move for a table without a header cannot be replayed.
                let Some(size) = set.board_size(table_id) else { continue };
                let mv = Move::parse(&mv, size).map_err(|e| corrupt(format!("move {mv}: {e}")))?;
                Entry::Move(LiveMove { table_id, game_number, ply, mv, at_ms, clock_ms })
            }
        };
        set.apply(&entry);
    }
    Ok(set)
}

/// The writer thread's state.
struct Writer {
    path: PathBuf,
    file: File,
    set: LiveSet,
    appended: u64,
    compact_after: u64,
    /// The least growth before a rewrite ([`COMPACT_AFTER`] but in tests).
    least: u64,
}

impl Writer {
    /// Rewrites the file with only `set` and opens it for appending.
    fn compacted(path: &Path, set: LiveSet, least: u64) -> Result<Writer, FileJournalError> {
        let io_error = |error| FileJournalError::Io { path: path.to_owned(), error };
        let size = rewrite(path, &set).map_err(io_error)?;
        let file = OpenOptions::new().append(true).open(path).map_err(io_error)?;
        Ok(Writer { path: path.to_owned(), file, set, appended: 0, compact_after: least.max(size * 2), least })
    }

    fn run(mut self, mut queue: mpsc::UnboundedReceiver<Batch>, health: JournalHealth) {
        let mut buffer = Vec::with_capacity(64 << 10);
        while let Some(first) = queue.blocking_recv() {
            // Group write: everything queued meanwhile goes in one call.
            let batches = crate::server::batch::gather(first, &mut queue, 4096);
            buffer.clear();
            for entry in batches.iter().flat_map(|b| &b.entries) {
                self.set.apply(entry);
                encode(entry, &mut buffer);
            }
            let outcome =
                self.file.write_all(&buffer).map_err(|e| JournalFailure(format!("{}: {e}", self.path.display())));
            health.record(&outcome);
            for b in batches {
                let _ = b.done.send(outcome.clone());
            }
            self.appended += buffer.len() as u64;
            if self.appended > self.compact_after {
                match Writer::compacted(&self.path, std::mem::take(&mut self.set), self.least) {
                    Ok(fresh) => self = fresh,
                    Err(e) => {
                        tracing::warn!(error = %e, "journal compaction failed; the journal keeps growing");
                        self.set = read(&self.path).unwrap_or_default();
                        self.compact_after = self.appended * 2;
                    }
                }
            }
        }
    }
}

/// Writes `set` to a new file and puts it in place of `path` in one step,
/// so a kill at any moment leaves the old file or the new one.
fn rewrite(path: &Path, set: &LiveSet) -> io::Result<u64> {
    let mut fresh = path.as_os_str().to_owned();
    fresh.push(".new");
    let fresh = PathBuf::from(fresh);
    let mut buffer = Vec::new();
    for entry in set.entries() {
        encode(&entry, &mut buffer);
    }
    let mut file = File::create(&fresh)?;
    file.write_all(&buffer)?;
    file.sync_data()?;
    std::fs::rename(&fresh, path)?;
    Ok(buffer.len() as u64)
}

/// The tables the journal file at `path` holds, without touching it.
pub fn load(path: &Path) -> Result<Vec<Restored>, FileJournalError> {
    Ok(read(path)?.restored())
}

/// Reads the journal at `path`, compacts it and starts its writer thread on
/// `queue`; returns what it held.
pub fn start(
    path: &Path,
    queue: mpsc::UnboundedReceiver<Batch>,
    health: JournalHealth,
) -> Result<Loaded, FileJournalError> {
    start_compacting_after(path, queue, COMPACT_AFTER, health)
}

fn start_compacting_after(
    path: &Path,
    queue: mpsc::UnboundedReceiver<Batch>,
    least: u64,
    health: JournalHealth,
) -> Result<Loaded, FileJournalError> {
    let set = read(path)?;
    let restored = set.loaded();
    let writer = Writer::compacted(path, set, least)?;
    std::thread::Builder::new()
        .name("hexarena-journal".into())
        .spawn(move || writer.run(queue, health))
        .map_err(|error| FileJournalError::Io { path: path.to_owned(), error })?;
    Ok(restored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ByColor;
    use crate::online::TableOptions;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hexarena-journal-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    fn header(id: u64) -> Entry {
        Entry::Header(Box::new(LiveHeader {
            id,
            options: TableOptions::v1(9, 1).expect("valid options"),
            room_code: Some("ABCDEF".into()),
            seats: ByColor::default(),
            game_number: 1,
            score: ByColor::default(),
            finished: Vec::new(),
        }))
    }

    fn mv(table_id: u64, ply: u32, text: &str) -> Entry {
        Entry::Move(LiveMove {
            table_id,
            game_number: 1,
            ply,
            mv: Move::parse(text, 9).expect("a 9×9 move"),
            at_ms: 5,
            clock_ms: Some(60_000),
        })
    }

    fn write_lines(path: &Path, entries: &[Entry], tail: &[u8]) {
        let mut bytes = Vec::new();
        for e in entries {
            encode(e, &mut bytes);
        }
        bytes.extend_from_slice(tail);
        std::fs::write(path, bytes).expect("write the scratch journal");
    }

    #[test]
    fn reads_back_what_was_written_and_ignores_a_torn_last_line() {
        let path = scratch("torn");
        write_lines(&path, &[header(1), mv(1, 0, "e5"), mv(1, 1, "swap"), header(2)], b"{\"m\":[2,1,0,\"a");
        let set = read(&path).expect("readable");
        let restored = set.restored();
        assert_eq!(restored.len(), 2);
        assert_eq!(
            restored[0].moves.iter().map(|m| (m.mv, m.at_ms, m.clock_ms)).collect::<Vec<_>>(),
            vec![(Move::parse("e5", 9).unwrap(), 5, Some(60_000)), (Move::Swap, 5, Some(60_000))]
        );
        assert!(restored[1].moves.is_empty());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_bad_line_in_the_middle_is_refused_with_its_number() {
        let path = scratch("corrupt");
        let mut bytes = Vec::new();
        encode(&header(1), &mut bytes);
        bytes.extend_from_slice(b"not json\n");
        encode(&mv(1, 0, "a1"), &mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        let error = read(&path).expect_err("corrupt");
        assert!(matches!(error, FileJournalError::Corrupt { line: 2, .. }), "{error}");
        assert!(error.to_string().contains("move the file away"));
        // A move that does not fit the table's board is as bad.
        write_lines(&path, &[header(1)], b"{\"m\":[1,1,0,\"z99\",5,null]}\n");
        assert!(matches!(read(&path), Err(FileJournalError::Corrupt { line: 2, .. })));
        let _ = std::fs::remove_file(&path);
    }

    #[tokio::test]
    async fn the_writer_appends_and_compaction_keeps_only_tables_in_play() {
        let path = scratch("writer");
        let (writes, queue) = mpsc::unbounded_channel();
        assert!(start(&path, queue, JournalHealth::healthy()).expect("a new journal").tables.is_empty());
        let journal = super::super::Journal { writes, health: JournalHealth::healthy() };
        journal.write(vec![header(1), mv(1, 0, "a1")]).await.expect("written");
        journal.write(vec![header(2), mv(2, 0, "b2"), Entry::Closed(1)]).await.expect("written");
        // What was confirmed is in the file, as a restart would read it.
        let set = read(&path).expect("readable");
        assert_eq!(set.restored().iter().map(|r| r.header.id).collect::<Vec<_>>(), [2]);
        // Compaction at start-up leaves only table 2's two lines.
        let (_, queue) = mpsc::unbounded_channel();
        let restored = start(&path, queue, JournalHealth::healthy()).expect("reopened").tables;
        assert_eq!(restored.len(), 1);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
        let _ = std::fs::remove_file(&path);
    }

    #[tokio::test]
    async fn compacting_while_playing_loses_nothing() {
        let path = scratch("compacting");
        let (writes, queue) = mpsc::unbounded_channel();
        // Rewrite after every few hundred bytes: many compactions.
        start_compacting_after(&path, queue, 300, JournalHealth::healthy()).expect("a new journal");
        let journal = super::super::Journal { writes, health: JournalHealth::healthy() };
        let mut expected = LiveSet::default();
        let cells = ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "a2", "b2", "c2"];
        for id in 1..=6u64 {
            let mut entries = vec![header(id)];
            entries.extend(cells.iter().enumerate().map(|(ply, c)| mv(id, ply as u32, c)));
            if id % 3 == 0 {
                entries.push(Entry::Closed(id - 1));
            }
            for e in &entries {
                expected.apply(e);
            }
            journal.write(entries).await.expect("written");
            // After every confirmed write the file holds exactly the tables in play.
            assert_eq!(read(&path).expect("readable"), expected);
        }
        assert_eq!(expected.len(), 4);
        let bytes = std::fs::metadata(&path).unwrap().len();
        assert!(bytes < 4 * 1024, "the file was rewritten as it grew ({bytes} bytes)");
        let _ = std::fs::remove_file(&path);
    }
}
