//! `/games/:id`: an archived game — the board at any move (slider and
//! arrow keys), the move list, the result, downloads as SGF or trmph, and
//! the analysis board for a full review.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_params_map;

use super::queries::archived_game;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Color, Game, Move};
use crate::online::records::{GameRecord, iso_time};
use crate::pages::local_game::record_tools::ExportRecord;

/// The archived game page.
#[component]
pub fn ArchivedGamePage() -> impl IntoView {
    let params = use_params_map();
    let id = params.read_untracked().get("id").unwrap_or_default();
    let record = Resource::new(move || id.clone(), archived_game);
    view! {
        <Suspense fallback=|| view! { <p class="page">"Loading…"</p> }>
            {move || Suspend::new(async move {
                match record.await {
                    Ok(Some(r)) => view! { <Replay r /> }.into_any(),
                    Ok(None) => view! {
                        <Title text="No such game — hexarena" />
                        <div class="page narrow">
                            <h1>"No such game"</h1>
                            <p data-testid="game-status">"No archived game has this number. " <a href="/games">"See all games"</a></p>
                        </div>
                    }.into_any(),
                    Err(e) => view! { <p class="page error">{e.to_string()}</p> }.into_any(),
                }
            })}
        </Suspense>
    }
}

#[component]
fn Replay(r: GameRecord) -> impl IntoView {
    let s = &r.summary;
    let size = s.board_size;
    let first = r.first;
    let moves: Vec<Move> = r.moves.iter().filter_map(|m| Move::parse(m, size).ok()).collect();
    let full = Game::starting_with_moves(size, r.swap, first, &moves).unwrap_or_default();
    let total = full.moves().len();
    let shown = RwSignal::new(total);
    let replayed = full.clone();
    let board = Memo::new(move |_| BoardView::of(&replayed.prefix(shown.get()), false));
    let game = RwSignal::new(full.clone());
    let red = s.red.clone().unwrap_or_else(|| "Anonymous".into());
    let blue = s.blue.clone().unwrap_or_else(|| "Anonymous".into());
    let how = s.reason.adverb();
    let result = format!(
        "{} won {how}",
        match s.winner {
            Color::Red => format!("{red} (Red)"),
            Color::Blue => format!("{blue} (Blue)"),
        }
    );
    let review = (first == Color::Red).then(|| crate::pages::analysis::review_href(&full));
    let on_key = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowLeft" => shown.update(|n| *n = n.saturating_sub(1)),
        "ArrowRight" => shown.update(|n| *n = (*n + 1).min(total)),
        _ => {}
    };
    let title = format!("Game {} — {red} vs {blue} — hexarena", s.id);
    view! {
        <Title text=title />
        <div class="game-page archived-game" on:keydown=on_key>
            <section class="board-area" aria-label="Board">
                <HexBoard view=board on_play=Callback::new(|_| {}) label="Archived game" />
            </section>
            <aside class="side-panel">
                <h1 class="panel-title">{format!("Game {}", s.id)}</h1>
                <p class="hint">{format!("{0}×{0} board, swap {1}, game {2} of series {3}, {4}", size, if r.swap { "on" } else { "off" }, s.number, s.series_id, iso_time(s.finished_at_ms).replace('T', " ").replace('Z', " UTC"))}</p>
                <ul class="players">
                    <li class="player player-red"><span class="chip chip-red" aria-hidden="true"></span><span class="player-name">"Red"</span><span class="player-who">{red.clone()}</span></li>
                    <li class="player player-blue"><span class="chip chip-blue" aria-hidden="true"></span><span class="player-name">"Blue"</span><span class="player-who">{blue.clone()}</span></li>
                </ul>
                <p class="game-status" data-testid="game-status">{result}</p>
                <label class="field">
                    <span>{move || format!("Move {} of {total}", shown.get())}</span>
                    <input type="range" min="0" max=total.to_string() data-testid="replay-slider"
                        prop:value=move || shown.get().to_string()
                        on:input=move |ev| {
                            if let Ok(n) = event_target_value(&ev).parse::<usize>() {
                                shown.set(n.min(total));
                            }
                        } />
                </label>
                <div class="button-row">
                    <button type="button" on:click=move |_| shown.set(0)>"Start"</button>
                    <button type="button" data-testid="replay-back" on:click=move |_| shown.update(|n| *n = n.saturating_sub(1))>"Back"</button>
                    <button type="button" data-testid="replay-forward" on:click=move |_| shown.update(|n| *n = (*n + 1).min(total))>"Forward"</button>
                    <button type="button" on:click=move |_| shown.set(total)>"End"</button>
                </div>
                <ol class="move-list" data-testid="move-list">
                    {r.moves.iter().enumerate().map(|(i, m)| {
                        let who = full.mover(i);
                        view! {
                            <li class=format!("move move-{}", who.as_str())>
                                <button type="button" aria-current=move || (shown.get() == i + 1).then_some("true") on:click=move |_| shown.set(i + 1)>
                                    <span class="move-number">{format!("{}.", i + 1)}</span>" "{m.clone()}
                                </button>
                            </li>
                        }
                    }).collect_view()}
                </ol>
                {match review {
                    Some(href) => view! {
                        <a class="button primary" href=href data-testid="review">"Review on the analysis board"</a>
                        <ExportRecord game />
                    }.into_any(),
                    None => view! {
                        <p class="hint">"Blue moved first in this game of the series; records and the analysis board start with Red, so it can be replayed here only."</p>
                    }.into_any(),
                }}
            </aside>
        </div>
    }
}
