//! The one table between Claude Code's tool names and input fields and paicli's, so programs written for Claude
//! Code (hooks today, the headless protocol later) see the names they know. Translated both ways: a call's
//! arguments out to Claude's shape, and an input a Claude program rewrote back to paicli's.
//!
//! Tools with no Claude counterpart keep their paicli name and fields; MCP tools are `mcp__server__tool` in both.

use serde_json::{Map, Value};

/// One tool known to both: its names and its fields, paicli's first, Claude's second.
struct Row {
    paicli: &'static str,
    claude: &'static str,
    fields: &'static [(&'static str, &'static str)],
}

#[rustfmt::skip]
const TABLE: &[Row] = &[
    Row { paicli: "execute_command", claude: "Bash", fields: &[("command", "command")] },
    Row { paicli: "read_file", claude: "Read", fields: &[("path", "file_path"), ("offset", "offset"), ("limit", "limit")] },
    Row { paicli: "write_file", claude: "Write", fields: &[("path", "file_path"), ("content", "content")] },
    Row { paicli: "edit_file", claude: "Edit", fields: &[("path", "file_path"), ("old_text", "old_string"),
        ("new_text", "new_string"), ("replace_all", "replace_all")] },
    Row { paicli: "glob_files", claude: "Glob", fields: &[("pattern", "pattern"), ("path", "path")] },
    Row { paicli: "grep_code", claude: "Grep", fields: &[("pattern", "pattern"), ("path", "path"), ("glob", "glob")] },
    Row { paicli: "list_dir", claude: "LS", fields: &[("path", "path")] },
    Row { paicli: "web_fetch", claude: "WebFetch", fields: &[("url", "url")] },
    Row { paicli: "web_search", claude: "WebSearch", fields: &[("query", "query")] },
    Row { paicli: "agent", claude: "Task", fields: &[("agent", "subagent_type"), ("prompt", "prompt"),
        ("description", "description")] },
];

/// Claude Code's name for the paicli tool `name` (the same name when there is none).
pub fn to_claude_name(name: &str) -> &str {
    TABLE
        .iter()
        .find(|r| r.paicli == name)
        .map_or(name, |r| r.claude)
}

/// paicli's name for the Claude Code tool `name` (the same name when there is none).
pub fn from_claude_name(name: &str) -> &str {
    TABLE
        .iter()
        .find(|r| r.claude == name)
        .map_or(name, |r| r.paicli)
}

/// Whether some input field of the paicli tool `tool` has another name in Claude Code.
pub fn renames_fields(tool: &str) -> bool {
    TABLE
        .iter()
        .find(|r| r.paicli == tool)
        .is_some_and(|r| r.fields.iter().any(|(ours, theirs)| ours != theirs))
}

/// `args` of a call to the paicli tool `tool` in Claude Code's field names; fields with no counterpart keep
/// their names.
pub fn to_claude_input(tool: &str, args: &Map<String, Value>) -> Map<String, Value> {
    let fields = TABLE.iter().find(|r| r.paicli == tool).map(|r| r.fields);
    rename(args, fields, |(ours, theirs)| (*ours, *theirs))
}

/// `input` in Claude Code's field names for the paicli tool `tool`, back in paicli's.
pub fn from_claude_input(tool: &str, input: &Map<String, Value>) -> Map<String, Value> {
    let fields = TABLE.iter().find(|r| r.paicli == tool).map(|r| r.fields);
    rename(input, fields, |(ours, theirs)| (*theirs, *ours))
}

fn rename(
    args: &Map<String, Value>,
    fields: Option<&[(&'static str, &'static str)]>,
    direction: impl Fn(&(&'static str, &'static str)) -> (&'static str, &'static str),
) -> Map<String, Value> {
    let Some(fields) = fields else {
        return args.clone();
    };
    args.iter()
        .map(|(key, value)| {
            let to = fields
                .iter()
                .map(&direction)
                .find(|(from, _)| from == key)
                .map_or(key.as_str(), |(_, to)| to);
            (to.to_string(), value.clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn names_translate_both_ways_and_unknown_names_stay() {
        for row in TABLE {
            assert_eq!(to_claude_name(row.paicli), row.claude);
            assert_eq!(from_claude_name(row.claude), row.paicli);
        }
        assert_eq!(to_claude_name("mcp__fs__read"), "mcp__fs__read");
        assert_eq!(from_claude_name("NotebookEdit"), "NotebookEdit");
        assert_eq!(to_claude_name("save_memory"), "save_memory");
    }

    #[test]
    fn an_edit_reads_in_claude_fields_and_a_rewrite_comes_back_in_ours() {
        let ours =
            map(json!({"path": "src/a.rs", "old_text": "a", "new_text": "b", "replace_all": true}));
        let theirs = to_claude_input("edit_file", &ours);
        assert_eq!(
            Value::Object(theirs.clone()),
            json!({"file_path": "src/a.rs", "old_string": "a", "new_string": "b", "replace_all": true})
        );
        assert_eq!(from_claude_input("edit_file", &theirs), ours);
    }

    #[test]
    fn every_row_round_trips_and_unmapped_fields_keep_their_names() {
        for row in TABLE {
            let ours: Map<String, Value> = row
                .fields
                .iter()
                .map(|(f, _)| (f.to_string(), json!(f)))
                .chain([("extra".to_string(), json!(1))])
                .collect();
            let theirs = to_claude_input(row.paicli, &ours);
            for (_, claude) in row.fields {
                assert!(
                    theirs.contains_key(*claude),
                    "{} lacks {claude}",
                    row.claude
                );
            }
            assert_eq!(theirs["extra"], json!(1));
            assert_eq!(from_claude_input(row.paicli, &theirs), ours);
        }
    }

    #[test]
    fn only_tools_with_other_field_names_rename_fields() {
        assert!(renames_fields("read_file"));
        assert!(renames_fields("agent"));
        assert!(!renames_fields("execute_command"));
        assert!(!renames_fields("grep_code"));
        assert!(!renames_fields("save_memory"));
    }

    #[test]
    fn a_command_is_a_command_in_both() {
        let ours = map(json!({"command": "grep -r x ."}));
        assert_eq!(to_claude_input("execute_command", &ours), ours);
        assert_eq!(
            Value::Object(to_claude_input("read_file", &map(json!({"path": "a"})))),
            json!({"file_path": "a"})
        );
    }
}
