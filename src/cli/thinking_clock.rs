//! How long the engine has been thinking about a move: wall time, or the
//! CPU time of the thinking thread. CPU time keeps a match fair on a busy
//! machine: an opponent that counts its own work (simulations, say) and an
//! engine that counts seconds of CPU get the same share whatever else runs.

use std::fmt;
use std::time::{Duration, Instant};

/// Which clock a time budget is measured on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClockKind {
    /// Elapsed real time.
    #[default]
    Wall,
    /// CPU time of the calling thread (Linux: `/proc/thread-self/schedstat`).
    ThreadCpu,
}

/// Why the thread's CPU time can't be read here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CpuClockUnavailable(String);

impl fmt::Display for CpuClockUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this system does not tell a thread's CPU time ({}); use wall time instead", self.0)
    }
}

impl std::error::Error for CpuClockUnavailable {}

/// A started clock.
#[derive(Clone, Copy, Debug)]
pub enum ThinkingClock {
    Wall(Instant),
    ThreadCpu(Duration),
}

impl ThinkingClock {
    /// Starts a clock of `kind` on the calling thread.
    pub fn start(kind: ClockKind) -> Result<ThinkingClock, CpuClockUnavailable> {
        match kind {
            ClockKind::Wall => Ok(ThinkingClock::Wall(Instant::now())),
            ClockKind::ThreadCpu => thread_cpu_time().map(ThinkingClock::ThreadCpu),
        }
    }

    /// Time on this clock since it started (for a CPU clock, the calling
    /// thread's: read it from the thread that started it).
    pub fn elapsed(&self) -> Duration {
        match self {
            ThinkingClock::Wall(start) => start.elapsed(),
            // Readable at start, so readable now; if it were not, stopping
            // is safer than thinking for ever.
            ThinkingClock::ThreadCpu(start) => {
                thread_cpu_time().map_or(Duration::MAX, |now| now.saturating_sub(*start))
            }
        }
    }
}

/// The calling thread's CPU time so far: the first field of its
/// schedstat, in nanoseconds.
pub fn thread_cpu_time() -> Result<Duration, CpuClockUnavailable> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .map_err(|e| CpuClockUnavailable(format!("/proc/thread-self/schedstat: {e}")))?;
    parse_schedstat(&text)
}

fn parse_schedstat(text: &str) -> Result<Duration, CpuClockUnavailable> {
    text.split_whitespace()
        .next()
        .and_then(|ns| ns.parse::<u64>().ok())
        .map(Duration::from_nanos)
        .ok_or_else(|| CpuClockUnavailable(format!("unexpected schedstat {:?}", text.trim())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedstat_first_field_is_nanoseconds_on_cpu() {
        assert_eq!(parse_schedstat("132256 3242953 2\n"), Ok(Duration::from_nanos(132_256)));
        assert!(parse_schedstat("").is_err());
        assert!(parse_schedstat("-5 1 1").is_err());
    }

    #[test]
    fn cpu_clock_advances_with_work_not_with_sleep() {
        let Ok(clock) = ThinkingClock::start(ClockKind::ThreadCpu) else {
            eprintln!("SKIPPED: no per-thread CPU clock on this system");
            return;
        };
        std::thread::sleep(Duration::from_millis(60));
        let slept = clock.elapsed();
        assert!(slept < Duration::from_millis(30), "sleeping cost {slept:?} of CPU");
        // Work until the clock shows 20 ms more: one thread can't get more
        // CPU than wall time, and a clock that never moves fails.
        let busy = Instant::now();
        let mut x = 0u64;
        while clock.elapsed() < slept + Duration::from_millis(20) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            assert!(busy.elapsed() < Duration::from_secs(20), "the CPU clock did not advance with work");
        }
        assert!(busy.elapsed() >= Duration::from_millis(20));
    }
}
