//! `/analysis`: review a game with the engine running in a Web Worker.
//! Step through the moves (slider, buttons, arrow keys), click the board to
//! try a variation, and see the engine's four best moves on the board with
//! their win chances, lines and proofs, plus a win-probability graph of
//! the whole game computed in a second worker.

mod live;
mod review;
mod win_graph;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use self::live::{EnginePanel, LiveAnalysis};
use self::review::{Review, Stepper};
use self::win_graph::{Curve, WinGraph, graph_of, mistakes};
use crate::browser;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Cell, Game, Move, Record};
use crate::pages::local_game::record_tools::{ExportRecord, ImportRecord};

/// Where the last reviewed game is kept.
const STORAGE_KEY: &str = "hexarena.analysis.v1";

/// A link that opens `game` on the analysis board.
pub fn review_href(game: &Game) -> String {
    format!("/analysis?record={}", encode_query_value(&Record::from_game(game).to_text()))
}

/// Percent-encodes a query value (everything but unreserved characters).
pub fn encode_query_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The analysis board page.
#[component]
pub fn AnalysisPage() -> impl IntoView {
    let query = use_query_map();
    let (initial, problem) = query.with_untracked(|q| match q.get_str("record") {
        None => (Game::default(), None),
        Some(text) => match Record::parse(text, 11).and_then(|(r, _)| r.to_game(true)) {
            Ok(g) => (g, None),
            Err(e) => (Game::default(), Some(format!("The record in the address cannot be loaded {e}."))),
        },
    });
    let from_address = query.with_untracked(|q| q.get_str("record").is_some());
    let review = Review::new(initial);
    let Review { main, ply, shown, .. } = review;
    let error = RwSignal::new(problem);
    remember(review, from_address);

    let live = LiveAnalysis::start(shown);
    let curve = graph_of(main);

    // A memo: every cell reads it, and it only changes when what the board
    // shows changes (not with every playout count the worker reports).
    let board = Memo::new(move |_| {
        let mut v = shown.with(|g| BoardView::of(g, true));
        if let Some(l) = live.latest.get() {
            v.hints = l.analysis.moves.iter().take(4).map(|m| m.cell).collect();
        }
        v
    });
    let on_play = Callback::new(move |cell: Cell| review.try_move(cell));
    let on_loaded = Callback::new(move |g: Game| {
        review.load(g);
        error.set(None);
    });
    let pick = Callback::new(move |k: usize| review.step(k as isize));
    let line_moves = Signal::derive(move || main.with(|g| g.moves().to_vec()));
    // Arrow keys step through the game from anywhere on the page, except
    // while typing or moving the board's own cursor.
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if !ev.default_prevented() && !typing_target(&ev) && review.on_key(&ev.key()) {
            ev.prevent_default();
        }
    });
    on_cleanup(move || keys.remove());

    view! {
        <Title text="Analysis — hexarena" />
        <div class="game-page analysis-page">
            <section class="board-area" aria-label="Board">
                <HexBoard view=board on_play label="Analysis board: click a cell to try a move" />
            </section>
            <aside class="side-panel">
                <h1 class="panel-title">"Analysis"</h1>
                {move || error.get().map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <Stepper review />
                <EnginePanel live shown />
                <p class="speed-test">
                    <button type="button" data-testid="measure-speed" on:click=move |_| live.measure_speed()>"Measure engine speed"</button>
                    " "
                    <span data-testid="engine-bench">{move || live.speed.get().unwrap_or_default()}</span>
                </p>
                <WinGraph curve=Signal::derive(move || curve.get()) moves=line_moves ply=Signal::derive(move || ply.get()) on_pick=pick />
                <MistakeList curve moves=line_moves on_pick=pick />
                <ImportRecord game=main on_loaded />
                <ExportRecord game=main />
                <p class="hint">"Keys: ← and → step through the moves, Home and End jump to the start and the end."</p>
            </aside>
        </div>
    }
}

/// Picks up the last reviewed game when the address names none, and keeps
/// whatever is loaded for next time.
fn remember(review: Review, from_address: bool) {
    Effect::new(move |previous: Option<()>| {
        if previous.is_none() && !from_address {
            let stored = browser::load(STORAGE_KEY)
                .and_then(|text| Record::from_text(&text, 11).ok())
                .and_then(|r| r.to_game(true).ok());
            if let Some(g) = stored {
                review.load(g);
            }
        }
        review.main.with(|g| browser::save(STORAGE_KEY, &Record::from_game(g).to_text()));
    });
}

fn typing_target(ev: &leptos::ev::KeyboardEvent) -> bool {
    #[cfg(feature = "hydrate")]
    {
        use wasm_bindgen::JsCast;
        ev.target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().to_ascii_lowercase().as_str(), "input" | "textarea" | "select"))
    }
    #[cfg(not(feature = "hydrate"))]
    {
        let _ = ev;
        false
    }
}

/// The biggest mistakes of the game, each a button to view it.
#[component]
fn MistakeList(
    curve: RwSignal<Curve>,
    #[prop(into)] moves: Signal<Vec<Move>>,
    on_pick: Callback<usize>,
) -> impl IntoView {
    let found = move || curve.with(|c| moves.with(|m| mistakes(c, m)));
    view! {
        <Show when=move || !found().is_empty()>
            <div class="mistakes">
                <h2 class="box-title">"Biggest mistakes"</h2>
                <ul>
                    {move || {
                        found()
                            .into_iter()
                            .map(|m| {
                                let k = m.number;
                                view! {
                                    <li>
                                        <button type="button" on:click=move |_| on_pick.run(k)>
                                            {format!("{k}. {} {} — {:.0}% of winning chances lost", m.mover, m.played, m.drop * 100.0)}
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn review_links_carry_the_record() {
        let g = Record::from_text("5x5 c3 swap a1", 5).unwrap().to_game(true).unwrap();
        assert_eq!(review_href(&g), "/analysis?record=5x5%20c3%20swap%20a1");
    }
}
