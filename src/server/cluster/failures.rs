//! Failures counted across the cluster (failed logins per name and per
//! address), so that N instances do not give a password guesser N times
//! the tries. A sliding window per key: a sorted set of failure times.

use std::time::Duration;

use super::{Cluster, ClusterError};

/// Drops failures older than the window and, if `ARGV[3]` remain, answers
/// how many milliseconds until the oldest leaves it (else -1). KEYS: the
/// key's set; ARGV: now (ms), window (ms), limit.
const WAIT: &str = r"
local now, window, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < limit then return -1 end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
return math.max(1, tonumber(oldest) + window - now)
";

/// Records a failure at ARGV[1] (ms), unique by ARGV[3], keeping the set
/// for the window (ARGV[2] ms).
const FAIL: &str = r"
redis.call('ZADD', KEYS[1], tonumber(ARGV[1]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
";

impl Cluster {
    /// How long `key` of `kind` must wait, if it has `limit` failures
    /// within `window` already (0: no limit).
    pub async fn failure_wait(
        &self,
        kind: &str,
        key: &str,
        limit: u32,
        window: Duration,
    ) -> Result<Option<Duration>, ClusterError> {
        if limit == 0 {
            return Ok(None);
        }
        let wait: i64 = redis::Script::new(WAIT)
            .key(self.failures_key(kind, key))
            .arg(crate::server::archive::wall_ms())
            .arg(window.as_millis() as u64)
            .arg(limit)
            .invoke_async(&mut self.redis())
            .await?;
        Ok((wait >= 0).then(|| Duration::from_millis(wait as u64)))
    }

    /// Counts a failure of `key` of `kind`, remembered for `window`.
    pub async fn record_failure(&self, kind: &str, key: &str, window: Duration) -> Result<(), ClusterError> {
        let _: i64 = redis::Script::new(FAIL)
            .key(self.failures_key(kind, key))
            .arg(crate::server::archive::wall_ms())
            .arg(window.as_millis() as u64)
            .arg(crate::server::hub::token::new_token())
            .invoke_async(&mut self.redis())
            .await?;
        Ok(())
    }

    /// The key's name is hashed: names and addresses stay out of Redis.
    fn failures_key(&self, kind: &str, key: &str) -> String {
        format!("{}:failures:{kind}:{}", self.keys().prefix(), crate::server::hub::token::token_hash(key))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Cluster, Settings};
    use std::time::Duration;

    #[tokio::test]
    async fn failures_count_across_instances_and_expire() {
        let unique = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let settings = Settings { url: "redis://127.0.0.1:6379/0".into(), prefix: format!("hexarena-unit-f-{unique}") };
        let (Ok(a), Ok(b)) = (Cluster::join(&settings).await, Cluster::join(&settings).await) else {
            eprintln!("\n!!!!!!!! SKIPPED: no Redis at 127.0.0.1:6379; scripts/test.sh starts the machine's Redis.\n");
            return;
        };
        let window = Duration::from_millis(400);
        assert_eq!(a.failure_wait("name", "ann", 2, window).await.unwrap(), None);
        a.record_failure("name", "ann", window).await.unwrap();
        assert_eq!(b.failure_wait("name", "ann", 2, window).await.unwrap(), None, "one failure of two allowed");
        b.record_failure("name", "ann", window).await.unwrap();
        let wait = a.failure_wait("name", "ann", 2, window).await.unwrap().expect("the second instance's counts");
        assert!(wait <= window, "{wait:?}");
        assert_eq!(a.failure_wait("name", "bob", 2, window).await.unwrap(), None, "per key");
        assert_eq!(a.failure_wait("name", "ann", 0, window).await.unwrap(), None, "0 is no limit");
        tokio::time::sleep(window + Duration::from_millis(50)).await;
        assert_eq!(a.failure_wait("name", "ann", 2, window).await.unwrap(), None, "the window has passed");
        a.leave().await;
        b.leave().await;
        let mut redis = a.redis();
        let keys: Vec<String> =
            redis::cmd("KEYS").arg(format!("{}:*", settings.prefix)).query_async(&mut redis).await.unwrap();
        let _: () = redis::cmd("DEL").arg(keys).query_async(&mut redis).await.unwrap();
    }
}
