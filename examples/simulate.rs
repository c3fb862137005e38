//! A long simulation: `cargo run --release --features ssr --example simulate --
//! --games 5000 --seed 7`. Starts a server on loopback with the judge on,
//! plays the games with random, engine and hostile agents, and prints what
//! happened; replays of any broken table go to `tests/regressions/`.

#[path = "../tests/common/mod.rs"]
mod common;
#[path = "../tests/common/sim.rs"]
mod sim;

use std::time::Duration;

fn arg(args: &[String], name: &str, default: u64) -> Result<u64, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(default),
        Some(i) => args.get(i + 1).and_then(|v| v.parse().ok()).ok_or_else(|| format!("{name} needs a whole number")),
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan = match (|| {
        Ok::<_, String>(sim::Plan {
            games: arg(&args, "--games", 2000)?,
            seed: arg(&args, "--seed", 1)?,
            pairs: arg(&args, "--pairs", 16)? as usize,
            faults_per_mille: arg(&args, "--faults", 60)?,
            deadline: Duration::from_secs(arg(&args, "--minutes", 30)? * 60),
        })
    })() {
        Ok(plan) => plan,
        Err(e) => {
            eprintln!("simulate: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let addr = common::start_server_with(sim::server_config()).await;
    let report = sim::run(addr, plan).await;
    println!(
        "games {} · moves {} · faults injected {} · spectators {} · judge violations {} · {:.1} s ({:.0} games/s)",
        report.games,
        report.actions,
        report.faults,
        report.spectators,
        report.violations,
        report.elapsed.as_secs_f64(),
        report.games as f64 / report.elapsed.as_secs_f64()
    );
    if report.violations == 0 { std::process::ExitCode::SUCCESS } else { std::process::ExitCode::FAILURE }
}
