//! `cargo run --release --example solve_openings -- N [BUDGET]`: classify
//! every opening of an N×N board with the solver and print the map.

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let budget: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000_000);
    print!("{}", hexarena::engine::bench::solver_report(n, budget));
}
