//! The names of everything a cluster keeps in Redis, all under one prefix
//! (`HEXARENA_REDIS_PREFIX`) so deployments and test runs can share a server.

use crate::online::TableOptions;

/// Key and channel names under a prefix.
#[derive(Clone, Debug)]
pub struct Keys {
    prefix: String,
}

impl Keys {
    pub fn new(prefix: &str) -> Keys {
        Keys { prefix: prefix.to_string() }
    }

    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The counter that numbers instances.
    pub fn instance_counter(&self) -> String {
        format!("{}:instance-counter", self.prefix)
    }

    /// Every instance that has joined and not yet been cleared away.
    pub fn instances(&self) -> String {
        format!("{}:instances", self.prefix)
    }

    /// Present while instance `n` is alive (a heartbeat with a TTL).
    pub fn alive(&self, n: u64) -> String {
        format!("{}:alive:{n}", self.prefix)
    }

    /// The tables instance `n` owns.
    pub fn owned(&self, n: u64) -> String {
        format!("{}:owned:{n}", self.prefix)
    }

    /// The counter that numbers tables (and series) across the cluster.
    pub fn table_counter(&self) -> String {
        format!("{}:table-counter", self.prefix)
    }

    /// Which instance owns table `id`.
    pub fn owner(&self, id: u64) -> String {
        format!("{}:owner:{id}", self.prefix)
    }

    /// The table of a private room.
    pub fn room(&self, code: &str) -> String {
        format!("{}:room:{code}", self.prefix)
    }

    /// The tables waiting for an opponent with these options, oldest first.
    pub fn pool(&self, options: &TableOptions) -> String {
        format!("{}:pool:{}", self.prefix, pool_name(options))
    }

    /// Held while one instance matches players in that pool.
    pub fn pool_lock(&self, options: &TableOptions) -> String {
        format!("{}:pool-lock:{}", self.prefix, pool_name(options))
    }

    /// The listed tables' ids.
    pub fn listed(&self) -> String {
        format!("{}:listed", self.prefix)
    }

    /// Table `id`'s public snapshot (JSON), while it is listed.
    pub fn slot(&self, id: u64) -> String {
        format!("{}:slot:{id}", self.prefix)
    }

    /// Where instance `n` hears questions, frames and answers.
    pub fn inbox(&self, n: u64) -> String {
        format!("{}:inbox:{n}", self.prefix)
    }

    /// Where owners announce changed snapshots.
    pub fn slot_news(&self) -> String {
        format!("{}:slot-news", self.prefix)
    }
}

/// A pool's name: its options, in a fixed order.
fn pool_name(o: &TableOptions) -> String {
    let clock = o.time_control.map_or("none".to_string(), |t| format!("{}+{}", t.base_ms, t.increment_ms));
    format!("{}x{}-bo{}-swap{}-{clock}", o.size, o.size, o.series_length, u8::from(o.swap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_under_the_prefix_and_pools_differ_by_options() {
        let keys = Keys::new("t1");
        let a = TableOptions { size: 11, series_length: 1, swap: false, time_control: None };
        let b = TableOptions { swap: true, ..a };
        assert_ne!(keys.pool(&a), keys.pool(&b));
        for k in [keys.alive(3), keys.owner(5), keys.room("ABCD"), keys.pool(&a), keys.inbox(2), keys.slot_news()] {
            assert!(k.starts_with("t1:"), "{k}");
        }
    }
}
