//! `GET /health`: for load balancers and monitors. It answers 200 with
//! `{"status":"ok"}` while the server can keep games, and 503 with
//! `"failing"` when its database, its journal of games in play or (in a
//! cluster) its heartbeat in Redis does not work (a server keeping nothing
//! reports only its status).

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::hub::Hub;

/// How long the database may take to answer a ping.
const DATABASE_TIMEOUT: Duration = Duration::from_secs(2);

/// One part's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    Ok,
    Failing,
}

/// The body of a health answer.
#[derive(Debug, Serialize)]
pub struct Health {
    pub status: Check,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<Check>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journal: Option<Check>,
    /// The shared Redis back end, for an instance of a cluster.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redis: Option<Check>,
}

/// Checks the database (a ping) and the journal (its last write).
pub async fn health(State(hub): State<Hub>) -> Response {
    let database = match hub.archive() {
        Some(archive) => {
            let ping = sqlx::query_scalar::<_, i64>("SELECT 1").fetch_one(archive.pool());
            let answered = tokio::time::timeout(DATABASE_TIMEOUT, ping).await;
            Some(if matches!(answered, Ok(Ok(_))) { Check::Ok } else { Check::Failing })
        }
        None => None,
    };
    let journal = hub.journal().map(|j| if j.health().is_ok() { Check::Ok } else { Check::Failing });
    let redis = match hub.cluster() {
        Some(cluster) => {
            let answered = tokio::time::timeout(DATABASE_TIMEOUT, cluster.is_alive(cluster.instance())).await;
            Some(if matches!(answered, Ok(Ok(true))) { Check::Ok } else { Check::Failing })
        }
        None => None,
    };
    let failing = [database, journal, redis].contains(&Some(Check::Failing));
    let status = if failing { Check::Failing } else { Check::Ok };
    let code = if failing { StatusCode::SERVICE_UNAVAILABLE } else { StatusCode::OK };
    (code, Json(Health { status, database, journal, redis })).into_response()
}
