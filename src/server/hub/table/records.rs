//! What a table keeps: its header in the journal of games in play, a
//! finished game's record for the archive, and the table rebuilt from the
//! journal after a restart.

use super::{Millis, MoveStamp, Seat, Table};
use crate::online::PlayerId;
use crate::online::view::GameResult;
use crate::server::archive::{FinishedGame, SeatLabel};
use crate::server::journal::{Entry, LiveHeader, Restored, SavedSeat};

use super::Out;

impl Table {
    /// The table's header as the journal keeps it, tokens hashed.
    pub(super) fn journal_header(&self) -> Out {
        Out::Journal(Entry::Header(Box::new(LiveHeader {
            id: self.id,
            options: self.options,
            room_code: self.room_code.clone(),
            seats: self.seats.as_ref().map(|seat| {
                seat.as_ref().map(|s| SavedSeat {
                    name: s.name.clone(),
                    model: s.model.clone(),
                    player_id: s.player_id.clone(),
                    account_kind: s.account_kind,
                    token_hash: Some(s.token_hash.clone()),
                    token: None,
                })
            }),
            game_number: self.game_number,
            score: self.score,
            finished: self.finished.clone(),
        })))
    }

    /// The archive's record of the game just decided.
    pub(super) fn archive_record(&self, result: &GameResult, now: Millis) -> FinishedGame {
        FinishedGame {
            series_id: self.id,
            room_code: self.room_code.clone(),
            number: result.number,
            options: self.options,
            first: result.first,
            moves: result.moves.clone(),
            times: self.move_log.iter().map(|m| m.at).collect(),
            clocks: self.move_log.iter().map(|m| m.clock_ms).collect(),
            seats: self.seats.as_ref().map(|seat| {
                seat.as_ref().map_or(SeatLabel::default(), |s| SeatLabel {
                    name: s.name.clone(),
                    model: s.model.clone(),
                    player_id: s.player_id.clone(),
                    account_kind: s.account_kind,
                })
            }),
            winner: result.winner,
            reason: result.reason,
            started_ms: self.game_started,
            finished_ms: now,
            score: self.score,
            series_winner: self.series_winner.or(result.reason.ends_series().then_some(result.winner)),
        }
    }

    /// A table read back from the journal after a restart: the current
    /// game replayed, both players away since `now` (their reconnect window
    /// starts again), clocks as the last moves left them.
    pub fn restore(saved: Restored, reconnect_ms: u64, now: Millis) -> Table {
        let h = saved.header;
        let mut t = Table::new(h.id, h.options, h.room_code, reconnect_ms);
        t.game_number = h.game_number.max(1);
        t.score = h.score;
        t.finished = h.finished;
        let base = t.base_clock();
        t.seats = h.seats.map(|seat| {
            seat.map(|s| Seat {
                token_hash: s.token_hash(),
                name: s.name,
                model: s.model,
                player_id: s.player_id,
                account_kind: s.account_kind,
                connected: false,
                away_since: Some(now),
                clock_ms: base,
            })
        });
        if t.seats.iter().all(Option::is_some) {
            t.start_game(now);
            for saved in saved.moves {
                let Some(game) = t.game.as_mut() else { break };
                let mover = PlayerId::of(game.to_move());
                if game.play(saved.mv).is_err() {
                    break;
                }
                t.move_log.push(MoveStamp { at: saved.at_ms, clock_ms: saved.clock_ms });
                if let (Some(c), Some(seat)) = (saved.clock_ms, t.seats[mover].as_mut()) {
                    seat.clock_ms = c;
                }
            }
            t.turn_started = now;
        }
        t
    }
}
