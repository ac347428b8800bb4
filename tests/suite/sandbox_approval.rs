//! The sandbox at the approval prompt and in the audit log (issue 20): `u` runs one command outside the
//! sandbox, plan mode runs commands read-only, and each command's audit entry says whether it ran sandboxed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use paicli::agent::TurnHook;
use paicli::config::ApprovalMode;
use paicli::guard::command_guard::CommandGuard;
use paicli::guard::path_guard::PathGuard;
use paicli::guard::redact::Redactor;
use paicli::llm::ToolCall;
use paicli::policy::approval::{
    ApprovalAnswer, ApprovalHook, ApprovalHookOptions, ApprovalRequest, Approver, RuleSet,
};
use paicli::policy::audit::{AuditEntry, AuditLog};
use paicli::tools::executor::{NullObserver, ToolCallResult};
use paicli::tools::shell::ExecuteCommand;
use paicli::tools::{
    Executor, ExecutorOptions, SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolRegistry,
};
use serde_json::json;

/// A person who answers from a script and remembers what they were asked.
#[derive(Default)]
struct Person {
    answers: Mutex<Vec<ApprovalAnswer>>,
    asked: Mutex<Vec<ApprovalRequest>>,
}

#[async_trait]
impl Approver for Person {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.asked.lock().unwrap().push(request.clone());
        self.answers.lock().unwrap().remove(0)
    }
}

struct Session {
    project: tempfile::TempDir,
    audit: tempfile::TempDir,
    outside: tempfile::TempDir,
    executor: Executor,
    ctx: ToolContext,
    hook: ApprovalHook,
    person: Arc<Person>,
}

impl Session {
    fn new(
        mode: ApprovalMode,
        sandboxed: bool,
        allow: &[&str],
        answers: Vec<ApprovalAnswer>,
    ) -> Self {
        let project = tempfile::tempdir().unwrap();
        let audit = tempfile::tempdir().unwrap();
        let root = project.path().canonicalize().unwrap();
        let ctx = ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits::default(),
        );
        let person = Arc::new(Person {
            answers: Mutex::new(answers),
            asked: Mutex::default(),
        });
        let hook = ApprovalHook::new(ApprovalHookOptions {
            mode,
            allow: RuleSet::from_strings(allow),
            deny: RuleSet::default(),
            approver: person.clone(),
            classifier: None,
            audit: Some(Arc::new(AuditLog::new(audit.path(), Redactor::default()))),
            command_guard: Some(CommandGuard::new(Arc::clone(&ctx.guard), None)),
            control_files: None,
            project_rules: None,
            sandboxed_commands: sandboxed,
        });
        Session {
            project,
            audit,
            outside: crate::support::outside_dir().unwrap(),
            executor: Executor::new(
                Arc::new(ToolRegistry::with_tools(vec![
                    Arc::new(ExecuteCommand::new(&ctx.limits, &ctx.spill)) as Arc<dyn Tool>,
                ])),
                ExecutorOptions::default(),
            ),
            ctx,
            hook,
            person,
        }
    }

    async fn run(&self, id: &str, command: &str) -> ToolCallResult {
        let mut ctx = self.ctx.clone();
        ctx.gates = self.hook.begin_turn("do the task").gates;
        let call = ToolCall {
            id: id.to_string(),
            name: "execute_command".to_string(),
            arguments: json!({ "command": command }).to_string(),
        };
        self.executor
            .run_batch(&[call], &ctx, &NullObserver)
            .await
            .remove(0)
    }

    fn out(&self, name: &str) -> PathBuf {
        self.outside.path().canonicalize().unwrap().join(name)
    }

    fn audit(&self) -> Vec<AuditEntry> {
        AuditLog::new(self.audit.path(), Redactor::default())
            .read_recent(100)
            .unwrap()
    }
}

use crate::support::kernel_confines;

#[tokio::test]
async fn u_runs_that_one_command_outside_the_sandbox_and_the_audit_log_says_so() {
    if !kernel_confines() {
        return;
    }
    let s = Session::new(
        ApprovalMode::Ask,
        true,
        &[],
        vec![ApprovalAnswer::Approve, ApprovalAnswer::ApproveUnsandboxed],
    );
    let target = s.out("x.txt");
    let line = format!("t={}; echo x > \"$t\"", target.display());
    let first = s.run("call_1", &line).await;
    assert!(
        matches!(&first.outcome, ToolOutcome::Failed { reason } if reason.contains("[sandbox]")),
        "{:?}",
        first.outcome
    );
    assert!(!target.exists());
    let second = s.run("call_2", &line).await;
    assert!(second.outcome.is_ok(), "{:?}", second.outcome);
    assert!(target.exists());

    let asked = s.person.asked.lock().unwrap().clone();
    assert!(asked.iter().all(|r| r.unsandboxed), "`u` is offered");
    let sandboxed: Vec<_> = s
        .audit()
        .iter()
        .map(|e| {
            (
                e.metadata["callId"].clone(),
                e.metadata["sandboxed"].clone(),
            )
        })
        .collect();
    assert_eq!(
        sandboxed,
        [
            (json!("call_1"), json!(true)),
            (json!("call_2"), json!(false))
        ]
    );
}

#[tokio::test]
async fn without_a_sandbox_u_is_not_offered_and_plan_mode_still_refuses_commands() {
    let s = Session::new(ApprovalMode::Ask, false, &[], vec![ApprovalAnswer::Approve]);
    assert!(s.run("call_1", "true").await.outcome.is_ok());
    assert!(!s.person.asked.lock().unwrap()[0].unsandboxed);
    assert_eq!(s.audit()[0].metadata["sandboxed"], json!(false));

    let plan = Session::new(ApprovalMode::Plan, false, &[], Vec::new());
    match plan.run("call_1", "true").await.outcome {
        ToolOutcome::Denied { code, .. } => assert_eq!(code, "PLAN_MODE"),
        other => panic!("expected PLAN_MODE, got {other:?}"),
    }
}

#[tokio::test]
async fn plan_mode_runs_commands_with_nothing_writable() {
    if !kernel_confines() {
        return;
    }
    let s = Session::new(
        ApprovalMode::Plan,
        true,
        &["tool:execute_command"],
        Vec::new(),
    );
    let read = s.run("call_1", "echo looked").await;
    assert_eq!(read.outcome, ToolOutcome::ok("looked\n"));
    let write = s.run("call_2", "echo x > notes.txt").await;
    assert!(
        matches!(&write.outcome, ToolOutcome::Failed { reason } if reason.contains("[sandbox]")),
        "{:?}",
        write.outcome
    );
    assert!(!s.project.path().join("notes.txt").exists());

    // Asked in plan mode, the person gets no `u`: the command runs read-only whatever they answer.
    let asked = Session::new(
        ApprovalMode::Plan,
        true,
        &[],
        vec![ApprovalAnswer::ApproveUnsandboxed],
    );
    let write = asked.run("call_1", "echo x > notes.txt").await;
    assert!(
        matches!(write.outcome, ToolOutcome::Failed { .. }),
        "{:?}",
        write.outcome
    );
    assert!(!asked.person.asked.lock().unwrap()[0].unsandboxed);
    assert!(!asked.project.path().join("notes.txt").exists());
}
