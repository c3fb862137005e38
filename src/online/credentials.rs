//! The browser's secrets for a socket: a seat's reconnect token and a
//! registered player's id and secret. They travel in the socket's first
//! frame, never in its address, where proxies and server logs keep them.
//! (hexgame v1 clients still put their token in the query: their protocol.)

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::client_message::{MAX_MESSAGE_CHARS, ProtocolError};

/// The type of the first frame of `/ws/play`.
pub const CREDENTIALS: &str = "credentials";
/// Longest token, player id or secret accepted.
const MAX_FIELD_CHARS: usize = 200;

/// What a browser proves about itself when it connects; every field
/// optional (a stranger has none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    /// The seat's reconnect token, to resume a seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// A registered player's id and secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl Credentials {
    /// The frame as the browser sends it.
    pub fn to_json(&self) -> String {
        serde_json::json!({"type": CREDENTIALS, "payload": self}).to_string()
    }

    /// Reads the first frame; anything but well-formed credentials is refused.
    pub fn parse(text: &str) -> Result<Credentials, ProtocolError> {
        if text.len() > MAX_MESSAGE_CHARS {
            return Err(ProtocolError::TooLarge);
        }
        let value: Value = serde_json::from_str(text).map_err(|_| ProtocolError::InvalidJson)?;
        match value.get("type") {
            Some(Value::String(kind)) if kind == CREDENTIALS => {}
            Some(Value::String(_)) => return Err(ProtocolError::UnknownType),
            _ => return Err(ProtocolError::MissingType),
        }
        let payload = value.get("payload").cloned().unwrap_or(Value::Object(Default::default()));
        let credentials: Credentials = serde_json::from_value(payload).map_err(|_| ProtocolError::InvalidPayload)?;
        let fields = [&credentials.token, &credentials.player, &credentials.secret];
        if fields.into_iter().flatten().any(|f| f.chars().count() > MAX_FIELD_CHARS) {
            return Err(ProtocolError::InvalidPayload);
        }
        Ok(credentials)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_round_trip_and_bad_frames_are_refused() {
        let c = Credentials { token: Some("t0k".into()), player: Some("p_1".into()), secret: Some("s".into()) };
        assert_eq!(Credentials::parse(&c.to_json()), Ok(c));
        assert_eq!(Credentials::parse(r#"{"type":"credentials"}"#), Ok(Credentials::default()));
        assert_eq!(Credentials::parse(r#"{"type":"move","payload":{}}"#), Err(ProtocolError::UnknownType));
        assert_eq!(Credentials::parse(r#"{"payload":{}}"#), Err(ProtocolError::MissingType));
        assert_eq!(Credentials::parse("nope"), Err(ProtocolError::InvalidJson));
        assert_eq!(
            Credentials::parse(r#"{"type":"credentials","payload":{"token":5}}"#),
            Err(ProtocolError::InvalidPayload)
        );
        let long = format!(r#"{{"type":"credentials","payload":{{"secret":"{}"}}}}"#, "x".repeat(201));
        assert_eq!(Credentials::parse(&long), Err(ProtocolError::InvalidPayload));
    }

    proptest::proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_panicking(text in ".{0,300}") {
            let _ = Credentials::parse(&text);
        }
    }
}
