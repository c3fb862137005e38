//! The game under review: the main line as loaded, the line on the board
//! (the main line or a variation) and how much of it is shown, with the
//! controls that step through it.

use leptos::prelude::*;

use crate::engine::{Cell, Game, Move};

/// The reviewed game's signals, shared by the page's parts.
#[derive(Clone, Copy)]
pub struct Review {
    /// The game as loaded.
    pub main: RwSignal<Game>,
    /// The moves on the board: the main line, or a variation of it.
    pub line: RwSignal<Vec<Move>>,
    /// How many of `line`'s moves are shown.
    pub ply: RwSignal<usize>,
    /// The position on the board.
    pub shown: Memo<Game>,
}

impl Review {
    /// A review of `game`, showing its last position.
    pub fn new(game: Game) -> Review {
        let line = RwSignal::new(game.moves().to_vec());
        let ply = RwSignal::new(game.moves().len());
        let main = RwSignal::new(game);
        let shown = Memo::new(move |_| {
            let (size, swap) = main.with(|g| (g.size(), g.swap_allowed()));
            line.with(|l| replay(size, swap, &l[..ply.get().min(l.len())]))
        });
        Review { main, line, ply, shown }
    }

    /// Reviews `game` instead, from its last position.
    pub fn load(self, game: Game) {
        self.line.set(game.moves().to_vec());
        self.ply.set(game.moves().len());
        self.main.set(game);
    }

    /// Shows the position after `to` moves of the line (clamped).
    pub fn step(self, to: isize) {
        let len = self.line.with_untracked(Vec::len) as isize;
        self.ply.set(to.clamp(0, len) as usize);
    }

    /// Plays `cell` from the shown position: the line after it is replaced
    /// by this move (a variation, unless it is the game's own).
    pub fn try_move(self, cell: Cell) {
        let k = self.ply.get_untracked();
        let mut g = self.shown.get_untracked();
        if g.play(Move::Place(cell)).is_ok() {
            self.line.update(|l| {
                l.truncate(k);
                l.push(Move::Place(cell));
            });
            self.ply.set(k + 1);
        }
    }

    /// Back to the main line, at the same move number where it has one.
    pub fn restore_main_line(self) {
        let moves = self.main.with_untracked(|g| g.moves().to_vec());
        let k = self.ply.get_untracked().min(moves.len());
        self.line.set(moves);
        self.ply.set(k);
    }

    /// Whether the board shows a variation rather than the game.
    pub fn in_variation(self) -> bool {
        self.main.with(|g| self.line.with(|l| l.as_slice() != g.moves()))
    }

    /// Steps with the arrow, Home and End keys; `true` when the key was one
    /// of them.
    pub fn on_key(self, key: &str) -> bool {
        let k = self.ply.get_untracked() as isize;
        match key {
            "ArrowLeft" => self.step(k - 1),
            "ArrowRight" => self.step(k + 1),
            "Home" => self.step(0),
            "End" => self.step(isize::MAX / 2),
            _ => return false,
        }
        true
    }
}

/// The game `moves` make on a board of `size`, as far as they are legal.
pub fn replay(size: u8, swap: bool, moves: &[Move]) -> Game {
    Game::with_moves(size, swap, moves).unwrap_or_default()
}

/// Where the review stands, the step buttons and the move slider.
#[component]
pub fn Stepper(review: Review) -> impl IntoView {
    let Review { line, ply, shown, .. } = review;
    view! {
        <p class="game-status" data-testid="game-status">
            {move || {
                let k = ply.get();
                let total = line.with(Vec::len);
                shown.with(|g| match g.winner() {
                    Some(w) => format!("Move {k} of {total} — {w} has won"),
                    None => format!("Move {k} of {total} — {} to move", g.to_move()),
                })
            }}
        </p>
        <div class="stepper">
            <button type="button" aria-label="First move" on:click=move |_| review.step(0)>"«"</button>
            <button type="button" aria-label="Previous move" data-testid="step-back" on:click=move |_| review.step(ply.get_untracked() as isize - 1)>"‹"</button>
            <input
                type="range"
                min="0"
                aria-label="Move number"
                data-testid="move-slider"
                prop:max=move || line.with(Vec::len).to_string()
                prop:value=move || ply.get().to_string()
                on:input=move |ev| {
                    if let Ok(k) = event_target_value(&ev).parse::<isize>() {
                        review.step(k);
                    }
                }
            />
            <button type="button" aria-label="Next move" data-testid="step-forward" on:click=move |_| review.step(ply.get_untracked() as isize + 1)>"›"</button>
            <button type="button" aria-label="Last move" on:click=move |_| review.step(isize::MAX / 2)>"»"</button>
        </div>
        <Show when=move || review.in_variation()>
            <p class="hint">
                "You are looking at a variation. "
                <button type="button" data-testid="restore-main-line" on:click=move |_| review.restore_main_line()>"Back to the game"</button>
            </p>
        </Show>
    }
}
