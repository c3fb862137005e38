//! Reading a file of games for the examples that measure the engine on
//! real positions: move lists as `learn_patterns play` writes them
//! (`11x11 c4 f6 …`, one game a line), or the records of
//! `scripts/gtp_match.py --records`.

use hexarena::engine::{Cell, Game, NotationError, Record};

/// `11x11 a2 c5 …` in GTP's vertices, as the same game in our cells.
fn transposed(moves: &str, size: u8) -> Result<String, NotationError> {
    let mut words = moves.split_whitespace();
    let mut out = words.next().unwrap_or_default().to_string();
    for vertex in words {
        out.push(' ');
        out.push_str(&Cell::parse(vertex, size)?.transpose().to_string());
    }
    Ok(out)
}

/// The SIZE×SIZE games of the file at `path` (games of other sizes are
/// skipped).
pub fn games(path: &str, size: u8) -> Result<Vec<Game>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |e: &dyn std::fmt::Display| format!("{path}:{}: {e}", i + 1);
        // A match record has more fields after a tab, and its moves are
        // GTP's vertices: our cells with letter and number exchanged (read
        // as they are, each side would join the other's edges).
        let text = match line.split_once('\t') {
            Some((moves, _)) => transposed(moves, size).map_err(|e| at(&e))?,
            None => line.to_string(),
        };
        let record = Record::from_text(&text, size).map_err(|e| at(&e))?;
        let game = record.to_game(false).map_err(|e| at(&e))?;
        if game.size() == size {
            out.push(game);
        }
    }
    Ok(out)
}
