//! The account pages: `/login` (log in or sign up) and `/account` (the
//! logged-in person's password, sessions and bots).

pub mod api;
pub mod login;
pub mod settings;

pub use login::LoginPage;
pub use settings::AccountPage;

use crate::app_error::{Answer, AppError};

/// What a form shows after its action answered: the refusal or failure.
pub fn refusal<T>(result: Option<Result<Answer<T>, AppError>>) -> Option<String> {
    match result? {
        Ok(answer) => answer.refusal().map(str::to_string),
        Err(e) => Some(e.to_string()),
    }
}
