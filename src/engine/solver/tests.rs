use super::*;
use crate::engine::position::Position;
use crate::engine::small_boards::{mover_wins as mover_wins_stones, random_stones};
use crate::engine::solver::{Prover, solve, solve_each};
use crate::engine::{Game, Move};

/// Plain minimax with memo, the reference the solver is checked
/// against on tiny boards.
fn mover_wins(p: &Position, memo: &mut HashMap<(u128, u128), bool>) -> bool {
    let key = bits(p);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut win = false;
    for c in p.empty_cells().collect::<Vec<_>>() {
        let mut q = p.clone();
        q.play(c).unwrap();
        if q.winner() == Some(p.to_move()) || !mover_wins(&q, memo) {
            win = true;
            break;
        }
    }
    memo.insert(key, win);
    win
}

fn bits(p: &Position) -> (u128, u128) {
    let f = |c: Color| p.stones(c).iter().fold(0u128, |a, i| a | 1 << i);
    (f(Color::Red), f(Color::Blue))
}

fn after(size: u8, first: Cell) -> Position {
    let mut g = Game::new(size, false).unwrap();
    g.play(Move::Place(first)).unwrap();
    g.position().clone()
}

#[test]
fn every_opening_on_three_and_four_is_classified_like_minimax() {
    for n in [3u8, 4] {
        let mut memo = HashMap::new();
        let mut winners = Vec::new();
        for i in 0..n as usize * n as usize {
            let first = Cell::from_index(i, n);
            let p = after(n, first);
            // Blue to move: Red's opening wins iff Blue loses.
            let expected = !mover_wins(&p, &mut memo);
            let got = solve(&p, 1_000_000);
            assert_ne!(got.verdict, Verdict::Unknown, "{n}×{n} {first}");
            assert_eq!(got.verdict == Verdict::Loss, expected, "{n}×{n} opening {first}");
            if expected {
                winners.push(first.to_string());
            }
        }
        // The centre of the short diagonal always wins.
        assert!(winners.contains(&Cell::new((n - 1) / 2, n / 2).to_string()), "{n}: {winners:?}");
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
fn the_empty_five_by_five_is_a_first_player_win_through_the_centre() {
    let p = Position::new(5).unwrap();
    let got = solve(&p, 5_000_000);
    assert!(matches!(got.verdict, Verdict::Win(ref m) if !m.is_empty()), "{got:?}");
    // After Red's c3, Blue has no defence.
    assert_eq!(solve(&after(5, Cell::new(2, 2)), 5_000_000).verdict, Verdict::Loss);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
fn the_empty_six_by_six_is_a_first_player_win_through_the_centre() {
    let got = solve(&Position::new(6).unwrap(), 2_000_000);
    let Verdict::Win(moves) = got.verdict else { panic!("{got:?}") };
    // Whichever winning moves the search settled on are winning
    // openings of the published map (the centre's and others').
    let map = crate::engine::solver::published_openings(6).expect("published");
    assert!(!moves.is_empty());
    assert!(moves.iter().all(|m| map[m.r as usize].as_bytes()[m.q as usize] == b'R'), "{moves:?}");
    // The two centre cells of the short diagonal, d3 and c4, win.
    assert_eq!(solve(&after(6, Cell::new(3, 2)), 2_000_000).verdict, Verdict::Loss);
    assert_eq!(solve(&after(6, Cell::new(2, 3)), 2_000_000).verdict, Verdict::Loss);
    // The acute corner a1 loses.
    assert!(matches!(solve(&after(6, Cell::new(0, 0)), 2_000_000).verdict, Verdict::Win(_)));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
fn seven_by_seven_openings_at_the_centre_and_the_corner_are_proved() {
    // Known results (Hayward et al.): the centre d4 wins, the acute
    // corner a1 loses.
    let d4 = solve(&after(7, Cell::new(3, 3)), 3_000_000);
    assert_eq!(d4.verdict, Verdict::Loss, "d4 after {} nodes", d4.nodes);
    let a1 = solve(&after(7, Cell::new(0, 0)), 3_000_000);
    assert!(matches!(a1.verdict, Verdict::Win(_)), "a1: {a1:?}");
}

#[test]
fn every_opening_is_solved_in_turn_with_one_table() {
    let mut memo = HashMap::new();
    let mut seen = Vec::new();
    solve_each(&Position::new(4).unwrap(), 1_000_000, |cell, s| {
        let expected = !mover_wins(&after(4, cell), &mut memo);
        assert_eq!(s.verdict == Verdict::Loss, expected, "4×4 opening {cell}");
        seen.push(cell);
    });
    // Every cell once, from the centre out: first one of the two
    // centre cells on the short diagonal, last an acute corner (a1 or
    // d4, the two-neighbour ends of the long diagonal).
    let mut distinct = seen.clone();
    distinct.sort_by_key(|c| (c.r, c.q));
    distinct.dedup();
    assert_eq!(distinct.len(), 16);
    assert!([Cell::new(1, 2), Cell::new(2, 1)].contains(&seen[0]), "first {}", seen[0]);
    assert!([Cell::new(0, 0), Cell::new(3, 3)].contains(&seen[15]), "last {}", seen[15]);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
fn skipping_searches_a_parent_answered_keeps_every_verdict() {
    let mut skipped = 0;
    for (n, moves) in [(6, "c3"), (6, "a1"), (6, "b5"), (7, "d4"), (7, "a1"), (7, "e3")] {
        let mut p = Position::new(n).unwrap();
        for m in moves.split(',') {
            p.play(Cell::parse(m, n).unwrap()).unwrap();
        }
        let root = Stones::<u64>::from_position(&p);
        let mut with = Solver::<u64>::new(n, 3_000_000);
        let mut without = Solver::<u64>::new(n, 3_000_000);
        without.reuse_quiet = false;
        let (a, b) = (with.solve_root(&root), without.solve_root(&root));
        assert_ne!(a.verdict, Verdict::Unknown, "{n}x{n} after {moves}");
        assert_eq!(a.verdict, b.verdict, "{n}x{n} after {moves}");
        // A win the skip delays shows one move later: a few percent
        // more positions (after searches cut short, which may have
        // missed a connection), never another verdict.
        assert!(a.nodes.abs_diff(b.nodes) * 10 <= b.nodes, "{n}x{n} after {moves}: {} vs {}", a.nodes, b.nodes);
        assert_eq!(without.quiet_skips, 0);
        skipped += with.quiet_skips;
    }
    // About 3,000 with H-search between every pair of ends, which leaves
    // far fewer positions to search than the group-only one did.
    assert!(skipped > 1_000, "only {skipped} searches skipped");
}

#[test]
fn a_captured_pair_and_a_dead_cell_never_enter_the_search() {
    // Red b4 owns a4/a5 on its edge: the moves Blue must consider never
    // include them, and the proof holds with them filled.
    let g = crate::engine::Record::from_text("7x7 b4 g1 d4", 7).unwrap().to_game(false).unwrap();
    let mut solver = Solver::<u128>::new(7, 1_000);
    let s = Stones::from_position(g.position());
    let key = solver.hash(&s);
    let Standing::Open(e) = solver.standing(&s, key, None) else { panic!("decided at once") };
    let n = 7;
    for c in ["a4", "a5"] {
        let i = Cell::parse(c, n).unwrap().index(n) as u16;
        assert!(!e.moves.iter().any(|m| m.cell == i), "{c} among the moves");
        assert!(e.reduced.red.has(i as usize), "{c} filled for Red");
    }
}

/// With best play on both sides, how many more stones the winner needs.
fn fewest_winner_stones(s: Stones<u128>, m: &Masks<u128>, memo: &mut HashMap<(u128, u128, bool), (bool, u32)>) -> u32 {
    fn go(s: Stones<u128>, m: &Masks<u128>, memo: &mut HashMap<(u128, u128, bool), (bool, u32)>) -> (bool, u32) {
        let key = (s.red, s.blue, s.to_move == Color::Red);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mover = s.to_move;
        let empty = s.empty_cells(m);
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        for i in (0..m.size as usize * m.size as usize).filter(|&i| empty.has(i)) {
            let mut c = s;
            c.play(i);
            if c.has_won(m, mover) {
                fastest_win = Some(1);
                break;
            }
            let (child_mover_wins, k) = go(c, m, memo);
            if child_mover_wins {
                slowest_loss = slowest_loss.max(k);
            } else {
                fastest_win = Some(fastest_win.map_or(k + 1, |f| f.min(k + 1)));
            }
        }
        let v = match fastest_win {
            Some(k) => (true, k),
            None => (false, slowest_loss),
        };
        memo.insert(key, v);
        v
    }
    go(s, m, memo).1
}

/// The moves that win for the side to move in `s`, by minimax.
fn winning_by_minimax(s: Stones<u128>, m: &Masks<u128>) -> u128 {
    let mut memo = HashMap::new();
    let empty = s.empty_cells(m);
    (0..m.size as usize * m.size as usize).filter(|&c| empty.has(c)).fold(0, |set, c| {
        let mut t = s;
        t.play(c);
        if t.has_won(m, s.to_move) || !mover_wins_stones(t, m, &mut memo) { set | 1 << c } else { set }
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Connections, captured fills and the solver against minimax on
    /// small boards: every shortcut must keep who wins.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn shortcuts_never_change_who_wins(
        n in 3u8..=4,
        cells in proptest::collection::vec(0usize..16, 0..12),
        red_to_move: bool,
    ) {
        let m = Masks::<u128>::new(n);
        let s = random_stones(n, &cells, red_to_move);
        let mut memo = HashMap::new();
        let mover_wins = mover_wins_stones(s, &m, &mut memo);
        let dead = DeadCells::new(n);
        let mut filled = s;
        dead.fill_captured(&mut filled, &m);
        let filled_decided = filled.has_won(&m, s.to_move) || filled.has_won(&m, s.to_move.opponent());
        if !filled_decided {
            proptest::prop_assert_eq!(mover_wins_stones(filled, &m, &mut memo), mover_wins, "captured fill");
        }
        let mut conn = Connections::<u128>::new(n);
        for colour in [Color::Red, Color::Blue] {
            let link = conn.edge_link(colour, s.of(colour), s.empty_cells(&m), false);
            let colour_wins = if s.to_move == colour { mover_wins } else { !mover_wins };
            match link {
                EdgeLink::Full { .. } => proptest::prop_assert!(colour_wins, "{colour:?} full"),
                EdgeLink::Semi { .. } if s.to_move == colour => proptest::prop_assert!(mover_wins, "{colour:?} semi"),
                _ => {}
            }
        }
        let mut solver = Solver::<u128>::new(n, 1_000_000);
        let got = solver.solve_root(&s);
        proptest::prop_assert_eq!(got.verdict != Verdict::Loss, mover_wins, "solver {:?}", got);
        // Its distance is a bound: the winner never needs more (checked
        // where the exact count, a search of every line, is quick).
        proptest::prop_assert!(got.winner_stones.is_some(), "{got:?}");
        if s.empty_cells(&m).count() <= 10 {
            let exact = fewest_winner_stones(s, &m, &mut HashMap::new());
            proptest::prop_assert!(got.winner_stones.is_some_and(|k| k >= exact), "{got:?}, exactly {exact}");
        }
    }

    /// The tree search's knowledge (inferior cells and the opponent's
    /// must-play region taken out, positions decided by connections) never
    /// takes away every winning move, never calls a lost position won or a
    /// won one lost, and a win it names is played only by winning moves:
    /// checked against every line on 3×3 to 5×5.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn knowledge_never_prunes_every_winning_move(
        n in 3u8..=5,
        cells in proptest::collection::vec(0usize..25, 0..24),
        red_to_move: bool,
    ) {
        let m = Masks::<u128>::new(n);
        let s = random_stones(n, &cells, red_to_move);
        let empty = s.empty_cells(&m);
        let mover = s.to_move;
        if s.has_won(&m, mover) || s.has_won(&m, mover.opponent()) || (n == 5 && empty.count() > 13) {
            return Ok(());
        }
        let winning = winning_by_minimax(s, &m);
        match Solver::<u128>::new(n, 0).knowledge(&s) {
            Known::Won { moves, .. } => {
                proptest::prop_assert!(moves != 0 && moves & !winning == 0, "a named win by a losing move in {s:?}: moves {moves:b}, winning {winning:b}");
            }
            Known::Lost { .. } => proptest::prop_assert_eq!(winning, 0, "a won position called lost: {:?}", s),
            Known::Open { moves } => {
                proptest::prop_assert!(moves != 0 && moves & !empty == 0);
                proptest::prop_assert!(winning == 0 || moves & winning != 0, "every winning move pruned in {s:?}");
            }
        }
    }

    /// Where a search cut short has not decided a position, the moves it
    /// leaves open keep every win: a move it took out of those the
    /// position's reduction offers loses, and a won position keeps a
    /// winning move. Checked against every line on 4×4 and 5×5.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn moves_left_open_keep_every_win(
        n in 4u8..=5,
        cells in proptest::collection::vec(0usize..25, 0..24),
        red_to_move: bool,
        budget in 1u64..80,
    ) {
        let m = Masks::<u128>::new(n);
        let s = random_stones(n, &cells, red_to_move);
        let empty = s.empty_cells(&m);
        let mover = s.to_move;
        if s.has_won(&m, mover) || s.has_won(&m, mover.opponent()) || (n == 5 && empty.count() > 14) {
            return Ok(());
        }
        let winning = winning_by_minimax(s, &m);
        let offered = Solver::<u128>::new(n, 0).open_moves(&s);
        let mut solver = Solver::<u128>::new(n, budget);
        if solver.solve_root(&s).verdict != Verdict::Unknown {
            return Ok(());
        }
        let (Some(offered), Some(open)) = (offered, solver.open_moves(&s)) else {
            return Err(proptest::test_runner::TestCaseError::fail(format!("an undecided position without moves: {s:?}")));
        };
        proptest::prop_assert!(open != 0 && open & !offered == 0, "open {open:b}, offered {offered:b}");
        proptest::prop_assert!(offered & !open & winning == 0, "a winning move taken out in {s:?}: open {open:b}, winning {winning:b}");
        proptest::prop_assert!(winning == 0 || open & winning != 0, "every winning move taken out in {s:?}");
    }

    /// A dominated move is never better than its dominator: whenever
    /// the mover wins by playing it, it also wins by the dominator.
    #[test]
    fn a_dominated_move_never_beats_its_dominator(
        n in 3u8..=5,
        cells in proptest::collection::vec(0usize..25, 2..24),
        red_to_move: bool,
    ) {
        let m = Masks::<u128>::new(n);
        let s = random_stones(n, &cells, red_to_move);
        let dead = DeadCells::new(n);
        let empty = s.empty_cells(&m);
        // Minimax on 5×5 is slow with many empty cells.
        if n == 5 && empty.count() > 13 {
            return Ok(());
        }
        let mut memo = HashMap::new();
        let mover = s.to_move;
        let wins_by = |c: u16, memo: &mut HashMap<(u128, u128, bool), bool>| {
            let mut t = s;
            t.play(c as usize);
            t.has_won(&m, mover) || !mover_wins_stones(t, &m, memo)
        };
        for (y, x) in dead.dominated(&s, mover, empty) {
            proptest::prop_assert!(empty.has(y as usize) && empty.has(x as usize) && x != y);
            if wins_by(y, &mut memo) {
                proptest::prop_assert!(wins_by(x, &mut memo), "{y} wins for {mover:?} but its dominator {x} loses in {s:?}");
            }
        }
    }

    /// A template settles a position when it has the template's winner
    /// stones (and maybe more), no new loser stone inside the proof
    /// set (maybe fewer loser stones), and the same side to move or
    /// the winner to move: minimax must agree that the winner wins.
    #[test]
    fn a_template_settles_only_positions_its_winner_wins(
        n in 3u8..=4,
        cells in proptest::collection::vec(0usize..16, 0..11),
        red_to_move: bool,
        more_winner in proptest::collection::vec(0usize..16, 0..4),
        more_loser in proptest::collection::vec(0usize..16, 0..6),
        fewer_loser in proptest::collection::vec(0usize..16, 0..3),
        winner_moves: bool,
    ) {
        let m = Masks::<u128>::new(n);
        let cells_n = n as usize * n as usize;
        let s = random_stones(n, &cells, red_to_move);
        let mut solver = Solver::<u128>::new(n, 1_000_000);
        let key = solver.hash(&s);
        let (phi, delta) = solver.mid(&s, key, INF - 1, INF - 1, None);
        proptest::prop_assert!(phi == 0 || delta == 0);
        let winner = if phi == 0 { s.to_move } else { s.to_move.opponent() };
        let proof = solver.proof_of(key);
        let t = crate::engine::proof_templates::Template { stones: s, winner, proof, need: 0 };
        let mut y = s;
        let put = |y: &mut Stones<u128>, colour: Color, c: usize| match colour {
            Color::Red => y.red |= 1 << c,
            Color::Blue => y.blue |= 1 << c,
        };
        for c in fewer_loser.iter().map(|c| c % cells_n) {
            y.red &= if winner == Color::Blue { !(1u128 << c) } else { !0 };
            y.blue &= if winner == Color::Red { !(1u128 << c) } else { !0 };
        }
        for c in more_loser.iter().map(|c| c % cells_n) {
            if y.empty_cells(&m).has(c) && !proof.has(c) {
                put(&mut y, winner.opponent(), c);
            }
        }
        for c in more_winner.iter().map(|c| c % cells_n) {
            if y.empty_cells(&m).has(c) {
                put(&mut y, winner, c);
            }
        }
        if winner_moves {
            y.to_move = winner;
        }
        proptest::prop_assert!(crate::engine::proof_templates::covers(&t, &y), "built to be covered");
        proptest::prop_assert!(!y.has_won(&m, winner.opponent()), "the loser joined its edges in {y:?}");
        if !y.has_won(&m, winner) {
            let mover_wins = mover_wins_stones(y, &m, &mut HashMap::new());
            proptest::prop_assert_eq!(mover_wins, y.to_move == winner, "template {:?} proof {:#x} wrongly covers {:?}", s, proof, y);
        }
    }

    /// A proof set is what pruning trusts: the loser's stones added
    /// anywhere outside it never change the winner (minimax decides),
    /// nor ever join the loser's edges.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "minutes unoptimised; scripts/test.sh runs it in release")]
    fn the_loser_gains_nothing_outside_a_proof_set(
        n in 3u8..=4,
        cells in proptest::collection::vec(0usize..16, 0..11),
        red_to_move: bool,
        extra in proptest::collection::vec(0usize..16, 1..7),
    ) {
        let m = Masks::<u128>::new(n);
        let s = random_stones(n, &cells, red_to_move);
        let mut solver = Solver::<u128>::new(n, 1_000_000);
        let key = solver.hash(&s);
        let (phi, delta) = solver.mid(&s, key, INF - 1, INF - 1, None);
        proptest::prop_assert!(phi == 0 || delta == 0, "unproved: {phi} {delta}");
        let mover_wins = phi == 0;
        let proof = solver.proof_of(key);
        let loser = if mover_wins { s.to_move.opponent() } else { s.to_move };
        let mut t = s;
        for c in extra.iter().map(|e| e % (n as usize * n as usize)) {
            if t.empty_cells(&m).has(c) && !proof.has(c) {
                match loser {
                    Color::Red => t.red |= 1 << c,
                    Color::Blue => t.blue |= 1 << c,
                }
            }
        }
        proptest::prop_assert!(!t.has_won(&m, loser), "the loser joined its edges outside {proof:#x}");
        if t.has_won(&m, loser.opponent()) {
            return Ok(());
        }
        let still = mover_wins_stones(t, &m, &mut HashMap::new());
        proptest::prop_assert_eq!(still, mover_wins, "proof set {:#x} of {:?} broken by {:?}", proof, s, t);
    }
}

#[test]
fn a_chain_of_bridges_across_the_board_is_proved_quickly() {
    // Red a4–b4–d3–f2 with bridges and the right edge template; Blue to move
    // has lost, however it intrudes.
    let g = crate::engine::Record::from_text("7x7 b4 a1 d3 a7 f2 g7 a4", 7).unwrap().to_game(false).unwrap();
    let got = solve(g.position(), 30_000);
    assert_eq!(got.verdict, Verdict::Loss, "after {} nodes", got.nodes);
    // Red needs a stone in each bridge and in the edge template.
    assert_eq!(got.winner_stones, Some(3), "{got:?}");
}

#[test]
fn a_resumed_proof_reaches_the_same_verdict() {
    let g = crate::engine::Record::from_text("7x7 b4 a1 d3 a7 f2 g7 a4", 7).unwrap().to_game(false).unwrap();
    let mut p = Prover::new(g.position());
    let mut slices = 0;
    while *p.run(500) == Verdict::Unknown {
        slices += 1;
        assert!(slices < 200, "not proved after {} nodes", p.nodes());
    }
    assert_eq!(*p.run(500), Verdict::Loss);
}

#[test]
fn a_prover_searches_with_the_rules_it_is_given() {
    // The 11x11 position the captured sets decide at once (see the
    // all-ends tests): with them the prover's first position settles it,
    // with the default rules one position is not enough.
    let text = "11x11 h10 e8 e7 g6 f7 g7 f8 g8 g5 h5 h4 i4 i3 f6 f5 e6 e5 c6 d4 e4 d5 c4 c5 k2 j3 k3";
    let g = crate::engine::Record::from_text(text, 11).unwrap().to_game(false).unwrap();
    assert_eq!(*Prover::new(g.position()).run(1), Verdict::Unknown);
    let captured = ListLimits::parse("all+captured").unwrap();
    assert!(matches!(Prover::with_limits(g.position(), captured).run(1), Verdict::Win(_)));
}

#[test]
fn a_decided_position_is_answered_at_once() {
    let g = crate::engine::Record::from_text("5x5 a3 a1 b3 b1 d3 d1 e3 e1", 5).unwrap().to_game(false).unwrap();
    let got = solve(g.position(), 10);
    assert_eq!(got.verdict, Verdict::Win(vec![Cell::new(2, 2)]));
    assert_eq!(got.winner_stones, Some(1));
    // Two ways for Red to win at once: Blue to move has lost.
    let g =
        crate::engine::Record::from_text("4x4 a2 a1 b2 b1 d2 c1 a4 c3 b4 d3 c4", 4).unwrap().to_game(false).unwrap();
    assert_eq!(solve(g.position(), 10).verdict, Verdict::Loss);
}

#[test]
fn df_pn_weighs_about_half_the_undecided_moves_and_every_known_win() {
    for live in 0..=49 {
        let w = window(live);
        assert!(w <= live && (live < 2 || w >= 2), "{live}: {w}");
    }
    assert_eq!(window(10), 6);
    let children: Vec<(u16, Key)> = (0..10).map(|c| (c, Key { plain: c as u64, turned: c as u64 })).collect();
    let open = (0..10).fold(0u64, |acc, c| acc | 1 << c);
    let mut entries = vec![Entry { phi: 3, delta: 5, stones: 0 }; 10];
    // The first six count: our delta sums their phis, and the best of
    // them is searched.
    entries[4].delta = 4;
    entries[8].delta = 2;
    let Summary { phi, delta, best, second_delta: second, .. } = summarise(&children, &entries, open);
    assert_eq!((phi, delta, best, second), (4, 18, 4, 5));
    // Moves known to lose free their room for the next ones: with
    // five left, four count.
    for lost in &mut entries[..5] {
        lost.phi = 0;
    }
    let Summary { phi, delta, best, .. } = summarise(&children, &entries, open);
    assert_eq!((phi, delta, best), (2, 12, 8));
    // A move known to win counts wherever it stands.
    entries[9].delta = 0;
    assert_eq!(summarise(&children, &entries, open).phi, 0);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow unoptimised; scripts/test.sh runs it in release")]
fn a_prover_turned_to_a_later_position_keeps_what_it_proved() {
    // Red's corner opening loses on 7×7: Blue to move wins.
    let game = crate::engine::Record::from_text("7x7 a1", 7).unwrap().to_game(false).unwrap();
    let mut prover = Prover::new(game.position());
    let Verdict::Win(wins) = prover.run(5_000_000).clone() else { panic!("7x7 a1 is a win for Blue") };
    let mut won = game.clone();
    won.play(Move::Place(wins[0])).unwrap();
    let (mut kept, mut fresh) = (0, 0);
    for reply in won.position().empty_cells().collect::<Vec<_>>() {
        let mut later = won.clone();
        later.play(Move::Place(reply)).unwrap();
        let before = prover.nodes();
        assert!(prover.reroot(later.position()));
        assert!(matches!(prover.run(5_000_000), Verdict::Win(_)), "{reply}");
        kept += prover.nodes() - before;
        let mut anew = Prover::new(later.position());
        assert!(matches!(anew.run(5_000_000), Verdict::Win(_)), "{reply}");
        fresh += anew.nodes();
    }
    assert!(kept * 4 < fresh, "{kept} positions with the table kept, {fresh} afresh");
    let other = Game::new(6, false).unwrap();
    assert!(!prover.reroot(other.position()), "another size");
}
