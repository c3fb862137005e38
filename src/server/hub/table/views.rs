//! What a table shows the world: hexgame's messages and public snapshot
//! (`/slots`, `reconnected`, `/overview`) and the browser's whole-table
//! view. None of them ever holds another seat's token.

use std::collections::BTreeMap;

use super::{Millis, Table};
use crate::engine::{ByColor, Cell, Game};
use crate::online::messages::{DisconnectReason, GameStart, Joined, MovePlayed, Reconnected, SeriesOver, SeriesScore};
use crate::online::view::SlotState;
use crate::online::{PROTOCOL_VERSION, Phase, PlayerId, SeatView, ServerMessage, SlotSnapshot, TableView};

/// Who a browser view is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// A player seated at the table: sees the room's code to share it.
    Seated,
    /// Spectators and pages rendered for anyone.
    Public,
}

/// hexgame's `player_models` and `player_usernames` maps, keyed `"-1"`/`"1"`.
struct Labels {
    models: BTreeMap<String, String>,
    usernames: BTreeMap<String, String>,
    kinds: BTreeMap<String, crate::online::account::SeatKind>,
}

impl Table {
    /// `joined` (and `slot_kept`) for seat `id`, with its own token.
    pub(super) fn joined(&self, id: PlayerId, token: &str) -> Joined {
        Joined {
            slot_id: self.id,
            player: id,
            color: id.color().as_str().into(),
            board_size: self.options.size,
            series_length: self.options.series_length,
            reconnect_token: token.to_string(),
            protocol_version: PROTOCOL_VERSION,
        }
    }

    pub(super) fn reconnected(&self, id: PlayerId) -> ServerMessage {
        ServerMessage::Reconnected(Reconnected {
            slot_id: self.id,
            player: id,
            color: id.color().as_str().into(),
            board_size: self.options.size,
            series_length: self.options.series_length,
            protocol_version: PROTOCOL_VERSION,
            slot: Box::new(self.snapshot()),
        })
    }

    pub(super) fn waiting(&self) -> ServerMessage {
        ServerMessage::WaitingForOpponent { slot_id: self.id, board_size: self.options.size }
    }

    /// hexgame's notice to the player left at the table.
    pub(super) fn opponent_disconnected(&self, reason: DisconnectReason) -> ServerMessage {
        ServerMessage::OpponentDisconnected {
            message: "Your opponent disconnected".into(),
            reason,
            reconnect_timeout_seconds: self.reconnect_ms / 1000,
        }
    }

    pub(super) fn move_played(&self, player: PlayerId, stone: Cell, next_turn: Option<PlayerId>) -> ServerMessage {
        ServerMessage::Move(MovePlayed { player, q: stone.q, r: stone.r, next_turn })
    }

    pub(super) fn series_update(&self) -> ServerMessage {
        ServerMessage::SeriesUpdate(SeriesScore {
            player_1_wins: self.score.red,
            player_2_wins: self.score.blue,
            current_game_number: self.game_number,
            wins_required: self.options.wins_required(),
            series_length: self.options.series_length,
        })
    }

    pub(super) fn series_over_message(&self, winner: PlayerId) -> ServerMessage {
        ServerMessage::SeriesOver(SeriesOver {
            winner,
            player_1_wins: self.score.red,
            player_2_wins: self.score.blue,
            wins_required: self.options.wins_required(),
            series_length: self.options.series_length,
        })
    }

    pub(super) fn game_start(&self) -> ServerMessage {
        let labels = self.labels();
        ServerMessage::GameStart(GameStart {
            slot_id: self.id,
            board_size: self.options.size,
            series_length: self.options.series_length,
            players: PlayerId::BOTH,
            first_turn: self.first_of(self.game_number),
            current_game_number: self.game_number,
            player_1_wins: self.score.red,
            player_2_wins: self.score.blue,
            wins_required: self.options.wins_required(),
            player_models: labels.models,
            player_usernames: labels.usernames,
        })
    }

    fn labels(&self) -> Labels {
        let mut labels = Labels { models: BTreeMap::new(), usernames: BTreeMap::new(), kinds: BTreeMap::new() };
        for id in PlayerId::BOTH {
            if let Some(seat) = self.seat(id) {
                labels.kinds.insert(id.key().to_string(), seat.kind());
                if let Some(m) = &seat.model {
                    labels.models.insert(id.key().to_string(), m.clone());
                }
                if let Some(n) = &seat.name {
                    labels.usernames.insert(id.key().to_string(), n.clone());
                }
            }
        }
        labels
    }

    /// hexgame's public snapshot of this table.
    pub fn snapshot(&self) -> SlotSnapshot {
        let seated: Vec<PlayerId> = PlayerId::BOTH.into_iter().filter(|&p| self.seat(p).is_some()).collect();
        let connected: Vec<PlayerId> =
            seated.iter().copied().filter(|&p| self.seat(p).is_some_and(|s| s.connected)).collect();
        let disconnected = seated.iter().copied().filter(|p| !connected.contains(p)).collect();
        let labels = self.labels();
        let game = self.game.as_ref();
        let board = game.map(|g| {
            let n = self.options.size;
            (0..n)
                .map(|r| {
                    (0..n)
                        .map(|q| g.position().stone(Cell::new(q, r)).map_or(0, |c| PlayerId::of(c).number()))
                        .collect()
                })
                .collect()
        });
        SlotSnapshot {
            slot_id: self.id,
            state: if self.game.is_some() { SlotState::Full } else { SlotState::Waiting },
            board_size: self.options.size,
            series_length: self.options.series_length,
            player_count: seated.len() as u8,
            connected_player_count: connected.len() as u8,
            players: seated,
            player_models: labels.models,
            player_usernames: labels.usernames,
            player_kinds: labels.kinds,
            connected_players: connected,
            disconnected_players: disconnected,
            current_turn: game.map(|g| PlayerId::of(g.to_move())),
            winner: self.result.map(|d| d.winner),
            move_count: game.map_or(0, |g| g.moves().len() as u32),
            board,
            wins_required: self.options.wins_required(),
            current_game_number: self.game_number,
            player_1_wins: self.score.red,
            player_2_wins: self.score.blue,
            series_winner: self.series_winner,
            spectators: self.spectators,
            swap: self.options.swap,
            time_control: self.options.time_control,
            last_move: game.and_then(Game::last_stone).map(|c| [c.q, c.r]),
        }
    }

    /// Whether the table may appear in public lists (`/slots`, the
    /// overview) and be joined by id: a private room never is while it
    /// waits for its players, and only then do the seated players' view
    /// (with the code) and everyone else's differ.
    pub fn is_listed(&self) -> bool {
        self.room_code.is_none() || self.phase() != Phase::Waiting
    }

    /// The view anyone may see (no room code).
    pub fn view(&self, now: Millis) -> TableView {
        self.view_for(now, Audience::Public)
    }

    /// The view a browser draws; a room's code only for its seated players.
    pub fn view_for(&self, now: Millis, audience: Audience) -> TableView {
        let seats = ByColor::new_with(|color| {
            let id = PlayerId::of(color);
            self.seat(id).map(|s| SeatView {
                name: s.name.clone(),
                model: s.model.clone(),
                kind: s.kind(),
                connected: s.connected,
                clock_ms: self.clock_left(id, now),
            })
        });
        let game = self.game.as_ref();
        let first = game.map_or(PlayerId::Red, |g| PlayerId::of(g.first()));
        let running =
            if self.options.time_control.is_some() && self.phase() == Phase::Playing { self.turn() } else { None };
        let reconnect_seconds_left = if self.phase() == Phase::Paused {
            self.seats
                .iter()
                .flatten()
                .filter_map(|s| s.away_since)
                .map(|t| (t + self.reconnect_ms).saturating_sub(now).div_ceil(1000))
                .min()
        } else {
            None
        };
        TableView {
            id: self.id,
            phase: self.phase(),
            size: self.options.size,
            swap: self.options.swap,
            series_length: self.options.series_length,
            wins_required: self.options.wins_required(),
            game_number: self.game_number,
            score: self.score,
            series_winner: self.series_winner,
            first,
            moves: game.map(|g| g.moves().to_vec()).unwrap_or_default(),
            turn: self.turn(),
            winner: self.result.map(|d| d.winner),
            reason: self.result.map(|d| d.end),
            seats,
            spectators: self.spectators,
            time_control: self.options.time_control,
            clock_running: running,
            reconnect_seconds_left,
            room_code: match audience {
                Audience::Seated if self.phase() == Phase::Waiting => self.room_code.clone(),
                _ => None,
            },
            finished: self.finished.clone(),
            finished_omitted: false,
        }
    }

    /// Our browser protocol's `state` message: the whole view.
    pub fn state_message(&self, now: Millis, audience: Audience) -> ServerMessage {
        ServerMessage::State(Box::new(self.view_for(now, audience)))
    }

    /// The `state` message for a connection that already has the series'
    /// finished games: the view without them.
    pub fn state_change(&self, now: Millis, audience: Audience) -> ServerMessage {
        let mut view = self.view_for(now, audience);
        view.finished = Vec::new();
        view.finished_omitted = true;
        ServerMessage::State(Box::new(view))
    }
}
