//! Rematches: after a decided series either player offers one, the other
//! accepts or declines. Agreed, a new table opens with the same settings
//! and the colours swapped, both players already seated there (away until
//! their pages come), and each is told their seat's token on the old table's
//! socket. Offers live in the old table's task only: they are moments, not
//! state worth a journal entry.

use tokio::sync::oneshot;

use super::actor::Command;
use super::table::{Arrival, Out, Table, To};
use super::{Hub, JoinError};
use crate::engine::ByColor;
use crate::online::client_message::RematchStep;
use crate::online::messages::RematchNews;
use crate::online::{ErrorCode, Phase, PlayerId, Refusal, ServerMessage, TableOptions};

/// What a rematch step comes to.
#[derive(Debug, PartialEq)]
pub enum Turn {
    /// Messages to send; nothing else happens.
    Tell(Vec<Out>),
    /// Both want it: open the new table.
    Agreed,
}

fn refuse(seat: PlayerId, message: &str) -> Turn {
    Turn::Tell(vec![Out::to_seat(seat, ServerMessage::error(Refusal::new(ErrorCode::SeriesNotOver, message)))])
}

/// Applies `step` by `seat`, with `offer` the standing offer (whose it is).
pub fn step(table: &Table, offer: &mut Option<PlayerId>, seat: PlayerId, step: RematchStep) -> Turn {
    if !matches!(table.phase(), Phase::Over | Phase::Abandoned) {
        return refuse(seat, "A rematch is offered once the series is over");
    }
    if table.seat(seat.opponent()).is_none() {
        return refuse(seat, "Your opponent has left this table: find a new game on /play");
    }
    let theirs = *offer == Some(seat.opponent());
    match step {
        RematchStep::Offer | RematchStep::Accept if theirs => Turn::Agreed,
        RematchStep::Offer if *offer == Some(seat) => Turn::Tell(Vec::new()),
        RematchStep::Offer => {
            *offer = Some(seat);
            Turn::Tell(vec![Out::Send(To::Players, ServerMessage::Rematch(RematchNews::Offered { by: seat }))])
        }
        RematchStep::Accept => refuse(seat, "No rematch is on offer: offer one instead"),
        RematchStep::Decline if theirs => {
            *offer = None;
            Turn::Tell(vec![Out::Send(To::Players, ServerMessage::Rematch(RematchNews::Declined { by: seat }))])
        }
        RematchStep::Decline => Turn::Tell(Vec::new()),
    }
}

/// Who sits where at the rematch: each player in the other colour.
pub fn swapped(table: &Table) -> Option<ByColor<Arrival>> {
    let arrival = |id: PlayerId| {
        table.seat(id).map(|s| Arrival {
            name: s.name.clone(),
            model: s.model.clone(),
            player_id: s.player_id.clone(),
            account_kind: s.account_kind,
        })
    };
    Some(ByColor { red: arrival(PlayerId::Blue)?, blue: arrival(PlayerId::Red)? })
}

/// The rematch's table and each new seat's token.
pub struct Opened {
    pub id: u64,
    pub tokens: ByColor<String>,
}

impl Hub {
    /// Opens a table with `options` and seats `seats` there, away until
    /// they come back with their tokens. Boxed as `Send`: a table's task
    /// awaits this, and it starts a table's task, a cycle the compiler
    /// cannot see through on its own.
    pub fn open_rematch(
        &self,
        options: TableOptions,
        seats: ByColor<Arrival>,
    ) -> std::pin::Pin<Box<dyn Future<Output = Result<Opened, JoinError>> + Send + '_>> {
        Box::pin(async move {
            let handle = self.open_table(options, false).await?;
            let tokens = ByColor { red: self.new_token(), blue: self.new_token() };
            let (reply, done) = oneshot::channel();
            let prepared =
                Box::new(ByColor { red: (seats.red, tokens.red.clone()), blue: (seats.blue, tokens.blue.clone()) });
            handle.commands.send(Command::Prepare { seats: prepared, reply }).await.map_err(|_| JoinError::NoSlot)?;
            done.await.map_err(|_| JoinError::NoSlot)?;
            Ok(Opened { id: handle.id, tokens })
        })
    }
}

/// What the old table tells each player once the rematch is open (or why
/// it could not be).
pub fn news(opened: Result<Opened, JoinError>) -> Vec<Out> {
    match opened {
        // The old Red is the new Blue, and the other way round.
        Ok(Opened { id, tokens }) => PlayerId::BOTH
            .into_iter()
            .map(|old| {
                let new = old.opponent();
                let token = tokens[new].clone();
                Out::to_seat(old, ServerMessage::Rematch(RematchNews::Ready { game: id, player: new, token }))
            })
            .collect(),
        Err(e) => {
            vec![Out::Send(To::Players, ServerMessage::Rematch(RematchNews::Failed { message: e.refusal().message }))]
        }
    }
}
