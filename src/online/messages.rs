//! The messages of live play, shared by the server, the WebAssembly client
//! and bots. Every message is `{"type": …, "payload": {…}}`, as in hexgame
//! protocol v1; the variants marked *extension* are sent only to clients of
//! our own browser protocol (`/ws/play`, `/ws/watch`), never to v1 bots.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error_code::{ErrorCode, Refusal};
use super::game_end::GameEnd;
use super::player::PlayerId;
use super::view::{SlotSnapshot, TableView};

/// What the server says to a client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload", rename_all = "snake_case")]
pub enum ServerMessage {
    Joined(Joined),
    Reconnected(Reconnected),
    WaitingForOpponent {
        slot_id: u64,
        board_size: u8,
    },
    GameStart(GameStart),
    Move(MovePlayed),
    /// hexgame's `reason` text, and our code for programs.
    MoveRejected {
        reason: String,
        code: ErrorCode,
    },
    GameOver {
        winner: PlayerId,
        reason: GameEnd,
    },
    SeriesUpdate(SeriesScore),
    SeriesOver(SeriesOver),
    OpponentDisconnected {
        message: String,
        reason: DisconnectReason,
        reconnect_timeout_seconds: u64,
    },
    OpponentReconnected {
        player: PlayerId,
    },
    SlotKept(Joined),
    OpponentLeftSlot {
        message: String,
    },
    Chat(ChatLine),
    Hello {
        protocol_version: u32,
    },
    Pong {},
    /// hexgame's `message` text, and our code for programs.
    Error {
        message: String,
        code: ErrorCode,
    },
    /// Extension: the whole table as a browser draws it, after every change.
    State(Box<TableView>),
    /// Extension: how agreeing on a rematch goes.
    Rematch(RematchNews),
}

/// A step of a rematch, told to both players of a decided series.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RematchNews {
    /// `by` offers a rematch: the same settings, colours swapped.
    Offered { by: PlayerId },
    /// `by` declined it.
    Declined { by: PlayerId },
    /// Agreed: the new table, and this player's reconnect token there
    /// (told to each player alone).
    Ready { game: u64, player: PlayerId, token: String },
    /// It could not be opened (the server is full); the text says why.
    Failed { message: String },
}

/// Why `opponent_disconnected` was sent: the game waits for the player,
/// or the wait is over (and the series forfeited).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DisconnectReason {
    WaitingForReconnect,
    ReconnectTimeout,
}

/// `joined` (and `slot_kept`): the seat and its secret reconnect token.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Joined {
    pub slot_id: u64,
    pub player: PlayerId,
    pub color: String,
    pub board_size: u8,
    pub series_length: u8,
    pub reconnect_token: String,
    pub protocol_version: u32,
}

/// `reconnected`: the seat and the public snapshot of its slot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reconnected {
    pub slot_id: u64,
    pub player: PlayerId,
    pub color: String,
    pub board_size: u8,
    pub series_length: u8,
    pub protocol_version: u32,
    pub slot: Box<SlotSnapshot>,
}

/// `game_start`, sent at the start of every game of a series.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStart {
    pub slot_id: u64,
    pub board_size: u8,
    pub series_length: u8,
    pub players: [PlayerId; 2],
    pub first_turn: PlayerId,
    pub current_game_number: u32,
    pub player_1_wins: u32,
    pub player_2_wins: u32,
    pub wins_required: u32,
    pub player_models: BTreeMap<String, String>,
    pub player_usernames: BTreeMap<String, String>,
}

/// `move`: a stone placed; `next_turn` is null once the game is won.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovePlayed {
    pub player: PlayerId,
    pub q: u8,
    pub r: u8,
    pub next_turn: Option<PlayerId>,
}

/// `series_update`, after each finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesScore {
    pub player_1_wins: u32,
    pub player_2_wins: u32,
    pub current_game_number: u32,
    pub wins_required: u32,
    pub series_length: u8,
}

/// `series_over`, when a player reaches the wins required.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesOver {
    pub winner: PlayerId,
    pub player_1_wins: u32,
    pub player_2_wins: u32,
    pub wins_required: u32,
    pub series_length: u8,
}

/// A chat line from a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    pub player: PlayerId,
    pub message: String,
}

impl ServerMessage {
    /// The message as the JSON text sent on the wire.
    pub fn to_json(&self) -> String {
        // Every field is a plain value or a map with string keys, which
        // serde_json always serialises.
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"type":"error","payload":{"message":"internal"}}"#.into())
    }

    /// An `error` message.
    pub fn error(refusal: impl Into<Refusal>) -> ServerMessage {
        let Refusal { code, message } = refusal.into();
        ServerMessage::Error { message, code }
    }

    /// A `move_rejected` message.
    pub fn rejected(refusal: impl Into<Refusal>) -> ServerMessage {
        let Refusal { code, message } = refusal.into();
        ServerMessage::MoveRejected { reason: message, code }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_hexgame_shape() {
        let m = ServerMessage::Move(MovePlayed { player: PlayerId::Red, q: 3, r: 5, next_turn: Some(PlayerId::Blue) });
        assert_eq!(m.to_json(), r#"{"type":"move","payload":{"player":-1,"q":3,"r":5,"next_turn":1}}"#);
        let end = ServerMessage::Move(MovePlayed { player: PlayerId::Blue, q: 0, r: 0, next_turn: None });
        assert!(end.to_json().ends_with(r#""next_turn":null}}"#));
        assert_eq!(ServerMessage::Pong {}.to_json(), r#"{"type":"pong","payload":{}}"#);
        assert_eq!(
            ServerMessage::WaitingForOpponent { slot_id: 4, board_size: 7 }.to_json(),
            r#"{"type":"waiting_for_opponent","payload":{"slot_id":4,"board_size":7}}"#
        );
        assert_eq!(
            ServerMessage::GameOver { winner: PlayerId::Blue, reason: GameEnd::ConnectedSides }.to_json(),
            r#"{"type":"game_over","payload":{"winner":1,"reason":"connected_sides"}}"#
        );
    }

    #[test]
    fn messages_round_trip() {
        let m = ServerMessage::Chat(ChatLine { player: PlayerId::Blue, message: "gg".into() });
        let back: ServerMessage = serde_json::from_str(&m.to_json()).unwrap();
        assert_eq!(back, m);
    }
}
