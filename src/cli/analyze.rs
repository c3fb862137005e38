//! `hexarena analyze`: one position in, the engine's top moves out as JSON.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::args::{Args, ArgsError, parse_duration};
use crate::engine::search::{Proof, SearchConfig, Searcher};
use crate::engine::{Color, Game, Record};

/// The JSON printed for a position, cells in board notation.
#[derive(Debug, Serialize)]
pub struct AnalyzeReport {
    pub size: u8,
    pub to_move: Color,
    pub playouts: u64,
    pub elapsed_ms: u64,
    pub playouts_per_second: u64,
    pub win_rate: f32,
    pub proven: Option<Proof>,
    pub moves: Vec<ReportMove>,
}

/// One move of the report.
#[derive(Debug, Serialize)]
pub struct ReportMove {
    pub cell: String,
    pub visits: u32,
    pub win_rate: f32,
    pub pv: Vec<String>,
    pub proven: Option<Proof>,
}

const USAGE: &str =
    "usage: hexarena analyze --size N [--moves \"a1 b2 …\"] [--time 2s | --playouts N] [--top N] [--swap]";

/// Runs the subcommand on its arguments and returns the JSON text.
pub fn run(args: &[String]) -> Result<String, ArgsError> {
    let mut a = Args::new(args, USAGE);
    let size: u8 = a.value("--size")?.map_or(Ok(11), |s| s.parse().map_err(|_| a.bad("--size", &s)))?;
    let moves = a.value("--moves")?.unwrap_or_default();
    let time = a.value("--time")?.map(|t| parse_duration(&t).ok_or_else(|| a.bad("--time", &t))).transpose()?;
    let playouts = a.value("--playouts")?.map(|p| p.parse::<u64>().map_err(|_| a.bad("--playouts", &p))).transpose()?;
    let top = a.value("--top")?.map_or(Ok(4), |t| t.parse::<usize>().map_err(|_| a.bad("--top", &t)))?;
    let swap = a.flag("--swap");
    a.finish()?;

    let record = Record::from_text(&format!("{size}x{size} {moves}"), size).map_err(|e| ArgsError(e.to_string()))?;
    let game: Game = record.to_game(swap).map_err(|e| ArgsError(e.to_string()))?;
    let mut searcher = Searcher::of_game(&game, SearchConfig::default()).map_err(|e| ArgsError(e.to_string()))?;
    let start = Instant::now();
    match (playouts, time) {
        (Some(n), _) => searcher.run(n),
        (None, t) => {
            let limit = t.unwrap_or(Duration::from_secs(2));
            while start.elapsed() < limit && searcher.proven().is_none() {
                searcher.run(256);
            }
        }
    }
    let elapsed = start.elapsed();
    let a = searcher.analysis(top);
    let report = AnalyzeReport {
        size: a.size,
        to_move: a.to_move,
        playouts: a.playouts,
        elapsed_ms: elapsed.as_millis() as u64,
        playouts_per_second: (a.playouts as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
        win_rate: a.win_rate,
        proven: a.proven,
        moves: a
            .moves
            .iter()
            .map(|m| ReportMove {
                cell: m.cell.to_string(),
                visits: m.visits,
                win_rate: m.win_rate,
                pv: m.pv.iter().map(|c| c.to_string()).collect(),
                proven: m.proven,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&report).map_err(|e| ArgsError(e.to_string()))
}
