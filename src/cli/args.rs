//! A small command-line reader: `--name value` options and `--flag`s,
//! with errors that say which option was wrong.

use std::fmt;
use std::time::Duration;

/// A command line that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError(pub String);

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ArgsError {}

/// The arguments of one subcommand, consumed option by option.
pub struct Args<'a> {
    rest: Vec<&'a str>,
    usage: &'static str,
}

impl<'a> Args<'a> {
    pub fn new(args: &'a [String], usage: &'static str) -> Args<'a> {
        Args { rest: args.iter().map(String::as_str).collect(), usage }
    }

    /// The value after `name` (also `name=value`), removed from the rest.
    pub fn value(&mut self, name: &str) -> Result<Option<String>, ArgsError> {
        if let Some(i) = self.rest.iter().position(|a| *a == name) {
            if i + 1 >= self.rest.len() {
                return Err(ArgsError(format!("{name} needs a value\n{}", self.usage)));
            }
            let v = self.rest[i + 1].to_string();
            self.rest.drain(i..=i + 1);
            return Ok(Some(v));
        }
        let prefix = format!("{name}=");
        if let Some(i) = self.rest.iter().position(|a| a.starts_with(&prefix)) {
            let v = self.rest[i][prefix.len()..].to_string();
            self.rest.remove(i);
            return Ok(Some(v));
        }
        Ok(None)
    }

    /// Whether `name` is present, removed from the rest.
    pub fn flag(&mut self, name: &str) -> bool {
        let before = self.rest.len();
        self.rest.retain(|a| *a != name);
        self.rest.len() != before
    }

    /// An error for a value that does not fit its option.
    pub fn bad(&self, name: &str, value: &str) -> ArgsError {
        ArgsError(format!("'{value}' is not a valid value for {name}\n{}", self.usage))
    }

    /// Fails on anything left over.
    pub fn finish(self) -> Result<(), ArgsError> {
        match self.rest.first() {
            None => Ok(()),
            Some(extra) => Err(ArgsError(format!("unexpected argument '{extra}'\n{}", self.usage))),
        }
    }
}

/// `2s`, `500ms`, `1.5` (seconds).
pub fn parse_duration(text: &str) -> Option<Duration> {
    let t = text.trim();
    let (number, scale) = if let Some(ms) = t.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(s) = t.strip_suffix('s') {
        (s, 1.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number.trim().parse().ok()?;
    (value.is_finite() && (0.0..=86_400.0).contains(&value)).then(|| Duration::from_secs_f64(value * scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_values_and_leftovers() {
        let raw: Vec<String> = ["--size", "7", "--swap", "--top=3", "extra"].iter().map(|s| s.to_string()).collect();
        let mut a = Args::new(&raw, "usage");
        assert_eq!(a.value("--size"), Ok(Some("7".into())));
        assert_eq!(a.value("--top"), Ok(Some("3".into())));
        assert!(a.flag("--swap"));
        assert_eq!(a.value("--moves"), Ok(None));
        assert!(a.finish().unwrap_err().0.contains("'extra'"));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("2s"), Some(Duration::from_secs(2)));
        assert_eq!(parse_duration("250ms"), Some(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5"), Some(Duration::from_millis(1500)));
        assert_eq!(parse_duration("-1s"), None);
        assert_eq!(parse_duration("soon"), None);
    }
}
