//! The tree's fast checks on positions of real games, one line a
//! position, for `scripts/gtp_vcs.py` to set beside another engine's
//! virtual connections:
//!
//!     cargo run --release --example fast_checks -- GAMES SIZE EVERY FROM LISTS... > FILE
//!
//! GAMES and the positions taken from them are as for the `fill_in`
//! example (after FROM stones, then after every EVERY-th). Each line holds
//! the moves so far (our cells, Red first), then, tab-separated, what the
//! checks say for the side to move with each LISTS (as `knowledge_reach`
//! reads them: `FULL:SEMI:EDGE_SEMI`, or `all` for H-search between every
//! pair of ends): `won`, `lost`, or `open N` with the N moves they keep.

use hexarena::engine::bench::{Verdict, verdicts};
use hexarena::engine::{ListLimits, Record};

#[path = "shared/games.rs"]
mod games;
#[path = "shared/run.rs"]
mod run;

fn run(args: &[String]) -> Result<(), String> {
    let usage = "usage: fast_checks GAMES SIZE EVERY FROM LISTS...";
    let [path, size, every, from, lists @ ..] = args else { return Err(usage.into()) };
    if lists.is_empty() {
        return Err(usage.into());
    }
    let count = |a: &String, what: &str| {
        a.parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("{usage}: {what} `{a}` is not a positive count"))
    };
    let size = size.parse::<u8>().map_err(|_| format!("{usage}: SIZE `{size}`"))?;
    let (every, from) = (count(every, "EVERY")?, count(from, "FROM")?);
    let limits = lists
        .iter()
        .map(|l| {
            ListLimits::parse(l).ok_or_else(|| format!("{usage}: `{l}` is not three counts from 1 to 1000 or `all`"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let games = games::games(path, size)?;
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for game in &games {
        for k in (from..game.moves().len()).step_by(every) {
            let before = game.prefix(k);
            moves.push(Record::from_game(&before).to_text());
            positions.push(before.position().clone());
        }
    }
    if positions.is_empty() {
        return Err(format!("{path} has no {size}x{size} position after {from} stones"));
    }
    let columns: Vec<Vec<Verdict>> = limits.iter().map(|&l| verdicts(&positions, l)).collect();
    for (i, text) in moves.iter().enumerate() {
        let cells: Vec<String> = columns
            .iter()
            .map(|c| match c[i] {
                Verdict::Won => "won".to_string(),
                Verdict::Lost => "lost".to_string(),
                Verdict::Open { kept } => format!("open {kept}"),
            })
            .collect();
        println!("{text}\t{}", cells.join("\t"));
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    run::main_with(run)
}
