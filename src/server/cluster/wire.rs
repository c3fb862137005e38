//! What instances of a cluster say to each other over Redis: a question to
//! a table's owner and its answer, a seated player's frame on its way to
//! the owner, and the frames the owner writes back to a socket held by
//! another instance. JSON, one message per Redis `PUBLISH`.

use serde::{Deserialize, Serialize};

use crate::online::account::AccountKind;
use crate::online::{Dialect, PlayerId, SlotSnapshot, TableView};
use crate::server::hub::table::{Arrival, SeatError};

/// One message on an instance's channel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Envelope {
    /// A question for the owner of `table`; the answer goes to instance
    /// `from`, numbered `ask`. `route` names the asking socket for the
    /// frames that follow.
    Ask { from: u64, ask: u64, table: u64, route: u64, question: Question },
    /// The answer to question `ask`.
    Answer { ask: u64, answer: Answer },
    /// A frame from the player on `route`, for the table's owner to read
    /// (already through the socket's rate limits).
    Seat { table: u64, route: u64, dialect: Dialect, text: String },
    /// The socket on `route` has closed.
    Gone { table: u64, route: u64 },
    /// A frame for the socket on `route`.
    Frame { route: u64, text: String },
    /// The table let go of the socket on `route`: close it.
    Close { route: u64 },
}

/// What a socket's instance asks a table's owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "question", rename_all = "snake_case")]
pub enum Question {
    /// Seat a new player; `quick` refuses a table whose opener is away.
    Join { who: WireArrival, quick: bool, dialect: Dialect },
    /// Resume a seat with its token.
    Reconnect { token: String, dialect: Dialect },
    /// Add a spectator.
    Watch,
    /// The public snapshot.
    Snapshot,
    /// The browser view.
    View,
}

/// The owner's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Answer {
    Seated {
        seat: PlayerId,
    },
    Refused {
        reason: WireSeatError,
    },
    Watching,
    Snapshot {
        snapshot: Option<Box<SlotSnapshot>>,
    },
    View {
        view: Box<TableView>,
    },
    /// The owner has no such table (it closed, or moved).
    NoTable,
}

/// [`Arrival`] as it crosses between instances.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireArrival {
    pub name: Option<String>,
    pub model: Option<String>,
    pub player_id: Option<String>,
    pub account_kind: AccountKind,
}

impl From<Arrival> for WireArrival {
    fn from(a: Arrival) -> WireArrival {
        WireArrival { name: a.name, model: a.model, player_id: a.player_id, account_kind: a.account_kind }
    }
}

impl From<WireArrival> for Arrival {
    fn from(a: WireArrival) -> Arrival {
        Arrival { name: a.name, model: a.model, player_id: a.player_id, account_kind: a.account_kind }
    }
}

/// [`SeatError`] as it crosses between instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireSeatError {
    Full,
    Closed,
    BadToken,
}

impl From<SeatError> for WireSeatError {
    fn from(e: SeatError) -> WireSeatError {
        match e {
            SeatError::Full => WireSeatError::Full,
            SeatError::Closed => WireSeatError::Closed,
            SeatError::BadToken => WireSeatError::BadToken,
        }
    }
}

impl From<WireSeatError> for SeatError {
    fn from(e: WireSeatError) -> SeatError {
        match e {
            WireSeatError::Full => SeatError::Full,
            WireSeatError::Closed => SeatError::Closed,
            WireSeatError::BadToken => SeatError::BadToken,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelopes_read_back_as_written() {
        let who = WireArrival { name: Some("Ada".into()), account_kind: AccountKind::Bot, ..Default::default() };
        let all = [
            Envelope::Ask {
                from: 2,
                ask: 7,
                table: 41,
                route: 9,
                question: Question::Join { who, quick: true, dialect: Dialect::V1 },
            },
            Envelope::Answer { ask: 7, answer: Answer::Seated { seat: PlayerId::Blue } },
            Envelope::Answer { ask: 8, answer: Answer::Refused { reason: WireSeatError::BadToken } },
            Envelope::Seat { table: 41, route: 9, dialect: Dialect::Browser, text: r#"{"type":"move"}"#.into() },
            Envelope::Gone { table: 41, route: 9 },
            Envelope::Frame { route: 9, text: "{}".into() },
            Envelope::Close { route: 9 },
        ];
        for e in all {
            let text = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<Envelope>(&text).unwrap(), e, "{text}");
        }
    }

    #[test]
    fn unreadable_envelopes_are_refused() {
        assert!(serde_json::from_str::<Envelope>(r#"{"kind":"ask"}"#).is_err());
        assert!(serde_json::from_str::<Envelope>("not json").is_err());
    }
}
