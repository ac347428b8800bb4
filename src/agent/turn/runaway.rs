//! Reminds (never blocks) the model when it keeps repeating the same call, the same failure, or alternates
//! between two actions (A-B-A-B). Works on typed outcomes: denials and cancellations are not the model's doing,
//! so they count for nothing and break streaks.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::budget::RUNAWAY_REMINDER_THRESHOLD;
use crate::guard::constant_regex::constant_regex;
use crate::tools::ToolOutcome;

/// Longest error text used as its own family when no known family matches.
const MAX_ERROR_KEY_CHARS: usize = 1024;
/// Steps needed to call an alternation ping-pong (A, B, A, B).
const PING_PONG_STEPS: usize = 4;

/// Error families, tried in order.
const FAMILY_PATTERNS: [(&str, &str); 8] = [
    ("timeout", r"(?i)time[d ]?\s*out|deadline exceeded"),
    ("rate_limit", r"(?i)rate.?limit|too many requests|\b429\b"),
    (
        "network",
        r"(?i)connection (refused|reset|closed)|network|dns|unreachable|broken pipe",
    ),
    (
        "auth",
        r"(?i)unauthori[sz]ed|authenticat|\b401\b|api key|forbidden|\b403\b",
    ),
    (
        "permission",
        r"(?i)permission denied|not permitted|access denied|read-only",
    ),
    (
        "not_found",
        r"(?i)not found|no such file|does not exist|\b404\b|cannot find",
    ),
    (
        "invalid_argument",
        r"(?i)invalid|missing (required )?(parameter|argument)|must be|expected .* got|not unique|no match",
    ),
    (
        "process_exit",
        r"(?i)exit(ed)? (code|status)|non-zero|exit \d+",
    ),
];

static FAMILIES: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| {
    FAMILY_PATTERNS
        .into_iter()
        .map(|(name, pattern)| (name, constant_regex(pattern)))
        .collect()
});

/// One finished call as the guard sees it.
#[derive(Clone, Copy, Debug)]
pub struct GuardCall<'a> {
    pub name: &'a str,
    /// The raw JSON argument string.
    pub arguments: &'a str,
    pub outcome: &'a ToolOutcome,
}

/// Watches the steps (all results of one reply) of one task.
#[derive(Debug, Default)]
pub struct RunawayGuard {
    /// Consecutive steps in which each key appeared.
    streaks: HashMap<String, usize>,
    /// The action set of each step so far (for ping-pong).
    steps: Vec<String>,
    reminded: bool,
}

impl RunawayGuard {
    /// A guard for a new task.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records one step; returns the reminder text the first time (per task) a pattern is seen.
    pub fn record_step(&mut self, calls: &[GuardCall<'_>]) -> Option<String> {
        let mut keys: Vec<String> = Vec::new();
        let mut actions: Vec<String> = Vec::new();
        for call in calls {
            if matches!(
                call.outcome,
                ToolOutcome::Denied { .. } | ToolOutcome::Cancelled { .. }
            ) {
                continue;
            }
            let action = action_key(call.name, call.arguments);
            if let ToolOutcome::Failed { reason } = call.outcome {
                keys.push(format!("error:{}:{action}", error_family(reason)));
            }
            keys.push(format!("action:{action}"));
            actions.push(action);
        }
        keys.sort();
        keys.dedup();
        actions.sort();
        actions.dedup();
        // A streak resets when its key is absent from a step.
        self.streaks.retain(|k, _| keys.binary_search(k).is_ok());
        let mut longest = 0;
        for key in keys {
            let streak = self.streaks.entry(key).or_insert(0);
            *streak += 1;
            longest = longest.max(*streak);
        }
        self.steps.push(actions.join(","));
        if self.reminded {
            return None;
        }
        let message = if longest >= RUNAWAY_REMINDER_THRESHOLD {
            Some(format!(
                "[runaway guard] The same tool call (or the same kind of error from it) has now happened {longest} \
times in a row. Stop and rethink: the repetition is not making progress. Read the last results carefully, try a \
different approach, or ask the user. This reminder is temporary guidance for the current task only; do not save \
it to memory."
            ))
        } else if self.is_ping_pong() {
            Some(
                "[runaway guard] You are alternating between the same two actions (A, B, A, B) without progress. \
Stop and rethink: try a different approach or ask the user. This reminder is temporary guidance for the current \
task only; do not save it to memory."
                    .to_string(),
            )
        } else {
            None
        };
        self.reminded |= message.is_some();
        message
    }

    /// The last four steps alternate between two different, non-empty action sets.
    fn is_ping_pong(&self) -> bool {
        let Some(tail) = self.steps.len().checked_sub(PING_PONG_STEPS) else {
            return false;
        };
        let last = &self.steps[tail..];
        let (a, b) = (&last[0], &last[1]);
        !a.is_empty() && !b.is_empty() && a != b && last[2] == *a && last[3] == *b
    }
}

/// SHA-256 of the tool name and its arguments with object keys sorted recursively.
pub fn action_key(name: &str, arguments: &str) -> String {
    let canonical = match serde_json::from_str::<Value>(arguments) {
        Ok(value) => canonical_json(&value),
        Err(_) => arguments.trim().to_string(),
    };
    let mut hasher = Sha256::new();
    hasher.update(name.as_bytes());
    hasher.update([0]);
    hasher.update(canonical.as_bytes());
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Serializes `value` with every object's keys sorted.
fn canonical_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            let body: Vec<String> = entries
                .into_iter()
                .map(|(k, v)| format!("{}:{}", Value::String(k.clone()), canonical_json(v)))
                .collect();
            format!("{{{}}}", body.join(","))
        }
        Value::Array(items) => {
            let body: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", body.join(","))
        }
        other => other.to_string(),
    }
}

/// The family of an error text, or its first 1024 chars when no family matches.
pub fn error_family(reason: &str) -> String {
    FAMILIES
        .iter()
        .find(|(_, re)| re.is_match(reason))
        .map(|(name, _)| (*name).to_string())
        .unwrap_or_else(|| reason.chars().take(MAX_ERROR_KEY_CHARS).collect())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::guard::constant_regex::broken_patterns;

    #[test]
    fn every_error_family_pattern_compiles() {
        let broken = broken_patterns(FAMILY_PATTERNS.iter().map(|(_, pattern)| *pattern));
        assert!(broken.is_empty(), "{broken:#?}");
        assert_eq!(FAMILIES.len(), FAMILY_PATTERNS.len());
    }

    fn ok() -> ToolOutcome {
        ToolOutcome::ok("fine")
    }

    fn step<'a>(calls: &'a [(&'a str, &'a str, ToolOutcome)]) -> Vec<GuardCall<'a>> {
        calls
            .iter()
            .map(|(name, arguments, outcome)| GuardCall {
                name,
                arguments,
                outcome,
            })
            .collect()
    }

    #[test]
    fn keys_ignore_argument_key_order() {
        assert_eq!(
            action_key("read_file", r#"{"path":"a","range":{"to":2,"from":1}}"#),
            action_key("read_file", r#"{ "range":{"from":1,"to":2}, "path":"a"}"#)
        );
        assert_ne!(
            action_key("read_file", r#"{"path":"a"}"#),
            action_key("read_file", r#"{"path":"b"}"#)
        );
    }

    #[test]
    fn errors_fall_into_families() {
        assert_eq!(error_family("command timed out after 60 s"), "timeout");
        assert_eq!(error_family("HTTP 429 Too Many Requests"), "rate_limit");
        assert_eq!(
            error_family("No such file or directory: a.txt"),
            "not_found"
        );
        assert_eq!(error_family("old_text is not unique"), "invalid_argument");
        assert_eq!(error_family("something odd"), "something odd");
    }

    #[test]
    fn three_same_actions_remind_once() {
        let mut g = RunawayGuard::new();
        let calls = [("read_file", r#"{"path":"a"}"#, ok())];
        assert_eq!(g.record_step(&step(&calls)), None);
        assert_eq!(g.record_step(&step(&calls)), None);
        let reminder = g.record_step(&step(&calls)).unwrap();
        assert!(reminder.starts_with("[runaway guard]"));
        assert!(reminder.contains("temporary"));
        assert!(reminder.contains("do not save it to memory"));
        assert_eq!(g.record_step(&step(&calls)), None, "once per task");
    }

    #[test]
    fn a_different_step_breaks_the_streak() {
        let mut g = RunawayGuard::new();
        let a = [("read_file", r#"{"path":"a"}"#, ok())];
        let b = [("list_dir", r#"{"path":"."}"#, ok())];
        let c = [("glob_files", r#"{"pattern":"*"}"#, ok())];
        for s in [&a[..], &a[..], &b[..], &a[..], &a[..], &c[..]] {
            assert_eq!(g.record_step(&step(s)), None);
        }
    }

    #[test]
    fn the_same_error_family_on_the_same_action_counts() {
        let mut g = RunawayGuard::new();
        let fail = |why: &str| ToolOutcome::failed(why);
        let steps = [
            [(
                "execute_command",
                r#"{"command":"make"}"#,
                fail("exit code 2"),
            )],
            [(
                "execute_command",
                r#"{"command":"make"}"#,
                fail("exit code 1"),
            )],
        ];
        assert_eq!(g.record_step(&step(&steps[0])), None);
        assert_eq!(g.record_step(&step(&steps[1])), None);
        assert!(g.record_step(&step(&steps[0])).is_some());
    }

    #[test]
    fn denials_and_cancellations_are_ignored_and_break_streaks() {
        let mut g = RunawayGuard::new();
        let ok_step = [("execute_command", r#"{"command":"rm x"}"#, ok())];
        let denied = [(
            "execute_command",
            r#"{"command":"rm x"}"#,
            ToolOutcome::denied("USER_DENIED", "no"),
        )];
        let cancelled = [(
            "execute_command",
            r#"{"command":"rm x"}"#,
            ToolOutcome::Cancelled {
                partial: String::new(),
            },
        )];
        for s in [
            &ok_step[..],
            &ok_step[..],
            &denied[..],
            &ok_step[..],
            &ok_step[..],
            &cancelled[..],
            &denied[..],
            &denied[..],
            &denied[..],
        ] {
            assert_eq!(g.record_step(&step(s)), None);
        }
    }

    #[test]
    fn alternating_between_two_actions_is_ping_pong() {
        let mut g = RunawayGuard::new();
        let a = [(
            "edit_file",
            r#"{"path":"a","old_text":"x","new_text":"y"}"#,
            ok(),
        )];
        let b = [(
            "edit_file",
            r#"{"path":"a","old_text":"y","new_text":"x"}"#,
            ok(),
        )];
        assert_eq!(g.record_step(&step(&a)), None);
        assert_eq!(g.record_step(&step(&b)), None);
        assert_eq!(g.record_step(&step(&a)), None);
        let reminder = g.record_step(&step(&b)).unwrap();
        assert!(reminder.contains("alternating"), "{reminder}");
        assert_eq!(g.record_step(&step(&a)), None, "once per task");
    }
}
