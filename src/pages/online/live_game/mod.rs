//! `/game/:id` and `/play/online`: a live table. The server renders the
//! board as it stands; in the browser the page opens a WebSocket as a
//! player (quick match, private room, or back to a seat with the token kept
//! in browser storage) or as a spectator, and redraws from every `state`.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

mod connection;
mod panels;

use self::connection::{Live, Seating, now_ms};
use self::panels::{Chat, FinishedGames, LiveMoves, SeatLine, rules_line, status_line};
use super::live_socket::encode;
use super::lobby::live_table;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Cell, Game};
use crate::online::client_message::RematchStep;
use crate::online::messages::RematchNews;
use crate::online::{ClientMessage, Phase, PlayerId, TableView};

/// `/game/:id`.
#[component]
pub fn LiveGamePage() -> impl IntoView {
    let params = use_params_map();
    let query = use_query_map();
    let id = params.read_untracked().get("id").and_then(|s| s.parse::<u64>().ok()).filter(|&id| id > 0);
    let join = query.read_untracked().get("join");
    let name = query.read_untracked().get("name");
    let Some(id) = id else {
        return view! {
            <Title text="No such game — hexarena" />
            <div class="page narrow">
                <h1>"No such game"</h1>
                <p data-testid="game-status">"A game address is /game/ followed by its number."</p>
                <p><a href="/overview">"See the live games"</a></p>
            </div>
        }
        .into_any();
    };
    let table = Resource::new(move || id, live_table);
    view! {
        <Suspense fallback=|| view! { <p class="page">"Loading the game…"</p> }>
            {move || {
                let join = join.clone();
                let name = name.clone();
                Suspend::new(async move {
                    match table.await {
                        Ok(initial) => {
                            let seating = Seating::Table { id, join, name };
                            view! { <LiveTable initial seating /> }.into_any()
                        }
                        Err(e) => view! { <p class="page error">{format!("The game could not be loaded: {e}")}</p> }.into_any(),
                    }
                })
            }}
        </Suspense>
    }
    .into_any()
}

/// `/play/online?size=…`: quick match, then the table (the address becomes
/// `/game/<id>` once seated, so a reload resumes the seat).
#[component]
pub fn QuickMatchPage() -> impl IntoView {
    let query = use_query_map();
    let q = query.read_untracked();
    let mut parts = vec!["mode=quick".to_string()];
    for key in ["size", "series", "swap", "time", "name"] {
        if let Some(v) = q.get(key) {
            parts.push(format!("{key}={}", encode(&v)));
        }
    }
    let size = q.get("size").and_then(|s| s.parse().ok()).filter(|n| (3..=19).contains(n)).unwrap_or(11);
    if let Some(name) = q.get("name") {
        crate::browser::save("hexarena.name", name.trim());
    }
    view! { <LiveTable initial=None seating=Seating::Quick { query: parts.join("&"), size } /> }
}

/// A live table: the board and its side panel, kept up to date over the
/// page's socket.
#[component]
fn LiveTable(initial: Option<TableView>, seating: Seating) -> impl IntoView {
    let gone = initial.is_none() && matches!(seating, Seating::Table { .. });
    let board_size = match &seating {
        Seating::Quick { size, .. } => *size,
        Seating::Table { .. } => 11,
    };
    let live = Live::new(initial, seating);
    let Live { table, me, chat, notice, link, stamp, .. } = live;
    let clock = RwSignal::new(now_ms());
    Effect::new(move |_| {
        if !gone {
            live.open();
        }
        if let Ok(handle) = set_interval_with_handle(move || clock.set(now_ms()), std::time::Duration::from_millis(250))
        {
            on_cleanup(move || handle.clear());
        }
    });
    on_cleanup(move || live.close());

    let board = Memo::new(move |_| {
        table.with(|t| match t {
            Some(t) => {
                let mut view = BoardView::of(&t.game(), live.my_turn());
                if t.winner.is_none() {
                    view.winning.clear();
                }
                view
            }
            None => BoardView::of(&Game::new(board_size, false).unwrap_or_default(), false),
        })
    });
    let on_play = Callback::new(move |cell: Cell| {
        if live.my_turn() {
            notice.set(None);
            live.send(ClientMessage::Move { q: cell.q.into(), r: cell.r.into() });
        }
    });
    let status = move || status_line(table.get().as_ref(), me.get(), link.get(), gone);
    let status_class = move || {
        let colour = table.with(|t| t.as_ref().and_then(|t| t.winner.or(t.series_winner).or(t.turn)));
        format!(
            "game-status {}",
            colour.map_or("status-viewing", |p| if p == PlayerId::Red { "status-red" } else { "status-blue" })
        )
    };
    let title = move || {
        table.with(|t| match t {
            Some(t) => format!("Game {} — {}×{} — hexarena", t.id, t.size, t.size),
            None => "Finding an opponent — hexarena".to_string(),
        })
    };

    view! {
        <Title text=title />
        <div class="game-page live-game">
            <section class="board-area" aria-label="Board">
                <HexBoard view=board on_play label="Live game" />
            </section>
            <aside class="side-panel">
                <h1 class="panel-title">
                    {move || table.with(|t| t.as_ref().map_or("Online game".to_string(), |t| format!("Online game {}", t.id)))}
                </h1>
                <p class="hint" data-testid="table-rules">{move || table.with(|t| t.as_ref().map(rules_line).unwrap_or_default())}</p>
                <ul class="players">
                    {PlayerId::BOTH
                        .into_iter()
                        .map(|seat| view! { <SeatLine seat table me stamp clock /> })
                        .collect_view()}
                </ul>
                <p class=status_class data-testid="game-status" aria-live="polite">{status}</p>
                <Show when=move || notice.get().is_some()>
                    <p class="notice" role="alert" data-testid="notice">{move || notice.get().unwrap_or_default()}</p>
                </Show>
                <ShareLink table clock />
                <LiveActions live />
                <Rematch live />
                <SpectatorCount table />
                <LiveMoves table />
                <FinishedGames table />
                <Chat chat table me send=Callback::new(move |line: String| live.send(ClientMessage::Chat(Some(line)))) />
            </aside>
        </div>
    }
}

/// Where a private room waits: the link and the code to give the opponent.
#[component]
fn ShareLink(table: RwSignal<Option<TableView>>, clock: RwSignal<f64>) -> impl IntoView {
    let share = move || {
        table.with(|t| {
            t.as_ref().and_then(|t| {
                let code = t.room_code.clone()?;
                let path = format!("/game/{}?join={code}", t.id);
                Some(RoomShare { code, path })
            })
        })
    };
    // The page's own origin, known only in the browser (read after
    // hydration, through the clock, so the server's HTML matches).
    let origin = move || {
        clock.get();
        #[cfg(feature = "hydrate")]
        return web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
        #[cfg(not(feature = "hydrate"))]
        String::new()
    };
    view! {
        <Show when=move || share().is_some()>
            <div class="share card">
                <p>"Send this link to your opponent (or give them the code "
                    <strong data-testid="room-code">{move || share().map(|s| s.code).unwrap_or_default()}</strong> "):"</p>
                <a data-testid="share-link" href=move || share().map(|s| s.path).unwrap_or_default()>
                    {move || format!("{}{}", origin(), share().map(|s| s.path).unwrap_or_default())}
                </a>
            </div>
        </Show>
    }
}

/// A private room's code and the path that joins it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RoomShare {
    code: String,
    path: String,
}

/// Swap, resign (asked twice), and the ways on.
#[component]
fn LiveActions(live: Live) -> impl IntoView {
    let can_swap = move || live.my_turn() && live.table.with(|t| t.as_ref().is_some_and(|t| t.game().can_swap()));
    let confirm_resign = RwSignal::new(false);
    let resign = move |_| {
        if confirm_resign.get_untracked() {
            confirm_resign.set(false);
            live.send(ClientMessage::Resign);
        } else {
            confirm_resign.set(true);
        }
    };
    view! {
        <div class="button-row actions">
            <Show when=can_swap>
                <button type="button" class="primary" data-testid="swap" on:click=move |_| live.send(ClientMessage::Swap)>
                    "Swap"
                </button>
            </Show>
            <Show when=move || live.can_resign()>
                <button type="button" data-testid="resign" on:click=resign>
                    {move || if confirm_resign.get() { "Really resign this game?" } else { "Resign" }}
                </button>
            </Show>
            <a class="button" href="/play">"New game"</a>
            <a class="button" href="/overview">"Live games"</a>
        </div>
    }
}

/// After the series: offer a rematch (same settings, colours swapped), or
/// answer the opponent's offer. One block whose parts show and hide: a
/// branch per state cost the online pages' download several kilobytes.
#[component]
fn Rematch(live: Live) -> impl IntoView {
    let over = move || {
        live.me.get().is_some()
            && live.table.with(|t| t.as_ref().is_some_and(|t| matches!(t.phase, Phase::Over | Phase::Abandoned)))
    };
    let send = move |step: RematchStep| live.send(ClientMessage::Rematch(step));
    let opponent = move || {
        let me = live.me.get()?;
        live.table.with(|t| t.as_ref().and_then(|t| t.seats[me.opponent()].as_ref().map(|s| s.label(me.opponent()))))
    };
    let state = move || {
        let me = live.me.get();
        match live.rematch.get() {
            Some(RematchNews::Offered { by }) if Some(by) == me => RematchState::Waiting,
            Some(RematchNews::Offered { .. }) => RematchState::Asked,
            Some(RematchNews::Declined { by }) if Some(by) != me => RematchState::Declined,
            Some(RematchNews::Failed { message }) => RematchState::Failed(message),
            _ => RematchState::Open,
        }
    };
    let status = move || match state() {
        RematchState::Open => String::new(),
        RematchState::Waiting => "Rematch offered: waiting for your opponent…".into(),
        RematchState::Asked => format!("{} offers a rematch, colours swapped.", opponent().unwrap_or_default()),
        RematchState::Declined => format!("{} declined the rematch.", opponent().unwrap_or_default()),
        RematchState::Failed(why) => why,
    };
    let asked = move || state() == RematchState::Asked;
    let can_offer = move || matches!(state(), RematchState::Open | RematchState::Declined | RematchState::Failed(_));
    view! {
        <div class="rematch card" data-testid="rematch" hidden=move || !over()>
            <p data-testid="rematch-status" hidden=move || state() == RematchState::Open>{status}</p>
            <div class="button-row">
                <button type="button" class="primary" data-testid="rematch-offer" hidden=move || !can_offer()
                    on:click=move |_| send(RematchStep::Offer)>"Offer a rematch (colours swapped)"</button>
                <button type="button" class="primary" data-testid="rematch-accept" hidden=move || !asked()
                    on:click=move |_| send(RematchStep::Accept)>"Accept"</button>
                <button type="button" data-testid="rematch-decline" hidden=move || !asked()
                    on:click=move |_| send(RematchStep::Decline)>"Decline"</button>
            </div>
        </div>
    }
}

/// Where agreeing on a rematch stands, as this player sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RematchState {
    Open,
    /// We offered.
    Waiting,
    /// They offered.
    Asked,
    Declined,
    Failed(String),
}

/// How many watch the game.
#[component]
fn SpectatorCount(table: RwSignal<Option<TableView>>) -> impl IntoView {
    view! {
        <p class="hint" data-testid="spectators">
            {move || table.with(|t| t.as_ref().map(|t| match t.spectators {
                0 => "No spectators".to_string(),
                1 => "1 spectator".to_string(),
                n => format!("{n} spectators"),
            }).unwrap_or_default())}
        </p>
    }
}
