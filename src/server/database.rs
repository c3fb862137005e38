//! The database: a SQLite file by default, PostgreSQL when `DATABASE_URL`
//! says so; created if missing and migrated at start-up.

use std::fmt;

use sqlx::AnyPool;
use sqlx::any::AnyPoolOptions;

/// The embedded default: a SQLite file in the working directory.
pub const DEFAULT_URL: &str = "sqlite://hexarena.db?mode=rwc";

/// Why the database could not be used.
#[derive(Debug)]
pub enum DatabaseError {
    /// The URL names a database kind hexarena does not speak.
    Unsupported(String),
    /// Connecting failed.
    Connect(sqlx::Error),
    /// Applying the migrations failed.
    Migrate(sqlx::migrate::MigrateError),
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseError::Unsupported(url) => {
                write!(f, "DATABASE_URL '{url}' is not supported: use sqlite://… or postgres://…")
            }
            DatabaseError::Connect(e) => write!(f, "cannot connect to the database: {e}"),
            DatabaseError::Migrate(e) => write!(f, "cannot apply the database migrations: {e}"),
        }
    }
}

impl std::error::Error for DatabaseError {}

/// Opens the database at `url` (the SQLite default when `None`) and,
/// unless `migrate` is false, applies the migrations under `migrations/`.
pub async fn open(url: Option<&str>, migrate: bool) -> Result<AnyPool, DatabaseError> {
    sqlx::any::install_default_drivers();
    let url = url.unwrap_or(DEFAULT_URL);
    if !["sqlite:", "postgres:", "postgresql:"].iter().any(|p| url.starts_with(p)) {
        // Never echo credentials: keep only the scheme.
        let scheme = url.split(':').next().unwrap_or_default();
        return Err(DatabaseError::Unsupported(format!("{scheme}:…")));
    }
    let pool = AnyPoolOptions::new()
        .max_connections(8)
        .after_connect(|conn, _| {
            Box::pin(async move {
                if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                    // Write-ahead logging without a sync per commit: a
                    // commit survives the process being killed (what the
                    // journal of games in play needs) at the cost of a
                    // syscall, not a disk flush; readers never wait for
                    // the writer. The wait covers the archive and the
                    // journal writing at the same moment.
                    for pragma in
                        ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 5000"]
                    {
                        sqlx::query(pragma).execute(&mut *conn).await?;
                    }
                }
                Ok(())
            })
        })
        .connect(url)
        .await
        .map_err(DatabaseError::Connect)?;
    if migrate {
        sqlx::migrate!("./migrations").run(&pool).await.map_err(DatabaseError::Migrate)?;
    }
    Ok(pool)
}

/// Rows per multi-row statement, largest first: a few fixed sizes, so each
/// statement is prepared once and then found in the connection's cache.
const ROW_CHUNKS: [usize; 4] = [64, 16, 4, 1];

/// Splits `rows` into runs of the sizes in [`ROW_CHUNKS`], for inserts of
/// many rows in few statements.
pub fn row_chunks<T>(rows: &[T]) -> impl Iterator<Item = &[T]> {
    let mut rest = rows;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let size = ROW_CHUNKS.iter().copied().find(|&n| n <= rest.len()).unwrap_or(1);
        let (chunk, tail) = rest.split_at(size);
        rest = tail;
        Some(chunk)
    })
}

/// `($1, $2), ($3, $4)…`: the placeholders of `rows` rows of `columns`
/// values each (only placeholders: every value is bound).
pub fn values_placeholders(rows: usize, columns: usize) -> String {
    (0..rows)
        .map(|row| {
            let cells: Vec<String> = (1..=columns).map(|c| format!("${}", row * columns + c)).collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_go_in_few_statements_of_fixed_sizes() {
        let rows: Vec<u32> = (0..87).collect();
        let sizes: Vec<usize> = row_chunks(&rows).map(<[u32]>::len).collect();
        assert_eq!(sizes, [64, 16, 4, 1, 1, 1]);
        assert_eq!(row_chunks(&rows).flatten().copied().collect::<Vec<_>>(), rows);
        assert_eq!(row_chunks::<u32>(&[]).count(), 0);
        assert_eq!(values_placeholders(2, 3), "($1, $2, $3), ($4, $5, $6)");
    }
}
