//! What a model's tool calls look like once recorded: ids unique within the reply, arguments a JSON object.
//!
//! Providers (vLLM among them) reject a request whose history holds arguments that are not valid JSON or two
//! tool calls with one id, so neither may reach the history. The raw arguments still reach the tool executor,
//! whose argument check shows them to the model in the tool result's error, so it can retry.

use std::collections::HashSet;

use crate::protocol::message::ToolCall;

/// What malformed arguments are recorded as.
pub const EMPTY_ARGUMENTS: &str = "{}";

/// Renames repeated ids in one reply (`call_1`, `call_1` → `call_1`, `call_1_2`), so each call gets exactly one
/// result. Returns how many were renamed. Idempotent.
pub fn make_ids_unique(calls: &mut [ToolCall]) -> usize {
    let mut taken: HashSet<String> = HashSet::new();
    let mut renamed = 0;
    for i in 0..calls.len() {
        if taken.insert(calls[i].id.clone()) {
            continue;
        }
        // A fresh id that no other call of the reply uses, before or after this one.
        let base = calls[i].id.clone();
        let fresh = (2..)
            .map(|n| format!("{base}_{n}"))
            .find(|id| !taken.contains(id) && !calls.iter().any(|c| &c.id == id))
            .unwrap_or_default();
        taken.insert(fresh.clone());
        calls[i].id = fresh;
        renamed += 1;
    }
    renamed
}

/// The arguments as the history keeps them: the model's own bytes when they are a JSON object, `{}` otherwise
/// (blank, cut off, or not an object).
pub fn recorded_arguments(raw: &str) -> &str {
    match serde_json::from_str::<serde_json::Value>(raw) {
        Ok(serde_json::Value::Object(_)) => raw,
        _ => EMPTY_ARGUMENTS,
    }
}

/// True when the arguments will not be recorded as sent.
pub fn is_malformed(raw: &str) -> bool {
    recorded_arguments(raw) != raw
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn call(id: &str) -> ToolCall {
        ToolCall {
            id: id.into(),
            name: "read_file".into(),
            arguments: "{}".into(),
        }
    }

    #[test]
    fn repeated_ids_are_renamed_without_colliding() {
        let mut calls = vec![call("a"), call("a"), call("a_2"), call("b"), call("a")];
        assert_eq!(make_ids_unique(&mut calls), 2);
        let ids: Vec<&str> = calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["a", "a_3", "a_2", "b", "a_4"]);
        assert_eq!(make_ids_unique(&mut calls), 0, "idempotent");
    }

    #[test]
    fn only_json_objects_are_recorded_verbatim() {
        assert_eq!(
            recorded_arguments(r#"{"path": "a.txt"}"#),
            r#"{"path": "a.txt"}"#
        );
        for bad in [r#"{"path": "a.txt""#, "", "  ", "[1]", "\"x\"", "null"] {
            assert_eq!(recorded_arguments(bad), "{}", "{bad:?}");
            assert!(is_malformed(bad));
        }
        assert!(!is_malformed("{}"));
    }
}
