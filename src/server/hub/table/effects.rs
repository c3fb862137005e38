//! What a table asks its task to do. The table returns these instead of
//! doing them, and the task (`actor.rs`) carries them out one by one in the
//! order given: a journal entry comes before any message that tells of it.

use crate::online::{PlayerId, ServerMessage};
use crate::server::journal::Entry;

/// Who a message goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    Seat(PlayerId),
    /// Both seated players.
    Players,
    /// Players and spectators.
    Everyone,
}

/// One thing for the table's task to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    /// Keep this in the journal; it is written (and waited for) before
    /// the effects after it. A finished game (`Entry::Finished`) is then
    /// handed to the archive, which takes it out of the journal once it is
    /// committed.
    Journal(Entry),
    Send(To, ServerMessage),
    /// Close this seat's connection (after its last message).
    Close(PlayerId),
    /// The table waits for an opponent again (after `keep_slot`): list it
    /// in its matchmaking pool.
    Relist,
    /// The player in seat `from` now sits in seat `to` (`keep_slot` makes
    /// the keeper player 1); later messages use the new seat.
    Reseat {
        from: PlayerId,
        to: PlayerId,
    },
}

impl Out {
    /// A message to one seat only.
    pub fn to_seat(id: PlayerId, message: ServerMessage) -> Out {
        Out::Send(To::Seat(id), message)
    }
}
