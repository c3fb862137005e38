//! `/play/local` (two people, one device) and `/play/engine` (a person
//! against the engine in a Web Worker). Every rule runs in the browser, so
//! the game goes on with the server gone, and it is kept in local storage so
//! a reload finds it again.

pub mod record_tools;
pub mod saved;
pub mod settings;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use self::record_tools::{ExportRecord, ImportRecord};
use self::saved::{SavedGame, storage_key};
use self::settings::{GameSettings, Opponent};
use crate::browser;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Cell, Color, Game, Move};
use crate::engine_worker::client::EngineClient;
use crate::engine_worker::protocol::{EngineRequest, EngineUpdate, GameSpec};

/// The engine's search for its next move, as the page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Thinking {
    /// The worker's job number, so late answers to an old job are ignored.
    job: u64,
    playouts: u64,
    budget: u64,
}

/// The hot-seat game page.
#[component]
pub fn LocalGamePage() -> impl IntoView {
    view! { <GamePage vs_engine=false /> }
}

/// The game against the engine.
#[component]
pub fn EngineGamePage() -> impl IntoView {
    view! { <GamePage vs_engine=true /> }
}

/// A game played in the browser, hot-seat or against the engine.
#[component]
fn GamePage(vs_engine: bool) -> impl IntoView {
    let query = use_query_map();
    let (settings, mut problems) =
        query.with_untracked(|q| GameSettings::from_query(q.get_str("size"), q.get_str("swap")));
    let opponent = RwSignal::new(None::<Opponent>);
    if vs_engine {
        let (o, more) = query.with_untracked(|q| Opponent::from_query(q.get_str("level"), q.get_str("colour")));
        opponent.set(Some(o));
        problems.extend(more);
    }
    let home_path = if vs_engine { "/play/engine" } else { "/play/local" };
    let new_game = move |s: GameSettings| Game::new(s.size, s.swap).unwrap_or_else(|_| Game::default());
    let game = RwSignal::new(new_game(settings));
    // `Some(k)`: the board shows the position after k moves, read-only.
    let viewing = RwSignal::new(None::<usize>);
    let announcement = RwSignal::new(String::new());
    let confirm_new = RwSignal::new(false);

    let engine = vs_engine.then(EngineClient::start);
    // The engine's move being searched for, with its progress.
    let thinking = RwSignal::new(None::<Thinking>);
    let key = storage_key(opponent.get_untracked());

    // After hydration: pick up the stored game unless a new one was asked
    // for; from then on store every change.
    Effect::new(move |previous: Option<()>| {
        if previous.is_none() {
            let asked_new = query.with_untracked(|q| q.get_str("new").is_some());
            if asked_new {
                browser::replace_path(home_path);
            } else if let Some((stored, stored_opponent)) = browser::load(key).and_then(|json| SavedGame::parse(&json))
            {
                game.set(stored);
                if vs_engine && stored_opponent.is_some() {
                    opponent.set(stored_opponent);
                }
            }
        }
        let o = opponent.get();
        game.with(|g| browser::save(key, &SavedGame::of(g, o).to_json()));
    });

    let engine_to_move =
        move || opponent.get().is_some_and(|o| game.with(|g| g.winner().is_none() && g.to_move() == o.engine));

    let play = move |m: Move| {
        let mover = game.with_untracked(|g| g.to_move());
        let mut result = None;
        game.update(|g| result = Some(g.play(m)));
        match result {
            Some(Ok(())) => {
                let (stone, winner) = game.with_untracked(|g| (g.last_stone(), g.winner()));
                let what = match m {
                    Move::Swap => format!(
                        "{} swapped: the stone is now on {}",
                        mover,
                        stone.map(|c| c.to_string()).unwrap_or_default()
                    ),
                    Move::Place(cell) => format!("{mover} played {cell}"),
                };
                announcement.set(match winner {
                    Some(w) => format!("{what}. {w} wins!"),
                    None => format!("{what}."),
                });
                viewing.set(None);
                confirm_new.set(false);
            }
            Some(Err(e)) => announcement.set(format!("That move is not possible: {e}.")),
            None => {}
        }
    };
    let on_play = Callback::new(move |cell: Cell| {
        if !engine_to_move() {
            play(Move::Place(cell))
        }
    });

    if let Some(client) = engine {
        // Ask for a move whenever it is the engine's turn.
        Effect::new(move |_| {
            let _ = game.with(|g| g.moves().len());
            let Some(o) = opponent.get() else { return };
            if engine_to_move() && client.ready.get() {
                let job = client.new_job();
                thinking.set(Some(Thinking { job, playouts: 0, budget: o.level.iterations() }));
                let spec = game.with_untracked(GameSpec::of);
                let seed = js_seed(job);
                client.send(EngineRequest::Move { job, game: spec, level: o.level, seed });
            } else if thinking.get_untracked().is_some() {
                thinking.set(None);
                client.send(EngineRequest::Stop);
            }
        });
        Effect::new(move |_| {
            let Some(update) = client.update.get() else { return };
            let Some(current) = thinking.get_untracked() else { return };
            match update {
                EngineUpdate::Thinking { job, playouts, .. } if job == current.job => {
                    thinking.set(Some(Thinking { playouts, ..current }));
                }
                EngineUpdate::Moved { job, chosen } if job == current.job => {
                    thinking.set(None);
                    play(chosen);
                }
                EngineUpdate::Failed { job, reason } if job == current.job => {
                    thinking.set(None);
                    announcement.set(format!("The engine could not move: {reason}."));
                }
                _ => {}
            }
        });
    }

    let undo = move |_| {
        let mut undone = None;
        let human = opponent.get_untracked().map(|o| o.engine.opponent());
        game.update(|g| {
            undone = g.undo();
            // Against the engine, go back to the person's own turn.
            while let Some(h) = human
                && g.to_move() != h
                && !g.moves().is_empty()
            {
                undone = g.undo();
            }
        });
        if let Some(m) = undone {
            announcement.set(format!("Took back {m}."));
        }
        viewing.set(None);
    };
    let start_over = move |_| {
        if !confirm_new.get_untracked() && game.with_untracked(|g| !g.moves().is_empty() && g.winner().is_none()) {
            confirm_new.set(true);
            return;
        }
        let s = game.with_untracked(|g| GameSettings { size: g.size(), swap: g.swap_allowed() });
        game.set(new_game(s));
        viewing.set(None);
        confirm_new.set(false);
        announcement.set(format!("New {0}×{0} game. Red to move.", s.size));
    };
    let on_loaded = Callback::new(move |imported: Game| {
        let n = imported.moves().len();
        game.set(imported);
        viewing.set(None);
        announcement.set(format!("Record loaded: {n} moves."));
    });

    let board = Memo::new(move |_| match viewing.get() {
        None => game.with(|g| BoardView::of(g, !engine_to_move())),
        Some(k) => game.with(|g| BoardView::of(&g.prefix(k), false)),
    });
    let status = move || {
        let shown = viewing.get();
        let engine_side = opponent.get().map(|o| o.engine);
        game.with(|g| match (shown, g.winner()) {
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
    };
    let status_colour = move || {
        game.with(|g| match viewing.get() {
            Some(_) => "status-viewing",
            None => match g.winner().unwrap_or(g.to_move()) {
                Color::Red => "status-red",
                Color::Blue => "status-blue",
            },
        })
    };
    let can_undo = move || game.with(|g| !g.moves().is_empty());
    let can_swap = move || viewing.get().is_none() && !engine_to_move() && game.with(|g| g.can_swap());
    let rules_line = move || {
        let against = opponent.get().map(|o| format!(", engine at {} level", o.level)).unwrap_or_default();
        game.with(|g| {
            format!("{0}×{0} board, swap rule {1}{against}", g.size(), if g.swap_allowed() { "on" } else { "off" })
        })
    };
    let title = if vs_engine { "Game against the engine" } else { "Hot-seat game" };

    view! {
        <Title text=format!("{title} — hexarena") />
        <div class="game-page">
            <section class="board-area" aria-label="Board">
                <HexBoard view=board on_play label=title />
            </section>
            <aside class="side-panel">
                <h1 class="panel-title">{title}</h1>
                <p class="hint">{rules_line}</p>
                {(!problems.is_empty()).then(|| {
                    view! {
                        <div class="error" role="alert">
                            {problems.iter().map(|p| view! { <p>{p.clone()}</p> }).collect_view()}
                        </div>
                    }
                })}
                <ul class="players">
                    <PlayerLine colour=Color::Red game viewing opponent />
                    <PlayerLine colour=Color::Blue game viewing opponent />
                </ul>
                <Show when=move || thinking.get().is_some()>
                    <p class="thinking" role="status" data-testid="engine-thinking">
                        <span class="spinner" aria-hidden="true"></span>
                        {move || {
                            thinking
                                .get()
                                .map(|t| format!("Thinking… {} of {} playouts", t.playouts, t.budget))
                                .unwrap_or_default()
                        }}
                    </p>
                </Show>
                <p class=move || format!("game-status {}", status_colour()) data-testid="game-status">
                    {status}
                </p>
                <p class="visually-hidden" aria-live="polite" data-testid="announcer">{announcement}</p>
                <div class="button-row actions">
                    <button type="button" data-testid="undo" on:click=undo disabled=move || !can_undo()>
                        "Undo"
                    </button>
                    <Show when=can_swap>
                        <button type="button" class="primary" data-testid="swap" on:click=move |_| play(Move::Swap)>
                            "Swap"
                        </button>
                    </Show>
                    <button type="button" data-testid="new-game" on:click=start_over>
                        {move || if confirm_new.get() { "Really start over?" } else { "New game" }}
                    </button>
                    <a class="button" href="/play">"Other settings"</a>
                    <a class="button" data-testid="review" href=move || game.with(crate::pages::analysis::review_href)>
                        "Review"
                    </a>
                </div>
                <MoveList game viewing />
                <ExportRecord game />
                <ImportRecord game on_loaded />
            </aside>
        </div>
    }
}

/// A seed for the engine's move choice that differs between games.
fn js_seed(job: u64) -> u64 {
    #[cfg(feature = "hydrate")]
    let entropy = js_sys::Date::now() as u64 ^ (js_sys::Math::random() * u32::MAX as f64) as u64;
    #[cfg(not(feature = "hydrate"))]
    let entropy = 0u64;
    entropy.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ job
}

/// One player's line: colour, the edges it joins, and a turn marker.
#[component]
fn PlayerLine(
    colour: Color,
    game: RwSignal<Game>,
    viewing: RwSignal<Option<usize>>,
    opponent: RwSignal<Option<Opponent>>,
) -> impl IntoView {
    let who = move || match opponent.get() {
        Some(o) if o.engine == colour => format!("Engine ({})", o.level),
        Some(_) => "You".to_string(),
        None => String::new(),
    };
    let edges = match colour {
        Color::Red => "joins left ↔ right",
        Color::Blue => "joins top ↔ bottom",
    };
    let state = move || {
        game.with(|g| match g.winner() {
            Some(w) if w == colour => "winner",
            Some(_) => "",
            None if viewing.get().is_none() && g.to_move() == colour => "to-move",
            None => "",
        })
    };
    view! {
        <li class=move || format!("player player-{} {}", colour.as_str(), state())>
            <span class=format!("chip chip-{}", colour.as_str()) aria-hidden="true"></span>
            <span class="player-name">{colour.name()}</span>
            <span class="player-who">{who}</span>
            <span class="player-edges">{edges}</span>
            <span class="player-state">
                {move || match state() {
                    "winner" => "wins",
                    "to-move" => "to move",
                    _ => "",
                }}
            </span>
        </li>
    }
}

/// The moves in notation; clicking one shows the board after it.
#[component]
fn MoveList(game: RwSignal<Game>, viewing: RwSignal<Option<usize>>) -> impl IntoView {
    let moves = move || game.with(|g| g.moves().to_vec());
    let list = NodeRef::<leptos::html::Ol>::new();
    // Keep the latest move in sight as the list grows.
    Effect::new(move |_| {
        game.with(|g| g.moves().len());
        if let Some(el) = list.get() {
            el.set_scroll_top(el.scroll_height());
        }
    });
    let numbered = move || moves().into_iter().enumerate().collect::<Vec<_>>();
    view! {
        <div class="move-list-box">
            <h2 class="box-title">"Moves"</h2>
            <ol class="move-list" data-testid="move-list" node_ref=list>
                // Keyed by ply and move: a new move adds one item, an undo
                // removes one, and the rest of the list stays as it is.
                <For
                    each=numbered
                    key=|entry| *entry
                    children=move |(i, m)| {
                        let number = i + 1;
                        let colour = Game::mover_of(i);
                        let current = move || (viewing.get() == Some(number)).then_some("true");
                        view! {
                            <li class=format!("move move-{}", colour.as_str())>
                                <button
                                    type="button"
                                    aria-current=current
                                    aria-label=format!("Move {number}: {} {m}", colour.name())
                                    on:click=move |_| viewing.set(Some(number))
                                >
                                    <span class="move-number">{format!("{number}.")}</span>
                                    " "
                                    {m.to_string()}
                                </button>
                            </li>
                        }
                    }
                />
            </ol>
            <Show when=move || viewing.get().is_some()>
                <button type="button" class="primary" data-testid="back-to-game" on:click=move |_| viewing.set(None)>
                    "Back to the game"
                </button>
            </Show>
        </div>
    }
}
