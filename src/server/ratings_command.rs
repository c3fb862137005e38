//! `hexarena ratings --rebuild`: recomputes every rating from the archive
//! (`DATABASE_URL`, or the default SQLite file), for after a change to the
//! rating rules or a repair of the games table.

use std::process::ExitCode;

use crate::server::archive::ratings;
use crate::server::database;

const USAGE: &str = "usage: hexarena ratings --rebuild";

/// Runs the command with its arguments (after `ratings`).
pub async fn run(args: &[String]) -> ExitCode {
    if args != ["--rebuild"] {
        eprintln!("hexarena: {USAGE}");
        return ExitCode::from(2);
    }
    let url = std::env::var("DATABASE_URL").ok().filter(|u| !u.trim().is_empty());
    let pool = match database::open(url.as_deref(), true).await {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("hexarena: {e}");
            return ExitCode::FAILURE;
        }
    };
    match ratings::rebuild(&pool).await {
        Ok(done) => {
            println!("rebuilt {} ratings from {} rated games", done.ratings, done.games);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hexarena: the ratings could not be rebuilt (nothing was changed): {e}");
            ExitCode::FAILURE
        }
    }
}
