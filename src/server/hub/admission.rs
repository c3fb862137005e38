//! How many WebSockets one client address holds open at once. Each socket
//! holds a [`Permit`] for as long as it lives; past the limit
//! (`HEXARENA_MAX_CONNECTIONS_PER_ADDRESS`), the upgrade is refused before
//! it costs the server anything.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Open sockets per address.
#[derive(Debug)]
pub struct Admission {
    /// Sockets allowed per address; 0 means no limit.
    limit: u32,
    open: Mutex<HashMap<IpAddr, u32>>,
}

/// One admitted socket; dropping it gives the place back.
#[derive(Debug)]
pub struct Permit {
    admission: Arc<Admission>,
    address: Option<IpAddr>,
}

/// Refused: the address already holds this many sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooMany(pub u32);

impl Admission {
    pub fn new(limit: u32) -> Arc<Admission> {
        Arc::new(Admission { limit, open: Mutex::new(HashMap::new()) })
    }

    /// A place for one more socket from `address`, if it has one left. An
    /// unknown address (no connection info) is not counted.
    pub fn admit(self: &Arc<Self>, address: Option<IpAddr>) -> Result<Permit, TooMany> {
        let counted = address.filter(|_| self.limit > 0);
        if let Some(ip) = counted {
            let Ok(mut open) = self.open.lock() else { return Err(TooMany(self.limit)) };
            let n = open.entry(ip).or_insert(0);
            if *n >= self.limit {
                return Err(TooMany(self.limit));
            }
            *n += 1;
        }
        Ok(Permit { admission: Arc::clone(self), address: counted })
    }

    /// Sockets `address` holds now.
    pub fn open(&self, address: IpAddr) -> u32 {
        self.open.lock().ok().and_then(|o| o.get(&address).copied()).unwrap_or(0)
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let Some(ip) = self.address else { return };
        if let Ok(mut open) = self.admission.open.lock()
            && let Some(n) = open.get_mut(&ip)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_at_most_the_limit_and_gets_places_back() {
        let admission = Admission::new(2);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = admission.admit(Some(a)).unwrap();
        let _second = admission.admit(Some(a)).unwrap();
        assert_eq!(admission.admit(Some(a)).unwrap_err(), TooMany(2));
        assert!(admission.admit(Some(b)).is_ok(), "another address is not affected");
        drop(first);
        assert_eq!(admission.open(a), 1);
        assert!(admission.admit(Some(a)).is_ok(), "a closed socket gives its place back");
        assert!(Admission::new(0).admit(Some(a)).is_ok(), "0 means no limit");
        assert!(admission.admit(None).is_ok(), "unknown addresses are not counted");
    }
}
