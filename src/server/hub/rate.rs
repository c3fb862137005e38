//! How fast one connection may send: frames, moves and chat lines per
//! second, each a token bucket that lets a short burst through (a person
//! clicking fast, a bot answering at once) and refuses a flood.

use tokio::time::Instant;

use super::config::HubConfig;
use crate::online::{ClientMessage, ErrorCode};

/// A token bucket: `per_second` tokens a second, at most `burst` saved up.
/// Kept small (every connection holds three): time is milliseconds since
/// the connection's start.
#[derive(Clone, Debug)]
pub struct Bucket {
    per_second: u32,
    burst: f32,
    tokens: f32,
    last_ms: u32,
}

impl Bucket {
    /// A full bucket; `per_second` 0 means no limit.
    pub fn new(per_second: u32, burst: u32) -> Bucket {
        let burst = burst.max(1) as f32;
        Bucket { per_second, burst, tokens: burst, last_ms: 0 }
    }

    /// Takes one token if there is one, at `now_ms` since the start.
    pub fn take(&mut self, now_ms: u32) -> bool {
        if self.per_second == 0 {
            return true;
        }
        let earned = now_ms.saturating_sub(self.last_ms) as f32 / 1000.0 * self.per_second as f32;
        self.tokens = (self.tokens + earned).min(self.burst);
        self.last_ms = now_ms;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// What the rate limits make of one incoming frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Take,
    /// Refused: answer with this code and drop the frame.
    Refuse(ErrorCode),
    /// The connection kept flooding after being told: close it.
    Close,
}

/// A connection's buckets, and how many frames in a row were refused.
#[derive(Clone, Debug)]
pub struct Rates {
    start: Instant,
    frames: Bucket,
    moves: Bucket,
    chat: Bucket,
    refused_in_a_row: u32,
    /// Refusals in a row tolerated before the connection is closed.
    patience: u32,
}

impl Rates {
    pub fn new(config: &HubConfig, now: Instant) -> Rates {
        let frames = config.frames_per_sec;
        Rates {
            start: now,
            frames: Bucket::new(frames, frames.saturating_mul(2)),
            moves: Bucket::new(config.moves_per_sec, config.moves_per_sec.saturating_mul(2)),
            chat: Bucket::new(config.chat_lines_per_sec, config.chat_lines_per_sec.saturating_mul(5).max(5)),
            refused_in_a_row: 0,
            patience: frames.saturating_mul(2).max(20),
        }
    }

    /// Counts any frame, before it is read.
    pub fn frame(&mut self, now: Instant) -> Verdict {
        let ok = self.frames.take(self.ms(now));
        self.verdict(ok)
    }

    /// Counts a message by its kind, once read.
    pub fn message(&mut self, message: &ClientMessage, now: Instant) -> Verdict {
        let at = self.ms(now);
        let ok = match message {
            ClientMessage::Move { .. } | ClientMessage::BadMove(_) | ClientMessage::Swap => self.moves.take(at),
            ClientMessage::Chat(_) | ClientMessage::Rematch(_) => self.chat.take(at),
            _ => true,
        };
        self.verdict(ok)
    }

    /// Milliseconds since the connection's start (a connection that lives
    /// past 49 days stops refilling, and is long gone before).
    fn ms(&self, now: Instant) -> u32 {
        u32::try_from(now.saturating_duration_since(self.start).as_millis()).unwrap_or(u32::MAX)
    }

    fn verdict(&mut self, ok: bool) -> Verdict {
        if ok {
            self.refused_in_a_row = 0;
            return Verdict::Take;
        }
        self.refused_in_a_row += 1;
        if self.refused_in_a_row > self.patience { Verdict::Close } else { Verdict::Refuse(ErrorCode::TooFast) }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_bucket_lets_a_burst_through_then_refills_at_its_rate() {
        let mut b = Bucket::new(10, 20);
        assert!((0..20).all(|_| b.take(0)), "the burst");
        assert!(!b.take(0), "then nothing");
        assert!(b.take(100), "one token per 100 ms");
        assert!(!b.take(100));
        let mut free = Bucket::new(0, 1);
        assert!((0..10_000).all(|_| free.take(0)), "0 means no limit");
    }

    #[test]
    fn a_flood_is_refused_then_closed_while_a_steady_pace_goes_through() {
        let config = HubConfig { frames_per_sec: 10, moves_per_sec: 5, chat_lines_per_sec: 1, ..HubConfig::default() };
        let start = Instant::now();
        let mut steady = Rates::new(&config, start);
        for i in 0..100 {
            let at = start + Duration::from_millis(250 * i);
            assert_eq!(steady.frame(at), Verdict::Take);
            assert_eq!(steady.message(&ClientMessage::Move { q: 0, r: 0 }, at), Verdict::Take);
        }
        let mut flood = Rates::new(&config, start);
        let verdicts: Vec<Verdict> = (0..100).map(|_| flood.frame(start)).collect();
        assert!(verdicts[..20].iter().all(|v| *v == Verdict::Take));
        assert_eq!(verdicts[20], Verdict::Refuse(ErrorCode::TooFast));
        assert_eq!(verdicts.iter().filter(|v| **v == Verdict::Close).count(), 100 - 20 - 20);
        let mut chatty = Rates::new(&config, start);
        let lines: Vec<Verdict> =
            (0..6).map(|_| chatty.message(&ClientMessage::Chat(Some("hi".into())), start)).collect();
        assert_eq!(lines[5], Verdict::Refuse(ErrorCode::TooFast), "five lines at once, not six");
    }
}
