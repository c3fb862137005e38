//! `cargo run --release --example solve_one -- N CELLS [BUDGET]`: prove
//! the position after CELLS (moves in turn, comma-separated, Red first) on
//! an N×N board, or the empty board with `-`.

fn main() {
    let mut args = std::env::args().skip(1);
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
    let s = hexarena::engine::solver::solve(&p, budget);
    let within = s.winner_stones.map(|k| format!(", winner needs at most {k} more stones")).unwrap_or_default();
    println!(
        "{n}x{n} after {cell}: {:?}{within}, {} nodes, {:.1} s",
        s.verdict,
        s.nodes,
        start.elapsed().as_secs_f64()
    );
}
