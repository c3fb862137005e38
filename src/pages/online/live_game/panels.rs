//! The parts of a live table's side panel: the status line, the seats
//! with their clocks, the moves, the series' earlier games and the chat.

use leptos::prelude::*;

use super::connection::Link;
use crate::engine::{Game, Move};
use crate::online::messages::ChatLine;
use crate::online::{GameEnd, Phase, PlayerId, TableView};

pub(super) fn rules_line(t: &TableView) -> String {
    let series = if t.series_length == 1 { "one game".to_string() } else { format!("best of {}", t.series_length) };
    let clock = t.time_control.map_or("no clock".to_string(), |tc| format!("{tc} clock"));
    format!("{0}×{0} board, swap {1}, {series}, {clock}", t.size, if t.swap { "on" } else { "off" })
}

pub(super) fn status_line(t: Option<&TableView>, me: Option<PlayerId>, link: Link, gone: bool) -> String {
    let Some(t) = t else {
        return match (gone, link) {
            (true, _) => "This game is not live: it has finished or never existed.".into(),
            (_, Link::Refused) => "Could not start a game (see the message below).".into(),
            (_, Link::Retrying) => "The connection dropped: trying again…".into(),
            _ => "Looking for an opponent…".into(),
        };
    };
    let name = |p: PlayerId| t.seats[p].as_ref().map_or(p.color().name().to_string(), |s| s.label(p));
    let you = |p: PlayerId| me == Some(p);
    let mut line = match t.phase {
        Phase::Waiting => "Waiting for an opponent to join".to_string(),
        Phase::Playing => match t.turn {
            Some(p) if you(p) => format!("Your move ({})", p.color().name()),
            Some(p) => format!("{} to move ({})", name(p), p.color().name()),
            None => "Starting the next game…".into(),
        },
        Phase::Paused => {
            let away = PlayerId::BOTH.into_iter().find(|&p| t.seats[p].as_ref().is_some_and(|s| !s.connected));
            let secs = t.reconnect_seconds_left.unwrap_or(0);
            match away {
                Some(p) if you(p) => "Reconnecting…".into(),
                Some(p) => format!("{} lost the connection: waiting up to {secs} s for them", name(p)),
                None => "Paused".into(),
            }
        }
        Phase::Over | Phase::Abandoned => {
            let w = t.series_winner.or(t.winner);
            // A connection needs no saying.
            let how = match t.reason {
                Some(GameEnd::ConnectedSides) | None => String::new(),
                Some(end) => format!(" {}", end.adverb()),
            };
            match w {
                Some(p) if t.series_length > 1 => {
                    format!("{} wins the series {}–{}{how}", name(p), t.score[p], t.score[p.opponent()])
                }
                Some(p) => format!("{} ({}) wins{how}", name(p), p.color().name()),
                None => "The game is over".into(),
            }
        }
    };
    if link == Link::Retrying && me.is_some() {
        line.push_str(" — reconnecting…");
    }
    line
}

/// One seat: colour, name, connection, clock and series wins.
#[component]
pub(super) fn SeatLine(
    seat: PlayerId,
    table: RwSignal<Option<TableView>>,
    me: RwSignal<Option<PlayerId>>,
    stamp: RwSignal<f64>,
    clock: RwSignal<f64>,
) -> impl IntoView {
    let colour = seat.color();
    let info = move || table.with(|t| t.as_ref().and_then(|t| t.seats[seat].clone()));
    let label = move || match info() {
        Some(s) => s.label(seat),
        None => "Open seat".into(),
    };
    let state = move || {
        table.with(|t| match t {
            Some(t) if t.winner == Some(seat) => "winner",
            Some(t) if t.turn == Some(seat) && t.phase == Phase::Playing => "to-move",
            _ => "",
        })
    };
    let time_left = move || {
        let t = table.get()?;
        let left = t.seats[seat].as_ref()?.clock_ms? as f64;
        let running = t.clock_running == Some(seat);
        let left = if running { (left - (clock.get() - stamp.get()).max(0.0)).max(0.0) } else { left };
        let secs = (left / 1000.0).ceil() as u64;
        Some(format!("{}:{:02}", secs / 60, secs % 60))
    };
    let wins =
        move || table.with(|t| t.as_ref().filter(|t| t.series_length > 1).map(|t| format!("{} won", t.score[seat])));
    view! {
        <li class=move || format!("player player-{} {}", colour.as_str(), state()) data-testid=format!("seat-{}", colour.as_str())>
            <span class=format!("chip chip-{}", colour.as_str()) aria-hidden="true"></span>
            <span class="player-name">{colour.name()}</span>
            <span class="player-who">
                {label}
                {move || (me.get() == Some(seat)).then_some(" (you)")}
                {move || info().filter(|s| !s.connected).map(|_| " — away")}
            </span>
            <span class="player-clock" data-testid=format!("clock-{}", colour.as_str())>{time_left}</span>
            <span class="player-state">{wins}</span>
        </li>
    }
}

/// The current game's moves in notation.
#[component]
pub(super) fn LiveMoves(table: RwSignal<Option<TableView>>) -> impl IntoView {
    let moves =
        move || table.with(|t| t.as_ref().map(|t| (t.first, t.moves.clone())).unwrap_or((PlayerId::Red, Vec::new())));
    let with_mover = move || {
        let (first, moves) = moves();
        let mover = |i: usize| if i.is_multiple_of(2) { first } else { first.opponent() };
        moves.into_iter().enumerate().map(|(i, m)| (i, m, mover(i))).collect::<Vec<_>>()
    };
    view! {
        <div class="move-list-box">
            <h2 class="box-title">"Moves"</h2>
            <ol class="move-list" data-testid="move-list">
                // Keyed by ply, move and mover: a move adds one item; a new
                // game (another first player) replaces them all.
                <For
                    each=with_mover
                    key=|entry| *entry
                    children=|(_, m, who)| {
                        let text = match m {
                            Move::Place(c) => c.to_string(),
                            Move::Swap => "swap".into(),
                        };
                        view! { <li class=format!("move move-{}", who.color().as_str())><span>{text}</span></li> }
                    }
                />
            </ol>
        </div>
    }
}

/// Earlier games of the series, each with a review link when it can be
/// replayed on the analysis board (games Red opened).
#[component]
pub(super) fn FinishedGames(table: RwSignal<Option<TableView>>) -> impl IntoView {
    let games = move || {
        table.with(|t| t.as_ref().map(|t| (t.size, t.swap, t.finished.clone())).unwrap_or((11, false, Vec::new())))
    };
    view! {
        <Show when=move || !games().2.is_empty()>
            <div class="finished-games">
                <h2 class="box-title">"Games of this series"</h2>
                <ul data-testid="finished-games">
                    {move || {
                        let (size, swap, list) = games();
                        list.into_iter()
                            .map(|g| {
                                let game = Game::starting_with_moves(size, swap, g.first.color(), &g.moves).ok();
                                let href = game.filter(|_| g.first == PlayerId::Red).map(|g| crate::pages::analysis::review_href(&g));
                                let reason = g.reason.noun();
                                view! {
                                    <li>
                                        {format!("Game {}: {} won ({reason}, {} moves) ", g.number, g.winner.color().name(), g.moves.len())}
                                        {href.map(|h| view! { <a href=h>"Review"</a> })}
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

/// Chat between the two players; spectators read it.
#[component]
pub(super) fn Chat(
    chat: RwSignal<Vec<ChatLine>>,
    table: RwSignal<Option<TableView>>,
    me: RwSignal<Option<PlayerId>>,
    send: Callback<String>,
) -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let name = move |p: PlayerId| {
        table
            .with(|t| t.as_ref().and_then(|t| t.seats[p].as_ref().map(|s| s.label(p))))
            .unwrap_or_else(|| p.color().name().into())
    };
    let numbered = move || chat.get().into_iter().enumerate().collect::<Vec<_>>();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let line = draft.get_untracked();
        if !line.trim().is_empty() {
            send.run(line.chars().take(crate::online::client_message::MAX_CHAT_CHARS).collect());
            draft.set(String::new());
        }
    };
    view! {
        <div class="chat">
            <h2 class="box-title">"Chat"</h2>
            <ul class="chat-lines" data-testid="chat" aria-live="polite">
                // Lines are only ever added: keyed by their place.
                <For
                    each=numbered
                    key=|(i, _)| *i
                    children=move |(_, l)| view! {
                        <li class=format!("chat-{}", l.player.color().as_str())>
                            <strong>{name(l.player)} ": "</strong>{l.message}
                        </li>
                    }
                />
            </ul>
            <Show when=move || me.get().is_some() fallback=|| view! { <p class="hint">"Spectators read the chat."</p> }>
                <form class="chat-form" on:submit=submit>
                    <input
                        type="text"
                        maxlength="500"
                        aria-label="Chat message"
                        data-testid="chat-input"
                        prop:value=move || draft.get()
                        on:input=move |ev| draft.set(event_target_value(&ev))
                    />
                    <button type="submit">"Send"</button>
                </form>
            </Show>
        </div>
    }
}
