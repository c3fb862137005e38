use proptest::prelude::*;

use super::*;
use crate::engine::game::{Game, Move};

/// A game of `cells` (indices, taken modulo the board and skipping taken
/// ones), first mover `first`, each cell mapped by `map` first.
fn game_of(n: u8, first: Color, cells: &[usize], map: impl Fn(Cell) -> Cell) -> Game {
    let mut game = Game::starting_with(n, false, first).expect("a board size");
    let mut taken = vec![false; n as usize * n as usize];
    for &c in cells {
        let cell = Cell::from_index(c % taken.len(), n);
        if taken[cell.index(n)] || game.winner().is_some() {
            continue;
        }
        taken[cell.index(n)] = true;
        game.play(Move::Place(map(cell))).expect("an empty cell");
    }
    game
}

/// The competition before the game's last move, after the one before it.
fn last_competition(game: &Game) -> Option<Competition> {
    let moves = game.moves();
    let (Move::Place(last), Move::Place(played)) = (moves.get(moves.len().checked_sub(2)?)?, moves.last()?) else {
        return None;
    };
    let mut c = Competition::of(game.prefix(moves.len() - 1).position(), *last, *played)?;
    c.slots.sort_unstable();
    Some(c)
}

proptest! {
    /// The half turn keeps both sides' edges, and reading a Blue mover's
    /// board transposed with the colours exchanged is reading Red's: the
    /// same position seen either way must give the same key, the same
    /// empty slots and the same answer.
    #[test]
    fn symmetric_positions_make_the_same_competition(
        n in 3u8..10,
        cells in proptest::collection::vec(0usize..100, 2..40),
    ) {
        let plain = game_of(n, Color::Red, &cells, |c| c);
        let Some(expected) = last_competition(&plain) else { return Ok(()) };
        let turned = game_of(n, Color::Red, &cells, |c| Cell::new(n - 1 - c.q, n - 1 - c.r));
        prop_assert_eq!(last_competition(&turned), Some(expected.clone()));
        // A neighbour off both edges at once (beside the two corners where
        // the edges meet at 120°) reads as Red's edge on every board, so
        // only there does transposing change what is seen.
        let moves = plain.moves();
        let corner = [Cell::new(n - 1, 0), Cell::new(0, n - 1)];
        if !matches!(moves[moves.len() - 2], Move::Place(last) if corner.contains(&last)) {
            let transposed = game_of(n, Color::Blue, &cells, Cell::transpose);
            prop_assert_eq!(last_competition(&transposed), Some(expected));
        }
    }
}

#[test]
fn every_slot_lies_within_two_steps_and_each_once() {
    let centre = Cell::new(5, 5);
    let mut seen = Vec::new();
    for slot in 0..SLOTS {
        let (dq, dr) = slot_offset(slot);
        let cell = Cell::new((5 + dq) as u8, (5 + dr) as u8);
        assert_eq!(centre.distance(cell), if slot < 6 { 1 } else { 2 }, "slot {slot}");
        assert!(!seen.contains(&cell), "slot {slot} repeats");
        seen.push(cell);
    }
}

#[test]
fn a_file_reads_back_and_bad_lines_are_refused() {
    let mut answers = Answers::neutral();
    answers.gamma[40][7] = 12.5;
    answers.gamma[728][0] = 0.25;
    let text = answers.to_text("a test");
    let read = Answers::parse(&text).expect("its own text");
    assert!((read.gamma(40, 7) / 12.5 - 1.0).abs() < 1e-3);
    assert!((read.gamma(728, 0) / 0.25 - 1.0).abs() < 1e-3);
    assert_eq!(read.gamma(0, 0), 1.0);
    for bad in [
        "",
        "hexarena-patterns 1\n",
        "hexarena-answers 1\n729 0 5\n",
        "hexarena-answers 1\n1 18 5\n",
        "hexarena-answers 1\n1 2\n",
        "hexarena-answers 1\n1 2 x\n",
        "hexarena-answers 1\n1 2 99999\n",
    ] {
        assert!(Answers::parse(bad).is_err(), "{bad:?}");
    }
    assert_eq!(Answers::parse(BUILTIN).map(|_| ()), Ok(()));
}

#[test]
fn a_slot_always_answered_outweighs_one_never_answered() {
    // Key 5: slot 3 is played every time it is free, slot 9 never, even
    // when slot 3 is taken and a far cell is played; ten far cells wait
    // beside them.
    let competitions: Vec<Competition> = (0..400)
        .map(|i| match i % 2 {
            0 => Competition { key: 5, slots: vec![3, 9], far: 10, chosen: Some(3) },
            _ => Competition { key: 5, slots: vec![9], far: 10, chosen: None },
        })
        .collect();
    let fit = fit(&competitions, 30);
    assert!(fit.answers.gamma(5, 3) > 50.0, "{}", fit.answers.gamma(5, 3));
    assert!(fit.answers.gamma(5, 9) < 0.1, "{}", fit.answers.gamma(5, 9));
    assert!(fit.after > fit.before);
    // Keys without games stay neutral.
    assert_eq!(fit.answers.gamma(6, 3), 1.0);
}
