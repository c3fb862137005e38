//! The game on a local page and everything that changes it: moves (the
//! person's or the engine's), undo, starting over, a loaded record, and
//! what the page says about it.

use leptos::prelude::*;

use super::settings::{GameSettings, Opponent};
use crate::engine::{Color, Game, Move};

/// A local game's signals, shared by the page's parts.
#[derive(Clone, Copy)]
pub struct Session {
    pub game: RwSignal<Game>,
    /// Against the engine: its level and colour.
    pub opponent: RwSignal<Option<Opponent>>,
    /// `Some(k)`: the board shows the position after k moves, read-only.
    pub viewing: RwSignal<Option<usize>>,
    /// The last thing that happened, for screen readers.
    pub announcement: RwSignal<String>,
    /// Whether "New game" was pressed once on a game in progress.
    pub confirm_new: RwSignal<bool>,
}

impl Session {
    pub fn new(game: Game, opponent: Option<Opponent>) -> Session {
        Session {
            game: RwSignal::new(game),
            opponent: RwSignal::new(opponent),
            viewing: RwSignal::new(None),
            announcement: RwSignal::new(String::new()),
            confirm_new: RwSignal::new(false),
        }
    }

    /// Whether the engine is to move (so the board takes no clicks).
    pub fn engine_to_move(self) -> bool {
        self.opponent.get().is_some_and(|o| self.game.with(|g| g.winner().is_none() && g.to_move() == o.engine))
    }

    /// Plays `m` for the side to move and says what happened.
    pub fn play(self, m: Move) {
        let mover = self.game.with_untracked(|g| g.to_move());
        let mut result = None;
        self.game.update(|g| result = Some(g.play(m)));
        match result {
            Some(Ok(())) => {
                let (stone, winner) = self.game.with_untracked(|g| (g.last_stone(), g.winner()));
                let what = match m {
                    Move::Swap => format!(
                        "{} swapped: the stone is now on {}",
                        mover,
                        stone.map(|c| c.to_string()).unwrap_or_default()
                    ),
                    Move::Place(cell) => format!("{mover} played {cell}"),
                };
                self.announcement.set(match winner {
                    Some(w) => format!("{what}. {w} wins!"),
                    None => format!("{what}."),
                });
                self.viewing.set(None);
                self.confirm_new.set(false);
            }
            Some(Err(e)) => self.announcement.set(format!("That move is not possible: {e}.")),
            None => {}
        }
    }

    /// Takes back the last move; against the engine, back to the person's
    /// own turn.
    pub fn undo(self) {
        let mut undone = None;
        let human = self.opponent.get_untracked().map(|o| o.engine.opponent());
        self.game.update(|g| {
            undone = g.undo();
            while let Some(h) = human
                && g.to_move() != h
                && !g.moves().is_empty()
            {
                undone = g.undo();
            }
        });
        if let Some(m) = undone {
            self.announcement.set(format!("Took back {m}."));
        }
        self.viewing.set(None);
    }

    /// A new game with the same settings; a game in progress asks first.
    pub fn start_over(self) {
        let game = self.game;
        if !self.confirm_new.get_untracked() && game.with_untracked(|g| !g.moves().is_empty() && g.winner().is_none()) {
            self.confirm_new.set(true);
            return;
        }
        let s = game.with_untracked(|g| GameSettings { size: g.size(), swap: g.swap_allowed() });
        game.set(new_game(s));
        self.viewing.set(None);
        self.confirm_new.set(false);
        self.announcement.set(format!("New {0}×{0} game. Red to move.", s.size));
    }

    /// Goes on from an imported record.
    pub fn load(self, imported: Game) {
        let n = imported.moves().len();
        self.game.set(imported);
        self.viewing.set(None);
        self.announcement.set(format!("Record loaded: {n} moves."));
    }

    /// The status line: whose move, who won, or which move is viewed.
    pub fn status(self) -> String {
        let shown = self.viewing.get();
        let engine_side = self.opponent.get().map(|o| o.engine);
        self.game.with(|g| match (shown, g.winner()) {
            (Some(k), _) => format!("Viewing move {k} of {}", g.moves().len()),
            (None, Some(w)) if engine_side == Some(w) => format!("{w} wins — the engine won"),
            (None, Some(w)) if engine_side.is_some() => format!("{w} wins — you won!"),
            (None, Some(w)) => format!("{w} wins"),
            (None, None) if engine_side == Some(g.to_move()) => {
                format!("{} to move — the engine is thinking", g.to_move())
            }
            (None, None) if g.can_swap() => "Blue to move — or swap".to_string(),
            (None, None) => format!("{} to move", g.to_move()),
        })
    }

    /// The status line's colour class.
    pub fn status_colour(self) -> &'static str {
        self.game.with(|g| match self.viewing.get() {
            Some(_) => "status-viewing",
            None => match g.winner().unwrap_or(g.to_move()) {
                Color::Red => "status-red",
                Color::Blue => "status-blue",
            },
        })
    }

    /// The board size, swap rule and engine level, in a line.
    pub fn rules_line(self) -> String {
        let against = self.opponent.get().map(|o| format!(", engine at {} level", o.level)).unwrap_or_default();
        self.game.with(|g| {
            format!("{0}×{0} board, swap rule {1}{against}", g.size(), if g.swap_allowed() { "on" } else { "off" })
        })
    }
}

/// An empty game with these settings.
pub fn new_game(s: GameSettings) -> Game {
    Game::new(s.size, s.swap).unwrap_or_else(|_| Game::default())
}
