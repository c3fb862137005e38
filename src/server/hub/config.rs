//! Hub settings from `HEXARENA_*` environment variables.

use std::time::Duration;

/// How the hub behaves; every field has a production default.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// How long a dropped player may take to come back (`HEXARENA_RECONNECT_SECS`, 30).
    pub reconnect: Duration,
    /// Most tables open at once (`HEXARENA_MAX_TABLES`, 20000).
    pub max_tables: usize,
    /// How long a finished table stays watchable (`HEXARENA_LINGER_SECS`, 600).
    pub linger: Duration,
    /// How often overview subscribers get the changes (`HEXARENA_OVERVIEW_MS`, 250).
    pub overview_interval: Duration,
    /// How long a private room waits with nobody in it (`HEXARENA_ROOM_WAIT_SECS`, 900).
    pub room_wait: Duration,
    /// Least time between two whole lists on `/ws/slots` (`HEXARENA_SLOTS_FEED_MS`, 1000).
    pub slots_feed_interval: Duration,
    /// How often every socket is pinged; one silent for two intervals is
    /// dropped as disconnected (`HEXARENA_PING_SECS`, 20).
    pub ping: Duration,
    /// WebSockets one client address may hold open at once
    /// (`HEXARENA_MAX_CONNECTIONS_PER_ADDRESS`, 64; 0 = no limit).
    pub connections_per_address: u32,
    /// Private rooms one client address may have open at once
    /// (`HEXARENA_ROOMS_PER_ADDRESS`, 10; 0 = no limit).
    pub rooms_per_address: u32,
    /// Wrong room codes an address may try per minute before it must wait
    /// (`HEXARENA_ROOM_CODE_GUESSES`, 10; 0 = no limit).
    pub room_code_guesses: u32,
}

impl Default for HubConfig {
    fn default() -> Self {
        HubConfig {
            reconnect: Duration::from_secs(30),
            max_tables: 20_000,
            linger: Duration::from_secs(600),
            overview_interval: Duration::from_millis(250),
            room_wait: Duration::from_secs(900),
            slots_feed_interval: Duration::from_millis(1000),
            room_code_guesses: 10,
            ping: Duration::from_secs(20),
            connections_per_address: 64,
            rooms_per_address: 10,
        }
    }
}

impl HubConfig {
    /// Reads the settings that are set, keeping defaults for the rest.
    pub fn from_env() -> Result<HubConfig, String> {
        Self::from_lookup(|k| std::env::var(k).ok())
    }

    /// Same, from any lookup (tests pass a map).
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<HubConfig, String> {
        let mut c = HubConfig::default();
        let number = |key: &str, min: u64, max: u64| -> Result<Option<u64>, String> {
            match get(key).filter(|v| !v.trim().is_empty()) {
                None => Ok(None),
                Some(v) => match v.trim().parse::<u64>() {
                    Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
                    _ => Err(format!("{key}={v:?} is not valid: give a whole number from {min} to {max}")),
                },
            }
        };
        if let Some(s) = number("HEXARENA_RECONNECT_SECS", 1, 86_400)? {
            c.reconnect = Duration::from_secs(s);
        }
        if let Some(n) = number("HEXARENA_MAX_TABLES", 1, 10_000_000)? {
            c.max_tables = n as usize;
        }
        if let Some(s) = number("HEXARENA_LINGER_SECS", 0, 86_400)? {
            c.linger = Duration::from_secs(s);
        }
        if let Some(ms) = number("HEXARENA_OVERVIEW_MS", 20, 60_000)? {
            c.overview_interval = Duration::from_millis(ms);
        }
        if let Some(ms) = number("HEXARENA_SLOTS_FEED_MS", 0, 60_000)? {
            c.slots_feed_interval = Duration::from_millis(ms);
        }
        if let Some(s) = number("HEXARENA_ROOM_WAIT_SECS", 1, 86_400)? {
            c.room_wait = Duration::from_secs(s);
        }
        if let Some(s) = number("HEXARENA_PING_SECS", 1, 3_600)? {
            c.ping = Duration::from_secs(s);
        }
        if let Some(n) = number("HEXARENA_MAX_CONNECTIONS_PER_ADDRESS", 0, 10_000_000)? {
            c.connections_per_address = n as u32;
        }
        if let Some(n) = number("HEXARENA_ROOMS_PER_ADDRESS", 0, 1_000_000)? {
            c.rooms_per_address = n as u32;
        }
        if let Some(n) = number("HEXARENA_ROOM_CODE_GUESSES", 0, 1_000_000)? {
            c.room_code_guesses = n as u32;
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_read_and_bad_ones_explained() {
        let c = HubConfig::from_lookup(|k| (k == "HEXARENA_RECONNECT_SECS").then(|| "5".to_string())).unwrap();
        assert_eq!(c.reconnect, Duration::from_secs(5));
        assert_eq!(c.max_tables, 20_000);
        let e = HubConfig::from_lookup(|k| (k == "HEXARENA_MAX_TABLES").then(|| "lots".to_string())).unwrap_err();
        assert!(e.contains("HEXARENA_MAX_TABLES") && e.contains("whole number"), "{e}");
    }
}
