//! The page's connection to its table: what it asks for (a seat by token,
//! a room by code, matchmaking, or watching), the socket that retries when
//! it drops, and what each server message changes on the page.

use leptos::prelude::*;

use super::super::live_socket::{LiveSocket, SocketSlot, encode};
use crate::online::messages::{ChatLine, DisconnectReason, RematchNews};
use crate::online::{ClientMessage, Credentials, Phase, PlayerId, ServerMessage, TableView};

/// How this page takes part in the table.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Seating {
    /// Matchmaking with this query (`size=…&series=…&swap=…&time=…&name=…`).
    Quick { query: String, size: u8 },
    /// A known table: back to our seat if we hold its token, else join the
    /// room with `join`'s code, else watch.
    Table { id: u64, join: Option<String>, name: Option<String> },
}

/// The state of the page's connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Link {
    Connecting,
    Open,
    /// Lost; the page tries again shortly.
    Retrying,
    /// Refused for good (the server said why in the notice).
    Refused,
}

/// How many times a quick match asks again after its socket drops before
/// a seat was given (about 20 s with the growing pause).
const QUICK_MATCH_ATTEMPTS: u32 = 8;

fn seat_key(id: u64) -> String {
    format!("hexarena.seat.{id}")
}

/// `"<player> <token>"` kept for a table we sit at.
fn stored_seat(id: u64) -> Option<(PlayerId, String)> {
    let text = crate::browser::load(&seat_key(id))?;
    let (player, token) = text.split_once(' ')?;
    Some((PlayerId::from_number(player.parse().ok()?)?, token.to_string()))
}

/// The registered name this browser holds, as the socket's credentials.
fn identity() -> Credentials {
    super::super::play_online::stored_identity()
        .map(|i| Credentials { player: Some(i.id), secret: Some(i.secret), token: None })
        .unwrap_or_default()
}

pub(super) fn now_ms() -> f64 {
    #[cfg(feature = "hydrate")]
    return js_sys::Date::now();
    #[cfg(not(feature = "hydrate"))]
    0.0
}

/// Everything the connection code touches; `Copy`, so handlers and timers
/// can hold it.
#[derive(Clone, Copy)]
pub(super) struct Live {
    /// The table as the server last drew it.
    pub table: RwSignal<Option<TableView>>,
    /// Our seat, once seated.
    pub me: RwSignal<Option<PlayerId>>,
    pub chat: RwSignal<Vec<ChatLine>>,
    /// The last refusal or notice from the server.
    pub notice: RwSignal<Option<String>>,
    pub link: RwSignal<Link>,
    /// When `table` arrived (clocks count down from it).
    pub stamp: RwSignal<f64>,
    /// The latest news of a rematch, after the series.
    pub rematch: RwSignal<Option<RematchNews>>,
    table_id: RwSignal<Option<u64>>,
    seating: StoredValue<Seating>,
    /// Set once this page has tried to join a room, so a refusal (the room
    /// is full) falls back to watching.
    joining: StoredValue<bool>,
    retries: StoredValue<u32>,
    socket: SocketSlot,
}

impl Live {
    /// The page's state before any message: the server-rendered table, if
    /// any, and how to take part.
    pub fn new(initial: Option<TableView>, seating: Seating) -> Live {
        Live {
            table: RwSignal::new(initial),
            me: RwSignal::new(None),
            chat: RwSignal::new(Vec::new()),
            notice: RwSignal::new(None),
            link: RwSignal::new(Link::Connecting),
            stamp: RwSignal::new(now_ms()),
            rematch: RwSignal::new(None),
            table_id: RwSignal::new(match &seating {
                Seating::Table { id, .. } => Some(*id),
                Seating::Quick { .. } => None,
            }),
            seating: StoredValue::new(seating),
            joining: StoredValue::new(false),
            retries: StoredValue::new(0),
            socket: SocketSlot::new(),
        }
    }

    /// Sends one message to the server.
    pub fn send(self, message: ClientMessage) {
        self.socket.send(&message.to_json());
    }

    /// Closes the socket (the page is going away).
    pub fn close(self) {
        self.socket.set(None);
    }

    /// Whether it is our turn in a game being played.
    pub fn my_turn(self) -> bool {
        self.table.with(|t| {
            t.as_ref().is_some_and(|t| t.phase == Phase::Playing && t.turn.is_some() && t.turn == self.me.get())
        })
    }

    /// Whether we may resign now.
    pub fn can_resign(self) -> bool {
        self.me.get().is_some()
            && self.table.with(|t| {
                t.as_ref().is_some_and(|t| matches!(t.phase, Phase::Playing | Phase::Paused) && t.winner.is_none())
            })
    }

    /// The socket address for what this page should be now, and the
    /// credentials its first frame carries (never in the address).
    fn url(self) -> (String, Option<Credentials>) {
        let seating = self.seating.get_value();
        match (&seating, self.table_id.get_untracked()) {
            (_, Some(id)) if stored_seat(id).is_some() => {
                let (_, token) = stored_seat(id).unwrap_or((PlayerId::Red, String::new()));
                (format!("/ws/play?mode=resume&game={id}"), Some(Credentials { token: Some(token), ..identity() }))
            }
            (Seating::Table { join: Some(code), name, .. }, Some(_)) if !self.joining.get_value() => {
                self.joining.set_value(true);
                let name = name.clone().or_else(|| crate::browser::load("hexarena.name")).unwrap_or_default();
                (format!("/ws/play?mode=room&code={}&name={}", encode(code), encode(&name)), Some(identity()))
            }
            (_, Some(id)) => (format!("/ws/watch?game={id}"), None),
            (Seating::Quick { query, .. }, None) => (format!("/ws/play?{query}"), Some(identity())),
            (Seating::Table { .. }, None) => (String::new(), None),
        }
    }

    /// Opens the socket; a lost connection tries again with a growing pause.
    pub fn open(self) {
        let (path, credentials) = self.url();
        if path.is_empty() {
            return;
        }
        self.link.set(Link::Connecting);
        let on_close = move || {
            if self.link.get_untracked() == Link::Refused {
                return;
            }
            let n = self.retries.get_value();
            // A quick-match socket that drops before seating had no table to
            // lose: asking again is safe, but not forever.
            if self.table_id.get_untracked().is_none() && n >= QUICK_MATCH_ATTEMPTS {
                self.notice.set(Some(
                    "The server could not be reached to find a game: check your connection, then reload the page."
                        .into(),
                ));
                self.link.set(Link::Refused);
                return;
            }
            self.link.set(Link::Retrying);
            self.retries.set_value(n + 1);
            let delay = std::time::Duration::from_millis(500 * u64::from((n + 1).min(10)));
            set_timeout(move || self.open(), delay);
        };
        let first = credentials.map(|c| c.to_json());
        self.socket.set(LiveSocket::open(&path, first, move |text| self.on_text(&text), on_close));
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
            ServerMessage::State(mut view) => {
                if view.finished_omitted {
                    // Unchanged since the last view: keep the games we have.
                    view.finished =
                        self.table.with_untracked(|t| t.as_ref().map(|t| t.finished.clone())).unwrap_or_default();
                    view.finished_omitted = false;
                }
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
            ServerMessage::OpponentDisconnected { reason: DisconnectReason::WaitingForReconnect, .. } => {
                self.notice.set(Some("Your opponent lost the connection; the game waits for them.".into()))
            }
            ServerMessage::OpponentReconnected { .. } => self.notice.set(None),
            ServerMessage::OpponentLeftSlot { message } => self.notice.set(Some(message)),
            ServerMessage::Rematch(RematchNews::Ready { game, player, token }) => {
                // Our seat at the new table, then off to it.
                crate::browser::save(&seat_key(game), &format!("{} {token}", player.number()));
                self.link.set(Link::Refused);
                self.close();
                crate::browser::go_to(&format!("/game/{game}"));
            }
            ServerMessage::Rematch(news) => self.rematch.set(Some(news)),
            _ => {}
        }
    }
}
