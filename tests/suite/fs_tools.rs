//! The file-system, edit and search tools driven through the `Tool` trait in a temp project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use paicli::guard::path_guard::PathGuard;
use paicli::tools::edit::EditFile;
use paicli::tools::fs::{ListDir, ReadFile, WriteFile};
use paicli::tools::search::{GlobFiles, GrepCode};
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolOutput};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

mod edit;
mod race;
mod read_write;
mod search;

/// A temp dir holding `project/` (the root) and `outside/` beside it.
struct Project {
    _tmp: TempDir,
    root: PathBuf,
    outside: PathBuf,
    ctx: ToolContext,
}

impl Project {
    fn new() -> Self {
        let tmp = TempDir::new().unwrap();
        let root = tmp.path().join("project");
        let outside = tmp.path().join("outside");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(&outside).unwrap();
        let guard = PathGuard::new(&root).unwrap();
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
            outside: outside.canonicalize().unwrap(),
            ctx,
        }
    }

    fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        path
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    async fn call(&self, tool: &dyn Tool, args: Value) -> ToolOutcome {
        tool.execute(args.as_object().unwrap(), &self.ctx).await
    }

    async fn ok(&self, tool: &dyn Tool, args: Value) -> ToolOutput {
        match self.call(tool, args).await {
            ToolOutcome::Ok(out) => out,
            other => panic!("expected Ok, got {other:?}"),
        }
    }

    async fn failed(&self, tool: &dyn Tool, args: Value) -> String {
        match self.call(tool, args).await {
            ToolOutcome::Failed { reason } => reason,
            other => panic!("expected Failed, got {other:?}"),
        }
    }

    async fn denied(&self, tool: &dyn Tool, args: Value) -> (String, String) {
        match self.call(tool, args).await {
            ToolOutcome::Denied { code, reason } => (code, reason),
            other => panic!("expected Denied, got {other:?}"),
        }
    }
}

fn numbered(from: usize, to: usize) -> String {
    (from..=to).map(|i| format!("line {i}\n")).collect()
}

fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn schemas_have_the_spec_shape_and_stay_small() {
    let tools: Vec<Box<dyn Tool>> = vec![
        Box::new(ReadFile),
        Box::new(WriteFile),
        Box::new(EditFile),
        Box::new(ListDir),
        Box::new(GlobFiles),
        Box::new(GrepCode),
    ];
    let mut bytes = 0;
    for tool in &tools {
        let schema = tool.parameters();
        assert_eq!(schema["type"], "object", "{}", tool.name());
        for (name, prop) in schema["properties"].as_object().unwrap() {
            assert!(prop["type"].is_string(), "{}.{name}", tool.name());
            // A parameter its name explains (`path`, `content`) carries no description.
            assert!(
                prop.get("description").is_none_or(Value::is_string),
                "{}.{name}",
                tool.name()
            );
        }
        for required in schema["required"].as_array().unwrap() {
            assert!(
                schema["properties"]
                    .get(required.as_str().unwrap())
                    .is_some()
            );
        }
        bytes += schema.to_string().len() + tool.description().len() + tool.name().len();
    }
    assert!(
        bytes < 6000,
        "fs/edit/search tool definitions take {bytes} bytes"
    );
    let parallel: Vec<&str> = tools
        .iter()
        .filter(|t| t.traits().parallel_safe)
        .map(|t| t.name())
        .collect();
    assert_eq!(
        parallel,
        vec!["read_file", "list_dir", "glob_files", "grep_code"]
    );
    assert_eq!(
        EditFile.parameters()["required"],
        json!(["path", "old_text", "new_text"])
    );
}
