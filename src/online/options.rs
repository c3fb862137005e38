//! The options a table is created with, and the checks that keep bad ones
//! out (sent back to the client as `error` with these texts).

use serde::{Deserialize, Serialize};

use super::view::TimeControl;
use crate::engine::{MAX_SIZE, MIN_SIZE};

/// Board sizes hexgame v1 clients may ask for.
pub const V1_BOARD_SIZES: [u8; 5] = [7, 9, 11, 13, 19];

/// Board size, series length, swap and clock of a table. Two players meet
/// in a pool only when all four are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TableOptions {
    pub size: u8,
    pub series_length: u8,
    pub swap: bool,
    pub time_control: Option<TimeControl>,
}

impl TableOptions {
    /// Options of a hexgame v1 table: no swap, no clock.
    pub fn v1(size: i64, series_length: i64) -> Result<TableOptions, &'static str> {
        let size = u8::try_from(size).ok().filter(|s| V1_BOARD_SIZES.contains(s)).ok_or("Unsupported board size")?;
        let series_length = check_series_length(series_length).ok_or("Unsupported series length")?;
        Ok(TableOptions { size, series_length, swap: false, time_control: None })
    }

    /// Options of a browser table: any size from 3 to 19.
    pub fn browser(
        size: i64,
        series_length: i64,
        swap: bool,
        time_control: Option<TimeControl>,
    ) -> Result<TableOptions, String> {
        let size = u8::try_from(size)
            .ok()
            .filter(|s| (MIN_SIZE..=MAX_SIZE).contains(s))
            .ok_or_else(|| format!("Board size {size} is not supported: choose {MIN_SIZE} to {MAX_SIZE}"))?;
        let series_length = check_series_length(series_length).ok_or_else(|| {
            format!("A series of {series_length} games is not supported: choose an odd number from 1 to 15")
        })?;
        Ok(TableOptions { size, series_length, swap, time_control })
    }

    /// Wins needed to take the series.
    pub fn wins_required(&self) -> u32 {
        u32::from(self.series_length) / 2 + 1
    }

    /// The swap rule is on by default for boards of 9 and more.
    pub fn default_swap(size: u8) -> bool {
        size >= 9
    }
}

fn check_series_length(n: i64) -> Option<u8> {
    u8::try_from(n).ok().filter(|n| (1..=15).contains(n) && n % 2 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_accepts_only_hexgames_values() {
        assert_eq!(TableOptions::v1(11, 3).map(|o| o.wins_required()), Ok(2));
        assert_eq!(TableOptions::v1(8, 1), Err("Unsupported board size"));
        assert_eq!(TableOptions::v1(300, 1), Err("Unsupported board size"));
        assert_eq!(TableOptions::v1(11, 2), Err("Unsupported series length"));
        assert_eq!(TableOptions::v1(11, 17), Err("Unsupported series length"));
        assert_eq!(TableOptions::v1(11, -1), Err("Unsupported series length"));
    }

    #[test]
    fn browser_tables_take_any_size_and_explain_refusals() {
        assert!(TableOptions::browser(5, 1, false, None).is_ok());
        assert!(TableOptions::browser(20, 1, false, None).unwrap_err().contains("3 to 19"));
        assert!(TableOptions::browser(9, 4, true, None).unwrap_err().contains("odd number"));
    }
}
