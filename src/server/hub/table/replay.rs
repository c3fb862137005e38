//! A table's life as the actions that made it, with their times: what the
//! table's task records while the judge is on, writes out when the judge
//! finds a broken invariant (a regression file under `tests/regressions/`),
//! and what a test replays against a fresh table, step by step, judged
//! after each.

use serde::{Deserialize, Serialize};

use super::{Arrival, Millis, Out, Table, Violation};
use crate::online::{PlayerId, TableOptions};

/// One thing done to a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case")]
pub enum Action {
    /// A player asks for a seat with this token.
    Join {
        token: String,
    },
    Play {
        seat: PlayerId,
        q: i64,
        r: i64,
    },
    Swap {
        seat: PlayerId,
    },
    Resign {
        seat: PlayerId,
    },
    Chat {
        seat: PlayerId,
    },
    /// A seat's connection closed (or was dropped as too slow).
    Disconnect {
        seat: PlayerId,
    },
    /// Someone comes back with a token (right or wrong).
    Reconnect {
        token: String,
    },
    KeepSlot {
        seat: PlayerId,
        token: String,
    },
    /// Time passed (a clock, a reconnect window).
    Tick,
    /// The table waited too long for its players.
    Expire,
}

/// An action and when it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub at: Millis,
    #[serde(flatten)]
    pub action: Action,
}

/// A table from its opening: enough to rebuild every state it went through.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub table_id: u64,
    pub options: TableOptions,
    pub room_code: Option<String>,
    pub reconnect_ms: u64,
    pub steps: Vec<Step>,
    /// What the judge found, when the file was written because of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<String>,
}

/// Where a replay broke an invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The index of the step after which the judge objected.
    pub step: usize,
    pub violation: Violation,
}

impl Replay {
    /// Starts recording `table`, if nobody has sat there yet (a table
    /// reopened from the journal has a past this cannot hold).
    pub fn of(table: &Table) -> Option<Replay> {
        let pristine = PlayerId::BOTH.iter().all(|&p| table.seat(p).is_none()) && table.game().is_none();
        pristine.then(|| Replay {
            table_id: table.id,
            options: table.options,
            room_code: table.room_code.clone(),
            reconnect_ms: table.reconnect_ms,
            steps: Vec::new(),
            violation: None,
        })
    }

    pub fn record(&mut self, at: Millis, action: Action) {
        self.steps.push(Step { at, action });
    }

    /// Plays every step on a fresh table, judging after each.
    pub fn run(&self) -> Result<Table, Broken> {
        let mut table = Table::new(self.table_id, self.options, self.room_code.clone(), self.reconnect_ms);
        for (i, step) in self.steps.iter().enumerate() {
            table.act(&step.action, step.at);
            table.judge(step.at).map_err(|violation| Broken { step: i, violation })?;
        }
        Ok(table)
    }
}

impl Table {
    /// Applies one action as the table's task does.
    pub fn act(&mut self, action: &Action, now: Millis) -> Vec<Out> {
        match action {
            Action::Join { token } => {
                self.join(Arrival::default(), token.clone(), now).map(|(_, o)| o).unwrap_or_default()
            }
            Action::Play { seat, q, r } => self.play(*seat, *q, *r, now),
            Action::Swap { seat } => self.swap(*seat, now),
            Action::Resign { seat } => self.resign(*seat, now),
            Action::Chat { seat } => self.chat(*seat, "gg".into()),
            Action::Disconnect { seat } => self.disconnect(*seat, now),
            Action::Reconnect { token } => self.reconnect(token, now).map(|(_, o)| o).unwrap_or_default(),
            Action::KeepSlot { seat, token } => self.keep_slot(*seat, token.clone()),
            Action::Tick => self.tick(now),
            Action::Expire => self.expire(),
        }
    }
}
