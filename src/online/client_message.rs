//! Reading what a client sends. Errors carry hexgame v1's exact texts, since
//! bots written for hexgame-server may match on them.

use serde_json::Value;

use super::error_code::{ErrorCode, Refusal};

/// The longest text frame read as a message (hexgame's limit, in characters).
pub const MAX_MESSAGE_CHARS: usize = 4096;
/// Chat lines are cut to this many characters.
pub const MAX_CHAT_CHARS: usize = 500;

/// Which protocol a connection speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    /// hexgame protocol v1, message for message.
    V1,
    /// Our browser protocol: v1 plus `swap` and full-table `state` messages.
    Browser,
}

/// A message a client may send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    Hello,
    /// A stone at `(q, r)`, not yet checked against the board.
    Move {
        q: i64,
        r: i64,
    },
    /// A move whose payload is unusable, and why.
    BadMove(ErrorCode),
    /// A chat line, already cleaned (printable, ≤ 500 characters); `None`
    /// when the payload's message is not a string (ignored, as hexgame does).
    Chat(Option<String>),
    Resign,
    Ping,
    KeepSlot,
    /// Extension: take over the first stone (swap rule).
    Swap,
    /// Extension: after the series, offer a rematch or answer one.
    Rematch(RematchStep),
}

/// A step of agreeing on a rematch (same settings, colours swapped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RematchStep {
    Offer,
    Accept,
    Decline,
}

impl RematchStep {
    const fn as_str(self) -> &'static str {
        match self {
            RematchStep::Offer => "offer",
            RematchStep::Accept => "accept",
            RematchStep::Decline => "decline",
        }
    }
}

/// Why a message could not be read at all (sent back as `error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    TooLarge,
    InvalidJson,
    MissingType,
    UnknownType,
    InvalidPayload,
}

impl ProtocolError {
    /// hexgame's text for the error.
    pub const fn message(self) -> &'static str {
        self.code().text()
    }

    /// The code sent beside the text.
    pub const fn code(self) -> ErrorCode {
        match self {
            ProtocolError::TooLarge => ErrorCode::MessageTooLarge,
            ProtocolError::InvalidJson => ErrorCode::InvalidJson,
            ProtocolError::MissingType => ErrorCode::MissingType,
            ProtocolError::UnknownType => ErrorCode::UnknownType,
            ProtocolError::InvalidPayload => ErrorCode::InvalidPayload,
        }
    }
}

impl From<ProtocolError> for Refusal {
    fn from(e: ProtocolError) -> Refusal {
        Refusal::new(e.code(), e.message())
    }
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for ProtocolError {}

impl ClientMessage {
    /// The message as a client sends it (the browser's side of the protocol).
    pub fn to_json(&self) -> String {
        let (kind, payload) = match self {
            ClientMessage::Hello => ("hello", serde_json::json!({"protocol_version": super::PROTOCOL_VERSION})),
            ClientMessage::Move { q, r } => ("move", serde_json::json!({"q": q, "r": r})),
            ClientMessage::BadMove(_) => ("move", serde_json::json!({})),
            ClientMessage::Chat(line) => ("chat", serde_json::json!({"message": line.clone().unwrap_or_default()})),
            ClientMessage::Resign => ("resign", serde_json::json!({})),
            ClientMessage::Ping => ("ping", serde_json::json!({})),
            ClientMessage::KeepSlot => ("keep_slot", serde_json::json!({})),
            ClientMessage::Swap => ("swap", serde_json::json!({})),
            ClientMessage::Rematch(step) => ("rematch", serde_json::json!({"step": step.as_str()})),
        };
        serde_json::json!({"type": kind, "payload": payload}).to_string()
    }
}

/// Reads one text frame.
pub fn parse_client_message(text: &str, dialect: Dialect) -> Result<ClientMessage, ProtocolError> {
    // hexgame counts characters; counting bytes first skips the walk for
    // the usual short message.
    if text.len() > MAX_MESSAGE_CHARS && text.chars().count() > MAX_MESSAGE_CHARS {
        return Err(ProtocolError::TooLarge);
    }
    let value: Value = serde_json::from_str(text).map_err(|_| ProtocolError::InvalidJson)?;
    let Value::Object(mut object) = value else {
        return Err(ProtocolError::InvalidJson);
    };
    let kind = match object.get("type") {
        Some(Value::String(kind)) => kind.clone(),
        _ => return Err(ProtocolError::MissingType),
    };
    let payload = match object.remove("payload") {
        None => serde_json::Map::new(),
        Some(Value::Object(payload)) => payload,
        Some(_) if known(&kind, dialect) => return Err(ProtocolError::InvalidPayload),
        Some(_) => return Err(ProtocolError::UnknownType),
    };
    Ok(match kind.as_str() {
        "hello" => ClientMessage::Hello,
        "ping" => ClientMessage::Ping,
        "resign" => ClientMessage::Resign,
        "keep_slot" => ClientMessage::KeepSlot,
        "swap" if dialect == Dialect::Browser => ClientMessage::Swap,
        "rematch" if dialect == Dialect::Browser => {
            let step = payload.get("step").and_then(Value::as_str);
            let step = [RematchStep::Offer, RematchStep::Accept, RematchStep::Decline]
                .into_iter()
                .find(|s| Some(s.as_str()) == step)
                .ok_or(ProtocolError::InvalidPayload)?;
            ClientMessage::Rematch(step)
        }
        "move" => read_move(&payload),
        "chat" => ClientMessage::Chat(payload.get("message").and_then(Value::as_str).map(clean_chat)),
        _ => return Err(ProtocolError::UnknownType),
    })
}

fn known(kind: &str, dialect: Dialect) -> bool {
    matches!(kind, "hello" | "move" | "chat" | "resign" | "ping" | "keep_slot")
        || (dialect == Dialect::Browser && matches!(kind, "swap" | "rematch"))
}

fn read_move(payload: &serde_json::Map<String, Value>) -> ClientMessage {
    let coordinate = |key: &str| match payload.get(key) {
        // An integer too big for 64 bits arrives as a float; it is still an
        // integer (off the board), unlike 1.5 or 1.0.
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_u64().map(|_| i64::MAX)).or_else(|| {
            n.as_f64()
                .filter(|f| f.abs() >= 9.2e18 && f.fract() == 0.0)
                .map(|f| if f > 0.0 { i64::MAX } else { i64::MIN })
        }),
        _ => None,
    };
    match (coordinate("q"), coordinate("r")) {
        (Some(q), Some(r)) => ClientMessage::Move { q, r },
        _ => ClientMessage::BadMove(ErrorCode::BadCoordinates),
    }
}

/// Keeps printable characters only and cuts to [`MAX_CHAT_CHARS`].
pub fn clean_chat(text: &str) -> String {
    text.chars().filter(|c| !c.is_control() && !is_invisible_format(*c)).take(MAX_CHAT_CHARS).collect()
}

/// Format characters that would let a line hide or reorder text.
fn is_invisible_format(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn v1(text: &str) -> Result<ClientMessage, ProtocolError> {
        parse_client_message(text, Dialect::V1)
    }

    #[test]
    fn reads_every_v1_message() {
        assert_eq!(v1(r#"{"type":"move","payload":{"q":3,"r":5}}"#), Ok(ClientMessage::Move { q: 3, r: 5 }));
        assert_eq!(v1(r#"{"type":"move","payload":{"q":3,"r":5,"player":1}}"#), Ok(ClientMessage::Move { q: 3, r: 5 }));
        assert_eq!(v1(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping));
        assert_eq!(v1(r#"{"type":"hello","payload":{"protocol_version":1}}"#), Ok(ClientMessage::Hello));
        assert_eq!(v1(r#"{"type":"resign","payload":{}}"#), Ok(ClientMessage::Resign));
        assert_eq!(v1(r#"{"type":"keep_slot","payload":{}}"#), Ok(ClientMessage::KeepSlot));
        assert_eq!(
            v1(r#"{"type":"chat","payload":{"message":"good\u0007 luck"}}"#),
            Ok(ClientMessage::Chat(Some("good luck".into())))
        );
        assert_eq!(v1(r#"{"type":"chat","payload":{"message":5}}"#), Ok(ClientMessage::Chat(None)));
    }

    #[test]
    fn bad_messages_get_hexgames_errors() {
        assert_eq!(v1("not json"), Err(ProtocolError::InvalidJson));
        assert_eq!(v1("[1,2]"), Err(ProtocolError::InvalidJson));
        assert_eq!(v1(r#"{"payload":{}}"#), Err(ProtocolError::MissingType));
        assert_eq!(v1(r#"{"type":7}"#), Err(ProtocolError::MissingType));
        assert_eq!(v1(r#"{"type":"teleport"}"#), Err(ProtocolError::UnknownType));
        assert_eq!(v1(r#"{"type":"swap"}"#), Err(ProtocolError::UnknownType));
        assert_eq!(v1(r#"{"type":"move","payload":[3,5]}"#), Err(ProtocolError::InvalidPayload));
        let huge = format!(r#"{{"type":"chat","payload":{{"message":"{}"}}}}"#, "x".repeat(5000));
        assert_eq!(v1(&huge), Err(ProtocolError::TooLarge));
        assert_eq!(parse_client_message(r#"{"type":"swap"}"#, Dialect::Browser), Ok(ClientMessage::Swap));
    }

    #[test]
    fn non_integer_coordinates_are_rejected_as_hexgame_does() {
        for payload in [r#"{"q":"3","r":5}"#, r#"{"q":3.5,"r":5}"#, r#"{"q":3}"#, r#"{}"#, r#"{"q":null,"r":1}"#] {
            let text = format!(r#"{{"type":"move","payload":{payload}}}"#);
            assert_eq!(v1(&text), Ok(ClientMessage::BadMove(ErrorCode::BadCoordinates)), "{payload}");
        }
        // Integers too large for the board are still integers: off the board.
        assert_eq!(
            v1(r#"{"type":"move","payload":{"q":18446744073709551615,"r":-1}}"#),
            Ok(ClientMessage::Move { q: i64::MAX, r: -1 })
        );
    }

    #[test]
    fn chat_is_cut_to_500_printable_characters() {
        let line = clean_chat(&format!("{}\u{202E}\n", "é".repeat(600)));
        assert_eq!(line.chars().count(), 500);
        assert!(line.chars().all(|c| c == 'é'));
    }

    #[test]
    fn what_a_client_writes_reads_back() {
        for m in [
            ClientMessage::Move { q: 3, r: 0 },
            ClientMessage::Swap,
            ClientMessage::Resign,
            ClientMessage::Ping,
            ClientMessage::Chat(Some("hi".into())),
        ] {
            assert_eq!(parse_client_message(&m.to_json(), Dialect::Browser), Ok(m.clone()));
        }
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in ".{0,300}") {
            let _ = parse_client_message(&text, Dialect::V1);
            let _ = parse_client_message(&text, Dialect::Browser);
        }

        #[test]
        fn any_json_move_payload_is_read_or_refused(q in any::<i64>(), r in proptest::num::f64::ANY) {
            let text = format!(r#"{{"type":"move","payload":{{"q":{q},"r":{r}}}}}"#);
            let _ = parse_client_message(&text, Dialect::V1);
        }
    }
}
