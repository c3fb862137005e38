//! The address a request came from: the socket's peer, or, when the peer
//! is a proxy listed in `HEXARENA_TRUSTED_PROXIES`, the client that proxy
//! says it forwarded (`X-Forwarded-For`). A forwarded header from anyone
//! else is ignored: it is whatever the client chose to write.

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// The client's IP address; `None` when the server was started without
/// connection info (never in production: see `main.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddress(pub Option<IpAddr>);

/// One trusted proxy: an address, or a network (`10.0.0.0/8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Network {
    base: IpAddr,
    prefix: u8,
}

impl Network {
    fn parse(text: &str) -> Result<Network, String> {
        let bad = || format!("{text:?} is not an IP address or network (like 10.0.0.1 or 10.0.0.0/8)");
        let (ip, prefix) = text.split_once('/').map_or((text, None), |(ip, p)| (ip, Some(p)));
        let base: IpAddr = ip.trim().parse().map_err(|_| bad())?;
        let most = if base.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(p) => p.trim().parse::<u8>().ok().filter(|&p| p <= most).ok_or_else(bad)?,
        };
        Ok(Network { base, prefix })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        let bits = |ip: IpAddr| -> Option<u128> {
            match (self.base, ip) {
                (IpAddr::V4(_), IpAddr::V4(v)) => Some(u128::from(u32::from(v)) << 96),
                (IpAddr::V6(_), IpAddr::V6(v)) => Some(u128::from(v)),
                _ => None,
            }
        };
        let (Some(base), Some(ip)) = (bits(self.base), bits(ip)) else { return false };
        // Addresses are aligned to the top bits, so a prefix is the same mask for both kinds.
        let mask = if self.prefix == 0 { 0 } else { u128::MAX << (128 - u32::from(self.prefix)) };
        base & mask == ip & mask
    }
}

/// The proxies whose `X-Forwarded-For` is believed (`HEXARENA_TRUSTED_PROXIES`:
/// addresses or networks, comma-separated; none by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<Vec<Network>>);

impl TrustedProxies {
    pub fn parse(text: &str) -> Result<TrustedProxies, String> {
        let networks = text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(Network::parse);
        Ok(TrustedProxies(Arc::new(
            networks.collect::<Result<_, _>>().map_err(|e| format!("HEXARENA_TRUSTED_PROXIES: {e}"))?,
        )))
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client behind `peer`: walking `X-Forwarded-For` from the right
    /// (each proxy appends the address it heard from), the first address
    /// not itself a trusted proxy.
    fn client(&self, peer: IpAddr, forwarded: Option<&str>) -> IpAddr {
        if !self.trusts(peer) {
            return peer;
        }
        let Some(forwarded) = forwarded else { return peer };
        let mut client = peer;
        for hop in forwarded.rsplit(',') {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip;
                    if !self.trusts(ip) {
                        break;
                    }
                }
                // A hop that is not an address ends what can be believed.
                Err(_) => break,
            }
        }
        client
    }
}

impl ClientAddress {
    /// Reads it from a request's parts.
    pub fn of(parts: &Parts) -> ClientAddress {
        let Some(peer) = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()) else {
            return ClientAddress(None);
        };
        let Some(proxies) = parts.extensions.get::<TrustedProxies>() else { return ClientAddress(Some(peer)) };
        let forwarded = parts.headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
        ClientAddress(Some(proxies.client(peer, forwarded)))
    }

    /// Whether the browser reached us over HTTPS: as a trusted proxy says
    /// in `X-Forwarded-Proto` (hexarena itself speaks plain HTTP).
    pub fn over_https(parts: &Parts) -> bool {
        let Some(peer) = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()) else { return false };
        let trusted = parts.extensions.get::<TrustedProxies>().is_some_and(|p| p.trusts(peer));
        let proto = parts.headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok());
        trusted && proto.is_some_and(|p| p.rsplit(',').next().is_some_and(|last| last.trim() == "https"))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_forwarded_address_is_believed_only_from_a_trusted_proxy() {
        let proxies = TrustedProxies::parse("10.0.0.0/8, 192.168.1.5,::1").unwrap();
        let header = Some("203.0.113.7, 10.1.2.3");
        assert_eq!(proxies.client(ip("10.9.9.9"), header), ip("203.0.113.7"), "through two trusted hops");
        assert_eq!(proxies.client(ip("198.51.100.1"), header), ip("198.51.100.1"), "an untrusted peer is the client");
        assert_eq!(
            proxies.client(ip("192.168.1.5"), Some("1.2.3.4, 5.6.7.8")),
            ip("5.6.7.8"),
            "the rightmost untrusted"
        );
        assert_eq!(proxies.client(ip("192.168.1.5"), None), ip("192.168.1.5"));
        assert_eq!(proxies.client(ip("::1"), Some("garbage")), ip("::1"));
        assert_eq!(TrustedProxies::default().client(ip("10.0.0.1"), header), ip("10.0.0.1"), "none by default");
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.local").unwrap_err().contains("HEXARENA_TRUSTED_PROXIES"));
    }
}
