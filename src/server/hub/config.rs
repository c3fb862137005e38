//! Hub settings from `HEXARENA_*` environment variables.

use std::time::Duration;

/// How the hub behaves; every field has a production default.
/// When session cookies carry `Secure`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecureCookies {
    /// When the request came over HTTPS.
    Auto,
    Always,
    Never,
}

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
    /// Quick-match tables one client address may have waiting for an
    /// opponent at once (`HEXARENA_WAITING_TABLES_PER_ADDRESS`, 4; 0 = no limit).
    pub waiting_tables_per_address: u32,
    /// Private rooms one address may create per minute
    /// (`HEXARENA_ROOMS_PER_MINUTE`, 20; 0 = no limit).
    pub rooms_per_minute: u32,
    /// Names one address may register per minute
    /// (`HEXARENA_REGISTRATIONS_PER_MINUTE`, 10; 0 = no limit).
    pub registrations_per_minute: u32,
    /// Wrong passwords for one account name within 5 minutes before its
    /// logins wait (`HEXARENA_LOGIN_FAILURES_PER_NAME`, 5; 0 = no limit).
    pub login_failures_per_name: u32,
    /// Failed logins from one address within 5 minutes before its logins
    /// wait (`HEXARENA_LOGIN_FAILURES_PER_ADDRESS`, 20; 0 = no limit).
    pub login_failures_per_address: u32,
    /// Whether session cookies are marked `Secure` (`HEXARENA_SECURE_COOKIES`:
    /// `auto`, the default, marks them when the request came over HTTPS,
    /// directly or as a trusted proxy says; `always`; `never`).
    pub secure_cookies: SecureCookies,
    /// Server-function calls (`/api/…`) one address may make per minute
    /// (`HEXARENA_API_CALLS_PER_MINUTE`, 600; 0 = no limit).
    pub api_calls_per_minute: u32,
    /// Frames one connection may send per second, twice that in a burst
    /// (`HEXARENA_FRAMES_PER_SEC`, 200; 0 = no limit). Bots playing each
    /// other without pause send a move per round trip, so this bounds a
    /// flood without slowing them.
    pub frames_per_sec: u32,
    /// Moves one connection may send per second, twice that in a burst
    /// (`HEXARENA_MOVES_PER_SEC`, 100; 0 = no limit).
    pub moves_per_sec: u32,
    /// Chat lines one connection may send per second, five at once
    /// (`HEXARENA_CHAT_LINES_PER_SEC`, 1; 0 = no limit).
    pub chat_lines_per_sec: u32,
    /// Spectators one table takes (`HEXARENA_WATCHERS_PER_TABLE`, 500; 0 = no limit).
    pub watchers_per_table: u32,
    /// Matchmaking pools (kinds of game: size, series, swap, clock) that may
    /// have tables waiting at once (`HEXARENA_MAX_POOLS`, 200; 0 = no limit).
    pub max_pools: u32,
    /// How long a quick-match table waits for an opponent before it closes
    /// (`HEXARENA_WAIT_EXPIRY_SECS`, 1800).
    pub wait_expiry: Duration,
    /// How long a client has to send a request's headers
    /// (`HEXARENA_HEADER_READ_SECS`, 10): a slow dribble is cut off.
    pub header_read: Duration,
    /// How long a browser socket has to send its first frame, its
    /// credentials (`HEXARENA_HANDSHAKE_SECS`, 10).
    pub handshake: Duration,
    /// Proxies whose `X-Forwarded-For` names the client
    /// (`HEXARENA_TRUSTED_PROXIES`, comma-separated addresses or networks; none).
    pub trusted_proxies: crate::server::client_address::TrustedProxies,
    /// Whether every table is judged after every action (`HEXARENA_JUDGE`,
    /// 1 or 0; on in debug builds).
    pub judge: bool,
    /// Whether a broken invariant stops the table's task with a panic (on
    /// in debug builds, so that a test fails loudly; a simulation turns it
    /// off to count violations and go on).
    pub panic_on_violation: bool,
    /// Where the replay of a table the judge objected to is written
    /// (`HEXARENA_REGRESSIONS_DIR`; nowhere by default).
    pub regressions_dir: Option<std::path::PathBuf>,
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
            waiting_tables_per_address: 4,
            rooms_per_minute: 20,
            registrations_per_minute: 10,
            login_failures_per_name: 5,
            login_failures_per_address: 20,
            secure_cookies: SecureCookies::Auto,
            api_calls_per_minute: 600,
            frames_per_sec: 200,
            moves_per_sec: 100,
            chat_lines_per_sec: 1,
            watchers_per_table: 500,
            max_pools: 200,
            wait_expiry: Duration::from_secs(1800),
            header_read: Duration::from_secs(10),
            handshake: Duration::from_secs(10),
            trusted_proxies: Default::default(),
            judge: cfg!(debug_assertions),
            panic_on_violation: cfg!(debug_assertions),
            regressions_dir: None,
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
        c.secure_cookies = match std::env::var("HEXARENA_SECURE_COOKIES").as_deref().map(str::trim) {
            Err(_) | Ok("" | "auto") => SecureCookies::Auto,
            Ok("always") => SecureCookies::Always,
            Ok("never") => SecureCookies::Never,
            Ok(other) => return Err(format!("HEXARENA_SECURE_COOKIES must be auto, always or never, not {other:?}")),
        };
        let counts: [(&str, &mut u32); 12] = [
            ("HEXARENA_LOGIN_FAILURES_PER_NAME", &mut c.login_failures_per_name),
            ("HEXARENA_LOGIN_FAILURES_PER_ADDRESS", &mut c.login_failures_per_address),
            ("HEXARENA_WAITING_TABLES_PER_ADDRESS", &mut c.waiting_tables_per_address),
            ("HEXARENA_ROOMS_PER_MINUTE", &mut c.rooms_per_minute),
            ("HEXARENA_REGISTRATIONS_PER_MINUTE", &mut c.registrations_per_minute),
            ("HEXARENA_API_CALLS_PER_MINUTE", &mut c.api_calls_per_minute),
            ("HEXARENA_FRAMES_PER_SEC", &mut c.frames_per_sec),
            ("HEXARENA_MOVES_PER_SEC", &mut c.moves_per_sec),
            ("HEXARENA_CHAT_LINES_PER_SEC", &mut c.chat_lines_per_sec),
            ("HEXARENA_WATCHERS_PER_TABLE", &mut c.watchers_per_table),
            ("HEXARENA_MAX_POOLS", &mut c.max_pools),
            ("HEXARENA_ROOM_CODE_GUESSES", &mut c.room_code_guesses),
        ];
        for (key, field) in counts {
            if let Some(n) = number(key, 0, 1_000_000)? {
                *field = n as u32;
            }
        }
        if let Some(s) = number("HEXARENA_WAIT_EXPIRY_SECS", 1, 604_800)? {
            c.wait_expiry = Duration::from_secs(s);
        }
        if let Some(s) = number("HEXARENA_HEADER_READ_SECS", 1, 3_600)? {
            c.header_read = Duration::from_secs(s);
        }
        if let Some(s) = number("HEXARENA_HANDSHAKE_SECS", 1, 3_600)? {
            c.handshake = Duration::from_secs(s);
        }
        if let Some(text) = get("HEXARENA_TRUSTED_PROXIES") {
            c.trusted_proxies = crate::server::client_address::TrustedProxies::parse(&text)?;
        }
        if let Some(n) = number("HEXARENA_JUDGE", 0, 1)? {
            c.judge = n == 1;
        }
        if let Some(dir) = get("HEXARENA_REGRESSIONS_DIR").filter(|d| !d.trim().is_empty()) {
            c.regressions_dir = Some(dir.into());
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
