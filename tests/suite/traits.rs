//! Tools declare what they are: gates read the declared traits through the registry, never the tool's name
//! (issue 13). And writes to paicli's control files need the person in every mode but `full` (issue 12).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use paicli::agent::TurnHook;
use paicli::config::ApprovalMode;
use paicli::guard::command_guard::CommandGuard;
use paicli::guard::control_files::ControlFiles;
use paicli::guard::path_guard::PathGuard;
use paicli::guard::redact::Redactor;
use paicli::llm::ToolCall;
use paicli::policy::approval::{
    ApprovalAnswer, ApprovalHook, ApprovalHookOptions, ApprovalRequest, Approver,
    NonInteractiveApprover, ProjectRuleStore, RuleSet,
};
use paicli::policy::audit::{AuditEntry, AuditLog, AuditOutcome};
use paicli::policy::exposure::ExposurePolicy;
use paicli::protocol::Risk;
use paicli::protocol::ToolTraitsLookup;
use paicli::tools::executor::{NullObserver, ToolCallResult};
use paicli::tools::fs::WriteFile;
use paicli::tools::{
    Executor, ExecutorOptions, SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome,
    ToolRegistry, ToolTraits,
};
use serde_json::{Map, Value, json};

/// A tool nobody in `src/` has heard of: only its declared traits say what it is.
struct Novel {
    name: &'static str,
    traits: ToolTraits,
}

#[async_trait]
impl Tool for Novel {
    fn name(&self) -> &str {
        self.name
    }
    fn description(&self) -> &str {
        "A tool added after the gates were written."
    }
    fn parameters(&self) -> Value {
        json!({"type": "object", "properties": {"x": {"type": "string"}}})
    }
    fn traits(&self) -> ToolTraits {
        self.traits
    }
    async fn execute(&self, _args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        ToolOutcome::ok("ran")
    }
}

/// A person who answers from a script and remembers what they were asked.
#[derive(Default)]
struct Person {
    answers: Mutex<Vec<ApprovalAnswer>>,
    asked: Mutex<Vec<ApprovalRequest>>,
}

impl Person {
    fn answering(answers: impl IntoIterator<Item = ApprovalAnswer>) -> Arc<Self> {
        let mut answers: Vec<_> = answers.into_iter().collect();
        answers.reverse();
        Arc::new(Person {
            answers: Mutex::new(answers),
            asked: Mutex::default(),
        })
    }

    fn asked(&self) -> Vec<ApprovalRequest> {
        self.asked.lock().unwrap().clone()
    }
}

#[async_trait]
impl Approver for Person {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        self.asked.lock().unwrap().push(request.clone());
        self.answers
            .lock()
            .unwrap()
            .pop()
            .unwrap_or(ApprovalAnswer::Reject { reason: None })
    }
}

/// A session's tools behind the real registry and executor, gated by the real approval hook.
struct Session {
    _dir: tempfile::TempDir,
    home: tempfile::TempDir,
    root: PathBuf,
    executor: Executor,
    ctx: ToolContext,
    hook: ApprovalHook,
}

impl Session {
    fn new(
        mode: ApprovalMode,
        approver: Arc<dyn Approver>,
        allow: &[&str],
        tools: Vec<Arc<dyn Tool>>,
    ) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let ctx = ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits::default(),
        );
        let hook = ApprovalHook::new(ApprovalHookOptions {
            mode,
            allow: RuleSet::from_strings(allow),
            deny: RuleSet::default(),
            approver,
            classifier: None,
            audit: Some(Arc::new(AuditLog::new(
                home.path().join("audit"),
                Redactor::default(),
            ))),
            command_guard: Some(CommandGuard::new(Arc::clone(&ctx.guard), None)),
            control_files: Some(ControlFiles::new(home.path(), &root)),
            project_rules: Some(ProjectRuleStore {
                home: home.path().to_path_buf(),
                root: root.clone(),
            }),
            sandboxed_commands: false,
        });
        let executor = Executor::new(
            Arc::new(ToolRegistry::with_tools(tools)),
            ExecutorOptions::default(),
        );
        Session {
            _dir: dir,
            home,
            root,
            executor,
            ctx,
            hook,
        }
    }

    /// Runs one call as a turn would: the turn's gates, then the tool.
    async fn run(&self, name: &str, args: Value) -> ToolCallResult {
        let mut ctx = self.ctx.clone();
        ctx.gates = self.hook.begin_turn("do the task").gates;
        let call = ToolCall {
            id: format!("call_{name}"),
            name: name.to_string(),
            arguments: args.to_string(),
        };
        let mut results = self.executor.run_batch(&[call], &ctx, &NullObserver).await;
        results.remove(0)
    }

    fn audit(&self) -> Vec<AuditEntry> {
        AuditLog::new(self.home.path().join("audit"), Redactor::default())
            .read_recent(100)
            .unwrap()
    }

    fn exists(&self, rel: &str) -> bool {
        Path::new(&self.root).join(rel).exists()
    }
}

fn denial(result: &ToolCallResult) -> Option<(&str, &str)> {
    match &result.outcome {
        ToolOutcome::Denied { code, reason } => Some((code, reason)),
        _ => None,
    }
}

#[tokio::test]
async fn a_new_tool_declaring_audited_is_audited_without_being_named_anywhere() {
    let audited = Novel {
        name: "zz_polish_widgets",
        traits: ToolTraits {
            audited: true,
            ..ToolTraits::READ_ONLY
        },
    };
    let quiet = Novel {
        name: "zz_count_widgets",
        traits: ToolTraits {
            audited: false,
            ..ToolTraits::side_effect(Risk::High)
        },
    };
    let s = Session::new(
        ApprovalMode::Full,
        Arc::new(NonInteractiveApprover),
        &[],
        vec![Arc::new(audited), Arc::new(quiet)],
    );
    assert!(s.run("zz_polish_widgets", json!({})).await.outcome.is_ok());
    assert!(s.run("zz_count_widgets", json!({})).await.outcome.is_ok());
    let audit = s.audit();
    let tools: Vec<&str> = audit.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(tools, ["zz_polish_widgets"]);
    assert_eq!(audit[0].outcome, AuditOutcome::Allow);
}

#[tokio::test]
async fn a_new_tool_declaring_high_risk_is_asked_for_in_ask_mode() {
    let risky = Novel {
        name: "zz_launch_rocket",
        traits: ToolTraits::side_effect(Risk::High),
    };
    let harmless = Novel {
        name: "zz_tidy_desk",
        traits: ToolTraits {
            audited: false,
            ..ToolTraits::side_effect(Risk::None)
        },
    };
    let person = Person::answering([ApprovalAnswer::Approve]);
    let s = Session::new(
        ApprovalMode::Ask,
        person.clone(),
        &[],
        vec![Arc::new(risky), Arc::new(harmless)],
    );
    assert!(s.run("zz_launch_rocket", json!({})).await.outcome.is_ok());
    assert!(s.run("zz_tidy_desk", json!({})).await.outcome.is_ok());
    let asked = person.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].tool, "zz_launch_rocket");
    assert_eq!(asked[0].risk, Risk::High);
}

#[tokio::test]
async fn auto_mode_asks_the_person_before_a_control_file_is_written_and_does_not_remember_a() {
    let person = Person::answering([
        ApprovalAnswer::ApproveForSession,
        ApprovalAnswer::Reject { reason: None },
    ]);
    let s = Session::new(
        ApprovalMode::Auto,
        person.clone(),
        &[],
        vec![Arc::new(WriteFile)],
    );
    // An ordinary file runs without asking, as auto mode does for edits.
    let plain = s
        .run("write_file", json!({"path": "src/a.txt", "content": "a"}))
        .await;
    assert!(plain.outcome.is_ok(), "{:?}", plain.outcome);
    assert!(person.asked().is_empty());

    let first = s
        .run(
            "write_file",
            json!({"path": ".paicli/config.toml", "content": "[approval]\nmode = \"full\"\n"}),
        )
        .await;
    assert!(first.outcome.is_ok(), "{:?}", first.outcome);
    let asked = person.asked();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].risk, Risk::High);
    // Neither `a` nor `p` is offered for a sensitive call.
    assert_eq!(
        (&asked[0].session_rule, &asked[0].project_rule),
        (&None, &None)
    );
    let note = asked[0].note.clone().unwrap_or_default();
    assert!(note.contains(".paicli/config.toml"), "{note}");

    // `a` was not remembered: the next control-file write is asked about again, and refused this time.
    let second = s
        .run(
            "write_file",
            json!({"path": ".mcp.json", "content": "{\"mcpServers\": {}}"}),
        )
        .await;
    assert_eq!(denial(&second).map(|d| d.0), Some("USER_REJECTED"));
    assert_eq!(person.asked().len(), 2);
    assert!(!s.exists(".mcp.json"));
}

#[tokio::test]
async fn a_non_interactive_run_refuses_control_file_writes_naming_the_flag_even_with_an_allow_rule()
{
    let s = Session::new(
        ApprovalMode::Auto,
        Arc::new(NonInteractiveApprover),
        &["tool:write_file"],
        vec![Arc::new(WriteFile)],
    );
    let result = s
        .run("write_file", json!({"path": ".env", "content": "X=1\n"}))
        .await;
    let (code, reason) = denial(&result).expect("denied");
    assert_eq!(code, "APPROVAL_REQUIRED");
    assert!(reason.contains("--approval full"), "{reason}");
    assert!(!s.exists(".env"));
    // The allow rule still covers ordinary files.
    let plain = s
        .run("write_file", json!({"path": "notes.txt", "content": "n"}))
        .await;
    assert!(plain.outcome.is_ok(), "{:?}", plain.outcome);

    let audit = s.audit();
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[0].outcome, AuditOutcome::Deny);
    assert_eq!(audit[0].metadata["code"], "APPROVAL_REQUIRED");
    assert_eq!(audit[0].metadata["risk"], "high");
    assert!(
        audit[0].metadata["needsPerson"]
            .as_str()
            .is_some_and(|n| n.contains(".env"))
    );
    assert_eq!(audit[1].outcome, AuditOutcome::Allow);
    assert_eq!(audit[1].metadata["risk"], "medium");
}

#[tokio::test]
async fn full_mode_writes_control_files_and_plan_mode_refuses_them() {
    let s = Session::new(
        ApprovalMode::Full,
        Arc::new(NonInteractiveApprover),
        &[],
        vec![Arc::new(WriteFile)],
    );
    let written = s
        .run("write_file", json!({"path": ".mcp.json", "content": "{}"}))
        .await;
    assert!(written.outcome.is_ok(), "{:?}", written.outcome);
    assert!(s.exists(".mcp.json"));

    let person = Person::answering([ApprovalAnswer::Approve]);
    let s = Session::new(
        ApprovalMode::Plan,
        person.clone(),
        &[],
        vec![Arc::new(WriteFile)],
    );
    let refused = s
        .run("write_file", json!({"path": ".mcp.json", "content": "{}"}))
        .await;
    assert_eq!(denial(&refused).map(|d| d.0), Some("PLAN_MODE"));
    assert!(person.asked().is_empty());
    assert!(!s.exists(".mcp.json"));
}

#[test]
fn a_new_tool_declaring_network_is_taken_away_when_the_user_says_not_to_go_online() {
    let online = Novel {
        name: "zz_consult_oracle",
        traits: ToolTraits {
            network: true,
            ..ToolTraits::READ_ONLY
        },
    };
    let offline = Novel {
        name: "zz_consult_notes",
        traits: ToolTraits::READ_ONLY,
    };
    let registry = Arc::new(ToolRegistry::with_tools([
        Arc::new(online) as Arc<dyn Tool>,
        Arc::new(offline),
    ]));
    let policy = ExposurePolicy::new(Arc::clone(&registry) as Arc<dyn ToolTraitsLookup>);
    let offered = |input: &str| -> Vec<String> {
        let scope = policy.begin_turn(input);
        let specs = scope.filter.unwrap().filter(&registry.specs());
        specs.into_iter().map(|s| s.name).collect()
    };
    assert_eq!(
        offered("fix the parser"),
        ["zz_consult_notes", "zz_consult_oracle"]
    );
    assert_eq!(
        offered("do not go online, fix the parser"),
        ["zz_consult_notes"]
    );
}
