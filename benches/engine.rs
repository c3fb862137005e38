//! `cargo bench --bench engine [-- --quick]`: playout and search speed of
//! the engine on one core. Targets: ≥ 1,000,000 uniform playouts/s and
//! ≥ 30,000 MCTS iterations/s on 11×11.

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    print!("{}", hexarena::engine::bench::report(quick));
}
