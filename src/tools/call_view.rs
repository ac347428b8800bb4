//! How a call reads to a person, as its tool describes it: the kind of action, the words that sum it up, the files
//! it is about (absolute) and, for an edit, the text it replaces. The terminal's tool line, ACP's `tool_call`
//! updates and serve's events all show these; none of them matches tool names.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{Tool, ToolRegistry};
use crate::guard::path_guard::normalize_lexically;
use crate::protocol::{AgentEvent, ToolKind};

/// Arguments that sum up a call of a tool that names none of its own (MCP tools), in the order they are tried.
const COMMON_SUMMARY_KEYS: &[&str] = &["path", "url", "query", "pattern", "command", "uri"];

/// A call as a person sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallView {
    pub kind: ToolKind,
    /// The argument that sums the call up (a path, a command, a pattern, a URL), else its arguments as compact
    /// JSON; one line is not guaranteed (front-ends fold it).
    pub summary: String,
    /// The files or folders the call is about, absolute.
    pub locations: Vec<PathBuf>,
}

/// The change a call asks for in one file's text (what the model sent, before it ran), for editors that show a
/// diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProposedEdit {
    /// The file, as the model named it (relative to the project root, or absolute).
    pub path: String,
    /// The text replaced; `None` when the call writes the whole file.
    pub old_text: Option<String>,
    pub new_text: String,
}

impl CallView {
    /// How a call of `tool` (`None` when no such tool is registered) with the raw `arguments` reads, its paths
    /// made absolute against `root`.
    pub fn of(tool: Option<&dyn Tool>, arguments: &str, root: &Path) -> CallView {
        let Ok(Value::Object(args)) = serde_json::from_str::<Value>(arguments) else {
            return CallView {
                kind: tool.map_or(ToolKind::Other, |t| t.traits().kind),
                summary: arguments.to_string(),
                locations: Vec::new(),
            };
        };
        CallView::of_args(tool, &args, root)
    }

    /// [`CallView::of`] for arguments already parsed.
    pub fn of_args(tool: Option<&dyn Tool>, args: &Map<String, Value>, root: &Path) -> CallView {
        let (kind, summary, paths) = match tool {
            Some(tool) => (tool.traits().kind, tool.summary(args), tool.locations(args)),
            None => (ToolKind::Other, common_summary(args), Vec::new()),
        };
        let summary = summary.unwrap_or_else(|| {
            if args.is_empty() {
                String::new()
            } else {
                Value::Object(args.clone()).to_string()
            }
        });
        CallView {
            kind,
            summary,
            locations: paths.iter().map(|p| absolute(root, p)).collect(),
        }
    }
}

impl ToolRegistry {
    /// How a call of the tool called `name` with the raw `arguments` reads (see [`CallView::of`]).
    pub fn view_call(&self, name: &str, arguments: &str, root: &Path) -> CallView {
        CallView::of(self.get(name).as_deref(), arguments, root)
    }

    /// The event announcing call `id` of the tool called `name` with the raw `arguments`, described by its tool.
    pub fn started_event(&self, id: &str, name: &str, arguments: &str, root: &Path) -> AgentEvent {
        let view = self.view_call(name, arguments, root);
        AgentEvent::ToolCallStarted {
            id: id.to_string(),
            name: name.to_string(),
            arguments: arguments.to_string(),
            kind: view.kind,
            summary: view.summary,
        }
    }

    /// The edit a call of the tool called `name` asks for, its path made absolute against `root`.
    pub fn proposed_edit(
        &self,
        name: &str,
        args: &Map<String, Value>,
        root: &Path,
    ) -> Option<ProposedEdit> {
        let edit = self.get(name)?.proposed_edit(args)?;
        Some(ProposedEdit {
            path: absolute(root, &edit.path).display().to_string(),
            ..edit
        })
    }
}

/// The first of the usual arguments (path, URL, query, pattern, command, URI) a call has: the summary of a tool
/// that names none of its own.
pub fn common_summary(args: &Map<String, Value>) -> Option<String> {
    COMMON_SUMMARY_KEYS
        .iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

/// The string argument `key`, if the call has one.
pub fn str_arg(args: &Map<String, Value>, key: &str) -> Option<String> {
    args.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The `path` argument as the one location of a call (none when it has no such argument).
pub fn path_location(args: &Map<String, Value>) -> Vec<String> {
    str_arg(args, "path").into_iter().collect()
}

/// `pattern`, or `pattern in path` when the call narrows the search to a folder or file.
pub fn pattern_in_path(args: &Map<String, Value>, pattern_key: &str) -> Option<String> {
    let pattern = str_arg(args, pattern_key)?;
    Some(match str_arg(args, "path") {
        Some(path) => format!("{pattern} in {path}"),
        None => pattern,
    })
}

/// `path` as an absolute path: joined to `root` unless it is absolute already, `.` and `..` folded. Nothing is
/// resolved on disk: the file may not exist yet, and the path guard judges the call itself.
pub fn absolute(root: &Path, path: &str) -> PathBuf {
    normalize_lexically(&root.join(path))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn args(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    #[test]
    fn relative_paths_are_joined_to_the_root_and_absolute_ones_kept() {
        let root = Path::new("/home/me/project");
        assert_eq!(
            absolute(root, "src/a.rs"),
            Path::new("/home/me/project/src/a.rs")
        );
        assert_eq!(
            absolute(root, "./a/../b.txt"),
            Path::new("/home/me/project/b.txt")
        );
        assert_eq!(absolute(root, "."), Path::new("/home/me/project"));
        assert_eq!(absolute(root, "/etc/hosts"), Path::new("/etc/hosts"));
    }

    #[test]
    fn an_unknown_tool_reads_as_other_summed_up_by_a_usual_argument_or_its_json() {
        let root = Path::new("/p");
        let view = CallView::of_args(None, &args(json!({"url": "https://a.test", "n": 1})), root);
        assert_eq!(view.kind, ToolKind::Other);
        assert_eq!(view.summary, "https://a.test");
        assert!(view.locations.is_empty());
        let view = CallView::of_args(None, &args(json!({"n": 1})), root);
        assert_eq!(view.summary, r#"{"n":1}"#);
        assert_eq!(CallView::of(None, "not json", root).summary, "not json");
        assert_eq!(CallView::of(None, "{}", root).summary, "");
    }
}
