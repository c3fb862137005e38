//! `cargo run --release --example solve_openings -- N [BUDGET] [-v]`:
//! classify every opening of an N×N board with the solver and print the
//! map; with `-v`, also each opening's verdict, time and positions.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let mut numbers = args.iter().filter(|a| *a != "-v");
    let n: u8 = numbers.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let budget: u64 = numbers.next().and_then(|a| a.parse().ok()).unwrap_or(2_000_000);
    let results = hexarena::engine::bench::solve_openings(n, budget);
    if verbose {
        for r in &results {
            println!("{}", r.line("Red"));
        }
    }
    print!("{}", hexarena::engine::bench::openings_report(n, budget, &results));
}
