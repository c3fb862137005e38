//! What the cluster knows about tables: their numbers, owners, room codes,
//! matchmaking pools and public snapshots. Each change that must not race
//! another instance is one Lua script (atomic in Redis) or a lock held for
//! the length of a match-up.

use std::time::Duration;

use redis::AsyncCommands;

use super::{Cluster, ClusterError};
use crate::online::{SlotSnapshot, TableOptions};

/// How long a listed table's snapshot lives in Redis unless its owner
/// renews it: a dead owner's tables drop off the lists on their own.
pub const SLOT_TTL_SECS: u64 = 60;
/// How long one instance may hold a pool while it matches a player.
const POOL_LOCK_MS: u64 = 5_000;

/// Makes this instance the owner of a table if it has none, or if its
/// owner is this instance or no longer alive. KEYS: owner key, this
/// instance's owned set; ARGV: this instance, the table id, the key prefix.
const CLAIM: &str = r"
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. ':alive:' .. owner) == 1 then
  return 0
end
if owner and owner ~= ARGV[1] then
  redis.call('SREM', ARGV[3] .. ':owned:' .. owner, ARGV[2])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
return 1
";

/// Removes a closed table's traces, only while this instance still owns
/// it (another may have taken it over meanwhile). KEYS: owner, owned set,
/// pool, snapshot, listed set, room (or the owner key again); ARGV: this
/// instance, the table id.
const FORGET: &str = r"
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('LREM', KEYS[3], 0, ARGV[2])
redis.call('DEL', KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
if KEYS[6] ~= KEYS[1] and redis.call('GET', KEYS[6]) == ARGV[2] then redis.call('DEL', KEYS[6]) end
return 1
";

/// Raises a counter to at least ARGV[1].
const AT_LEAST: &str = r"
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
";

/// Deletes the lock only if it is still ours.
const UNLOCK: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
";

/// A held pool lock; [`Cluster::unlock_pool`] lets it go.
pub struct PoolLock {
    key: String,
    token: String,
}

impl Cluster {
    /// Makes sure new table numbers come after `last` (the archive's and
    /// the journal's highest), whichever instance starts first.
    pub async fn number_tables_after(&self, last: u64) -> Result<(), ClusterError> {
        let _: i64 = redis::Script::new(AT_LEAST)
            .key(self.keys().table_counter())
            .arg(last)
            .invoke_async(&mut self.redis())
            .await?;
        Ok(())
    }

    /// A new table number, unique across the cluster.
    pub async fn next_table_id(&self) -> Result<u64, ClusterError> {
        Ok(self.redis().incr(self.keys().table_counter(), 1).await?)
    }

    /// Claims table `id` for this instance (see [`CLAIM`]); `true` if it
    /// is now ours.
    pub async fn claim(&self, id: u64) -> Result<bool, ClusterError> {
        let claimed: i64 = redis::Script::new(CLAIM)
            .key(self.keys().owner(id))
            .key(self.keys().owned(self.instance()))
            .arg(self.instance())
            .arg(id)
            .arg(self.keys().prefix())
            .invoke_async(&mut self.redis())
            .await?;
        Ok(claimed == 1)
    }

    /// The instance that owns table `id`, if any.
    pub async fn owner_of(&self, id: u64) -> Result<Option<u64>, ClusterError> {
        Ok(self.redis().get(self.keys().owner(id)).await?)
    }

    /// The tables instance `n` owns.
    pub async fn owned_by(&self, n: u64) -> Result<Vec<u64>, ClusterError> {
        Ok(self.redis().smembers(self.keys().owned(n)).await?)
    }

    /// Every instance that has joined and not been cleared away.
    pub async fn instances(&self) -> Result<Vec<u64>, ClusterError> {
        Ok(self.redis().smembers(self.keys().instances()).await?)
    }

    /// Forgets dead instance `n` once it owns nothing.
    pub async fn clear_instance(&self, n: u64) -> Result<(), ClusterError> {
        let left: u64 = self.redis().scard(self.keys().owned(n)).await?;
        if left == 0 {
            let _: () = self.redis().srem(self.keys().instances(), n).await?;
        }
        Ok(())
    }

    /// Removes every trace of a closed table of ours (none if another
    /// instance owns it now).
    pub async fn forget_table(&self, id: u64, room: Option<&str>, options: TableOptions) -> Result<(), ClusterError> {
        let keys = self.keys();
        let forgotten: i64 = redis::Script::new(FORGET)
            .key(keys.owner(id))
            .key(keys.owned(self.instance()))
            .key(keys.pool(&options))
            .key(keys.slot(id))
            .key(keys.listed())
            .key(room.map_or(keys.owner(id), |code| keys.room(code)))
            .arg(self.instance())
            .arg(id)
            .invoke_async(&mut self.redis())
            .await?;
        if forgotten == 1 {
            let _: () = self.redis().publish(keys.slot_news(), id.to_string()).await?;
        }
        Ok(())
    }

    /// Which of `ids` (tables this instance runs) another instance owns now:
    /// this one lost them (its heartbeat lapsed and they were taken over).
    pub async fn lost(&self, ids: &[u64]) -> Result<Vec<u64>, ClusterError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|&id| self.keys().owner(id)).collect();
        let owners: Vec<Option<u64>> = redis::cmd("MGET").arg(keys).query_async(&mut self.redis()).await?;
        Ok(ids.iter().zip(owners).filter(|(_, o)| o.is_some_and(|o| o != self.instance())).map(|(&id, _)| id).collect())
    }

    /// Lets go of table `id`, which this instance claimed but which had
    /// closed before its owner stopped.
    pub async fn release(&self, id: u64) -> Result<(), ClusterError> {
        let _: () = redis::pipe()
            .del(self.keys().owner(id))
            .srem(self.keys().owned(self.instance()), id)
            .query_async(&mut self.redis())
            .await?;
        Ok(())
    }

    /// Reserves room `code` for table `id`; `false` if another table has it.
    pub async fn reserve_room(&self, code: &str, id: u64) -> Result<bool, ClusterError> {
        let set: Option<String> =
            redis::cmd("SET").arg(self.keys().room(code)).arg(id).arg("NX").query_async(&mut self.redis()).await?;
        Ok(set.is_some())
    }

    /// The table of room `code`, if it is open.
    pub async fn room(&self, code: &str) -> Result<Option<u64>, ClusterError> {
        Ok(self.redis().get(self.keys().room(code)).await?)
    }

    /// Waits (at most a few seconds) to be the only instance matching
    /// players with `options`.
    pub async fn lock_pool(&self, options: &TableOptions) -> Result<PoolLock, ClusterError> {
        let key = self.keys().pool_lock(options);
        let token = crate::server::hub::token::new_token();
        for _ in 0..1_000 {
            let got: Option<String> = redis::cmd("SET")
                .arg(&key)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(POOL_LOCK_MS)
                .query_async(&mut self.redis())
                .await?;
            if got.is_some() {
                return Ok(PoolLock { key, token });
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Err(ClusterError("matchmaking is busy in that pool: try again in a moment".into()))
    }

    pub async fn unlock_pool(&self, lock: PoolLock) {
        let released: Result<i64, _> =
            redis::Script::new(UNLOCK).key(lock.key).arg(lock.token).invoke_async(&mut self.redis()).await;
        if let Err(e) = released {
            tracing::warn!(error = %e, "a matchmaking lock was not released; it expires on its own");
        }
    }

    /// The oldest table waiting in the pool, taken out of it.
    pub async fn pop_waiting(&self, options: &TableOptions) -> Result<Option<u64>, ClusterError> {
        Ok(self.redis().lpop(self.keys().pool(options), None).await?)
    }

    /// Lists table `id` as waiting in its pool.
    pub async fn push_waiting(&self, options: &TableOptions, id: u64) -> Result<(), ClusterError> {
        let _: () = self.redis().rpush(self.keys().pool(options), id).await?;
        Ok(())
    }

    /// Takes table `id` out of its pool.
    pub async fn remove_waiting(&self, options: &TableOptions, id: u64) -> Result<(), ClusterError> {
        let _: () = self.redis().lrem(self.keys().pool(options), 0, id).await?;
        Ok(())
    }

    /// Publishes table `id`'s snapshot (`None`: no longer listed) for every
    /// instance's lists and feeds.
    pub async fn announce_slot(&self, id: u64, json: Option<&str>) -> Result<(), ClusterError> {
        self.announce_slots(&[(id, json.map(str::to_string))]).await
    }

    /// Publishes several tables' snapshots in one round trip.
    pub async fn announce_slots(&self, news: &[(u64, Option<String>)]) -> Result<(), ClusterError> {
        if news.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for (id, json) in news {
            match json {
                Some(json) => {
                    pipe.set_ex(self.keys().slot(*id), json, SLOT_TTL_SECS).ignore();
                    pipe.sadd(self.keys().listed(), id).ignore();
                    pipe.publish(self.keys().slot_news(), format!("{id} {json}")).ignore();
                }
                None => {
                    pipe.del(self.keys().slot(*id)).ignore();
                    pipe.srem(self.keys().listed(), id).ignore();
                    pipe.publish(self.keys().slot_news(), id.to_string()).ignore();
                }
            }
        }
        let _: () = pipe.query_async(&mut self.redis()).await?;
        Ok(())
    }

    /// Keeps the snapshots of this instance's tables from expiring.
    pub async fn renew_slots(&self, ids: &[u64]) -> Result<(), ClusterError> {
        if ids.is_empty() {
            return Ok(());
        }
        let mut pipe = redis::pipe();
        for &id in ids {
            pipe.expire(self.keys().slot(id), SLOT_TTL_SECS as i64).ignore();
        }
        let _: () = pipe.query_async(&mut self.redis()).await?;
        Ok(())
    }

    /// Every listed table's snapshot in the cluster, in id order.
    pub async fn listed_slots(&self) -> Result<Vec<SlotSnapshot>, ClusterError> {
        let ids: Vec<u64> = self.redis().smembers(self.keys().listed()).await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|&id| self.keys().slot(id)).collect();
        let texts: Vec<Option<String>> = redis::cmd("MGET").arg(&keys).query_async(&mut self.redis()).await?;
        let mut out = Vec::new();
        let mut expired = Vec::new();
        for (id, text) in ids.into_iter().zip(texts) {
            match text.map(|t| serde_json::from_str::<SlotSnapshot>(&t)) {
                Some(Ok(s)) => out.push(s),
                Some(Err(e)) => tracing::warn!(table = id, error = %e, "an unreadable snapshot in Redis is skipped"),
                None => expired.push(id),
            }
        }
        if !expired.is_empty() {
            let _: () = self.redis().srem(self.keys().listed(), expired).await?;
        }
        out.sort_by_key(|s| s.slot_id);
        Ok(out)
    }
}
