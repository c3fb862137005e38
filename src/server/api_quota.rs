//! Server-function calls (`/api/…`) per client address per minute
//! (`HEXARENA_API_CALLS_PER_MINUTE`): past the quota, 429 with
//! `Retry-After` before the call costs anything.

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::client_address::ClientAddress;
use super::hub::Hub;

pub async fn api_quota(State(hub): State<Hub>, request: Request, next: Next) -> Response {
    if request.uri().path().starts_with("/api/") {
        let (parts, body) = request.into_parts();
        let address = ClientAddress::of(&parts);
        if let Err(wait) = hub.quotas().api_calls.take(address.0, std::time::Instant::now()) {
            hub.metrics().refused(crate::online::ErrorCode::TooManyRequests);
            let message = format!("Too many requests from your address: try again in {} s", wait.seconds());
            let retry = HeaderValue::from(wait.seconds());
            return (StatusCode::TOO_MANY_REQUESTS, [(header::RETRY_AFTER, retry)], message).into_response();
        }
        return next.run(Request::from_parts(parts, body)).await;
    }
    next.run(request).await
}
