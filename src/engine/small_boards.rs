//! Perfect play on boards small enough to search exhaustively: the
//! reference that tests hold the connections, the inferior cells and the
//! solver to.

use std::collections::HashMap;

use super::bits::{Bits, Masks};
use super::color::Color;
use super::stones::Stones;

/// Positions already answered, by (Red's stones, Blue's, whether Red moves).
pub(crate) type Memo = HashMap<(u128, u128, bool), bool>;

/// Whether the side to move in `s` wins, by plain minimax.
pub(crate) fn mover_wins(s: Stones<u128>, m: &Masks<u128>, memo: &mut Memo) -> bool {
    let key = (s.red, s.blue, s.to_move == Color::Red);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mover = s.to_move;
    let win = s.empty_cells(m).ones().any(|i| {
        let mut c = s;
        c.play(i);
        c.has_won(m, mover) || !mover_wins(c, m, memo)
    });
    memo.insert(key, win);
    win
}

/// A position on an `n`×`n` board from a random list of cells: each is
/// played in turn (taken modulo the board) unless it is taken, until one
/// would end the game; then `red_to_move` says who moves.
pub(crate) fn random_stones(n: u8, cells: &[usize], red_to_move: bool) -> Stones<u128> {
    let m = Masks::<u128>::new(n);
    let mut s = Stones::<u128>::empty();
    for &c in cells {
        let c = c % (n as usize * n as usize);
        if !s.empty_cells(&m).has(c) {
            continue;
        }
        let mut t = s;
        t.play(c);
        if t.has_won(&m, Color::Red) || t.has_won(&m, Color::Blue) {
            break;
        }
        s = t;
    }
    s.to_move = if red_to_move { Color::Red } else { Color::Blue };
    s
}
