//! `/analysis`: review a game with the engine running in a Web Worker.
//! Step through the moves (slider, buttons, arrow keys), click the board to
//! try a variation, and see the engine's four best moves on the board with
//! their win chances, lines and proofs, plus a win-probability graph of
//! the whole game computed in a second worker.

mod win_graph;

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use self::win_graph::{Curve, WinGraph, mistakes};
use crate::browser;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::search::Analysis;
use crate::engine::{Cell, Color, Game, Move, Record};
use crate::engine_worker::client::EngineClient;
use crate::engine_worker::protocol::{EngineRequest, EngineUpdate, GameSpec};
use crate::pages::local_game::record_tools::{ExportRecord, ImportRecord};

/// Where the last reviewed game is kept.
const STORAGE_KEY: &str = "hexarena.analysis.v1";
/// Playouts per position for the win-probability graph.
const GRAPH_PLAYOUTS: u64 = 4_000;

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

fn replay(size: u8, swap: bool, moves: &[Move]) -> Game {
    Game::with_moves(size, swap, moves).unwrap_or_default()
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
    // The game as loaded (the main line) …
    let main = RwSignal::new(initial.clone());
    // … the line on the board (the main line or a variation) and how many
    // of its moves are shown.
    let line = RwSignal::new(initial.moves().to_vec());
    let ply = RwSignal::new(initial.moves().len());
    let error = RwSignal::new(problem);

    let shown = Memo::new(move |_| {
        let (size, swap) = main.with(|g| (g.size(), g.swap_allowed()));
        line.with(|l| replay(size, swap, &l[..ply.get().min(l.len())]))
    });
    let in_variation = move || main.with(|g| line.with(|l| l.as_slice() != g.moves()));

    // Pick up the last reviewed game when the address names none; keep
    // whatever is loaded for next time.
    Effect::new(move |previous: Option<()>| {
        if previous.is_none() && !from_address {
            let stored = browser::load(STORAGE_KEY)
                .and_then(|text| Record::from_text(&text, 11).ok())
                .and_then(|r| r.to_game(true).ok());
            if let Some(g) = stored {
                line.set(g.moves().to_vec());
                ply.set(g.moves().len());
                main.set(g);
            }
        }
        main.with(|g| browser::save(STORAGE_KEY, &Record::from_game(g).to_text()));
    });

    // Live analysis of the shown position.
    let live = EngineClient::start();
    let live_job = RwSignal::new(0u64);
    let latest = RwSignal::new(None::<(Analysis, f64)>);
    Effect::new(move |_| {
        let game = shown.get();
        if !live.ready.get() {
            return;
        }
        latest.set(None);
        if game.winner().is_some() {
            live.send(EngineRequest::Stop);
            return;
        }
        let job = live.new_job();
        live_job.set(job);
        live.send(EngineRequest::Analyze { job, game: GameSpec::of(&game), max_playouts: Some(50_000_000) });
    });
    let speed = RwSignal::new(None::<String>);
    Effect::new(move |_| match live.update.get() {
        Some(EngineUpdate::Analysis { job, analysis, playouts_per_second, .. }) if job == live_job.get_untracked() => {
            latest.set(Some((analysis, playouts_per_second)));
        }
        Some(EngineUpdate::Bench { job, size, playouts, millis, per_second }) if job == live_job.get_untracked() => {
            speed.set(Some(format!(
                "{per_second:.0} random playouts per second on {size}×{size} ({playouts} in {:.1} s)",
                millis / 1000.0
            )));
            // Back to analysing the shown position.
            let game = shown.get_untracked();
            if game.winner().is_none() {
                let job = live.new_job();
                live_job.set(job);
                live.send(EngineRequest::Analyze { job, game: GameSpec::of(&game), max_playouts: Some(50_000_000) });
            }
        }
        _ => {}
    });
    let measure = move |_| {
        let job = live.new_job();
        live_job.set(job);
        speed.set(Some("Measuring…".into()));
        live.send(EngineRequest::Bench { job, size: 11, millis: 2000 });
    };

    // The graph: one position after another, in a second worker.
    let grapher = EngineClient::start();
    let curve = RwSignal::new(Curve::new());
    let graph_job = RwSignal::new((0u64, 0usize));
    let request_graph_point = move |index: usize| {
        let (size, swap, moves) = main.with_untracked(|g| (g.size(), g.swap_allowed(), g.moves().to_vec()));
        let Some(prefix) = moves.get(..index) else { return };
        let game = replay(size, swap, prefix);
        if let Some(w) = game.winner() {
            curve.update(|c| c[index] = Some(if w == Color::Red { 1.0 } else { 0.0 }));
            return;
        }
        let job = grapher.new_job();
        graph_job.set((job, index));
        grapher.send(EngineRequest::Analyze { job, game: GameSpec::of(&game), max_playouts: Some(GRAPH_PLAYOUTS) });
    };
    Effect::new(move |_| {
        let len = main.with(|g| g.moves().len());
        if !grapher.ready.get() {
            return;
        }
        curve.set(vec![None; len + 1]);
        // Finished positions are known at once; the rest are searched from
        // the end backwards (which makes each result arrive quickly).
        for i in (0..=len).rev() {
            request_graph_point(i);
            if curve.with_untracked(|c| c[i].is_none()) {
                break;
            }
        }
    });
    Effect::new(move |_| {
        let Some(EngineUpdate::Analysis { job, analysis, done: true, .. }) = grapher.update.get() else { return };
        let (current, index) = graph_job.get_untracked();
        if job != current {
            return;
        }
        let red = if analysis.to_move == Color::Red { analysis.win_rate } else { 1.0 - analysis.win_rate };
        curve.update(|c| {
            if let Some(slot) = c.get_mut(index) {
                *slot = Some(red);
            }
        });
        let next = curve.with_untracked(|c| (0..c.len()).rev().find(|&i| c[i].is_none()));
        if let Some(i) = next {
            request_graph_point(i);
        }
    });

    // A memo: every cell reads it, and it only changes when what the board
    // shows changes (not with every playout count the worker reports).
    let board = Memo::new(move |_| {
        let mut v = shown.with(|g| BoardView::of(g, true));
        if let Some((a, _)) = latest.get() {
            v.hints = a.moves.iter().take(4).map(|m| m.cell).collect();
        }
        v
    });
    let on_play = Callback::new(move |cell: Cell| {
        let k = ply.get_untracked();
        let mut g = shown.get_untracked();
        if g.play(Move::Place(cell)).is_ok() {
            line.update(|l| {
                l.truncate(k);
                l.push(Move::Place(cell));
            });
            ply.set(k + 1);
        }
    });
    let step = move |to: isize| {
        let len = line.with_untracked(Vec::len) as isize;
        ply.set(to.clamp(0, len) as usize);
    };
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.default_prevented() || typing_target(&ev) {
            return;
        }
        let k = ply.get_untracked() as isize;
        match ev.key().as_str() {
            "ArrowLeft" => step(k - 1),
            "ArrowRight" => step(k + 1),
            "Home" => step(0),
            "End" => step(isize::MAX / 2),
            _ => return,
        }
        ev.prevent_default();
    };
    let on_loaded = Callback::new(move |g: Game| {
        line.set(g.moves().to_vec());
        ply.set(g.moves().len());
        main.set(g);
        error.set(None);
    });
    let restore = move |_| {
        let moves = main.with_untracked(|g| g.moves().to_vec());
        let k = ply.get_untracked().min(moves.len());
        line.set(moves);
        ply.set(k);
    };
    let line_moves = Signal::derive(move || main.with(|g| g.moves().to_vec()));
    // Arrow keys step through the game from anywhere on the page, except
    // while typing or moving the board's own cursor.
    let keys = window_event_listener(leptos::ev::keydown, on_key);
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
                    <button type="button" aria-label="First move" on:click=move |_| step(0)>"«"</button>
                    <button type="button" aria-label="Previous move" data-testid="step-back" on:click=move |_| step(ply.get_untracked() as isize - 1)>"‹"</button>
                    <input
                        type="range"
                        min="0"
                        aria-label="Move number"
                        data-testid="move-slider"
                        prop:max=move || line.with(Vec::len).to_string()
                        prop:value=move || ply.get().to_string()
                        on:input=move |ev| {
                            if let Ok(k) = event_target_value(&ev).parse::<isize>() {
                                step(k);
                            }
                        }
                    />
                    <button type="button" aria-label="Next move" data-testid="step-forward" on:click=move |_| step(ply.get_untracked() as isize + 1)>"›"</button>
                    <button type="button" aria-label="Last move" on:click=move |_| step(isize::MAX / 2)>"»"</button>
                </div>
                <Show when=in_variation>
                    <p class="hint">
                        "You are looking at a variation. "
                        <button type="button" data-testid="restore-main-line" on:click=restore>"Back to the game"</button>
                    </p>
                </Show>
                <EnginePanel latest shown running=live.running />
                <p class="speed-test">
                    <button type="button" data-testid="measure-speed" on:click=measure>"Measure engine speed"</button>
                    " "
                    <span data-testid="engine-bench">{move || speed.get().unwrap_or_default()}</span>
                </p>
                <WinGraph curve=Signal::derive(move || curve.get()) moves=line_moves ply=Signal::derive(move || ply.get()) on_pick=Callback::new(move |k: usize| step(k as isize)) />
                <MistakeList curve moves=line_moves on_pick=Callback::new(move |k: usize| step(k as isize)) />
                <ImportRecord game=main on_loaded />
                <ExportRecord game=main />
                <p class="hint">"Keys: ← and → step through the moves, Home and End jump to the start and the end."</p>
            </aside>
        </div>
    }
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

/// The engine's view of the shown position.
#[component]
fn EnginePanel(latest: RwSignal<Option<(Analysis, f64)>>, shown: Memo<Game>, running: RwSignal<bool>) -> impl IntoView {
    let size = move || shown.with(|g| g.size());
    view! {
        <section
            class="engine-panel"
            aria-label="Engine"
            data-testid="engine-panel"
            data-engine=move || if running.get() { "running" } else { "starting" }
        >
            <h2 class="box-title">"Engine"</h2>
            <Show when=move || !running.get()>
                <p class="thinking engine-starting" role="status">
                    <span class="spinner" aria-hidden="true"></span>
                    " Starting the engine…"
                </p>
            </Show>
            <p class="engine-summary">
                <span data-testid="engine-playouts">
                    {move || latest.get().map(|(a, _)| a.playouts.to_string()).unwrap_or_else(|| "0".into())}
                </span>
                " playouts · "
                <span data-testid="engine-speed">
                    {move || latest.get().map(|(_, pps)| format!("{:.0}", pps)).unwrap_or_else(|| "—".into())}
                </span>
                " per second"
            </p>
            {move || {
                latest
                    .get()
                    .and_then(|(a, _)| match (a.proven, a.solved, a.solved_within) {
                        (Some(p), _, _) => Some(format!("{p} (proved)")),
                        (None, Some(w), Some(k)) => Some(format!("{w} wins in at most {k} (proved by the solver)")),
                        (None, Some(w), None) => Some(format!("{w} wins (proved by the solver)")),
                        (None, None, _) => None,
                    })
                    .map(|text| view! { <p class="proof" data-testid="engine-proof">{text}</p> })
            }}
            <ol class="engine-moves" data-testid="engine-moves">
                {move || {
                    let n = size();
                    latest
                        .get()
                        .map(|(a, _)| a.moves)
                        .unwrap_or_default()
                        .into_iter()
                        .filter(|m| m.cell.is_on(n))
                        .enumerate()
                        .map(|(rank, m)| {
                            let pv = m.pv.iter().map(Cell::to_string).collect::<Vec<_>>().join(" ");
                            let chance = match m.proven {
                                Some(p) => p.to_string(),
                                None => format!("{:.0}%", m.win_rate * 100.0),
                            };
                            view! {
                                <li class=format!("engine-move rank-{rank}") data-cell=m.cell.to_string()>
                                    <span class=format!("rank-chip hint-chip-{rank}")>{rank + 1}</span>
                                    <strong>{m.cell.to_string()}</strong>
                                    <span class="chance">{chance}</span>
                                    <span class="visits">{format!("{} visits", m.visits)}</span>
                                    <span class="pv">{pv}</span>
                                </li>
                            }
                        })
                        .collect_view()
                }}
            </ol>
        </section>
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
