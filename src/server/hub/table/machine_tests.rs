//! The table as a state machine under random actions: whatever players do,
//! in whatever order, the judge finds every invariant kept, and a refused
//! action changes nothing anyone can see.

use proptest::prelude::*;

use super::replay::{Action, Replay};
use super::*;
use crate::online::TimeControl;

/// One thing a player (or time) does, before it is made concrete: a
/// returning player's token is right or wrong, and time moves on by some
/// amount.
#[derive(Clone, Debug)]
enum Move {
    Join,
    Play { seat: PlayerId, q: i64, r: i64 },
    Swap(PlayerId),
    Resign(PlayerId),
    Chat(PlayerId),
    Drop(PlayerId),
    Return { seat: PlayerId, good_token: bool },
    KeepSlot(PlayerId),
    Wait(u64),
    Expire,
}

fn seat() -> impl Strategy<Value = PlayerId> {
    prop_oneof![Just(PlayerId::Red), Just(PlayerId::Blue)]
}

fn action(size: i64) -> impl Strategy<Value = Move> {
    prop_oneof![
        2 => Just(Move::Join),
        // Mostly on the board, sometimes off it.
        12 => (seat(), -1..=size, -1..=size).prop_map(|(seat, q, r)| Move::Play { seat, q, r }),
        1 => seat().prop_map(Move::Swap),
        1 => seat().prop_map(Move::Resign),
        1 => seat().prop_map(Move::Chat),
        1 => seat().prop_map(Move::Drop),
        2 => (seat(), any::<bool>()).prop_map(|(seat, good_token)| Move::Return { seat, good_token }),
        1 => seat().prop_map(Move::KeepSlot),
        2 => prop_oneof![0u64..2_000, Just(31_000u64), Just(200_000u64)].prop_map(Move::Wait),
        1 => Just(Move::Expire),
    ]
}

fn options() -> impl Strategy<Value = TableOptions> {
    let clock = prop_oneof![
        Just(None),
        Just(Some(TimeControl { base_ms: 5_000, increment_ms: 500 })),
        Just(Some(TimeControl { base_ms: 60_000, increment_ms: 0 })),
    ];
    (3u8..=5, prop_oneof![Just(1u8), Just(3)], any::<bool>(), clock)
        .prop_map(|(size, series_length, swap, time_control)| TableOptions { size, series_length, swap, time_control })
}

/// The table plus what the players outside it know (each seat's token),
/// and the replay of everything done to it.
struct Run {
    table: Table,
    tokens: ByColor<Option<String>>,
    issued: u32,
    now: Millis,
    replay: Replay,
}

impl Run {
    fn new(options: TableOptions) -> Run {
        let table = Table::new(1, options, None, 30_000);
        let replay = Replay::of(&table).expect("a fresh table");
        Run { table, tokens: ByColor::default(), issued: 0, now: 0, replay }
    }

    fn token(&mut self) -> String {
        self.issued += 1;
        format!("tok-{}", self.issued)
    }

    /// The move made concrete, as the table's task would record it.
    fn action(&mut self, m: &Move) -> Action {
        match *m {
            Move::Join => Action::Join { token: self.token() },
            Move::Play { seat, q, r } => Action::Play { seat, q, r },
            Move::Swap(seat) => Action::Swap { seat },
            Move::Resign(seat) => Action::Resign { seat },
            Move::Chat(seat) => Action::Chat { seat },
            Move::Drop(seat) => Action::Disconnect { seat },
            Move::Return { seat, good_token } => {
                let token = if good_token { self.tokens[seat].clone().unwrap_or_default() } else { "forged".into() };
                Action::Reconnect { token }
            }
            Move::KeepSlot(seat) => Action::KeepSlot { seat, token: self.token() },
            Move::Wait(ms) => {
                self.now += ms;
                Action::Tick
            }
            Move::Expire => Action::Expire,
        }
    }

    fn step(&mut self, m: &Move) -> Vec<Out> {
        let action = self.action(m);
        self.replay.record(self.now, action.clone());
        let out = self.table.act(&action, self.now);
        // What the players learn, in order: a seat's token from
        // `joined`/`slot_kept`; after `keep_slot` only the keeper's is good.
        for o in &out {
            if let Out::Send(To::Seat(id), ServerMessage::Joined(j) | ServerMessage::SlotKept(j)) = o {
                self.tokens[*id] = Some(j.reconnect_token.clone());
            }
            if let Out::Reseat { .. } = o {
                self.tokens = ByColor::default();
            }
        }
        out
    }
}

/// Whether `out` only tells the actor it was refused.
fn only_refusals(out: &[Out]) -> bool {
    !out.is_empty()
        && out.iter().all(|o| {
            matches!(o, Out::Send(To::Seat(_), ServerMessage::MoveRejected { .. } | ServerMessage::Error { .. }))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn random_play_never_breaks_an_invariant(
        options in options(),
        actions in prop::collection::vec(action(5), 1..160),
    ) {
        let mut run = Run::new(options);
        for (i, action) in actions.iter().enumerate() {
            let before = serde_json::to_string(&run.table.view(run.now)).unwrap_or_default();
            let out = run.step(action);
            if let Err(v) = run.table.judge(run.now) {
                prop_assert!(false, "after action {i} {action:?}: {v}");
            }
            if only_refusals(&out) {
                let after = serde_json::to_string(&run.table.view(run.now)).unwrap_or_default();
                prop_assert_eq!(before, after, "a refused {:?} changed the table", action);
            }
            for o in &out {
                if let Out::Send(To::Everyone | To::Players, message) = o {
                    let text = message.to_json();
                    for token in run.tokens.iter().flatten() {
                        prop_assert!(!text.contains(token.as_str()), "a token went to more than its seat: {}", text);
                    }
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// What the table's task records replays to the same table: a
    /// regression file reproduces exactly what happened.
    #[test]
    fn a_recorded_replay_rebuilds_the_same_table(
        options in options(),
        actions in prop::collection::vec(action(5), 1..120),
    ) {
        let mut run = Run::new(options);
        for action in &actions {
            run.step(action);
        }
        let text = serde_json::to_string(&run.replay).expect("a replay serialises");
        let back: Replay = serde_json::from_str(&text).expect("and reads back");
        let table = back.run().map_err(|b| TestCaseError::fail(format!("{b:?}")))?;
        prop_assert_eq!(
            serde_json::to_string(&table.view(run.now)).unwrap_or_default(),
            serde_json::to_string(&run.table.view(run.now)).unwrap_or_default()
        );
    }
}

/// Every replay kept under `tests/regressions/` (written by the table's
/// task when the judge objected, during a simulation or a test) now runs
/// clean.
#[test]
fn every_recorded_regression_replays_clean() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/regressions exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a readable replay");
        let replay: Replay = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(broken) = replay.run() {
            panic!("{}: step {} broke {}", path.display(), broken.step, broken.violation);
        }
        replayed += 1;
    }
    assert!(replayed > 0, "no replay in {}", dir.display());
}
