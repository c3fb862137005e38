//! `/play/local` (two people, one device) and `/play/engine` (a person
//! against the engine in a Web Worker). Every rule runs in the browser, so
//! the game goes on with the server gone, and it is kept in local storage so
//! a reload finds it again.

mod engine_opponent;
pub mod record_tools;
pub mod saved;
mod session;
pub mod settings;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use self::engine_opponent::{ThinkingLine, play_against};
use self::record_tools::{ExportRecord, ImportRecord};
use self::saved::{SavedGame, storage_key};
use self::session::{Session, new_game};
use self::settings::{GameSettings, Opponent};
use crate::browser;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Cell, Color, Game, Move};

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
    let opponent = vs_engine.then(|| {
        let (o, more) = query.with_untracked(|q| Opponent::from_query(q.get_str("level"), q.get_str("colour")));
        problems.extend(more);
        o
    });
    let session = Session::new(new_game(settings), opponent);
    let asked_new = query.with_untracked(|q| q.get_str("new").is_some());
    remember(session, vs_engine, asked_new);
    let thinking = if vs_engine { play_against(session) } else { RwSignal::new(None) };

    let Session { game, viewing, opponent, announcement, .. } = session;
    let on_play = Callback::new(move |cell: Cell| {
        if !session.engine_to_move() {
            session.play(Move::Place(cell))
        }
    });
    let on_loaded = Callback::new(move |imported: Game| session.load(imported));
    let board = Memo::new(move |_| match viewing.get() {
        None => game.with(|g| BoardView::of(g, !session.engine_to_move())),
        Some(k) => game.with(|g| BoardView::of(&g.prefix(k), false)),
    });
    let title = if vs_engine { "Game against the engine" } else { "Hot-seat game" };

    view! {
        <Title text=format!("{title} — hexarena") />
        <div class="game-page">
            <section class="board-area" aria-label="Board">
                <HexBoard view=board on_play label=title />
            </section>
            <aside class="side-panel">
                <h1 class="panel-title">{title}</h1>
                <p class="hint">{move || session.rules_line()}</p>
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
                <ThinkingLine thinking />
                <p class=move || format!("game-status {}", session.status_colour()) data-testid="game-status">
                    {move || session.status()}
                </p>
                <p class="visually-hidden" aria-live="polite" data-testid="announcer">{announcement}</p>
                <Actions session />
                <MoveList game viewing />
                <ExportRecord game />
                <ImportRecord game on_loaded />
            </aside>
        </div>
    }
}

/// After hydration, picks up the stored game unless a new one was asked
/// for; from then on stores every change.
fn remember(session: Session, vs_engine: bool, asked_new: bool) {
    let Session { game, opponent, .. } = session;
    let key = storage_key(opponent.get_untracked());
    let home_path = if vs_engine { "/play/engine" } else { "/play/local" };
    Effect::new(move |previous: Option<()>| {
        if previous.is_none() {
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
}

/// Undo, swap, new game, other settings and review.
#[component]
fn Actions(session: Session) -> impl IntoView {
    let Session { game, viewing, confirm_new, .. } = session;
    let can_undo = move || game.with(|g| !g.moves().is_empty());
    let can_swap = move || viewing.get().is_none() && !session.engine_to_move() && game.with(|g| g.can_swap());
    view! {
        <div class="button-row actions">
            <button type="button" data-testid="undo" on:click=move |_| session.undo() disabled=move || !can_undo()>
                "Undo"
            </button>
            <Show when=can_swap>
                <button type="button" class="primary" data-testid="swap" on:click=move |_| session.play(Move::Swap)>
                    "Swap"
                </button>
            </Show>
            <button type="button" data-testid="new-game" on:click=move |_| session.start_over()>
                {move || if confirm_new.get() { "Really start over?" } else { "New game" }}
            </button>
            <a class="button" href="/play">"Other settings"</a>
            <a class="button" data-testid="review" href=move || game.with(crate::pages::analysis::review_href)>
                "Review"
            </a>
        </div>
    }
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
