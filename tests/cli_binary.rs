//! The real `hexarena` binary's command line: a scripted GTP session over
//! its stdin/stdout, and `analyze` printing JSON.
#![cfg(feature = "ssr")]

use std::io::Write;
use std::process::{Command, Stdio};

fn hexarena(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexarena"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the hexarena binary");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write the script");
    let out = child.wait_with_output().expect("wait for hexarena");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_scripted_gtp_session_gives_the_expected_transcript() {
    let script = "\
1 name
2 protocol_version
3 boardsize 5
4 play b c3
5 play w swap-pieces
6 play b b2
7 genmove w
8 undo
9 undo
10 showboard
11 play x a1
12 final_score
13 quit
";
    let (ok, out, _) = hexarena(&["gtp", "--level", "beginner"], script);
    assert!(ok);
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 13, "{out}");
    assert_eq!(answers[0], "=1 hexarena");
    assert_eq!(answers[1], "=2 2");
    assert_eq!(answers[2], "=3");
    assert_eq!(answers[3], "=4");
    assert_eq!(answers[4], "=5");
    assert_eq!(answers[5], "=6");
    let genmove = answers[6].strip_prefix("=7 ").expect("a generated move");
    assert!(genmove.len() >= 2 && genmove.as_bytes()[0].is_ascii_lowercase(), "{genmove}");
    assert_eq!(answers[7], "=8");
    assert_eq!(answers[8], "=9");
    // After undoing the generated move and b2, only the swapped stone is
    // left: black's c3 became white's, on the mirrored cell (still c3 on
    // the diagonal), and it is black's turn.
    assert!(answers[9].contains(" 3   . . W . ."), "{}", answers[9]);
    assert!(answers[9].contains("black (Red) to move"), "{}", answers[9]);
    assert!(answers[10].starts_with("?11 'x' is not a colour"));
    assert_eq!(answers[11], "?12 the game is not over");
    assert_eq!(answers[12], "=13");
}

#[test]
fn gtp_thinks_for_a_time_per_move_in_cpu_time() {
    // White answers in a corner, which the engine's opening never takes.
    let script = "boardsize 7\ngenmove b\nplay w a1\ngenmove b\nshowboard\nquit\n";
    // The search's settings may be changed from the command line.
    let (ok, out, err) = hexarena(
        &[
            "gtp",
            "--time-per-move",
            "0.2",
            "--cpu-time",
            "--extend",
            "1.5",
            "--no-swap",
            "--search",
            "near=3:1.5,rave_prior=2",
        ],
        script,
    );
    assert!(ok, "{err}");
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 6, "{out}");
    for generated in [answers[1], answers[3]] {
        let vertex = generated.strip_prefix("= ").expect("a generated move");
        assert!(vertex.len() >= 2 && vertex.as_bytes()[0].is_ascii_lowercase(), "{out}");
    }
    // Both generated black stones are on the board.
    let black: usize = answers[4].lines().filter(|l| !l.starts_with("B =")).map(|l| l.matches(" B").count()).sum();
    assert_eq!(black, 2, "{}", answers[4]);
}

#[test]
fn analyze_prints_the_top_moves_as_json() {
    let (ok, out, err) =
        hexarena(&["analyze", "--size", "5", "--moves", "a3 a1 b3 b1 d3 d1 e3 e1", "--playouts", "500"], "");
    assert!(ok, "{err}");
    assert!(out.contains("\"cell\": \"c3\""), "{out}");
    assert!(out.contains("\"winner\": \"red\""), "{out}");
    assert!(out.contains("\"playouts\""));
}

#[test]
fn bad_command_lines_are_refused_with_a_reason() {
    let (ok, _, err) = hexarena(&["analyze", "--size", "25"], "");
    assert!(!ok);
    assert!(err.contains("not supported"), "{err}");
    let (ok, _, err) = hexarena(&["analyze", "--moves", "a1 a1", "--size", "5"], "");
    assert!(!ok && err.contains("illegal"), "{err}");
    let (ok, _, err) = hexarena(&["gtp", "--level", "godlike"], "");
    assert!(!ok && err.contains("not a level"), "{err}");
    let (ok, _, err) = hexarena(&["frobnicate"], "");
    assert!(!ok && err.contains("unknown command"), "{err}");
    for (args, says) in [
        (&["bench", "--solver", "2"][..], "'2' is not a valid value for --solver"),
        (&["bench", "--solver", "7", "--budget", "0"][..], "'0' is not a valid value for --budget"),
        (&["bench", "--budget", "5"][..], "--budget 5 goes with --solver N"),
        (&["bench", "--fast"][..], "unexpected argument '--fast'"),
        (&["gtp", "--cpu-time"][..], "--cpu-time goes with --time-per-move"),
        (&["gtp", "--extend", "2"][..], "--extend goes with --time-per-move"),
        (&["gtp", "--time-per-move", "1", "--extend", "0.5"][..], "'0.5' is not a valid value for --extend"),
        (&["gtp", "--time-per-move", "1", "--extend", "NaN"][..], "'NaN' is not a valid value for --extend"),
        (&["gtp", "--search", "near=3"][..], "--search: near: '3' is not none or ADJACENT:TWO"),
        (&["gtp", "--search", "speed=9"][..], "--search: unknown setting 'speed'"),
        (&["gtp", "--refute", "3:0"][..], "--refute: `3:0` is not CHOICES[:MAX_EMPTY]"),
        (&["gtp", "--check", "2"][..], "--check: `2` is not SHARE[:MAX_EMPTY[:CHOICES]]"),
        (&["gtp", "--patterns", "/nonexistent/p.txt"][..], "--patterns: cannot read /nonexistent/p.txt"),
        (&["gtp", "--patterns", "Cargo.toml"][..], "must start with 'hexarena-patterns 1'"),
    ] {
        let (ok, out, err) = hexarena(args, "");
        assert!(!ok && err.contains(says) && out.is_empty(), "{args:?}: {err}");
    }
}

#[test]
fn the_solver_bench_prints_the_map_of_openings() {
    let (ok, out, err) = hexarena(&["bench", "--solver", "4", "--budget", "100000"], "");
    assert!(ok, "{err}");
    assert!(out.starts_with("4x4 openings: 16/16 classified"), "{out}");
    // Red's first stone wins on the short diagonal's centre cells (b3, c2)
    // and loses in the acute corners: rows of R (wins) and b (loses).
    let rows: Vec<&str> = out.lines().skip(1).map(str::trim).collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows[0].starts_with('b') && rows[3].ends_with('b'), "{out}");
    assert_eq!(rows[1].split(' ').nth(2), Some("R"), "c2 wins: {out}");
}
