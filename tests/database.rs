//! The database opens and migrates itself: a SQLite file created from
//! nothing, and a fresh PostgreSQL database on the local server.
#![cfg(feature = "ssr")]

use hexarena::server::database::open;
use sqlx::AnyPool;

async fn tables_exist(pool: &AnyPool) {
    for table in ["players", "series", "games", "game_moves", "ratings", "rating_changes", "sessions", "bot_tokens"] {
        let count: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!("SELECT COUNT(*) FROM {table}")))
            .fetch_one(pool)
            .await
            .unwrap_or_else(|e| panic!("table {table}: {e}"));
        assert_eq!(count, 0);
    }
}

#[tokio::test]
async fn a_sqlite_file_is_created_and_migrated_twice_without_harm() {
    let dir = std::env::temp_dir().join(format!("hexarena-db-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("hexarena.db");
    let _ = std::fs::remove_file(&file);
    let url = format!("sqlite://{}?mode=rwc", file.display());
    let pool = open(Some(&url), true).await.expect("open and migrate");
    tables_exist(&pool).await;
    pool.close().await;
    assert!(file.exists());
    // A restart finds the migrations applied and changes nothing.
    let pool = open(Some(&url), true).await.expect("reopen");
    tables_exist(&pool).await;
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_unsupported_url_is_refused_without_echoing_it() {
    let err = open(Some("mysql://user:secret@host/db"), true).await.expect_err("refused");
    let text = err.to_string();
    assert!(text.contains("not supported") && !text.contains("secret"), "{text}");
}

#[tokio::test]
async fn a_fresh_postgres_database_is_migrated() {
    let admin_url = std::env::var("HEXARENA_TEST_POSTGRES").unwrap_or("postgres://postgres@127.0.0.1:5432/test".into());
    let admin = match open(Some(&admin_url), false).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("\n!!! SKIPPED: no PostgreSQL at {admin_url} ({e}); CI provides one.\n");
            return;
        }
    };
    let name = format!(
        "hexarena_test_{}_{}",
        std::process::id(),
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0)
    );
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&admin).await.expect("create");
    let url = admin_url.rsplit_once('/').map(|(base, _)| format!("{base}/{name}")).expect("a database path");
    let pool = open(Some(&url), true).await.expect("open and migrate");
    tables_exist(&pool).await;
    pool.close().await;
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE {name}"))).execute(&admin).await.expect("drop");
}
