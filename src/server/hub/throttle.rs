//! Counting per client address over a minute: failures over a sliding
//! minute ([`Throttle`]), so that guessing room codes slows to a crawl while
//! a person who mistypes a code once or twice never notices; and requests
//! of one kind per minute ([`Quota`]: room creation, name registration,
//! server-function calls), so that one client cannot take what all share.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The window failures are counted over.
const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at most; past this, the oldest are forgotten first
/// (a flood of addresses cannot grow the table without bound).
const MAX_ADDRESSES: usize = 100_000;

/// Failures per key (an address by default; a login name too) within a
/// sliding window (a minute unless said otherwise).
#[derive(Debug)]
pub struct Throttle<K = IpAddr> {
    /// Failures allowed per window; 0 means no limit.
    limit: u32,
    window: Duration,
    failures: Mutex<HashMap<K, VecDeque<Instant>>>,
}

/// Refused for now: the address may try again after this long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds to wait, at least one.
    pub fn seconds(self) -> u64 {
        self.0.as_secs_f64().ceil().max(1.0) as u64
    }
}

impl Throttle<IpAddr> {
    pub fn new(limit: u32) -> Throttle {
        Throttle::with_window(limit, WINDOW)
    }
}

impl<K: std::hash::Hash + Eq + Clone> Throttle<K> {
    /// At most `limit` failures per key within any `window`.
    pub fn with_window(limit: u32, window: Duration) -> Throttle<K> {
        Throttle { limit, window, failures: Mutex::new(HashMap::new()) }
    }

    /// Failures allowed per window (0: no limit).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Whether `address` may try now. An unknown address (no socket
    /// address came with the request) is never throttled.
    pub fn check(&self, address: Option<K>, now: Instant) -> Result<(), RetryAfter> {
        let (Some(address), true) = (address, self.limit > 0) else { return Ok(()) };
        let Ok(mut failures) = self.failures.lock() else { return Ok(()) };
        let Some(times) = failures.get_mut(&address) else { return Ok(()) };
        while times.front().is_some_and(|&t| now.duration_since(t) >= self.window) {
            times.pop_front();
        }
        match times.front() {
            Some(&oldest) if times.len() >= self.limit as usize => {
                Err(RetryAfter(self.window.saturating_sub(now.duration_since(oldest))))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failure of `address`.
    pub fn fail(&self, address: Option<K>, now: Instant) {
        let (Some(address), true) = (address, self.limit > 0) else { return };
        let Ok(mut failures) = self.failures.lock() else { return };
        if failures.len() >= MAX_ADDRESSES && !failures.contains_key(&address) {
            let stale: Vec<K> = failures
                .iter()
                .filter(|(_, t)| t.back().is_none_or(|&last| now.duration_since(last) >= self.window))
                .map(|(a, _)| a.clone())
                .collect();
            for a in stale {
                failures.remove(&a);
            }
            if failures.len() >= MAX_ADDRESSES {
                return;
            }
        }
        let times = failures.entry(address).or_default();
        times.push_back(now);
        while times.len() > self.limit as usize {
            times.pop_front();
        }
    }
}

/// Requests per address per minute, counted in fixed one-minute windows
/// that start at an address's first request (one counter per address, so
/// a quota of hundreds costs no more than a quota of one).
#[derive(Debug)]
pub struct Quota {
    /// Requests allowed per minute; 0 means no limit.
    limit: u32,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl Quota {
    pub fn new(limit: u32) -> Quota {
        Quota { limit, windows: Mutex::new(HashMap::new()) }
    }

    /// Counts one request from `address`, or says how long it must wait.
    /// An unknown address is never limited.
    pub fn take(&self, address: Option<IpAddr>, now: Instant) -> Result<(), RetryAfter> {
        let (Some(address), true) = (address, self.limit > 0) else { return Ok(()) };
        let Ok(mut windows) = self.windows.lock() else { return Ok(()) };
        if windows.len() >= MAX_ADDRESSES && !windows.contains_key(&address) {
            windows.retain(|_, (start, _)| now.duration_since(*start) < WINDOW);
            if windows.len() >= MAX_ADDRESSES {
                return Ok(());
            }
        }
        let (start, count) = windows.entry(address).or_insert((now, 0));
        if now.duration_since(*start) >= WINDOW {
            (*start, *count) = (now, 0);
        }
        if *count >= self.limit {
            return Err(RetryAfter(WINDOW.saturating_sub(now.duration_since(*start))));
        }
        *count += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_failures_until_the_oldest_ages_out() {
        let t = Throttle::new(3);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(t.check(Some(a), start), Ok(()), "failure {i} is still allowed");
            t.fail(Some(a), start + Duration::from_secs(i));
        }
        let refused = t.check(Some(a), start + Duration::from_secs(10)).unwrap_err();
        assert_eq!(refused.seconds(), 50, "the first failure ages out after a minute");
        assert_eq!(t.check(Some(b), start), Ok(()), "another address is not affected");
        assert_eq!(t.check(None, start), Ok(()));
        assert_eq!(t.check(Some(a), start + Duration::from_secs(60)), Ok(()));
        assert_eq!(Throttle::new(0).check(Some(a), start), Ok(()), "0 means no limit");
    }

    #[test]
    fn a_quota_refuses_past_its_limit_until_the_minute_is_over() {
        let q = Quota::new(3);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(q.take(Some(a), start + Duration::from_secs(i)), Ok(()));
        }
        assert_eq!(q.take(Some(a), start + Duration::from_secs(15)).unwrap_err().seconds(), 45);
        assert_eq!(q.take(Some(b), start), Ok(()), "another address is not affected");
        assert_eq!(q.take(Some(a), start + Duration::from_secs(60)), Ok(()), "a new minute");
        assert!((0..1000).all(|_| Quota::new(0).take(Some(a), start).is_ok()), "0 means no limit");
    }
}
