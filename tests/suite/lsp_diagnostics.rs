//! Diagnostics after edits: real language servers (pyright, clangd) and the syntax-check fallback, through the
//! real edit tools and through a scripted agent session.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use paicli::config::{LspServerSection, LspSettings};
use paicli::guard::path_guard::PathGuard;
use paicli::lsp::{DiagnosticsSource, LspManager};
use paicli::tools::edit::EditFile;
use paicli::tools::fs::WriteFile;
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome};
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

use crate::support::skip_missing_peer;

mod agent;
mod fallback;
mod protocol;
mod real_servers;

/// A temp project with the real write and edit tools.
struct Project {
    _tmp: TempDir,
    root: PathBuf,
    ctx: ToolContext,
}

impl Project {
    fn new() -> Self {
        let tmp = TempDir::new().unwrap();
        let guard = PathGuard::new(tmp.path()).unwrap();
        let root = guard.root().to_path_buf();
        let ctx = ToolContext {
            root: root.clone(),
            guard: Arc::new(guard),
            spill: Arc::new(SpillStore::new(&root, true, 32000)),
            cancel: CancellationToken::new(),
            limits: ToolLimits::default(),
            gates: Vec::new(),
            progress: paicli::tools::Progress::default(),
            files: None,
            delegation: None,
        };
        Project {
            _tmp: tmp,
            root,
            ctx,
        }
    }

    /// A manager with `servers` configured (name, command, args, extensions) over the built-ins.
    fn manager(&self, servers: &[(&str, &str, &[&str], &[&str])], wait: Duration) -> LspManager {
        let servers: BTreeMap<String, LspServerSection> = servers
            .iter()
            .map(|(name, command, args, extensions)| {
                (
                    name.to_string(),
                    LspServerSection {
                        command: command.to_string(),
                        args: args.iter().map(|a| a.to_string()).collect(),
                        extensions: extensions.iter().map(|e| e.to_string()).collect(),
                    },
                )
            })
            .collect();
        LspManager::new(
            &self.root,
            &LspSettings {
                enabled: true,
                wait,
                max_diagnostics: 20,
                servers,
            },
        )
    }

    /// Runs a tool and returns the files it changed (what the loop hands to the diagnostics source).
    async fn edit(&self, tool: &dyn Tool, args: Value) -> Vec<PathBuf> {
        match tool.execute(args.as_object().unwrap(), &self.ctx).await {
            ToolOutcome::Ok(out) => out.changed_files,
            other => panic!("expected Ok, got {other:?}"),
        }
    }

    async fn write(&self, path: &str, content: &str) -> Vec<PathBuf> {
        self.edit(&WriteFile, json!({"path": path, "content": content}))
            .await
    }

    async fn replace(&self, path: &str, old: &str, new: &str) -> Vec<PathBuf> {
        self.edit(
            &EditFile,
            json!({"path": path, "old_text": old, "new_text": new}),
        )
        .await
    }
}

/// Checks `files` and returns the injected message.
async fn check(source: &dyn DiagnosticsSource, files: &[PathBuf]) -> Option<String> {
    source
        .check(files, &CancellationToken::new())
        .await
        .map(|report| report.text)
}

/// True when `command` is installed. Missing under CI is a failure (CI installs it); elsewhere the test is skipped
/// with a note.
fn require(command: &str) -> bool {
    let found = std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir| Path::new(&dir).join(command).is_file())
    });
    if !found {
        skip_missing_peer(format_args!(
            "{command} is not installed (scripts/test installs it)"
        ));
    }
    found
}

#[test]
fn build_lsp_follows_the_enabled_switch() {
    let project = TempDir::new().unwrap();
    let home = TempDir::new().unwrap();
    let load = |enabled: &str| {
        let env = vec![
            ("PAICLI_HOME".to_string(), home.path().display().to_string()),
            ("PAICLI_LSP_ENABLED".to_string(), enabled.to_string()),
        ];
        paicli::config::Config::load_with_env(project.path(), env, &Default::default()).unwrap()
    };
    assert!(paicli::app::build_lsp(&load("true")).is_some());
    assert!(paicli::app::build_lsp(&load("false")).is_none());
}
