//! What changed in one table's public snapshot since the one a subscriber
//! already has: the fields whose values differ and the cells whose stone
//! changed. `/ws/overview` sends these instead of whole snapshots, so a move
//! costs a few dozen bytes per subscriber whatever the table holds.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::view::SlotSnapshot;

/// The difference between two snapshots of one table. Values are absolute
/// (the new value, never an increment), so applying a patch twice is
/// harmless.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SlotPatch {
    pub slot_id: u64,
    /// Fields of [`SlotSnapshot`] with their new values. `board` appears
    /// here only when the board was replaced rather than played on.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub fields: Map<String, Value>,
    /// Cells whose stone changed, as `[q, r, value]` with the board's values
    /// (0 empty, −1 Red, 1 Blue).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stones: Vec<[i8; 3]>,
}

/// Why a patch could not be applied to the snapshot a client holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatchError {
    /// The patch is for another table.
    OtherTable { patch: u64, snapshot: u64 },
    /// A field's new value does not fit the snapshot (a message from a
    /// different version of the server).
    BadField(String),
    /// Stones for a table whose board the client does not have, or outside it.
    NoSuchCell { q: i8, r: i8 },
}

impl std::fmt::Display for PatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PatchError::OtherTable { patch, snapshot } => {
                write!(f, "a change for table {patch} cannot apply to table {snapshot}")
            }
            PatchError::BadField(e) => write!(f, "a changed field does not fit the table: {e}"),
            PatchError::NoSuchCell { q, r } => write!(f, "a changed stone at ({q}, {r}) is off the board"),
        }
    }
}

impl std::error::Error for PatchError {}

/// Beyond this share of the board changed (a new game), the whole board is
/// sent instead of its cells.
const MOST_CELLS_AS_STONES: usize = 4;

/// A snapshot as patches compare it: its fields as JSON values, without
/// the board, and the board. A server keeps the last one it sent per table
/// so each change costs one conversion.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    pub fields: Map<String, Value>,
    pub board: Option<Vec<Vec<i8>>>,
}

impl Split {
    /// Splits `snapshot` (one JSON conversion, no copy of the board).
    pub fn of(mut snapshot: SlotSnapshot) -> Split {
        let board = snapshot.board.take();
        let fields = match serde_json::to_value(&snapshot) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        };
        Split { fields, board }
    }
}

impl SlotPatch {
    /// The patch that turns `old` into `new` (both of one table), or `None`
    /// when nothing a subscriber sees has changed.
    pub fn between(old: &SlotSnapshot, new: &SlotSnapshot) -> Option<SlotPatch> {
        SlotPatch::between_split(new.slot_id, &Split::of(old.clone()), &Split::of(new.clone()))
    }

    /// [`SlotPatch::between`] for snapshots already split.
    pub fn between_split(slot_id: u64, old: &Split, new: &Split) -> Option<SlotPatch> {
        let fields: Map<String, Value> = new
            .fields
            .iter()
            .filter(|(k, v)| old.fields.get(*k) != Some(v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut patch = SlotPatch { slot_id, fields, stones: Vec::new() };
        match stones_between(old.board.as_deref(), new.board.as_deref()) {
            Some(stones) => patch.stones = stones,
            None => {
                patch.fields.insert("board".into(), serde_json::to_value(&new.board).unwrap_or(Value::Null));
            }
        }
        (!patch.fields.is_empty() || !patch.stones.is_empty()).then_some(patch)
    }

    /// Applies this patch to the snapshot a client holds. On an error the
    /// snapshot is left as it was.
    pub fn apply(&self, snapshot: &mut SlotSnapshot) -> Result<(), PatchError> {
        if self.slot_id != snapshot.slot_id {
            return Err(PatchError::OtherTable { patch: self.slot_id, snapshot: snapshot.slot_id });
        }
        let mut next = snapshot.clone();
        if !self.fields.is_empty() {
            let Ok(Value::Object(mut all)) = serde_json::to_value(&*snapshot) else {
                return Err(PatchError::BadField("the table could not be read".into()));
            };
            for (k, v) in &self.fields {
                all.insert(k.clone(), v.clone());
            }
            next = serde_json::from_value(Value::Object(all)).map_err(|e| PatchError::BadField(e.to_string()))?;
        }
        for &[q, r, value] in &self.stones {
            let cell = next
                .board
                .as_mut()
                .and_then(|b| b.get_mut(usize::try_from(r).ok()?))
                .and_then(|row| row.get_mut(usize::try_from(q).ok()?))
                .ok_or(PatchError::NoSuchCell { q, r })?;
            *cell = value;
        }
        *snapshot = next;
        Ok(())
    }
}

/// The changed cells, or `None` when the board must be sent whole (it
/// appeared, vanished, changed size or mostly changed).
fn stones_between(old: Option<&[Vec<i8>]>, new: Option<&[Vec<i8>]>) -> Option<Vec<[i8; 3]>> {
    let (old, new) = match (old, new) {
        (None, None) => return Some(Vec::new()),
        (Some(o), Some(n)) => (o, n),
        _ => return None,
    };
    if old.len() != new.len() || old.iter().zip(new).any(|(a, b)| a.len() != b.len()) {
        return None;
    }
    let cells: usize = new.iter().map(Vec::len).sum();
    let mut stones = Vec::new();
    for (r, (a, b)) in old.iter().zip(new).enumerate() {
        for (q, (&x, &y)) in a.iter().zip(b).enumerate() {
            if x != y {
                stones.push([i8::try_from(q).ok()?, i8::try_from(r).ok()?, y]);
            }
        }
    }
    (stones.len() * MOST_CELLS_AS_STONES <= cells).then_some(stones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::{PlayerId, SlotState};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn table(id: u64, size: usize) -> SlotSnapshot {
        SlotSnapshot {
            slot_id: id,
            state: SlotState::Full,
            board_size: size as u8,
            series_length: 1,
            player_count: 2,
            connected_player_count: 2,
            players: vec![PlayerId::Red, PlayerId::Blue],
            player_models: BTreeMap::from([("-1".to_string(), "random".to_string())]),
            player_usernames: BTreeMap::new(),
            player_kinds: BTreeMap::new(),
            connected_players: vec![PlayerId::Red, PlayerId::Blue],
            disconnected_players: vec![],
            current_turn: Some(PlayerId::Red),
            winner: None,
            move_count: 0,
            board: Some(vec![vec![0; size]; size]),
            wins_required: 1,
            current_game_number: 1,
            player_1_wins: 0,
            player_2_wins: 0,
            series_winner: None,
            spectators: 0,
            swap: false,
            time_control: None,
            last_move: None,
        }
    }

    #[test]
    fn a_move_is_its_stone_and_the_counters_that_moved() {
        let old = table(7, 11);
        let mut new = old.clone();
        new.board.as_mut().unwrap()[3][4] = -1;
        new.move_count = 1;
        new.current_turn = Some(PlayerId::Blue);
        new.last_move = Some([4, 3]);
        let patch = SlotPatch::between(&old, &new).unwrap();
        assert_eq!(patch.stones, vec![[4, 3, -1]]);
        let keys: Vec<&str> = patch.fields.keys().map(String::as_str).collect();
        assert_eq!(keys, ["current_turn", "last_move", "move_count"]);
        let text = serde_json::to_string(&patch).unwrap();
        assert!(text.len() < 120, "{text}");
        let mut held = old.clone();
        patch.apply(&mut held).unwrap();
        assert_eq!(held, new);
    }

    #[test]
    fn nothing_changed_is_no_patch() {
        assert_eq!(SlotPatch::between(&table(1, 5), &table(1, 5)), None);
    }

    #[test]
    fn a_new_game_or_a_first_board_sends_the_board_whole() {
        let mut old = table(2, 5);
        old.board = Some(vec![vec![1; 5]; 5]);
        let new = table(2, 5);
        let patch = SlotPatch::between(&old, &new).unwrap();
        assert!(patch.stones.is_empty());
        assert_eq!(patch.fields["board"], serde_json::to_value(&new.board).unwrap());
        let mut waiting = table(2, 5);
        waiting.board = None;
        let patch = SlotPatch::between(&waiting, &new).unwrap();
        patch.apply(&mut waiting).unwrap();
        assert_eq!(waiting, new);
    }

    #[test]
    fn a_patch_that_does_not_fit_changes_nothing() {
        let held = table(3, 5);
        let mut copy = held.clone();
        let other = SlotPatch { slot_id: 4, ..SlotPatch::default() };
        assert_eq!(other.apply(&mut copy), Err(PatchError::OtherTable { patch: 4, snapshot: 3 }));
        let off = SlotPatch { slot_id: 3, stones: vec![[0, 0, 1], [9, 0, 1]], ..SlotPatch::default() };
        assert_eq!(off.apply(&mut copy), Err(PatchError::NoSuchCell { q: 9, r: 0 }));
        let mut fields = Map::new();
        fields.insert("move_count".into(), Value::String("many".into()));
        let bad = SlotPatch { slot_id: 3, fields, ..SlotPatch::default() };
        assert!(matches!(bad.apply(&mut copy), Err(PatchError::BadField(_))));
        assert_eq!(copy, held);
    }

    fn arbitrary_table() -> impl Strategy<Value = SlotSnapshot> {
        (
            prop::option::of(prop::collection::vec(prop::collection::vec(-1i8..=1, 4), 4)),
            0u32..60,
            any::<bool>(),
            0u32..3,
            prop::option::of(prop::array::uniform2(0u8..4)),
            0u8..=2,
        )
            .prop_map(|(board, moves, red_to_move, spectators, last_move, connected)| {
                let mut s = table(9, 4);
                s.board = board;
                s.move_count = moves;
                s.current_turn = Some(if red_to_move { PlayerId::Red } else { PlayerId::Blue });
                s.spectators = spectators;
                s.last_move = last_move;
                s.connected_player_count = connected;
                s
            })
    }

    proptest! {
        #[test]
        fn applying_the_patch_between_two_snapshots_gives_the_second(old in arbitrary_table(), new in arbitrary_table()) {
            let mut held = old.clone();
            if let Some(patch) = SlotPatch::between(&old, &new) {
                let text = serde_json::to_string(&patch).unwrap();
                let sent: SlotPatch = serde_json::from_str(&text).unwrap();
                sent.apply(&mut held).unwrap();
            }
            prop_assert_eq!(held, new);
        }
    }
}
