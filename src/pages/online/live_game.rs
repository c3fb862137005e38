//! `/game/:id` and `/play/online`: a live table. The server renders the
//! board as it stands; in the browser the page opens a WebSocket as a
//! player (quick match, private room, or back to a seat with the token kept
//! in browser storage) or as a spectator, and redraws from every `state`.

use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

use super::live_socket::{LiveSocket, SocketSlot, encode};
use super::lobby::live_table;
use crate::components::board::HexBoard;
use crate::components::board_view::BoardView;
use crate::engine::{Cell, Game, Move};
use crate::online::messages::ChatLine;
use crate::online::{ClientMessage, GameEnd, Phase, PlayerId, ServerMessage, TableView};

/// How this page takes part in the table.
#[derive(Clone, Debug, PartialEq)]
enum Seating {
    /// Matchmaking with this query (`size=…&series=…&swap=…&time=…&name=…`).
    Quick { query: String, size: u8 },
    /// A known table: back to our seat if we hold its token, else join the
    /// room with `join`'s code, else watch.
    Table { id: u64, join: Option<String>, name: Option<String> },
}

/// The state of the page's connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Connecting,
    Open,
    /// Lost; the page tries again shortly.
    Retrying,
    /// Refused for good (the server said why in the notice).
    Refused,
}

fn seat_key(id: u64) -> String {
    format!("hexarena.seat.{id}")
}

/// `"<player> <token>"` kept for a table we sit at.
fn stored_seat(id: u64) -> Option<(PlayerId, String)> {
    let text = crate::browser::load(&seat_key(id))?;
    let (player, token) = text.split_once(' ')?;
    Some((PlayerId::from_number(player.parse().ok()?)?, token.to_string()))
}

/// `&player=…&secret=…` for a browser with a registered name.
fn identity_query() -> String {
    super::play_online::stored_identity()
        .map(|i| format!("&player={}&secret={}", encode(&i.id), encode(&i.secret)))
        .unwrap_or_default()
}

fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    return js_sys::Date::now();
    #[cfg(not(feature = "hydrate"))]
    0.0
}

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

/// Everything the connection code touches; `Copy`, so handlers and timers
/// can hold it.
#[derive(Clone, Copy)]
struct Live {
    table: RwSignal<Option<TableView>>,
    me: RwSignal<Option<PlayerId>>,
    chat: RwSignal<Vec<ChatLine>>,
    notice: RwSignal<Option<String>>,
    link: RwSignal<Link>,
    stamp: RwSignal<f64>,
    table_id: RwSignal<Option<u64>>,
    seating: StoredValue<Seating>,
    /// Set once this page has tried to join a room, so a refusal (the room
    /// is full) falls back to watching.
    joining: StoredValue<bool>,
    retries: StoredValue<u32>,
    socket: SocketSlot,
}

impl Live {
    fn send(self, text: &str) {
        self.socket.send(text);
    }

    /// The socket address for what this page should be now.
    fn url(self) -> String {
        let seating = self.seating.get_value();
        match (&seating, self.table_id.get_untracked()) {
            (_, Some(id)) if stored_seat(id).is_some() => {
                let (_, token) = stored_seat(id).unwrap_or((PlayerId::Red, String::new()));
                format!("/ws/play?mode=resume&game={id}&token={}", encode(&token))
            }
            (Seating::Table { join: Some(code), name, .. }, Some(_)) if !self.joining.get_value() => {
                self.joining.set_value(true);
                let name = name.clone().or_else(|| crate::browser::load("hexarena.name")).unwrap_or_default();
                format!("/ws/play?mode=room&code={}&name={}{}", encode(code), encode(&name), identity_query())
            }
            (_, Some(id)) => format!("/ws/watch?game={id}"),
            (Seating::Quick { query, .. }, None) => format!("/ws/play?{query}{}", identity_query()),
            (Seating::Table { .. }, None) => String::new(),
        }
    }

    /// Opens the socket; a lost connection tries again with a growing pause.
    fn open(self) {
        let path = self.url();
        if path.is_empty() {
            return;
        }
        self.link.set(Link::Connecting);
        let on_close = move || {
            if self.link.get_untracked() == Link::Refused {
                return;
            }
            // A quick-match socket that closes before seating has nothing
            // to resume.
            if self.table_id.get_untracked().is_none() {
                self.link.set(Link::Refused);
                return;
            }
            self.link.set(Link::Retrying);
            let n = self.retries.get_value();
            self.retries.set_value(n + 1);
            let delay = std::time::Duration::from_millis(500 * u64::from((n + 1).min(10)));
            set_timeout(move || self.open(), delay);
        };
        self.socket.set(LiveSocket::open(&path, move |text| self.on_text(&text), on_close));
    }

    fn on_text(self, text: &str) {
        let Ok(message) = serde_json::from_str::<ServerMessage>(text) else { return };
        match message {
            ServerMessage::Joined(j) | ServerMessage::SlotKept(j) => {
                crate::browser::save(&seat_key(j.slot_id), &format!("{} {}", j.player.number(), j.reconnect_token));
                self.me.set(Some(j.player));
                self.retries.set_value(0);
                if self.table_id.get_untracked() != Some(j.slot_id) {
                    self.table_id.set(Some(j.slot_id));
                    crate::browser::replace_path(&format!("/game/{}", j.slot_id));
                }
                self.link.set(Link::Open);
            }
            ServerMessage::Reconnected(r) => {
                self.me.set(Some(r.player));
                self.retries.set_value(0);
                self.link.set(Link::Open);
            }
            ServerMessage::State(view) => {
                self.link.set(Link::Open);
                self.stamp.set(now_ms());
                self.table.set(Some(*view));
            }
            ServerMessage::Chat(line) => self.chat.update(|c| c.push(line)),
            ServerMessage::MoveRejected { reason, .. } => self.notice.set(Some(reason)),
            ServerMessage::Error { message, code } => {
                // A seat we can no longer resume, or a room already full:
                // the retry after the close watches instead.
                if let (true, Some(id)) = (code.seat_lost(), self.table_id.get_untracked()) {
                    crate::browser::save(&seat_key(id), "");
                    self.me.set(None);
                } else if self.joining.get_value() && self.me.get_untracked().is_none() {
                    self.notice.set(Some(format!("{message}: you are watching this game.")));
                } else {
                    self.notice.set(Some(message));
                    if self.link.get_untracked() != Link::Open {
                        self.link.set(Link::Refused);
                    }
                }
            }
            ServerMessage::OpponentDisconnected { reason, .. } if reason == "waiting_for_reconnect" => {
                self.notice.set(Some("Your opponent lost the connection; the game waits for them.".into()))
            }
            ServerMessage::OpponentReconnected { .. } => self.notice.set(None),
            ServerMessage::OpponentLeftSlot { message } => self.notice.set(Some(message)),
            _ => {}
        }
    }
}

#[component]
fn LiveTable(initial: Option<TableView>, seating: Seating) -> impl IntoView {
    let gone = initial.is_none() && matches!(seating, Seating::Table { .. });
    let board_size = match &seating {
        Seating::Quick { size, .. } => *size,
        Seating::Table { .. } => 11,
    };
    let live = Live {
        table: RwSignal::new(initial),
        me: RwSignal::new(None),
        chat: RwSignal::new(Vec::new()),
        notice: RwSignal::new(None),
        link: RwSignal::new(Link::Connecting),
        stamp: RwSignal::new(now_ms()),
        table_id: RwSignal::new(match &seating {
            Seating::Table { id, .. } => Some(*id),
            Seating::Quick { .. } => None,
        }),
        seating: StoredValue::new(seating),
        joining: StoredValue::new(false),
        retries: StoredValue::new(0),
        socket: SocketSlot::new(),
    };
    let Live { table, me, chat, notice, link, stamp, .. } = live;
    let clock = RwSignal::new(now_ms());
    let send = move |text: String| live.send(&text);
    Effect::new(move |_| {
        if !gone {
            live.open();
        }
        if let Ok(handle) = set_interval_with_handle(move || clock.set(now_ms()), std::time::Duration::from_millis(250))
        {
            on_cleanup(move || handle.clear());
        }
    });
    on_cleanup(move || live.socket.set(None));

    let my_turn = move || {
        table.with(|t| t.as_ref().is_some_and(|t| t.phase == Phase::Playing && t.turn.is_some() && t.turn == me.get()))
    };
    let board = Memo::new(move |_| {
        table.with(|t| match t {
            Some(t) => {
                let mut view = BoardView::of(&t.game(), my_turn());
                if t.winner.is_none() {
                    view.winning.clear();
                }
                view
            }
            None => BoardView::of(&Game::new(board_size, false).unwrap_or_default(), false),
        })
    });
    let on_play = Callback::new(move |cell: Cell| {
        if my_turn() {
            notice.set(None);
            send(ClientMessage::Move { q: cell.q.into(), r: cell.r.into() }.to_json());
        }
    });
    let can_swap = move || my_turn() && table.with(|t| t.as_ref().is_some_and(|t| t.game().can_swap()));
    let confirm_resign = RwSignal::new(false);
    let can_resign = move || {
        me.get().is_some()
            && table.with(|t| {
                t.as_ref().is_some_and(|t| matches!(t.phase, Phase::Playing | Phase::Paused) && t.winner.is_none())
            })
    };
    let resign = move |_| {
        if confirm_resign.get_untracked() {
            confirm_resign.set(false);
            send(ClientMessage::Resign.to_json());
        } else {
            confirm_resign.set(true);
        }
    };

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
    let share = move || {
        table.with(|t| {
            t.as_ref().and_then(|t| {
                let code = t.room_code.clone()?;
                Some((code.clone(), format!("/game/{}?join={code}", t.id)))
            })
        })
    };
    let origin = move || {
        clock.get();
        #[cfg(feature = "hydrate")]
        return web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default();
        #[cfg(not(feature = "hydrate"))]
        String::new()
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
                <Show when=move || share().is_some()>
                    <div class="share card">
                        <p>"Send this link to your opponent (or give them the code "
                            <strong data-testid="room-code">{move || share().map(|s| s.0).unwrap_or_default()}</strong> "):"</p>
                        <a data-testid="share-link" href=move || share().map(|s| s.1).unwrap_or_default()>
                            {move || format!("{}{}", origin(), share().map(|s| s.1).unwrap_or_default())}
                        </a>
                    </div>
                </Show>
                <div class="button-row actions">
                    <Show when=can_swap>
                        <button type="button" class="primary" data-testid="swap" on:click=move |_| send(ClientMessage::Swap.to_json())>
                            "Swap"
                        </button>
                    </Show>
                    <Show when=can_resign>
                        <button type="button" data-testid="resign" on:click=resign>
                            {move || if confirm_resign.get() { "Really resign this game?" } else { "Resign" }}
                        </button>
                    </Show>
                    <a class="button" href="/play">"New game"</a>
                    <a class="button" href="/overview">"Live games"</a>
                </div>
                <p class="hint" data-testid="spectators">
                    {move || table.with(|t| t.as_ref().map(|t| match t.spectators {
                        0 => "No spectators".to_string(),
                        1 => "1 spectator".to_string(),
                        n => format!("{n} spectators"),
                    }).unwrap_or_default())}
                </p>
                <LiveMoves table />
                <FinishedGames table />
                <Chat chat table me send=Callback::new(move |line: String| send(ClientMessage::Chat(Some(line)).to_json())) />
            </aside>
        </div>
    }
}

fn rules_line(t: &TableView) -> String {
    let series = if t.series_length == 1 { "one game".to_string() } else { format!("best of {}", t.series_length) };
    let clock = t.time_control.map_or("no clock".to_string(), |tc| format!("{tc} clock"));
    format!("{0}×{0} board, swap {1}, {series}, {clock}", t.size, if t.swap { "on" } else { "off" })
}

fn status_line(t: Option<&TableView>, me: Option<PlayerId>, link: Link, gone: bool) -> String {
    let Some(t) = t else {
        return match (gone, link) {
            (true, _) => "This game is not live: it has finished or never existed.".into(),
            (_, Link::Refused) => "Could not start a game (see the message below).".into(),
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
fn SeatLine(
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
fn LiveMoves(table: RwSignal<Option<TableView>>) -> impl IntoView {
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
fn FinishedGames(table: RwSignal<Option<TableView>>) -> impl IntoView {
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
fn Chat(
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
