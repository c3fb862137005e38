//! `cargo run --release --example solve_one -- N CELLS [BUDGET] [--each]`:
//! prove the position after CELLS (moves in turn, comma-separated, Red
//! first) on an N×N board, or the empty board with `-`. With `--each`,
//! prove the position after every reply instead, one after another with
//! one table, and print what each cost: where a proof's positions go.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let each = args.iter().any(|a| a == "--each");
    let mut args = args.into_iter().filter(|a| a != "--each");
    let n: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let cell = args.next().unwrap_or_else(|| "-".into());
    let budget: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000_000);
    let Ok(mut p) = hexarena::engine::Position::new(n) else {
        eprintln!("board size {n} is not supported");
        std::process::exit(2);
    };
    for one in cell.split(',').filter(|c| *c != "-") {
        match hexarena::engine::Cell::parse(one, n) {
            Ok(c) if p.play(c).is_ok() => {}
            _ => {
                eprintln!("'{one}' is not an empty cell of the {n}×{n} board");
                std::process::exit(2);
            }
        }
    }
    let start = std::time::Instant::now();
    if each {
        let results = hexarena::engine::bench::solve_replies(&p, budget);
        for r in &results {
            println!("{}", r.line("reply"));
        }
        let total: u64 = results.iter().map(|r| r.positions).sum();
        println!("{n}x{n} after {cell}: every reply in {total} positions, {:.1} s", start.elapsed().as_secs_f64());
        return;
    }
    let s = hexarena::engine::solver::solve(&p, budget);
    let within = s.winner_stones.map(|k| format!(", winner needs at most {k} more stones")).unwrap_or_default();
    println!(
        "{n}x{n} after {cell}: {:?}{within}, {} nodes, {:.1} s",
        s.verdict,
        s.nodes,
        start.elapsed().as_secs_f64()
    );
}
