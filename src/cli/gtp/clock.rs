//! The game clocks of a GTP session: `time_settings` sets the time
//! control, `time_left` tells a side's clock (a controller's reading wins
//! over our own), and between readings the engine keeps its own by
//! charging each move it generates.

use std::time::Duration;

use crate::engine::search::clock::{ClockLeft, TimeControl};
use crate::engine::{ByColor, Color};

/// The time control and each side's clock; no control: no clock.
#[derive(Clone, Debug, Default)]
pub struct GameClocks {
    control: Option<TimeControl>,
    left: ByColor<Option<ClockLeft>>,
}

/// The longest clock a command may set: a day.
const LONGEST: Duration = Duration::from_secs(86_400);

impl GameClocks {
    /// GTP's `time_settings main byo_yomi stones` (seconds, seconds, a
    /// count): both clocks start afresh.
    pub fn set(&mut self, args: &[&str]) -> Result<(), String> {
        const USAGE: &str =
            "time_settings needs main time, byo-yomi time (seconds) and byo-yomi stones, e.g. 'time_settings 300 0 0'";
        let [main, byo, stones] = args else { return Err(USAGE.into()) };
        let main = seconds(main).ok_or_else(|| bad("main time", main))?;
        let byo = seconds(byo).ok_or_else(|| bad("byo-yomi time", byo))?;
        let stones = stones.parse::<u32>().map_err(|_| bad("byo-yomi stones", stones))?;
        self.control = TimeControl::from_gtp(main, byo, stones);
        self.restart();
        Ok(())
    }

    /// GTP's `time_left colour time stones`: `colour`'s clock as the
    /// controller reads it.
    pub fn tell(&mut self, colour: Color, args: &[&str]) -> Result<(), String> {
        const USAGE: &str =
            "time_left needs a colour, the seconds left and the byo-yomi stones left, e.g. 'time_left b 42 0'";
        let [time, stones] = args else { return Err(USAGE.into()) };
        let time = seconds(time).ok_or_else(|| bad("time left", time))?;
        let stones = stones.parse::<u32>().map_err(|_| bad("stones left", stones))?;
        if self.control.is_none() {
            return Err("no time control is set: send time_settings first".into());
        }
        self.left[colour] = Some(ClockLeft { time, stones });
        Ok(())
    }

    /// Both clocks back to the start of a game (a new game or board).
    pub fn restart(&mut self) {
        self.left = ByColor::new_with(|_| self.control.map(|c| c.start()));
    }

    /// The control and `colour`'s clock now, when there is a control.
    pub fn of(&self, colour: Color) -> Option<(TimeControl, ClockLeft)> {
        Some((self.control?, self.left[colour]?))
    }

    /// Charges `colour` for a move that took `spent`; a clock that ran out
    /// stays at zero (the controller decides what that means).
    pub fn charge(&mut self, colour: Color, spent: Duration) {
        let Some((control, left)) = self.of(colour) else { return };
        self.left[colour] = Some(control.after(left, spent).unwrap_or(ClockLeft { time: Duration::ZERO, ..left }));
    }
}

fn seconds(text: &str) -> Option<Duration> {
    let value = text.parse::<f64>().ok().filter(|s| s.is_finite() && *s >= 0.0)?;
    Duration::try_from_secs_f64(value).ok().filter(|d| *d <= LONGEST)
}

fn bad(what: &str, text: &str) -> String {
    format!(
        "'{text}' is not a {what}: give a number of seconds from 0 to {} (stones: a whole number)",
        LONGEST.as_secs()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn settings_start_both_clocks_and_readings_override_our_own() {
        let mut clocks = GameClocks::default();
        assert_eq!(clocks.of(Color::Red), None, "no control, no clock");
        assert!(clocks.tell(Color::Red, &["10", "0"]).is_err(), "a reading needs a control");
        clocks.set(&["60", "0", "0"]).unwrap();
        assert_eq!(clocks.of(Color::Blue).unwrap().1, ClockLeft { time: s(60), stones: 0 });
        clocks.charge(Color::Blue, s(5));
        assert_eq!(clocks.of(Color::Blue).unwrap().1, ClockLeft { time: s(55), stones: 0 });
        assert_eq!(clocks.of(Color::Red).unwrap().1.time, s(60));
        clocks.tell(Color::Blue, &["12.5", "0"]).unwrap();
        assert_eq!(clocks.of(Color::Blue).unwrap().1.time, Duration::from_millis(12_500));
        clocks.restart();
        assert_eq!(clocks.of(Color::Blue).unwrap().1.time, s(60));
        // A period for no stones is GTP's "no limit".
        clocks.set(&["0", "10", "0"]).unwrap();
        assert_eq!(clocks.of(Color::Red), None);
    }

    #[test]
    fn bad_settings_and_readings_are_refused_and_change_nothing() {
        let mut clocks = GameClocks::default();
        clocks.set(&["60", "0", "0"]).unwrap();
        for args in [
            &["60", "0"][..],
            &["-1", "0", "0"],
            &["x", "0", "0"],
            &["60", "0", "-2"],
            &["1e9", "0", "0"],
            &["NaN", "0", "0"],
        ] {
            assert!(clocks.set(args).is_err(), "{args:?}");
        }
        for args in [&["5"][..], &["-5", "0"], &["5", "x"], &["inf", "0"]] {
            assert!(clocks.tell(Color::Red, args).is_err(), "{args:?}");
        }
        assert_eq!(clocks.of(Color::Red).unwrap().1, ClockLeft { time: s(60), stones: 0 });
    }

    #[test]
    fn an_overrun_clock_stays_at_zero() {
        let mut clocks = GameClocks::default();
        clocks.set(&["1", "0", "0"]).unwrap();
        clocks.charge(Color::Red, s(2));
        assert_eq!(clocks.of(Color::Red).unwrap().1.time, Duration::ZERO);
    }
}
