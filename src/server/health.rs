//! `GET /health`: a liveness answer for load balancers and monitors.

use axum::Json;
use serde::Serialize;

/// The body of a health answer.
#[derive(Debug, Serialize)]
pub struct Health {
    pub status: &'static str,
}

/// Answers `{"status":"ok"}` while the process serves requests.
pub async fn health() -> Json<Health> {
    Json(Health { status: "ok" })
}
