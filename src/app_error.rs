//! The one error type of hexarena's server functions. Each variant says
//! what the person can do about it; the text is shown as it is.

use std::fmt;

use leptos::prelude::{FromServerFnError, ServerFnErrorErr};
use leptos::server_fn::codec::JsonEncoding;
use serde::{Deserialize, Serialize};

/// Why a server function did not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppError {
    /// The request can be fixed by the person (bad options, a taken name);
    /// the text says how.
    Invalid(String),
    /// What was asked for is not there (a room code, a game).
    NotFound(String),
    /// The server cannot do it now (no archive, a full server, the
    /// database unreadable); trying later may work.
    Unavailable(String),
    /// The call itself failed on the way (network, encoding).
    Call(String),
}

impl AppError {
    /// The text for people.
    pub fn message(&self) -> &str {
        match self {
            AppError::Invalid(m) | AppError::NotFound(m) | AppError::Unavailable(m) | AppError::Call(m) => m,
        }
    }

    /// The game hub of this server, which every live-play and archive
    /// function needs.
    #[cfg(feature = "ssr")]
    pub fn hub() -> Result<crate::server::hub::Hub, AppError> {
        leptos::prelude::use_context::<crate::server::hub::Hub>()
            .ok_or_else(|| AppError::Unavailable("The game hub is not running: try again in a minute".into()))
    }
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Call(m) => write!(f, "The server could not be reached ({m}): check your connection"),
            other => f.write_str(other.message()),
        }
    }
}

impl std::error::Error for AppError {}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        AppError::Call(value.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_say_their_text_and_survive_the_wire() {
        let e = AppError::NotFound("No open room has the code “ABC”".into());
        assert_eq!(e.to_string(), "No open room has the code “ABC”");
        let back: AppError = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back, e);
        let call = AppError::from_server_fn_error(ServerFnErrorErr::Request("timed out".into()));
        assert!(call.to_string().starts_with("The server could not be reached"), "{call}");
    }
}
