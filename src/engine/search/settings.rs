//! Search settings read from text (`name=value,…`), so that a match tool
//! or the GTP engine can try a setting without a new build.

use std::fmt;

use super::{NearFactors, SearchConfig};
use crate::engine::connections::ListLimits;
use crate::engine::patterns::playout::PlayoutPolicy;
use crate::engine::patterns::{Patterns, answers};

/// Why a settings text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// A piece without `=`.
    NotNameValue(String),
    /// A name no setting has.
    Unknown(String),
    /// A value the setting cannot take; `expected` says what it can.
    BadValue { name: String, value: String, expected: &'static str },
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::NotNameValue(piece) => write!(f, "'{piece}' is not name=value"),
            SettingError::Unknown(name) => write!(f, "unknown setting '{name}' (known: {})", NAMES.join(", ")),
            SettingError::BadValue { name, value, expected } => write!(f, "{name}: '{value}' is not {expected}"),
        }
    }
}

impl std::error::Error for SettingError {}

/// Every name [`apply`] knows.
pub const NAMES: [&str; 16] = [
    "exploration",
    "root_exploration",
    "rave_bias",
    "rave_prior",
    "expand_after",
    "knowledge_after",
    "deeper_after",
    "deeper_lists",
    "reply_share",
    "prior_weight",
    "patterns",
    "near",
    "answers",
    "answer_scale",
    "playout",
    "lists",
];

const NUMBER: &str = "a number from 0 up";
const COUNT: &str = "a whole number from 0 up";
// A move nobody has visited yet is rated by its imagined prior visits alone:
// with none it has no rating at all.
const POSITIVE: &str = "a number above 0";

fn number(name: &str, value: &str) -> Result<f32, SettingError> {
    value.parse::<f32>().ok().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(|| bad(name, value, NUMBER))
}

fn positive(name: &str, value: &str) -> Result<f32, SettingError> {
    number(name, value).ok().filter(|v| *v > 0.0).ok_or_else(|| bad(name, value, POSITIVE))
}

fn count(name: &str, value: &str) -> Result<u32, SettingError> {
    value.parse::<u32>().map_err(|_| bad(name, value, COUNT))
}

fn bad(name: &str, value: &str, expected: &'static str) -> SettingError {
    SettingError::BadValue { name: name.to_string(), value: value.to_string(), expected }
}

/// `config` with the setting `name` changed to `value`; `config` itself
/// is untouched when the value is refused.
pub fn apply(config: SearchConfig, name: &str, value: &str) -> Result<SearchConfig, SettingError> {
    let mut c = config;
    match name {
        "exploration" => c.exploration = number(name, value)?,
        "root_exploration" => c.root_exploration = number(name, value)?,
        "rave_bias" => c.rave_bias = number(name, value)?,
        "rave_prior" => c.rave_prior = positive(name, value)?,
        "expand_after" => c.expand_after = count(name, value)?,
        "knowledge_after" => c.knowledge_after = count(name, value)?,
        "deeper_after" => c.deeper_after = count(name, value)?,
        "reply_share" => {
            c.reply_share =
                number(name, value).ok().filter(|s| *s <= 1.0).ok_or_else(|| bad(name, value, "a share from 0 to 1"))?
        }
        "prior_weight" => c.prior_weight = number(name, value)?,
        "patterns" => {
            c.patterns = match value {
                "none" => None,
                "builtin" => Some(Patterns::builtin()),
                _ => return Err(bad(name, value, "none or builtin")),
            }
        }
        "answers" => {
            c.answers = match value {
                "none" => None,
                "builtin" => Some(answers::builtin()),
                _ => return Err(bad(name, value, "none or builtin")),
            }
        }
        "answer_scale" => {
            c.answer_scale = number(name, value)
                .ok()
                .filter(|v| answers::SCALES.contains(v))
                .ok_or_else(|| bad(name, value, ANSWER_SCALE))?
        }
        "playout" => {
            c.playout = match value {
                "none" => None,
                _ => Some(PlayoutPolicy::builtin(positive(name, value).map_err(|_| bad(name, value, PLAYOUT))?)),
            }
        }
        "near" => {
            c.near = near(value).ok_or_else(|| bad(name, value, "none or ADJACENT:TWO, two factors from 1 up"))?
        }
        "lists" => c.lists = ListLimits::parse(value).ok_or_else(|| bad(name, value, LISTS))?,
        "deeper_lists" => c.deeper_lists = ListLimits::parse(value).ok_or_else(|| bad(name, value, LISTS))?,
        _ => return Err(SettingError::Unknown(name.to_string())),
    }
    Ok(c)
}

/// `none`, or the factors of the cells one and two steps from the last
/// stone, `ADJACENT:TWO`.
fn near(value: &str) -> Option<Option<NearFactors>> {
    if value == "none" {
        return Some(None);
    }
    let (adjacent, two) = value.split_once(':')?;
    let factor = |v: &str| v.parse::<f32>().ok().filter(|f| f.is_finite() && (1.0..=1000.0).contains(f));
    Some(Some(NearFactors { adjacent: factor(adjacent)?, two: factor(two)? }))
}

const ANSWER_SCALE: &str = "a number from 0.001 to 16";

const PLAYOUT: &str = "none or a cap above 0 (the built-in playout weights, capped at CAP times an open cell's)";

const LISTS: &str = "FULL:SEMI:EDGE_SEMI, three whole numbers from 1 to 1000, all, or all+captured, the last two with +links, +linksN (N from 2 to 254: cells at most N apart) or neither, then +ladders or not";

/// `base` with every `name=value` of `spec` (joined by commas; `-` or
/// nothing: no change) applied in order.
pub fn parse(spec: &str, base: SearchConfig) -> Result<SearchConfig, SettingError> {
    let mut config = base;
    for piece in spec.split(',').map(str::trim).filter(|p| !p.is_empty() && *p != "-") {
        let (name, value) = piece.split_once('=').ok_or_else(|| SettingError::NotNameValue(piece.to_string()))?;
        config = apply(config, name.trim(), value.trim())?;
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::connections::LinkReach;

    #[test]
    fn settings_change_only_what_they_name() {
        let base = SearchConfig::default();
        let c = parse("exploration=0.2, rave_prior=8,near=3:1.5,lists=12:20:48,root_exploration=0.4", base).unwrap();
        assert_eq!(
            c.lists,
            ListLimits {
                full: 12,
                semi: 20,
                edge_semi: 48,
                all_ends: false,
                captured: false,
                edge_links: None,
                ladder_links: false
            }
        );
        assert!(parse("lists=all", base).unwrap().lists.all_ends);
        let captured = parse("lists=all+captured", base).unwrap().lists;
        assert!(captured.all_ends && captured.captured);
        assert!(!parse("lists=all", base).unwrap().lists.captured);
        let linked = parse("lists=all+captured+links", base).unwrap().lists;
        assert!(linked.captured && linked.edge_links == Some(LinkReach::ANY) && captured.edge_links.is_none());
        assert_eq!(parse("lists=all+links", base).unwrap().lists.edge_links, Some(LinkReach::ANY));
        let near = parse("lists=all+captured+links3", base).unwrap().lists;
        assert!(near.captured && near.edge_links.map(LinkReach::apart) == Some(3) && !near.ladder_links);
        let ladders = parse("lists=all+captured+links3+ladders", base).unwrap().lists;
        assert!(ladders.captured && ladders.edge_links.map(LinkReach::apart) == Some(3) && ladders.ladder_links);
        let alone = parse("lists=all+ladders", base).unwrap().lists;
        assert!(alone.all_ends && alone.ladder_links && !alone.captured && alone.edge_links.is_none());
        for wrong in [
            "all+links1",
            "all+links255",
            "all+links-3",
            "all+linksx",
            "6:10:24+links",
            "all+links3+links",
            "all+links+3",
            "all+links 3",
            "all+ladders+links",
            "all+ladders+captured",
            "all+ladders+ladders",
            "6:10:24+ladders",
            "allladders",
        ] {
            assert!(parse(&format!("lists={wrong}"), base).is_err(), "{wrong}");
        }
        let deeper = parse("deeper_lists=all+captured+links", base).unwrap();
        assert!(deeper.deeper_lists.edge_links.is_some() && deeper.lists == base.lists);
        assert_eq!(c.exploration, 0.2);
        assert_eq!(c.root_exploration, 0.4);
        assert_eq!(c.rave_prior, 8.0);
        assert_eq!(c.near, Some(NearFactors { adjacent: 3.0, two: 1.5 }));
        assert_eq!(
            SearchConfig {
                exploration: base.exploration,
                root_exploration: base.root_exploration,
                rave_prior: base.rave_prior,
                near: None,
                lists: base.lists,
                ..c
            },
            base
        );
        assert_eq!(parse("-", base).unwrap(), base);
        assert_eq!(parse("", base).unwrap(), base);
        assert_eq!(parse("patterns=none", base).unwrap().patterns, None);
        assert_eq!(parse("answers=builtin", base).unwrap().answers, Some(answers::builtin()));
        assert_eq!(parse("answers=builtin,answers=none", base).unwrap(), base);
        assert!(parse("answers=yes", base).is_err());
        assert_eq!(parse("answer_scale=0.1", base).unwrap().answer_scale, 0.1);
        assert_eq!(parse("answer_scale=0.5,answer_scale=1", base).unwrap(), base);
        assert_eq!(parse("playout=0.25", base).unwrap().playout, Some(PlayoutPolicy::builtin(0.25)));
        assert_eq!(parse("playout=1,playout=none", base).unwrap(), base);
    }

    #[test]
    fn bad_settings_are_refused_with_what_was_expected() {
        let base = SearchConfig::default();
        for (spec, expected) in [
            ("exploration", SettingError::NotNameValue("exploration".into())),
            ("speed=3", SettingError::Unknown("speed".into())),
            ("exploration=-1", bad("exploration", "-1", NUMBER)),
            ("exploration=NaN", bad("exploration", "NaN", NUMBER)),
            ("root_exploration=-0.1", bad("root_exploration", "-0.1", NUMBER)),
            ("expand_after=2.5", bad("expand_after", "2.5", COUNT)),
            ("rave_prior=0", bad("rave_prior", "0", POSITIVE)),
            ("rave_prior=-2", bad("rave_prior", "-2", POSITIVE)),
            ("reply_share=1.5", bad("reply_share", "1.5", "a share from 0 to 1")),
            ("patterns=/tmp/x", bad("patterns", "/tmp/x", "none or builtin")),
            ("answer_scale=0", bad("answer_scale", "0", ANSWER_SCALE)),
            ("answer_scale=17", bad("answer_scale", "17", ANSWER_SCALE)),
            ("answer_scale=NaN", bad("answer_scale", "NaN", ANSWER_SCALE)),
            ("playout=0", bad("playout", "0", PLAYOUT)),
            ("playout=builtin", bad("playout", "builtin", PLAYOUT)),
            ("near=3", bad("near", "3", "none or ADJACENT:TWO, two factors from 1 up")),
            ("near=0.5:2", bad("near", "0.5:2", "none or ADJACENT:TWO, two factors from 1 up")),
            ("lists=6:10", bad("lists", "6:10", LISTS)),
            ("lists=6:10:24+links", bad("lists", "6:10:24+links", LISTS)),
            ("lists=6:10:24:3", bad("lists", "6:10:24:3", LISTS)),
            ("lists=0:10:24", bad("lists", "0:10:24", LISTS)),
            ("lists=6:x:24", bad("lists", "6:x:24", LISTS)),
        ] {
            assert_eq!(parse(spec, base), Err(expected), "{spec}");
        }
        // The message names the setting and what it takes.
        let message = parse("rave_bias=x", base).unwrap_err().to_string();
        assert!(message.contains("rave_bias") && message.contains("a number from 0 up"), "{message}");
    }
}
