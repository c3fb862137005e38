//! The address a request came from, as the socket saw it. (Forwarded
//! headers are not trusted here; a proxy in front gives every client the
//! proxy's address.)

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// The client's IP address; `None` when the server was started without
/// connection info (never in production: see `main.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub Option<IpAddr>);

impl ClientAddress {
    /// Reads it from a request's parts.
    pub fn of(parts: &Parts) -> ClientAddress {
        ClientAddress(parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()))
    }

    /// The address of the request a server function is answering.
    pub fn of_server_fn() -> ClientAddress {
        leptos::prelude::use_context::<Parts>().map_or(ClientAddress(None), |p| ClientAddress::of(&p))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientAddress, Infallible> {
        Ok(ClientAddress::of(parts))
    }
}
