use proptest::prelude::*;

use super::*;
use crate::engine::cell::Cell;
use crate::engine::color::Color;
use crate::engine::error::{MoveError, NotationError};
use crate::engine::properties::arb_game;

fn record(text: &str) -> Record {
    Record::from_text(text, 11).unwrap()
}

#[test]
fn sgf_export_is_hexgui_style_and_transposed() {
    // Red c2 is q=2, r=1; HexGui's Black plays the transposed b3.
    let r = record("5x5 c2 swap a1");
    assert_eq!(
        r.to_sgf(),
        format!("(;FF[4]AP[hexarena:{}]GM[11]SZ[5];B[b3];W[swap-pieces];B[a1])", env!("CARGO_PKG_VERSION"))
    );
    assert_eq!(Record::from_sgf(&r.to_sgf()), Ok(r));
}

#[test]
fn a_hexgui_file_with_extra_properties_and_variations_is_read() {
    let sgf = "(;FF[4]AP[HexGui:0.9.GIT]CA[UTF-8]GM[11]SZ[7]PB[alice]PW[bob]\n\
               ;B[d4]C[centre \\] opening];W[c5](;B[e3];W[resign])(;B[a1]))";
    let r = Record::from_sgf(sgf).unwrap();
    assert_eq!(r.size, 7);
    let moves: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["d4", "e3", "c5"]);
}

#[test]
fn sgf_errors_say_what_and_where() {
    let err = |s: &str| Record::from_sgf(s).unwrap_err();
    assert_eq!(err("(;GM[1]SZ[9])").kind, RecordErrorKind::NotHex("1".into()));
    assert_eq!(err("(;GM[11]SZ[25])").kind, RecordErrorKind::BadSize("25".into()));
    assert_eq!(err("(;GM[11]SZ[5:7])").kind, RecordErrorKind::BadSize("5:7".into()));
    assert_eq!(err("(;SZ[5];W[a1])").kind, RecordErrorKind::WrongColour { number: 1, expected: Color::Red });
    let e = err("(;SZ[5];B[a1];W[a1])");
    assert_eq!(e.kind, RecordErrorKind::IllegalMove { number: 2, error: MoveError::Occupied(Cell::new(0, 0)) });
    assert_eq!(e.offset, 14);
    assert!(matches!(err("(;SZ[5];B[z9])").kind, RecordErrorKind::BadCell(NotationError::BadColumn('z'))));
    assert!(matches!(err("(;SZ[5];B[a1]").kind, RecordErrorKind::Syntax(_)));
    assert!(matches!(err("(;SZ[5];B[a1").kind, RecordErrorKind::Syntax(_)));
    assert!(matches!(err("(;AB[a1])").kind, RecordErrorKind::Unsupported(_)));
    assert!(matches!(err("(;B[a1];W[swap-sides])").kind, RecordErrorKind::Unsupported(_)));
    assert!(matches!(err("(;B[resign];W[a1])").kind, RecordErrorKind::Syntax(_)));
}

#[test]
fn trmph_round_trips_with_swap_as_the_repeated_first_cell() {
    let r = record("9x9 c7 swap e5");
    // Red c7 (q=2, r=6) is trmph's g3; the swap repeats it.
    assert_eq!(r.to_trmph(), "https://trmph.com/hex/board#9,g3g3e5");
    assert_eq!(Record::from_trmph(&r.to_trmph()), Ok(r.clone()));
    assert_eq!(Record::from_trmph("9,g3g3e5"), Ok(r));
}

#[test]
fn trmph_errors_are_typed() {
    let err = |s: &str| Record::from_trmph(s).unwrap_err().kind;
    assert_eq!(err("#2,a1"), RecordErrorKind::BadSize("2".into()));
    assert!(matches!(err("#5a1"), RecordErrorKind::Syntax(_)));
    assert!(matches!(err("#5,a1!"), RecordErrorKind::Syntax(_)));
    assert!(matches!(err("#5,a9"), RecordErrorKind::BadCell(NotationError::OffBoard { .. })));
    assert!(matches!(err("#5,a1b1a1"), RecordErrorKind::IllegalMove { number: 3, .. }));
}

#[test]
fn move_lists_accept_numbers_separators_and_a_size() {
    let r = Record::from_text("1. e5 2. swap, 3. C3;", 9).unwrap();
    assert_eq!(r.size, 9);
    assert_eq!(r.to_text(), "9x9 e5 swap c3");
    assert_eq!(Record::from_text("7x7", 11).unwrap().size, 7);
    let e = Record::from_text("5x5 a1 b2 q9", 11).unwrap_err();
    assert_eq!(e.offset, 10);
    assert!(matches!(e.kind, RecordErrorKind::BadCell(_)));
    assert!(matches!(Record::from_text("5x6 a1", 11).unwrap_err().kind, RecordErrorKind::BadSize(_)));
    assert!(matches!(
        Record::from_text("a1 b1 swap", 5).unwrap_err().kind,
        RecordErrorKind::IllegalMove { number: 3, .. }
    ));
}

#[test]
fn the_format_is_recognised() {
    let (_, f) = Record::parse("  (;GM[11]SZ[5];B[a1])", 11).unwrap();
    assert_eq!(f, RecordFormat::Sgf);
    let (r, f) = Record::parse("https://trmph.com/hex/board#5,a1", 11).unwrap();
    assert_eq!((f, r.size), (RecordFormat::Trmph, 5));
    let (r, f) = Record::parse("a1 b2", 6).unwrap();
    assert_eq!((f, r.size), (RecordFormat::Text, 6));
    assert_eq!(Record::parse(" \n", 6).unwrap_err().kind, RecordErrorKind::Empty);
}

#[test]
fn a_record_with_moves_after_the_win_is_refused() {
    let e = Record::from_text("3x3 a2 a1 b2 b1 c2 c1", 3).unwrap_err();
    assert_eq!(e.kind, RecordErrorKind::IllegalMove { number: 6, error: MoveError::GameOver });
}

proptest! {
    #[test]
    fn every_format_round_trips(game in arb_game(), format in prop_oneof![
        Just(RecordFormat::Text), Just(RecordFormat::Sgf), Just(RecordFormat::Trmph)
    ]) {
        let record = Record::from_game(&game);
        let written = record.write(format);
        let (read, detected) = Record::parse(&written, 11).unwrap();
        prop_assert_eq!(detected, format);
        prop_assert_eq!(&read, &record);
        prop_assert_eq!(read.to_game(game.swap_allowed()).unwrap(), game);
    }

    #[test]
    fn exported_sgf_keeps_the_winner_under_the_community_orientation(game in arb_game()) {
        // Read the SGF as HexGui would, with no help from our engine: Black
        // moves first and must join SGF row 1 to row n; swap-pieces turns
        // Black's first stone into White's on the mirrored cell.
        let size = game.size() as i32;
        let sgf = Record::from_game(&game).to_sgf();
        let mut board = std::collections::HashMap::new();
        for part in sgf.split(';').skip(2) {
            let colour = &part[..1];
            let value = &part[2..part.find(']').unwrap()];
            if value == "swap-pieces" {
                let (&(c, r), _) = board.iter().next().unwrap();
                board.clear();
                board.insert((r, c), "W");
                continue;
            }
            let c = value.as_bytes()[0] as i32 - 'a' as i32;
            let r: i32 = value[1..].parse::<i32>().unwrap() - 1;
            board.insert((c, r), if colour == "B" { "B" } else { "W" });
        }
        let joins = |who: &str, along_rows: bool| {
            let coord = |&(c, r): &(i32, i32)| if along_rows { r } else { c };
            let mut stack: Vec<(i32, i32)> =
                board.iter().filter(|(k, v)| **v == who && coord(k) == 0).map(|(k, _)| *k).collect();
            let mut seen: std::collections::HashSet<(i32, i32)> = stack.iter().copied().collect();
            while let Some((c, r)) = stack.pop() {
                if coord(&(c, r)) == size - 1 { return true; }
                for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let n = (c + dc, r + dr);
                    if board.get(&n) == Some(&who) && seen.insert(n) { stack.push(n); }
                }
            }
            false
        };
        prop_assert_eq!(joins("B", true), game.winner() == Some(Color::Red));
        prop_assert_eq!(joins("W", false), game.winner() == Some(Color::Blue));
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = Record::parse(&text, 9);
        let _ = Record::from_sgf(&text);
        let _ = Record::from_trmph(&text);
        let _ = Record::from_text(&text, 9);
    }

    #[test]
    fn mangled_records_give_errors_not_panics(game in arb_game(), cut in 0usize..400, junk in "[\\[\\]();a-z0-9\\\\#,: ]{0,6}") {
        for format in [RecordFormat::Text, RecordFormat::Sgf, RecordFormat::Trmph] {
            let mut text = Record::from_game(&game).write(format);
            let at = cut.min(text.len());
            text.insert_str(at, &junk);
            if let Err(e) = Record::parse(&text, 11) {
                prop_assert!(e.offset <= text.len());
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}
