//! The directory against the Redis server on this machine, each test under
//! a fresh prefix that is removed afterwards.

use super::{Cluster, Settings};
use crate::online::TableOptions;

const REDIS: &str = "redis://127.0.0.1:6379/0";

/// Joins a cluster under a fresh prefix, or `None` (loudly) without Redis.
async fn join(prefix: &str) -> Option<Cluster> {
    let settings = Settings { url: REDIS.into(), prefix: prefix.into() };
    match Cluster::join(&settings).await {
        Ok(c) => Some(c),
        Err(e) => {
            eprintln!("\n!!!!!!!! SKIPPED: no Redis at {REDIS} ({e}); scripts/test.sh starts the machine's Redis.\n");
            None
        }
    }
}

fn fresh_prefix(test: &str) -> String {
    let unique = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("hexarena-unit-{test}-{}-{unique}", std::process::id())
}

async fn clean(cluster: &Cluster) {
    let mut redis = cluster.redis();
    let keys: Vec<String> =
        redis::cmd("KEYS").arg(format!("{}:*", cluster.keys().prefix())).query_async(&mut redis).await.unwrap();
    if !keys.is_empty() {
        let _: () = redis::cmd("DEL").arg(keys).query_async(&mut redis).await.unwrap();
    }
}

const OPTIONS: TableOptions = TableOptions { size: 9, series_length: 1, swap: false, time_control: None };

#[tokio::test]
async fn a_table_has_one_owner_until_that_owner_stops() {
    let prefix = fresh_prefix("claim");
    let (Some(a), Some(b)) = (join(&prefix).await, join(&prefix).await) else { return };
    assert_ne!(a.instance(), b.instance());
    a.number_tables_after(41).await.unwrap();
    let id = b.next_table_id().await.unwrap();
    assert_eq!(id, 42, "numbers follow the archive's last");
    assert!(a.claim(id).await.unwrap());
    assert!(!b.claim(id).await.unwrap(), "a live owner keeps its table");
    assert_eq!(b.owner_of(id).await.unwrap(), Some(a.instance()));
    assert!(a.claim(id).await.unwrap(), "claiming one's own table again is harmless");
    a.leave().await;
    assert!(!b.is_alive(a.instance()).await.unwrap());
    assert!(b.claim(id).await.unwrap(), "a stopped owner's table is taken over");
    assert_eq!(b.owner_of(id).await.unwrap(), Some(b.instance()));
    assert_eq!(a.lost(&[id, 99]).await.unwrap(), vec![id], "the old owner learns it lost the table");
    a.forget_table(id, None, OPTIONS).await.unwrap();
    assert_eq!(b.owner_of(id).await.unwrap(), Some(b.instance()), "the old owner's cleanup spares the new owner");
    assert_eq!(a.owned_by(a.instance()).await.unwrap(), Vec::<u64>::new());
    assert_eq!(b.owned_by(b.instance()).await.unwrap(), vec![id]);
    b.clear_instance(a.instance()).await.unwrap();
    assert_eq!(b.instances().await.unwrap(), vec![b.instance()]);
    // An instance cleared away while it was slow comes back with its next beat.
    a.beat().await.unwrap();
    let mut instances = b.instances().await.unwrap();
    instances.sort_unstable();
    assert_eq!(instances, vec![a.instance(), b.instance()]);
    a.leave().await;
    b.forget_table(id, None, OPTIONS).await.unwrap();
    assert_eq!(b.owner_of(id).await.unwrap(), None, "the owner's cleanup removes it");
    assert!(b.lost(&[id]).await.unwrap().is_empty());
    clean(&b).await;
}

#[tokio::test]
async fn room_codes_are_unique_and_pools_are_locked_one_instance_at_a_time() {
    let prefix = fresh_prefix("rooms");
    let (Some(a), Some(b)) = (join(&prefix).await, join(&prefix).await) else { return };
    assert!(a.reserve_room("ABCDEF", 1).await.unwrap());
    assert!(a.claim(1).await.unwrap());
    assert!(!b.reserve_room("ABCDEF", 2).await.unwrap(), "a code is one room's");
    assert_eq!(b.room("ABCDEF").await.unwrap(), Some(1));
    assert_eq!(b.room("ZZZZZZ").await.unwrap(), None);
    a.forget_table(1, Some("ABCDEF"), OPTIONS).await.unwrap();
    assert_eq!(b.room("ABCDEF").await.unwrap(), None, "a closed room's code is free again");

    let lock = a.lock_pool(&OPTIONS).await.unwrap();
    let waiting = tokio::spawn({
        let b = b.clone();
        async move {
            let started = std::time::Instant::now();
            let lock = b.lock_pool(&OPTIONS).await.unwrap();
            b.unlock_pool(lock).await;
            started.elapsed()
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    a.unlock_pool(lock).await;
    let waited = waiting.await.unwrap();
    assert!(waited >= std::time::Duration::from_millis(150), "the second instance waited ({waited:?})");

    a.push_waiting(&OPTIONS, 7).await.unwrap();
    a.push_waiting(&OPTIONS, 8).await.unwrap();
    b.remove_waiting(&OPTIONS, 7).await.unwrap();
    assert_eq!(b.pop_waiting(&OPTIONS).await.unwrap(), Some(8));
    assert_eq!(b.pop_waiting(&OPTIONS).await.unwrap(), None);
    clean(&a).await;
}

#[tokio::test]
async fn listed_snapshots_come_and_go() {
    let prefix = fresh_prefix("slots");
    let Some(a) = join(&prefix).await else { return };
    let snapshot = |id: u64| {
        let mut table = crate::server::hub::table::Table::new(id, OPTIONS, None, 30_000);
        let who = crate::server::hub::table::Arrival { name: Some("Ann".into()), ..Default::default() };
        table.join(who, "token".into(), 0).unwrap();
        serde_json::to_string(&table.snapshot()).unwrap()
    };
    a.announce_slots(&[(5, Some(snapshot(5))), (3, Some(snapshot(3)))]).await.unwrap();
    let ids: Vec<u64> = a.listed_slots().await.unwrap().iter().map(|s| s.slot_id).collect();
    assert_eq!(ids, [3, 5]);
    a.announce_slot(5, None).await.unwrap();
    let ids: Vec<u64> = a.listed_slots().await.unwrap().iter().map(|s| s.slot_id).collect();
    assert_eq!(ids, [3]);
    // An expired snapshot (its owner stopped renewing it) drops off the list.
    let _: () = redis::cmd("DEL").arg(a.keys().slot(3)).query_async(&mut a.redis()).await.unwrap();
    assert!(a.listed_slots().await.unwrap().is_empty());
    clean(&a).await;
}
