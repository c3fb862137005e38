//! Noticing a peer that has gone silent: the server pings every socket
//! every `HEXARENA_PING_SECS`, and a socket that has sent nothing at all
//! (no pong, no frame) for two intervals is dropped, exactly as if it had
//! closed. Writes get a deadline too, so a client that never reads cannot
//! hold a task (and its buffers) for ever.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use tokio::time::{Instant, Interval, MissedTickBehavior};

/// A socket's pings and its last sign of life.
pub struct Liveness {
    every: Duration,
    last_heard: Instant,
    ticker: Interval,
}

/// What a ping tick found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pulse {
    /// Heard from recently enough: a ping was sent.
    Alive,
    /// Silent for two intervals, or the ping could not be written.
    Gone,
}

impl Liveness {
    pub fn new(every: Duration) -> Liveness {
        let mut ticker = tokio::time::interval_at(Instant::now() + every, every);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Liveness { every, last_heard: Instant::now(), ticker }
    }

    /// Anything at all arrived from the peer.
    pub fn heard(&mut self) {
        self.last_heard = Instant::now();
    }

    /// Waits for the next ping time (use in `select!`).
    pub async fn tick(&mut self) {
        self.ticker.tick().await;
    }

    /// At a tick: drops a silent peer, else pings it.
    pub async fn pulse(&self, socket: &mut WebSocket) -> Pulse {
        if self.last_heard.elapsed() >= self.every * 2 {
            return Pulse::Gone;
        }
        match self.write(socket, Message::Ping(Default::default())).await {
            true => Pulse::Alive,
            false => Pulse::Gone,
        }
    }

    /// The longest a write may take before the peer counts as gone.
    pub fn write_deadline(&self) -> Duration {
        self.every * 2
    }

    /// Sends `message` within the write deadline; `false` when it failed
    /// or the peer did not take it in time.
    pub async fn write(&self, socket: &mut WebSocket, message: Message) -> bool {
        // Boxed: only a write in flight pays for its timer, not every idle
        // socket's task (idle connections are many).
        let write = Box::pin(tokio::time::timeout(self.write_deadline(), socket.send(message)));
        matches!(write.await, Ok(Ok(())))
    }
}
