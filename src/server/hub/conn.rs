//! The sending half of a client connection as a table holds it: a bounded
//! queue of ready-made frames. A full queue is never waited for. Dropping
//! the `Conn` closes the socket once the frames already queued are sent.

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;

use crate::online::Dialect;

/// A frame queued for one socket.
#[derive(Clone, Debug)]
pub enum Frame {
    Text(Utf8Bytes),
}

/// A connection's queue, with the id that tells a stale one from its
/// replacement after a reconnect.
#[derive(Debug)]
pub struct Conn {
    pub id: u64,
    pub dialect: Dialect,
    tx: mpsc::Sender<Frame>,
}

impl Conn {
    /// A connection and the receiving end its socket task drains.
    pub fn new(id: u64, dialect: Dialect, capacity: usize) -> (Conn, mpsc::Receiver<Frame>) {
        let (tx, rx) = mpsc::channel(capacity);
        (Conn { id, dialect, tx }, rx)
    }

    /// Queues a frame; `false` when the client is gone or too slow to keep
    /// up (its queue is full).
    pub fn send(&self, frame: Frame) -> bool {
        self.tx.try_send(frame).is_ok()
    }
}
