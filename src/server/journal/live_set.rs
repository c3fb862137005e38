//! The tables in play as the journal's entries leave them: what a restart
//! reopens, and what the file journal rewrites when it compacts.

use std::collections::BTreeMap;

use super::{Entry, GameKey, LiveHeader, LiveMove, Loaded, Restored};
use crate::server::archive::FinishedGame;

/// Every table in play with its current game's moves, and every finished
/// game the archive has not committed yet.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveSet {
    tables: BTreeMap<u64, (LiveHeader, Vec<LiveMove>)>,
    finished: BTreeMap<GameKey, FinishedGame>,
}

impl LiveSet {
    /// Applies one entry. A header for a new game drops the moves of the
    /// earlier one (they are in the archive); a move is kept only as the
    /// next ply of the table's current game, so a repeated or stray entry
    /// changes nothing.
    pub fn apply(&mut self, entry: &Entry) {
        match entry {
            Entry::Header(h) => {
                let moves = match self.tables.remove(&h.id) {
                    Some((old, moves)) if old.game_number == h.game_number => moves,
                    _ => Vec::new(),
                };
                self.tables.insert(h.id, ((**h).clone(), moves));
            }
            Entry::Move(m) => {
                if let Some((header, moves)) = self.tables.get_mut(&m.table_id)
                    && header.game_number == m.game_number
                    && moves.len() == m.ply as usize
                {
                    moves.push(m.clone());
                }
            }
            Entry::Closed(id) => {
                self.tables.remove(id);
            }
            Entry::Finished(game) => {
                self.finished.insert(GameKey::of(game), (**game).clone());
            }
            Entry::Archived(key) => {
                self.finished.remove(key);
            }
        }
    }

    /// The board size of table `id`, if it is in play.
    pub fn board_size(&self, id: u64) -> Option<u8> {
        self.tables.get(&id).map(|(h, _)| h.options.size)
    }

    /// How many tables are in play.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether no table is in play.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// The entries that rebuild this set from nothing.
    pub fn entries(&self) -> impl Iterator<Item = Entry> + '_ {
        let tables = self.tables.values().flat_map(|(header, moves)| {
            std::iter::once(Entry::Header(Box::new(header.clone()))).chain(moves.iter().cloned().map(Entry::Move))
        });
        tables.chain(self.finished.values().map(|g| Entry::Finished(Box::new(g.clone()))))
    }

    /// Everything a restart needs: the tables to reopen and the finished
    /// games to archive.
    pub fn loaded(&self) -> Loaded {
        Loaded { tables: self.restored(), finished: self.finished.values().cloned().collect() }
    }

    /// The tables to reopen, by id.
    pub fn restored(&self) -> Vec<Restored> {
        self.tables.values().map(|(header, moves)| Restored { header: header.clone(), moves: moves.clone() }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{ByColor, Move};
    use crate::online::TableOptions;

    fn header(id: u64, game_number: u32) -> Entry {
        Entry::Header(Box::new(LiveHeader {
            id,
            options: TableOptions::v1(7, 3).expect("valid options"),
            room_code: None,
            seats: ByColor::default(),
            game_number,
            score: ByColor { red: game_number - 1, blue: 0 },
            finished: Vec::new(),
        }))
    }

    fn mv(table_id: u64, game_number: u32, ply: u32, text: &str) -> Entry {
        Entry::Move(LiveMove {
            table_id,
            game_number,
            ply,
            mv: Move::parse(text, 7).expect("a 7×7 move"),
            at_ms: 1000 + ply as u64,
            clock_ms: None,
        })
    }

    #[test]
    fn keeps_the_current_game_of_each_open_table() {
        let mut set = LiveSet::default();
        for e in [header(1, 1), mv(1, 1, 0, "a1"), header(2, 1), mv(1, 1, 1, "b2"), mv(2, 1, 0, "c3")] {
            set.apply(&e);
        }
        // Game 2 of table 1 starts: game 1's moves go.
        for e in [header(1, 2), mv(1, 2, 0, "d4"), Entry::Closed(2)] {
            set.apply(&e);
        }
        let restored = set.restored();
        assert_eq!(restored.len(), 1);
        assert_eq!(restored[0].header.game_number, 2);
        assert_eq!(restored[0].moves.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(), ["d4"]);
    }

    #[test]
    fn repeated_stray_and_orphan_moves_change_nothing() {
        let mut set = LiveSet::default();
        set.apply(&header(1, 1));
        set.apply(&mv(1, 1, 0, "a1"));
        let before = set.clone();
        for e in [mv(1, 1, 0, "b1"), mv(1, 1, 5, "c1"), mv(1, 2, 1, "d1"), mv(9, 1, 0, "e1"), Entry::Closed(9)] {
            set.apply(&e);
        }
        assert_eq!(set, before);
    }

    #[test]
    fn its_entries_rebuild_it() {
        let mut set = LiveSet::default();
        for e in [header(3, 1), mv(3, 1, 0, "a1"), mv(3, 1, 1, "a2"), header(4, 2)] {
            set.apply(&e);
        }
        let mut copy = LiveSet::default();
        for e in set.entries() {
            copy.apply(&e);
        }
        assert_eq!(copy, set);
        assert_eq!(copy.len(), 2);
    }

    fn finished(series_id: u64, number: u32) -> FinishedGame {
        FinishedGame {
            series_id,
            room_code: None,
            number,
            options: TableOptions::v1(7, 3).expect("valid options"),
            first: crate::online::PlayerId::Red,
            moves: vec![Move::parse("d4", 7).expect("a move")],
            times: vec![1000],
            clocks: vec![None],
            seats: ByColor::default(),
            winner: crate::online::PlayerId::Red,
            reason: crate::online::GameEnd::Resignation,
            started_ms: 0,
            finished_ms: 2000,
            score: ByColor { red: 1, blue: 0 },
            series_winner: None,
        }
    }

    #[test]
    fn a_finished_game_stays_until_the_archive_has_it_whatever_its_table_does() {
        let mut set = LiveSet::default();
        set.apply(&header(1, 1));
        set.apply(&Entry::Finished(Box::new(finished(1, 1))));
        set.apply(&Entry::Closed(1));
        assert!(set.is_empty(), "the table is gone");
        assert_eq!(set.loaded().finished, [finished(1, 1)], "its finished game is not");
        // Compaction writes it again; only `Archived` lets it go.
        let mut rebuilt = LiveSet::default();
        set.entries().for_each(|e| rebuilt.apply(&e));
        assert_eq!(rebuilt, set);
        set.apply(&Entry::Archived(GameKey { series_id: 1, number: 2 }));
        assert_eq!(set.loaded().finished.len(), 1, "another game's mark changes nothing");
        set.apply(&Entry::Archived(GameKey { series_id: 1, number: 1 }));
        assert!(set.loaded().finished.is_empty());
    }
}
