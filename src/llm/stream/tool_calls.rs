//! Merges streamed tool-call fragments into whole calls, keyed by the provider's `index`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::llm::{ToolCall, ToolCallDelta};

/// One call being assembled from fragments.
#[derive(Debug, Default)]
struct Slot {
    id: String,
    name: String,
    arguments: String,
    /// Bytes of `arguments` already passed on live (held back while the call has no name yet).
    streamed: usize,
}

/// Tool calls under construction, ordered by index.
///
/// A `BTreeMap` rather than a padded `Vec`: a bogus huge `index` costs one entry, not gigabytes.
#[derive(Debug, Default)]
pub(super) struct ToolCallSlots {
    slots: BTreeMap<u64, Slot>,
    /// The slot the previous fragment went to (continuation target for index-less fragments).
    last: Option<u64>,
}

impl ToolCallSlots {
    /// Merges one `tool_calls` array from a delta; returns the arguments' new pieces, each with its call.
    pub(super) fn merge_delta(&mut self, fragments: &[Value]) -> Vec<ToolCallDelta> {
        fragments
            .iter()
            .filter_map(|fragment| self.merge_fragment(fragment))
            .collect()
    }

    /// Merges one element of a delta's `tool_calls` array.
    ///
    /// Which slot a fragment belongs to:
    /// - with an `index`: that slot (OpenAI, DeepSeek, Qwen, GLM, llama.cpp, ...);
    /// - without one but with an `id` already seen: the slot holding that id;
    /// - without one but with a fresh `id` or a `name`: the next new slot (one past the highest so far).
    ///   Kimi-style streams send several whole call headers index-less in one delta and address
    ///   later fragments by index (`1` then `0`), so the headers must land at 0, 1, ... in order;
    /// - without index, id or name (a bare argument fragment): the slot the previous fragment went to,
    ///   because a fresh slot would have no name and be dropped, losing the arguments.
    ///
    /// Returns the arguments not yet passed on once the call has a name.
    fn merge_fragment(&mut self, fragment: &Value) -> Option<ToolCallDelta> {
        let id = str_field(fragment.get("id"));
        // A few servers flatten `name`/`arguments` onto the call itself instead of under `function`.
        let function = fragment.get("function").filter(|f| f.is_object());
        let field = |key| {
            function
                .and_then(|f| f.get(key))
                .or_else(|| fragment.get(key))
        };
        let name = str_field(field("name"));
        let arguments = arguments_field(field("arguments"));

        let key = match index_field(fragment.get("index")) {
            Some(index) => index,
            None => self.slot_for_unindexed(id, name)?,
        };
        self.last = Some(key);
        let slot = self.slots.entry(key).or_default();

        // An empty id never replaces a real one (Qwen repeats `"id":""`); a later real one wins.
        if !id.is_empty() {
            slot.id = id.to_owned();
        }
        // Providers send the name whole in the first fragment. Some repeat it verbatim later (or send
        // `"name":""`, as GLM does); only a genuinely different piece is appended as a fragment.
        if !name.is_empty() && slot.name != name {
            slot.name.push_str(name);
        }
        slot.arguments.push_str(&arguments);
        if slot.name.is_empty() || slot.streamed == slot.arguments.len() {
            return None;
        }
        let piece = slot.arguments[slot.streamed..].to_string();
        slot.streamed = slot.arguments.len();
        Some(ToolCallDelta {
            index: key,
            id: slot_id(&slot.id, key),
            name: slot.name.clone(),
            arguments: piece,
        })
    }

    fn slot_for_unindexed(&self, id: &str, name: &str) -> Option<u64> {
        if !id.is_empty()
            && let Some((&key, _)) = self.slots.iter().find(|(_, slot)| slot.id == id)
        {
            return Some(key);
        }
        if id.is_empty() && name.is_empty() {
            // A bare continuation; with nothing to continue, a nameless slot would be dropped anyway.
            return self.last;
        }
        Some(
            self.slots
                .keys()
                .next_back()
                .map_or(0, |&k| k.saturating_add(1)),
        )
    }

    /// The finished calls in index order: nameless slots dropped, missing ids made up.
    pub(super) fn into_tool_calls(self) -> Vec<ToolCall> {
        self.slots
            .into_iter()
            .filter_map(|(index, slot)| {
                if slot.name.trim().is_empty() {
                    tracing::warn!(
                        index,
                        arguments_len = slot.arguments.len(),
                        "dropping a streamed tool call without a name"
                    );
                    return None;
                }
                if slot.id.is_empty() {
                    tracing::warn!(index, name = %slot.name, "tool call without an id; made one up");
                }
                let id = slot_id(&slot.id, index);
                Some(ToolCall {
                    id,
                    name: slot.name,
                    arguments: slot.arguments,
                })
            })
            .collect()
    }
}

/// The call's id, or the one made up for a call the provider sent none for.
fn slot_id(id: &str, index: u64) -> String {
    if id.is_empty() {
        format!("call_{index}")
    } else {
        id.to_owned()
    }
}

fn str_field(value: Option<&Value>) -> &str {
    value.and_then(Value::as_str).unwrap_or("")
}

/// Argument fragments are strings; a provider that sends an already-parsed object gets it re-encoded.
fn arguments_field(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The `index` as a number; some servers send it as a string.
fn index_field(value: Option<&Value>) -> Option<u64> {
    match value? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn merged(deltas: &[Value]) -> Vec<ToolCall> {
        let mut slots = ToolCallSlots::default();
        for delta in deltas {
            slots.merge_delta(delta.as_array().map(Vec::as_slice).unwrap_or_default());
        }
        slots.into_tool_calls()
    }

    fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
        ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        }
    }

    #[test]
    fn fragments_merge_by_index_in_arrival_order() {
        let calls = merged(&[
            json!([{"index":0,"id":"a","function":{"name":"read","arguments":""}}]),
            json!([{"index":1,"id":"b","function":{"name":"ls","arguments":"{}"}}]),
            json!([{"index":0,"function":{"arguments":"{\"p\":"}}]),
            json!([{"index":0,"function":{"arguments":"1}"}}]),
        ]);
        assert_eq!(
            calls,
            vec![call("a", "read", "{\"p\":1}"), call("b", "ls", "{}")]
        );
    }

    #[test]
    fn empty_id_and_name_never_overwrite() {
        let calls = merged(&[
            json!([{"index":0,"id":"call_1","function":{"name":"weather","arguments":""}}]),
            json!([{"index":0,"id":"","type":"function","function":{"name":"","arguments":"{}"}}]),
        ]);
        assert_eq!(calls, vec![call("call_1", "weather", "{}")]);
    }

    #[test]
    fn later_non_empty_id_wins() {
        let calls = merged(&[
            json!([{"index":0,"id":"first","function":{"name":"f"}}]),
            json!([{"index":0,"id":"second","function":{"arguments":"{}"}}]),
        ]);
        assert_eq!(calls, vec![call("second", "f", "{}")]);
    }

    #[test]
    fn repeated_whole_name_is_not_doubled_but_fragments_append() {
        let calls = merged(&[
            json!([{"index":0,"id":"a","function":{"name":"run_"}}]),
            json!([{"index":0,"function":{"name":"shell"}}]),
            json!([{"index":0,"function":{"name":"run_shell","arguments":"{}"}}]),
        ]);
        assert_eq!(calls, vec![call("a", "run_shell", "{}")]);
    }

    #[test]
    fn whole_call_in_one_fragment() {
        let calls = merged(&[json!([
            {"index":0,"id":"x","type":"function","function":{"name":"w","arguments":"{\"a\":1}"}}
        ])]);
        assert_eq!(calls, vec![call("x", "w", "{\"a\":1}")]);
    }

    #[test]
    fn missing_index_takes_the_next_new_slot() {
        let calls = merged(&[
            json!([
                {"id":"c0","function":{"name":"a","arguments":"{"}},
                {"id":"c1","function":{"name":"b","arguments":"["}}
            ]),
            json!([{"index":1,"function":{"arguments":"]"}},{"index":0,"function":{"arguments":"}"}}]),
            json!([{"id":"c2","function":{"name":"c","arguments":"{}"}}]),
        ]);
        assert_eq!(
            calls,
            vec![
                call("c0", "a", "{}"),
                call("c1", "b", "[]"),
                call("c2", "c", "{}")
            ]
        );
    }

    #[test]
    fn unindexed_fragment_with_known_id_continues_that_slot() {
        let calls = merged(&[
            json!([{"id":"c0","function":{"name":"a","arguments":"{"}}]),
            json!([{"id":"c0","function":{"arguments":"}"}}]),
        ]);
        assert_eq!(calls, vec![call("c0", "a", "{}")]);
    }

    #[test]
    fn unindexed_bare_arguments_continue_the_previous_slot() {
        let calls = merged(&[
            json!([{"id":"c0","function":{"name":"a","arguments":"{\"k\":"}}]),
            json!([{"function":{"arguments":"2}"}}]),
        ]);
        assert_eq!(calls, vec![call("c0", "a", "{\"k\":2}")]);
    }

    #[test]
    fn missing_id_becomes_call_index() {
        let calls = merged(&[json!([{"index":3,"function":{"name":"f","arguments":"{}"}}])]);
        assert_eq!(calls, vec![call("call_3", "f", "{}")]);
    }

    #[test]
    fn nameless_slot_is_dropped() {
        let calls = merged(&[
            json!([{"index":0,"id":"a","function":{"arguments":"{}"}}]),
            json!([{"index":1,"id":"b","function":{"name":"keep","arguments":"{}"}}]),
        ]);
        assert_eq!(calls, vec![call("b", "keep", "{}")]);
    }

    #[test]
    fn output_is_ordered_by_index_and_huge_index_is_cheap() {
        let calls = merged(&[
            json!([{"index":u64::MAX,"id":"z","function":{"name":"last"}}]),
            json!([{"index":"2","id":"y","function":{"name":"mid"}}]),
            json!([{"index":0,"id":"x","function":{"name":"first"}}]),
        ]);
        let names: Vec<_> = calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, vec!["first", "mid", "last"]);
    }

    #[test]
    fn object_arguments_are_reencoded() {
        let calls =
            merged(&[json!([{"index":0,"id":"a","function":{"name":"f","arguments":{"k":1}}}])]);
        assert_eq!(calls, vec![call("a", "f", "{\"k\":1}")]);
    }

    #[test]
    fn flattened_name_and_arguments_are_read() {
        let calls = merged(&[json!([{"index":0,"id":"a","name":"f","arguments":"{}"}])]);
        assert_eq!(calls, vec![call("a", "f", "{}")]);
    }

    #[test]
    fn argument_pieces_are_passed_on_once_the_call_has_a_name() {
        let mut slots = ToolCallSlots::default();
        let mut live = Vec::new();
        for delta in [
            json!([{"index":0,"function":{"arguments":"{\"p\""}}]),
            json!([{"index":0,"id":"a","function":{"name":"read"}}]),
            json!([{"index":0,"function":{"arguments":":1}"}}]),
            json!([{"index":1,"function":{"name":"ls","arguments":"{}"}}]),
        ] {
            live.extend(slots.merge_delta(delta.as_array().map(Vec::as_slice).unwrap_or_default()));
        }
        let piece = |index, id: &str, name: &str, arguments: &str| ToolCallDelta {
            index,
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        };
        assert_eq!(
            live,
            vec![
                // Held until the name came, then passed on with it.
                piece(0, "a", "read", "{\"p\""),
                piece(0, "a", "read", ":1}"),
                // No id yet: the one the finished call gets.
                piece(1, "call_1", "ls", "{}"),
            ]
        );
        let streamed: String = live
            .iter()
            .filter(|d| d.index == 0)
            .map(|d| d.arguments.as_str())
            .collect();
        assert_eq!(slots.into_tool_calls()[0].arguments, streamed);
    }

    #[test]
    fn malformed_fragments_are_ignored_without_panic() {
        let calls = merged(&[json!([1, null, "x", {"function": 5}, {"index": -1}])]);
        assert_eq!(calls, vec![]);
    }
}
