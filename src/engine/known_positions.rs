//! Hand-checked positions from `testdata/known_positions.txt`.

use super::*;

struct Known {
    name: String,
    size: u8,
    winner: Option<Color>,
    chain: Option<Vec<String>>,
    rows: Vec<String>,
}

fn load() -> Vec<Known> {
    let text = include_str!("testdata/known_positions.txt");
    let mut out: Vec<Known> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(name) = line.strip_prefix("= ") {
            out.push(Known { name: name.into(), size: 0, winner: None, chain: None, rows: vec![] });
            continue;
        }
        let k = out.last_mut().expect("a position starts with '= name'");
        if let Some(s) = line.strip_prefix("size ") {
            k.size = s.parse().unwrap();
        } else if let Some(w) = line.strip_prefix("winner ") {
            k.winner = match w {
                "red" => Some(Color::Red),
                "blue" => Some(Color::Blue),
                _ => None,
            };
        } else if let Some(c) = line.strip_prefix("chain ") {
            k.chain = Some(c.split_whitespace().map(String::from).collect());
        } else {
            k.rows.push(line.split_whitespace().collect());
        }
    }
    out
}

#[test]
fn known_positions_have_their_known_winner_and_chain() {
    let all = load();
    assert!(all.len() >= 8);
    for k in all {
        let mut p = Position::new(k.size).unwrap();
        assert_eq!(k.rows.len(), k.size as usize, "{}", k.name);
        for (r, row) in k.rows.iter().enumerate() {
            assert_eq!(row.len(), k.size as usize, "{}", k.name);
            for (q, ch) in row.chars().enumerate() {
                let cell = Cell::new(q as u8, r as u8);
                match ch {
                    'R' => p.put(cell, Color::Red),
                    'B' => p.put(cell, Color::Blue),
                    _ => {}
                }
            }
        }
        let expected = k.winner;
        assert_eq!(p.winner(), expected, "{}", k.name);
        assert_eq!(p.winner_by_flood_fill(), expected, "{}", k.name);
        if let Some(chain) = k.chain {
            let got: Vec<String> = p.winning_chain().unwrap().iter().map(|c| c.to_string()).collect();
            assert_eq!(got, chain, "{}", k.name);
        }
    }
}
