//! GTP sessions from script to answers: the commands, moves in HexGui's
//! orientation, the solver's rulings, clocks, and bad input.

use super::*;

fn session(script: &str) -> String {
    session_with(GtpOptions { level: Level::Beginner, ..GtpOptions::default() }, script)
}

fn session_with(options: GtpOptions, script: &str) -> String {
    let mut gtp = Gtp::new(options);
    let mut out = Vec::new();
    gtp.run(script.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_basic_commands_answer_as_gtp_says() {
    let out = session("1 name\nprotocol_version\n# a comment\n\nknown_command genmove\nfoo\nquit\nname\n");
    assert_eq!(out, "=1 hexarena\n\n= 2\n\n= true\n\n? unknown command 'foo'\n\n=\n\n");
}

#[test]
fn the_solver_rules_on_who_wins() {
    // The first player wins 3×3; after an opening in the corner, which
    // loses on 3×3 (published map), White does.
    let out = session(
        "boardsize 3\nhexarena-solve\nplay b a1\nhexarena-solve 1000000\nhexarena-solve 0\nplay w b2\nplay b a3\nplay w c1\nplay b a2\nhexarena-solve\nquit\n",
    );
    let answers: Vec<&str> = out.split("\n\n").filter(|a| a.starts_with(['=', '?'])).collect();
    assert_eq!(answers[1], "= b", "{out}");
    assert_eq!(answers[3], "= w", "{out}");
    assert!(answers[4].starts_with("? hexarena-solve takes"), "{out}");
    assert_eq!(answers[9], "= b", "a decided game: its winner ({out})");
}

#[test]
fn the_analysis_lists_five_moves_or_as_many_as_asked() {
    let out = session("boardsize 7\nplay b d4\nhexarena-analyze 10000\nhexarena-analyze 10000 12\nquit\n");
    let answers: Vec<&str> = out.split("\n\n").filter(|a| a.starts_with(['=', '?'])).collect();
    let listed = |answer: &str| {
        let lines: Vec<&str> = answer.trim_start_matches('=').trim().lines().collect();
        for line in &lines {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "vertex, rate, visits: {line}");
            assert!(fields[1].parse::<f32>().is_ok_and(|r| (0.0..=1.0).contains(&r)), "{line}");
        }
        lines.len()
    };
    assert_eq!(listed(answers[2]), 5, "{out}");
    assert_eq!(listed(answers[3]), 12, "{out}");
}

#[test]
fn the_analysis_searches_with_the_sessions_settings() {
    let script = "boardsize 7\nplay b d4\nhexarena-analyze 10000 3\nquit\n";
    let default = session(script);
    let again = session(script);
    let wide = SearchConfig { exploration: 2.0, ..SearchConfig::default() };
    let explored = session_with(GtpOptions { search: wide, ..GtpOptions::default() }, script);
    // The same settings give the same search; a far larger exploration
    // spreads the visits differently.
    assert_eq!(default, again);
    assert_ne!(default, explored, "{explored}");
}

#[test]
fn moves_are_transposed_and_the_winner_reported() {
    // HexGui's black plays a1 a2 a3 down its first column: on our board
    // that is Red's row 1, left to right.
    let out =
        session("boardsize 3\nplay b a1\nplay w c2\nplay b a2\nplay w c1\nplay b a3\nfinal_score\nshowboard\nquit\n");
    assert!(out.contains("= B+\n\n"), "{out}");
    assert!(out.contains(" 1 B . W"), "{out}");
}

#[test]
fn the_game_so_far_is_written_as_hexgui_sgf() {
    let out = session("boardsize 5\nplay b c3\nplay w swap-pieces\nplay b a2\nhexarena-sgf\nquit\n");
    // HexGui's a2 is our b1: SGF is in HexGui's orientation, as GTP is.
    assert!(out.contains("GM[11]SZ[5];B[c3];W[swap-pieces];B[a2])\n\n"), "{out}");
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let out = session(
        "boardsize 42\nboardsize x\nplay b z9\nplay w a1\nplay b a1\nplay w a1\nundo\nundo\nhexarena-analyze 0\nhexarena-analyze 10000 0\nquit\n",
    );
    let answers: Vec<&str> = out.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert!(answers[0].starts_with("? unacceptable size"));
    assert!(answers[1].starts_with("? boardsize needs"));
    assert!(answers[2].starts_with("? 'z' is not a column"));
    assert!(answers[3].starts_with("? it is black's turn"));
    assert_eq!(answers[4], "=");
    assert!(answers[5].starts_with("? illegal move: "), "{}", answers[5]);
    assert_eq!(answers[6], "=");
    assert!(answers[7].starts_with("? cannot undo"));
    assert!(answers[8].starts_with("? hexarena-analyze takes"), "{}", answers[8]);
    assert!(answers[9].starts_with("? hexarena-analyze lists a number of moves from 1"), "{}", answers[9]);
}

#[test]
fn genmove_plays_a_legal_move_and_takes_a_win_in_one() {
    let out = session("boardsize 3\nplay b a1\nplay w c1\nplay b a2\nplay w c2\ngenmove b\nfinal_score\nquit\n");
    assert!(out.contains("= a3\n\n= B+\n\n"), "{out}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    #[test]
    fn arbitrary_command_lines_never_panic_or_break_the_game(
        lines in proptest::collection::vec(
            proptest::prop_oneof![
                "[ -~]{0,40}",
                "(play|boardsize|undo|showboard|final_score|known_command) [bwBWx]? ?[a-u]?[0-9]{0,3}",
                "play [bw] (swap-pieces|swap-sides|resign|pass)",
            ],
            0..40,
        )
    ) {
        let mut gtp = Gtp::new(GtpOptions { level: Level::Beginner, ..GtpOptions::default() });
        for line in &lines {
            let _ = gtp.handle_line(line);
            // The game stays consistent: its record replays to itself.
            let record = crate::engine::Record::from_game(&gtp.game);
            let replayed = record.to_game(gtp.game.swap_allowed()).expect("a valid game");
            proptest::prop_assert_eq!(&replayed, &gtp.game);
        }
    }
}

#[test]
fn moves_under_a_game_clock_are_legal_and_the_clock_commands_check_their_input() {
    let out = session(
        "boardsize 5\ntime_settings 2 0 0\ntime_left b 0.5 0\ngenmove b\ngenmove w\n\
         time_settings 1 x 0\ntime_left g 1 0\ntime_left b -1 0\ntime_left b 1\nhexarena-sgf\nquit\n",
    );
    let replies: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(&replies[..3], ["=", "=", "="], "{out}");
    for genmove in &replies[3..5] {
        let cell = genmove.strip_prefix("= ").unwrap_or_else(|| panic!("no move: {out}"));
        assert!(parse_vertex(cell, 5).is_ok(), "{out}");
    }
    assert!(replies[5..9].iter().all(|r| r.starts_with("? ")), "{out}");
    let record = replies[9];
    assert!(record.matches(";B[").count() == 1 && record.matches(";W[").count() == 1, "two moves: {out}");
}

#[test]
fn genmove_swaps_a_central_opening() {
    let out = session("boardsize 9\nplay b e5\ngenmove w\nshowboard\nquit\n");
    assert!(out.contains("= swap-pieces\n\n"), "{out}");
}

#[test]
fn a_position_the_solver_proves_is_played_to_keep_the_win() {
    // On 5×5 the centre wins for Black whatever White's first answer, but
    // not every Black move after it does: the solver's share of the move's
    // time proves the win, and the move played keeps it.
    let options = GtpOptions { time_per_move: Some(Duration::from_secs(2)), ..GtpOptions::default() };
    let script = "boardsize 5\nplay b c3\nplay w b4\nhexarena-solve\ngenmove b\nhexarena-solve\nquit\n";
    let out = session_with(options, script);
    let answers: Vec<&str> = out.split("\n\n").filter(|a| a.starts_with(['=', '?'])).collect();
    assert_eq!(answers[3], "= b", "Black to move wins ({out})");
    assert_eq!(answers[5], "= b", "and still wins after its move ({out})");
}
