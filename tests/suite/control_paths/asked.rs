//! In a session with a person (the REPL), the same writes are asked about, with a note saying what the file does;
//! `git add` and `git commit` under an allow rule are not.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use paicli::agent::TurnHook;
use paicli::config::ApprovalMode;
use paicli::guard::command_guard::CommandGuard;
use paicli::guard::control_files::ControlFiles;
use paicli::guard::path_guard::PathGuard;
use paicli::llm::ToolCall;
use paicli::policy::approval::{
    ApprovalAnswer, ApprovalHook, ApprovalHookOptions, ApprovalRequest, Approver, RuleSet,
};
use paicli::tools::executor::NullObserver;
use paicli::tools::fs::WriteFile;
use paicli::tools::shell::ExecuteCommand;
use paicli::tools::{
    Executor, ExecutorOptions, SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolRegistry,
};
use serde_json::{Value, json};

/// A person who refuses everything and remembers what they were asked.
#[derive(Default)]
struct Person {
    asked: Mutex<Vec<ApprovalRequest>>,
}

#[async_trait]
impl Approver for Person {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.asked.lock().unwrap().push(request.clone());
        ApprovalAnswer::Reject { reason: None }
    }
}

struct Session {
    _project: tempfile::TempDir,
    _home: tempfile::TempDir,
    root: PathBuf,
    executor: Executor,
    ctx: ToolContext,
    hook: ApprovalHook,
    person: Arc<Person>,
}

impl Session {
    fn new(allow: &[&str]) -> Self {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let root = project.path().canonicalize().unwrap();
        super::git_init(&root);
        let ctx = ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits::default(),
        );
        let person = Arc::new(Person::default());
        let hook = ApprovalHook::new(ApprovalHookOptions {
            mode: ApprovalMode::Auto,
            allow: RuleSet::from_strings(allow),
            deny: RuleSet::default(),
            approver: person.clone(),
            classifier: None,
            audit: None,
            command_guard: Some(CommandGuard::new(Arc::clone(&ctx.guard), None)),
            control_files: Some(ControlFiles::new(home.path(), &root)),
            project_rules: None,
            sandboxed_commands: false,
        });
        let executor = Executor::new(
            Arc::new(ToolRegistry::with_tools(vec![
                Arc::new(WriteFile) as Arc<dyn Tool>,
                Arc::new(ExecuteCommand::default()),
            ])),
            ExecutorOptions::default(),
        );
        Session {
            _project: project,
            _home: home,
            root,
            executor,
            ctx,
            hook,
            person,
        }
    }

    async fn run(&self, name: &str, args: Value) -> ToolOutcome {
        let mut ctx = self.ctx.clone();
        ctx.gates = self.hook.begin_turn("do the task").gates;
        let call = ToolCall {
            id: format!("call_{name}"),
            name: name.to_string(),
            arguments: args.to_string(),
        };
        let mut results = self.executor.run_batch(&[call], &ctx, &NullObserver).await;
        results.remove(0).outcome
    }

    /// The notes of the prompts shown so far.
    fn notes(&self) -> Vec<String> {
        self.person
            .asked
            .lock()
            .unwrap()
            .iter()
            .map(|r| r.note.clone().unwrap_or_default())
            .collect()
    }
}

#[tokio::test]
async fn file_tool_writes_to_control_paths_are_asked_with_what_the_file_does() {
    let s = Session::new(&["tool:write_file"]);
    let plain = s
        .run("write_file", json!({"path": "src/a.txt", "content": "a"}))
        .await;
    assert!(plain.is_ok(), "{plain:?}");
    assert!(s.notes().is_empty());
    let cases = [
        (".git/config", "makes code run later"),
        (".git/hooks/pre-commit", "makes code run later"),
        (".vscode/tasks.json", "makes code run later"),
        ("AGENTS.md", "reads as instructions"),
        (".paicli/skills/x/SKILL.md", "reads as instructions"),
        (".claude/commands/x.md", "reads as instructions"),
    ];
    for (path, _) in cases {
        let outcome = s
            .run("write_file", json!({"path": path, "content": "evil"}))
            .await;
        assert!(
            matches!(&outcome, ToolOutcome::Denied { code, .. } if code == "USER_REJECTED"),
            "{path}: {outcome:?}"
        );
    }
    let notes = s.notes();
    assert_eq!(notes.len(), cases.len(), "{notes:?}");
    for (note, (path, what)) in notes.iter().zip(cases) {
        assert!(note.contains(path), "{path}: {note}");
        assert!(note.contains(what), "{path}: {note}");
    }
    assert!(!s.root.join(".vscode").exists());
}

#[tokio::test]
async fn command_writes_to_control_paths_are_asked_and_git_commit_is_not() {
    let s = Session::new(&["git", "echo", "cp", "sed", "tee"]);
    std::fs::write(s.root.join("a.txt"), "a\n").unwrap();
    for command in [
        "git add a.txt",
        "git -c user.name=t -c user.email=t@example.com commit -q -m first",
        "git status --short",
    ] {
        let outcome = s
            .run("execute_command", json!({ "command": command }))
            .await;
        assert!(outcome.is_ok(), "{command}: {outcome:?}");
    }
    assert!(s.notes().is_empty(), "{:?}", s.notes());
    let commands = [
        ("git config core.fsmonitor 'touch pwned'", ".git/config"),
        ("echo x > .git/hooks/pre-commit", ".git/hooks/pre-commit"),
        ("cp a.txt .vscode/tasks.json", ".vscode/tasks.json"),
        ("sed -i s/a/b/ AGENTS.md", "AGENTS.md"),
        ("echo x | tee .envrc", ".envrc"),
    ];
    for (command, _) in commands {
        let outcome = s
            .run("execute_command", json!({ "command": command }))
            .await;
        assert!(
            matches!(&outcome, ToolOutcome::Denied { code, .. } if code == "USER_REJECTED"),
            "{command}: {outcome:?}"
        );
    }
    let notes = s.notes();
    assert_eq!(notes.len(), commands.len(), "{notes:?}");
    for (note, (command, path)) in notes.iter().zip(commands) {
        assert!(note.contains(path), "{command}: {note}");
    }
    assert!(!s.root.join(".envrc").exists());
}
