//! Why the server refused something, as a code that clients match on and a
//! text that people (and hexgame v1 bots, which match the text) read. Every
//! `error` and `move_rejected` frame carries both.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong, for a program to act on. The wire form is snake case
/// (`"not_your_turn"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    // A frame that is not a message.
    MessageTooLarge,
    InvalidJson,
    MissingType,
    UnknownType,
    InvalidPayload,
    /// A request's parameters are missing or malformed.
    BadRequest,
    /// The browser's stored identity did not check out.
    UnknownPlayer,
    /// A bot's token is unknown or revoked.
    BadBotToken,

    // Finding a seat or a game.
    /// No table could be opened or found in the pool.
    NoSlot,
    NoSuchSlot,
    SlotNotWaiting,
    OwnerAway,
    SlotFull,
    NoSuchRoom,
    /// The seat can no longer be resumed (its table closed).
    ReconnectClosed,
    BadToken,
    NoLiveGame,
    SpectatorCannotAct,
    /// Too many wrong room codes from this address: wait before trying again.
    TooManyAttempts,
    /// Too many private rooms open from this address.
    TooManyRooms,
    /// Too many games waiting for an opponent from this address.
    TooManyTables,
    /// Too many requests of one kind from this address this minute.
    TooManyRequests,
    /// Too many frames, moves or chat lines on one connection per second.
    TooFast,
    /// The table has as many spectators as it takes.
    TooManyWatchers,
    /// Matchmaking has as many kinds of game (pools) waiting as it keeps.
    TooManyPools,
    /// A table waited for an opponent too long and closed.
    TableExpired,
    /// The server is shutting down; a reconnect in a moment finds it back.
    ServerRestarting,
    /// The table's task has ended.
    GameClosed,
    /// The server cannot read its database just now.
    Unavailable,

    // Playing.
    NotStarted,
    Paused,
    GameFinished,
    NotYourTurn,
    TimeUp,
    OffBoard,
    Occupied,
    /// A move the rules refuse for another reason (a swap not allowed, …).
    IllegalMove,
    BadCoordinates,
    SeriesNotOver,
}

impl ErrorCode {
    /// Every code, in declaration order (so `code as usize` indexes it).
    pub const ALL: [ErrorCode; 39] = [
        ErrorCode::MessageTooLarge,
        ErrorCode::InvalidJson,
        ErrorCode::MissingType,
        ErrorCode::UnknownType,
        ErrorCode::InvalidPayload,
        ErrorCode::BadRequest,
        ErrorCode::UnknownPlayer,
        ErrorCode::BadBotToken,
        ErrorCode::NoSlot,
        ErrorCode::NoSuchSlot,
        ErrorCode::SlotNotWaiting,
        ErrorCode::OwnerAway,
        ErrorCode::SlotFull,
        ErrorCode::NoSuchRoom,
        ErrorCode::ReconnectClosed,
        ErrorCode::BadToken,
        ErrorCode::NoLiveGame,
        ErrorCode::SpectatorCannotAct,
        ErrorCode::TooManyAttempts,
        ErrorCode::TooManyRooms,
        ErrorCode::TooManyTables,
        ErrorCode::TooManyRequests,
        ErrorCode::TooFast,
        ErrorCode::TooManyWatchers,
        ErrorCode::TooManyPools,
        ErrorCode::TableExpired,
        ErrorCode::ServerRestarting,
        ErrorCode::GameClosed,
        ErrorCode::Unavailable,
        ErrorCode::NotStarted,
        ErrorCode::Paused,
        ErrorCode::GameFinished,
        ErrorCode::NotYourTurn,
        ErrorCode::TimeUp,
        ErrorCode::OffBoard,
        ErrorCode::Occupied,
        ErrorCode::IllegalMove,
        ErrorCode::BadCoordinates,
        ErrorCode::SeriesNotOver,
    ];

    /// The usual text for the code (hexgame's, where it has one). Some
    /// refusals say more (which parameter was wrong, why a move is illegal).
    pub const fn text(self) -> &'static str {
        match self {
            ErrorCode::MessageTooLarge => "Message too large",
            ErrorCode::InvalidJson => "Invalid JSON message",
            ErrorCode::MissingType => "Missing message type",
            ErrorCode::UnknownType => "Unknown message type",
            ErrorCode::InvalidPayload => "Invalid payload",
            ErrorCode::NoSlot => "No available slot",
            ErrorCode::NoSuchSlot => "Slot does not exist",
            ErrorCode::SlotNotWaiting => "Slot is not waiting for an opponent",
            ErrorCode::OwnerAway => "Slot owner is disconnected",
            ErrorCode::SlotFull => "Slot is already full",
            ErrorCode::NoSuchRoom => "No room has this code: check it with the person who shared it",
            ErrorCode::ReconnectClosed => "Slot is not available for reconnect",
            ErrorCode::BadToken => "Invalid reconnect token",
            ErrorCode::NoLiveGame => "No live game has this id: it may have finished",
            ErrorCode::SpectatorCannotAct => "Spectators cannot move or chat",
            ErrorCode::TooManyAttempts => "Too many wrong room codes from your address: try again in a minute",
            ErrorCode::TooManyRooms => "You have too many private rooms open already",
            ErrorCode::TooManyTables => "You have too many games waiting for an opponent already",
            ErrorCode::TooManyRequests => "Too many requests from your address: try again in a minute",
            ErrorCode::TooFast => "Too many messages at once: slow down (the last one was not taken)",
            ErrorCode::TooManyWatchers => "This game has as many spectators as it can take: try again later",
            ErrorCode::TooManyPools => {
                "No new kind of game can be opened right now: pick a size and series others are waiting for"
            }
            ErrorCode::TableExpired => "Nobody came to play: this table waited too long and has closed",
            ErrorCode::ServerRestarting => "The server is restarting: your game is kept, reconnect in a moment",
            ErrorCode::GameClosed => "This game has closed",
            ErrorCode::Unavailable => "The server cannot read its player list right now: try again in a minute",
            ErrorCode::NotStarted => "Game has not started",
            ErrorCode::Paused => "Game paused for reconnect",
            ErrorCode::GameFinished => "Game already finished",
            ErrorCode::NotYourTurn => "Not your turn",
            ErrorCode::TimeUp => "Time is up",
            ErrorCode::OffBoard => "Move outside board",
            ErrorCode::Occupied => "Cell already occupied",
            ErrorCode::SeriesNotOver => "Series is not over and opponent is still connected",
            ErrorCode::BadRequest => "The request is missing a parameter or has a malformed one",
            ErrorCode::UnknownPlayer => "This browser's player is unknown here: log in again on /login",
            ErrorCode::BadBotToken => "Unknown or revoked bot token: make a new one on your account page",
            ErrorCode::IllegalMove => "Illegal move",
            ErrorCode::BadCoordinates => "Move coordinates must be integers",
        }
    }

    /// The snake-case name clients match on (`"not_your_turn"`).
    pub fn name(self) -> String {
        serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
    }

    /// Whether the seat this connection asked for is gone for good, so the
    /// browser should forget its token and watch instead.
    pub const fn seat_lost(self) -> bool {
        matches!(self, ErrorCode::ReconnectClosed | ErrorCode::BadToken)
    }
}

/// A refusal: its code and the text shown to people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

impl Refusal {
    /// A refusal with its own text.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal { code, message: message.into() }
    }

    /// A bad request parameter, with what was wrong.
    pub fn bad_request(message: impl Into<String>) -> Refusal {
        Refusal::new(ErrorCode::BadRequest, message)
    }
}

impl From<ErrorCode> for Refusal {
    /// The code with its usual text.
    fn from(code: ErrorCode) -> Refusal {
        Refusal { code, message: code.text().to_string() }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_snake_case_on_the_wire() {
        assert_eq!(serde_json::to_string(&ErrorCode::NotYourTurn).unwrap(), r#""not_your_turn""#);
        assert_eq!(serde_json::from_str::<ErrorCode>(r#""bad_token""#).unwrap(), ErrorCode::BadToken);
        assert_eq!(Refusal::from(ErrorCode::SlotFull).message, "Slot is already full");
        assert!(ErrorCode::BadToken.seat_lost() && !ErrorCode::SlotFull.seat_lost());
    }

    #[test]
    fn every_code_is_listed_once_in_order() {
        for (i, code) in ErrorCode::ALL.into_iter().enumerate() {
            assert_eq!(code as usize, i, "{code:?}");
        }
        assert_eq!(ErrorCode::TooFast.name(), "too_fast");
    }

    #[test]
    fn the_docs_list_every_code() {
        let docs = include_str!("../pages/docs.html");
        for code in ErrorCode::ALL {
            let name = serde_json::to_string(&code).unwrap();
            let name = name.trim_matches('"');
            assert!(docs.contains(&format!("<code>{name}</code>")), "/docs does not list {name}");
            assert!(!code.text().is_empty());
        }
    }
}
