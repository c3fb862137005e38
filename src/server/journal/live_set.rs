//! The tables in play as the journal's entries leave them: what a restart
//! reopens, and what the file journal rewrites when it compacts.

use std::collections::BTreeMap;

use super::{Entry, LiveHeader, LiveMove, Restored};

/// Every table in play with its current game's moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveSet {
    tables: BTreeMap<u64, (LiveHeader, Vec<LiveMove>)>,
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
        self.tables.values().flat_map(|(header, moves)| {
            std::iter::once(Entry::Header(Box::new(header.clone()))).chain(moves.iter().cloned().map(Entry::Move))
        })
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
}
