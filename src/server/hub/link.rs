//! How a socket reaches the table it is seated at: the table's task on
//! this instance, or, in a cluster, another instance that owns the table.

use std::sync::Arc;

use super::actor::Command;
use super::{NotQueued, TableHandle};
use crate::online::{ClientMessage, Dialect};
use crate::server::cluster::RemoteSeat;

/// The table a socket is seated at (or watches).
#[derive(Clone)]
pub enum TableLink {
    Local(Arc<TableHandle>),
    Remote(RemoteSeat),
}

impl TableLink {
    pub fn id(&self) -> u64 {
        match self {
            TableLink::Local(handle) => handle.id,
            TableLink::Remote(seat) => seat.table,
        }
    }

    /// Passes a seated player's message on: parsed to the local task, or
    /// as the frame's text to the owner, which reads it again.
    pub async fn from_seat(
        &self,
        conn_id: u64,
        message: ClientMessage,
        dialect: Dialect,
        text: &str,
    ) -> Result<(), NotQueued> {
        match self {
            TableLink::Local(handle) => handle.try_send(Command::FromSeat { conn_id, message }),
            // Boxed: inline, every socket's task would carry the Redis
            // call's state for as long as it lives, idle or not.
            TableLink::Remote(seat) => {
                if Box::pin(seat.from_seat(dialect, text)).await {
                    Ok(())
                } else {
                    Err(NotQueued::Closed)
                }
            }
        }
    }

    /// The socket has closed.
    pub async fn gone(&self, conn_id: u64) {
        match self {
            TableLink::Local(handle) => handle.send_surely(Command::Gone { conn_id }),
            TableLink::Remote(seat) => Box::pin(seat.gone()).await,
        }
    }
}
