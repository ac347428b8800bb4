//! Where hooks come from and their shape: `[[hooks.<Event>]]` in `$PAICLI_HOME/config.toml`, `~/.claude/settings.json`,
//! and the project's `.claude/settings.json`, `.claude/settings.local.json` and `.paicli/hooks.json`, all in Claude
//! Code's shape `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "…",
//! "timeout": 60}]}]}}`; plus the hooks of `--settings` (the caller's, in the same shape). `--setting-sources`
//! narrows which of Claude's files are read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;

use crate::config::claude_settings::{ClaudeCaller, ClaudeSources};
use crate::config::safe_read::{ReadRefused, USER_FILES_BASE, read_whole_beneath};

use super::event::HookEvent;
use super::matcher::Matcher;

/// A hook runs this long unless its `timeout` says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// The most of a hook settings file that is read.
const FILE_CAP: u64 = 1024 * 1024;

/// Which file a hook was declared in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// `$PAICLI_HOME/config.toml`.
    PaicliUser,
    /// `~/.claude/settings.json`.
    ClaudeUser,
    /// The project's `.claude/settings.json`.
    ClaudeProject,
    /// The project's `.claude/settings.local.json`.
    ClaudeProjectLocal,
    /// The project's `.paicli/hooks.json`.
    PaicliProject,
    /// `--settings` on the command line: the caller's own, trusted like the command line.
    Caller,
}

impl Origin {
    /// Project hooks come with a cloned repository: they run only once the person trusts them.
    pub fn is_project(self) -> bool {
        matches!(
            self,
            Origin::ClaudeProject | Origin::ClaudeProjectLocal | Origin::PaicliProject
        )
    }

    /// Hooks from Claude Code's files see Claude's tool names and fields.
    pub fn speaks_claude(self) -> bool {
        matches!(
            self,
            Origin::ClaudeUser
                | Origin::ClaudeProject
                | Origin::ClaudeProjectLocal
                | Origin::Caller
        )
    }
}

/// The file a hook came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookSource {
    pub origin: Origin,
    pub path: PathBuf,
}

/// One command hook as configured.
#[derive(Clone, Debug)]
pub struct HookCommand {
    pub event: HookEvent,
    pub matcher: Matcher,
    /// The matcher as written (for `/hooks`).
    pub matcher_text: String,
    pub command: String,
    pub timeout: Duration,
    pub source: Arc<HookSource>,
}

/// A hook file, or a part of one, that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}: {reason}", path.display())]
pub struct LoadProblem {
    pub path: PathBuf,
    pub reason: String,
}

#[derive(Deserialize)]
struct SettingsFile {
    #[serde(default)]
    hooks: BTreeMap<String, Vec<GroupFile>>,
}

#[derive(Deserialize)]
struct GroupFile {
    #[serde(default)]
    matcher: Option<String>,
    #[serde(default)]
    hooks: Vec<HandlerFile>,
}

#[derive(Deserialize)]
struct HandlerFile {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    command: Option<String>,
    #[serde(default)]
    timeout: Option<f64>,
}

/// Where one session looks for hooks.
#[derive(Clone, Debug)]
pub struct HookPaths {
    /// `$PAICLI_HOME`.
    pub paicli_home: PathBuf,
    /// The user's home (for `~/.claude/settings.json`).
    pub user_home: Option<PathBuf>,
    pub project_root: PathBuf,
    /// Which of Claude's files are read, and the caller's `--settings` hooks.
    pub caller: ClaudeCaller,
}

impl HookPaths {
    /// Every hook file with its origin, user files first; Claude's only as far as the setting sources allow.
    pub fn files(&self) -> Vec<(Origin, PathBuf)> {
        let sources = self.caller.sources;
        let mut files = vec![(Origin::PaicliUser, self.paicli_home.join("config.toml"))];
        if let Some(home) = self.user_home.as_ref().filter(|_| sources.user) {
            files.push((Origin::ClaudeUser, home.join(".claude/settings.json")));
        }
        let root = &self.project_root;
        if sources.project {
            files.push((Origin::ClaudeProject, root.join(".claude/settings.json")));
        }
        if sources.local {
            files.push((
                Origin::ClaudeProjectLocal,
                root.join(".claude/settings.local.json"),
            ));
        }
        files.push((Origin::PaicliProject, root.join(".paicli/hooks.json")));
        files
    }

    /// The same places with every file read and no caller hooks: what the project's trust is about (a narrowed
    /// run must not make trusted hooks look changed).
    pub fn all_files(&self) -> HookPaths {
        HookPaths {
            caller: ClaudeCaller {
                sources: ClaudeSources::ALL,
                hooks: None,
            },
            ..self.clone()
        }
    }
}

/// Reads every hook file of `paths`; files that do not exist add nothing.
pub fn load_hooks(paths: &HookPaths) -> (Vec<HookCommand>, Vec<LoadProblem>) {
    let mut hooks = Vec::new();
    let mut problems = Vec::new();
    for (origin, path) in paths.files() {
        let text = match read_hook_file(paths, origin, &path) {
            Ok(text) => text,
            Err(ReadRefused::Missing) => continue,
            Err(refused) => {
                problems.push(LoadProblem {
                    path,
                    reason: refused.to_string(),
                });
                continue;
            }
        };
        let source = Arc::new(HookSource { origin, path });
        match parse_settings(origin, &text) {
            Ok(file) => collect(file, &source, &mut hooks, &mut problems),
            Err(reason) => problems.push(LoadProblem {
                path: source.path.clone(),
                reason,
            }),
        }
    }
    if let Some(value) = &paths.caller.hooks {
        let source = Arc::new(HookSource {
            origin: Origin::Caller,
            path: PathBuf::from("--settings"),
        });
        let file = serde_json::from_value(serde_json::json!({ "hooks": value }));
        match file {
            Ok(file) => collect(file, &source, &mut hooks, &mut problems),
            Err(e) => problems.push(LoadProblem {
                path: source.path.clone(),
                reason: e.to_string(),
            }),
        }
    }
    (hooks, problems)
}

/// The text of a hook file, by the one safe reader: a project's file beneath the project (a link out of it is
/// refused), the user's own wherever it links; a regular file of at most [`FILE_CAP`] bytes either way.
fn read_hook_file(paths: &HookPaths, origin: Origin, path: &Path) -> Result<String, ReadRefused> {
    let base = if origin.is_project() {
        paths.project_root.as_path()
    } else {
        Path::new(USER_FILES_BASE)
    };
    let relative = path.strip_prefix(base).unwrap_or(path);
    read_whole_beneath(base, relative, FILE_CAP)
}

fn parse_settings(origin: Origin, text: &str) -> Result<SettingsFile, String> {
    match origin {
        Origin::PaicliUser => {
            let table: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
            let Some(hooks) = table.get("hooks") else {
                return Ok(SettingsFile {
                    hooks: BTreeMap::new(),
                });
            };
            let hooks = hooks
                .clone()
                .try_into()
                .map_err(|e: toml::de::Error| format!("[hooks]: {e}"))?;
            Ok(SettingsFile { hooks })
        }
        _ => serde_json::from_str(text).map_err(|e| e.to_string()),
    }
}

fn collect(
    file: SettingsFile,
    source: &Arc<HookSource>,
    hooks: &mut Vec<HookCommand>,
    problems: &mut Vec<LoadProblem>,
) {
    let problem = |reason: String| LoadProblem {
        path: source.path.clone(),
        reason,
    };
    for (name, groups) in file.hooks {
        let Some(event) = HookEvent::from_name(&name) else {
            problems.push(problem(format!("unknown hook event `{name}`")));
            continue;
        };
        for group in groups {
            let matcher = match Matcher::parse(group.matcher.as_deref()) {
                Ok(m) => m,
                Err(e) => {
                    problems.push(problem(format!("{name}: invalid matcher: {e}")));
                    continue;
                }
            };
            for handler in group.hooks {
                let kind = handler.kind.as_deref().unwrap_or("command");
                let command = match (kind, handler.command) {
                    ("command", Some(c)) if !c.trim().is_empty() => c,
                    ("command", _) => {
                        problems.push(problem(format!("{name}: a command hook without a command")));
                        continue;
                    }
                    (other, _) => {
                        problems.push(problem(format!(
                            "{name}: hooks of type `{other}` are not supported (only `command`)"
                        )));
                        continue;
                    }
                };
                let timeout = handler
                    .timeout
                    .filter(|t| t.is_finite() && *t > 0.0)
                    .map_or(DEFAULT_TIMEOUT, Duration::from_secs_f64);
                hooks.push(HookCommand {
                    event,
                    matcher: matcher.clone(),
                    matcher_text: group.matcher.clone().unwrap_or_default(),
                    command,
                    timeout,
                    source: Arc::clone(source),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn paths(dir: &Path) -> HookPaths {
        HookPaths {
            paicli_home: dir.join("home/.paicli"),
            user_home: Some(dir.join("home")),
            project_root: dir.join("project"),
            caller: ClaudeCaller::default(),
        }
    }

    #[test]
    fn toml_and_json_files_give_the_same_hooks_with_their_sources() {
        let dir = tempfile::tempdir().unwrap();
        let p = paths(dir.path());
        std::fs::create_dir_all(&p.paicli_home).unwrap();
        std::fs::create_dir_all(p.project_root.join(".claude")).unwrap();
        std::fs::write(
            p.paicli_home.join("config.toml"),
            "[[hooks.PreToolUse]]\nmatcher = \"execute_command\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\n\
             command = \"./check\"\ntimeout = 5\n",
        )
        .unwrap();
        std::fs::write(
            p.project_root.join(".claude/settings.json"),
            r#"{"permissions": {}, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop"}]}],
               "Nope": [], "PostToolUse": [{"matcher": "(", "hooks": []}]}}"#,
        )
        .unwrap();
        let (hooks, problems) = load_hooks(&p);
        assert_eq!(hooks.len(), 2);
        assert_eq!(hooks[0].event, HookEvent::PreToolUse);
        assert_eq!(hooks[0].timeout, Duration::from_secs(5));
        assert_eq!(hooks[0].source.origin, Origin::PaicliUser);
        assert!(hooks[0].matcher.matches("execute_command"));
        assert_eq!(hooks[1].event, HookEvent::Stop);
        assert_eq!(hooks[1].timeout, DEFAULT_TIMEOUT);
        assert!(hooks[1].source.origin.is_project());
        assert_eq!(problems.len(), 2, "{problems:?}");
    }

    #[test]
    fn an_unreadable_json_file_is_a_problem_not_a_failure() {
        let dir = tempfile::tempdir().unwrap();
        let p = paths(dir.path());
        std::fs::create_dir_all(p.project_root.join(".paicli")).unwrap();
        std::fs::write(p.project_root.join(".paicli/hooks.json"), "{nope").unwrap();
        let (hooks, problems) = load_hooks(&p);
        assert!(hooks.is_empty());
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn setting_sources_narrow_claude_files_and_caller_hooks_are_added() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = paths(dir.path());
        std::fs::create_dir_all(p.project_root.join(".claude")).unwrap();
        std::fs::create_dir_all(p.project_root.join(".paicli")).unwrap();
        let stop =
            r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop"}]}]}}"#;
        std::fs::write(p.project_root.join(".claude/settings.json"), stop).unwrap();
        std::fs::write(p.project_root.join(".claude/settings.local.json"), stop).unwrap();
        std::fs::write(p.project_root.join(".paicli/hooks.json"), stop).unwrap();
        assert_eq!(load_hooks(&p).0.len(), 3);
        p.caller = ClaudeCaller {
            sources: ClaudeSources::parse("local").unwrap(),
            hooks: Some(serde_json::json!({"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "./mine"}]}]})),
        };
        let (hooks, problems) = load_hooks(&p);
        assert!(problems.is_empty(), "{problems:?}");
        let origins: Vec<Origin> = hooks.iter().map(|h| h.source.origin).collect();
        assert_eq!(
            origins,
            [
                Origin::ClaudeProjectLocal,
                Origin::PaicliProject,
                Origin::Caller
            ]
        );
        assert!(!Origin::Caller.is_project() && Origin::Caller.speaks_claude());
        assert_eq!(load_hooks(&p.all_files()).0.len(), 3);
    }
}
