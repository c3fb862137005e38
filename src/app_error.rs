//! What hexarena's server functions answer when they do not simply
//! succeed. A request the person can fix (a taken name, a wrong room code)
//! gets an [`Answer::Refused`]: the function ran and said no, so it is an
//! ordinary answer (HTTP 200) that the page shows. A failure, when the
//! function could not do its work, is an [`AppError`] (an HTTP error
//! status). Either text is shown as it is.

use std::fmt;

use leptos::prelude::{FromServerFnError, ServerFnErrorErr};
use leptos::server_fn::codec::JsonEncoding;
use serde::{Deserialize, Serialize};

/// The answer to a request the person may have to fix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Answer<T> {
    Done(T),
    /// Not done; the text says why and what to change.
    Refused(String),
}

impl<T> Answer<T> {
    /// The reason, when refused.
    pub fn refusal(&self) -> Option<&str> {
        match self {
            Answer::Done(_) => None,
            Answer::Refused(why) => Some(why),
        }
    }
}

/// Why a server function could not do its work.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppError {
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
            AppError::Unavailable(m) | AppError::Call(m) => m,
        }
    }

    /// The game hub of this server, which every live-play and archive
    /// function needs.
    #[cfg(feature = "ssr")]
    pub fn hub() -> Result<crate::server::hub::Hub, AppError> {
        leptos::prelude::use_context::<crate::server::hub::Hub>()
            .ok_or_else(|| AppError::Unavailable("The game hub is not running: try again in a minute".into()))
    }

    /// A limit, not a failure of the server: answers 429 with a
    /// `Retry-After` of `retry_after_secs`, and says why.
    #[cfg(feature = "ssr")]
    pub fn too_many(message: String, retry_after_secs: u64) -> AppError {
        use axum::http::{HeaderValue, StatusCode, header};
        if let Some(response) = leptos::prelude::use_context::<leptos_axum::ResponseOptions>() {
            response.set_status(StatusCode::TOO_MANY_REQUESTS);
            response.insert_header(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        AppError::Unavailable(message)
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
        let e = AppError::Unavailable("The archive cannot be read right now".into());
        assert_eq!(e.to_string(), "The archive cannot be read right now");
        let back: AppError = serde_json::from_str(&serde_json::to_string(&e).unwrap()).unwrap();
        assert_eq!(back, e);
        let call = AppError::from_server_fn_error(ServerFnErrorErr::Request("timed out".into()));
        assert!(call.to_string().starts_with("The server could not be reached"), "{call}");
        let refused: Answer<()> = Answer::Refused("The name “Ann” is taken: pick another".into());
        assert_eq!(serde_json::to_string(&refused).unwrap(), r#"{"Refused":"The name “Ann” is taken: pick another"}"#);
        assert_eq!(refused.refusal(), Some("The name “Ann” is taken: pick another"));
        assert_eq!(Answer::Done(3).refusal(), None);
    }
}
