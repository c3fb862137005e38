//! `/overview`: every live table, updated as it changes. The server renders
//! the list; the browser then follows `/ws/overview`, which sends only the
//! tables that changed.

use std::collections::BTreeMap;

use leptos::prelude::*;
use leptos_meta::Title;

use super::live_socket::{LiveSocket, SocketSlot};
use super::lobby::live_tables;
use crate::online::account::seat_label;
use crate::online::view::OverviewUpdate;
use crate::online::{PlayerId, SlotSnapshot, SlotState};

/// The overview page.
#[component]
pub fn OverviewPage() -> impl IntoView {
    let initial = Resource::new(|| (), |_| live_tables());
    view! {
        <Title text="Live games — hexarena" />
        <div class="page">
            <h1>"Live games"</h1>
            <Suspense fallback=|| view! { <p>"Loading…"</p> }>
                {move || Suspend::new(async move {
                    match initial.await {
                        Ok(list) => view! { <LiveList initial=list /> }.into_any(),
                        Err(e) => view! { <p class="error">{format!("The list could not be loaded: {e}")}</p> }.into_any(),
                    }
                })}
            </Suspense>
        </div>
    }
}

#[component]
fn LiveList(initial: Vec<SlotSnapshot>) -> impl IntoView {
    let tables = RwSignal::new(initial.into_iter().map(|s| (s.slot_id, s)).collect::<BTreeMap<u64, SlotSnapshot>>());
    let live = RwSignal::new(false);
    let socket = SocketSlot::new();
    Effect::new(move |_| {
        let on_text = move |text: String| {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(&text) else { return };
            let Ok(update) = serde_json::from_value::<OverviewUpdate>(message["payload"].clone()) else { return };
            live.set(true);
            tables.update(|t| {
                if update.full {
                    t.clear();
                }
                for id in update.removed {
                    t.remove(&id);
                }
                for s in update.slots {
                    t.insert(s.slot_id, s);
                }
                for patch in update.changed {
                    if let Some(s) = t.get_mut(&patch.slot_id)
                        && let Err(e) = patch.apply(s)
                    {
                        // Cannot happen with patches from the server that sent the list;
                        // if it does, the card stays as it was and the console says why.
                        leptos::logging::warn!("overview: {e}");
                    }
                }
            });
        };
        socket.set(LiveSocket::open("/ws/overview", None, on_text, move || live.set(false)));
    });
    on_cleanup(move || socket.set(None));
    let count = move || tables.with(|t| t.values().filter(|s| s.state == SlotState::Full).count());
    view! {
        <p class="hint" data-testid="overview-summary">
            {move || {
                let waiting = tables.with(|t| t.len()) - count();
                format!("{} games in play, {waiting} players waiting for an opponent", count())
            }}
            {move || if live.get() { " — live" } else { "" }}
        </p>
        <Show when=move || tables.with(|t| t.is_empty())>
            <p data-testid="overview-empty">"No game is being played right now. " <a href="/play">"Start one"</a> "."</p>
        </Show>
        <ul class="overview-list" data-testid="overview-list">
            <For each=move || tables.get().into_values() key=|s| (s.slot_id, s.move_count, s.current_game_number, s.connected_player_count, s.spectators, s.state) let:s>
                <TableCard s />
            </For>
        </ul>
    }
}

#[component]
fn TableCard(s: SlotSnapshot) -> impl IntoView {
    let name = |p: PlayerId| {
        let user = s.player_usernames.get(p.key());
        let model = s.player_models.get(p.key());
        let base = match seat_label(user.map(String::as_str), model.map(String::as_str)) {
            Some(label) => label,
            None if s.players.contains(&p) => format!("Anonymous {}", p.color().name()),
            None => return "waiting…".to_string(),
        };
        s.player_kinds.get(p.key()).map_or(base.clone(), |k| k.decorate(base))
    };
    let status = if s.state == SlotState::Waiting {
        "Waiting for an opponent".to_string()
    } else if let Some(w) = s.series_winner {
        format!("{} won", w.color().name())
    } else if !s.disconnected_players.is_empty() {
        "Paused: a player is reconnecting".to_string()
    } else {
        format!("Move {} — {} to play", s.move_count + 1, s.current_turn.map_or("", |p| p.color().name()))
    };
    let series = if s.series_length > 1 {
        format!(", best of {} ({}–{})", s.series_length, s.player_1_wins, s.player_2_wins)
    } else {
        String::new()
    };
    let board = s.board.clone().unwrap_or_default();
    view! {
        <li class="overview-card card" data-testid="overview-card" data-game=s.slot_id.to_string()>
            <MiniBoard board size=s.board_size />
            <div class="overview-text">
                <p class="overview-players">
                    <span class="chip chip-red" aria-hidden="true"></span> {name(PlayerId::Red)} " vs "
                    <span class="chip chip-blue" aria-hidden="true"></span> {name(PlayerId::Blue)}
                </p>
                <p class="hint">{format!("{0}×{0}{series}", s.board_size)}</p>
                <p data-testid="overview-status">{status}</p>
                <p class="hint">{format!("{} watching", s.spectators)}</p>
                <a class="button" href=format!("/game/{}", s.slot_id) data-testid="watch-link">"Watch"</a>
            </div>
        </li>
    }
}

/// A small picture of a board: one dot per stone on the rhombus.
#[component]
fn MiniBoard(board: Vec<Vec<i8>>, size: u8) -> impl IntoView {
    let n = f64::from(size.max(1));
    let width = n * 1.5 + 1.0;
    let height = n * 0.9 + 0.6;
    let dots = board
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter().enumerate().filter(|(_, v)| **v != 0).map(move |(q, v)| {
                let x = 0.5 + q as f64 + r as f64 * 0.5;
                let y = 0.5 + r as f64 * 0.866;
                let class = if *v < 0 { "mini-red" } else { "mini-blue" };
                view! { <circle cx=format!("{x:.2}") cy=format!("{y:.2}") r="0.45" class=class /> }
            })
        })
        .collect_view();
    let outline = format!("0,0 {n},0 {:.2},{:.2} {:.2},{:.2}", n + n * 0.5, n * 0.866, n * 0.5, n * 0.866);
    view! {
        <svg class="mini-board" viewBox=format!("-0.2 -0.2 {width:.2} {height:.2}") aria-hidden="true">
            <polygon points=outline class="mini-outline" />
            {dots}
        </svg>
    }
}
