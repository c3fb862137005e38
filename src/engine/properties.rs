//! Property tests of the rules, and the strategies other tests share.

use proptest::prelude::*;

use super::*;

/// A game on a random board (3–11) with random legal moves, sometimes
/// played to the end, sometimes stopped early; swap used now and then.
pub(crate) fn arb_game() -> impl Strategy<Value = Game> {
    (MIN_SIZE..=11u8, any::<bool>(), prop::collection::vec(any::<u32>(), 0..130)).prop_map(|(size, swap, picks)| {
        let mut game = Game::new(size, swap).unwrap();
        for pick in picks {
            if game.winner().is_some() {
                break;
            }
            if game.can_swap() && pick % 3 == 0 {
                game.play(Move::Swap).unwrap();
                continue;
            }
            let empty: Vec<Cell> = game.position().empty_cells().collect();
            game.play(Move::Place(empty[pick as usize % empty.len()])).unwrap();
        }
        game
    })
}

/// A game played until someone wins.
fn arb_finished_game() -> impl Strategy<Value = Game> {
    (MIN_SIZE..=MAX_SIZE, any::<bool>(), any::<u64>()).prop_map(|(size, swap, seed)| {
        let mut game = Game::new(size, swap).unwrap();
        let mut state = seed | 1;
        while game.winner().is_none() {
            // xorshift: cheap, deterministic from the seed proptest shrinks.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if game.can_swap() && state % 2 == 0 {
                game.play(Move::Swap).unwrap();
                continue;
            }
            let empty: Vec<Cell> = game.position().empty_cells().collect();
            game.play(Move::Place(empty[state as usize % empty.len()])).unwrap();
        }
        game
    })
}

proptest! {
    #[test]
    fn a_full_board_has_exactly_one_winner(size in MIN_SIZE..=MAX_SIZE, seed in any::<u64>()) {
        // Fill every cell at random without stopping at the win: the Hex
        // theorem says exactly one side connects.
        let mut cells: Vec<Cell> = Position::new(size).unwrap().empty_cells().collect();
        let mut state = seed | 1;
        for i in (1..cells.len()).rev() {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            cells.swap(i, (state >> 33) as usize % (i + 1));
        }
        let mut p = Position::new(size).unwrap();
        for (i, &c) in cells.iter().enumerate() {
            p.put(c, if i % 2 == 0 { Color::Red } else { Color::Blue });
        }
        let red = p.stones(Color::Red).len();
        prop_assert_eq!(red + p.stones(Color::Blue).len(), size as usize * size as usize);
        let winner = p.winner_by_flood_fill();
        prop_assert!(winner.is_some());
        // Only one side can connect: check the other one explicitly.
        let other = winner.unwrap().opponent();
        let mut only_other = Position::new(size).unwrap();
        for i in p.stones(other).iter() {
            only_other.put(Cell::from_index(i, size), other);
        }
        prop_assert_eq!(only_other.winner(), None);
    }

    #[test]
    fn a_random_game_ends_with_one_winner_found_incrementally_and_from_scratch(game in arb_finished_game()) {
        let p = game.position();
        prop_assert!(p.winner().is_some());
        prop_assert_eq!(p.winner(), p.winner_by_flood_fill());
        // The last move made the win: one move earlier nobody had won.
        let mut before = game.clone();
        before.undo();
        prop_assert_eq!(before.winner(), None);
        prop_assert_eq!(before.position().winner_by_flood_fill(), None);
    }

    #[test]
    fn incremental_winner_matches_flood_fill_after_every_move(game in arb_game()) {
        let mut replay = Game::new(game.size(), game.swap_allowed()).unwrap();
        for &m in game.moves() {
            replay.play(m).unwrap();
            prop_assert_eq!(replay.winner(), replay.position().winner_by_flood_fill());
        }
    }

    #[test]
    fn the_winning_chain_is_connected_and_touches_both_edges(game in arb_finished_game()) {
        let winner = game.winner().unwrap();
        let chain = game.winning_chain().unwrap();
        let n = game.size();
        let coord = |c: &Cell| if winner == Color::Red { c.q } else { c.r };
        prop_assert_eq!(coord(&chain[0]), 0);
        prop_assert_eq!(coord(chain.last().unwrap()), n - 1);
        for c in &chain {
            prop_assert_eq!(game.position().stone(*c), Some(winner));
        }
        for pair in chain.windows(2) {
            prop_assert!(pair[0].neighbours(n).any(|nb| nb == pair[1]));
        }
    }

    #[test]
    fn swap_is_legal_only_as_the_second_move(game in arb_game()) {
        let legal = game.clone().play(Move::Swap).is_ok();
        let expected = game.swap_allowed() && game.moves().len() == 1
            && matches!(game.moves()[0], Move::Place(_)) && game.winner().is_none();
        prop_assert_eq!(legal, expected);
    }

    #[test]
    fn an_illegal_move_changes_nothing(game in arb_game(), q in 0u8..25, r in 0u8..25) {
        let mut after = game.clone();
        if after.play(Move::Place(Cell::new(q, r))).is_err() {
            prop_assert_eq!(&after, &game);
            prop_assert_eq!(after.position().stones(Color::Red), game.position().stones(Color::Red));
            prop_assert_eq!(after.to_move(), game.to_move());
        }
    }

    #[test]
    fn undo_then_replay_gives_the_same_game(game in arb_game()) {
        let mut g = game.clone();
        if let Some(last) = g.undo() {
            prop_assert_eq!(g.moves().len() + 1, game.moves().len());
            g.play(last).unwrap();
            prop_assert_eq!(g.position().stones(Color::Red), game.position().stones(Color::Red));
            prop_assert_eq!(g.position().stones(Color::Blue), game.position().stones(Color::Blue));
            prop_assert_eq!(g.to_move(), game.to_move());
        }
    }
}
