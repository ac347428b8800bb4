//! One session host: the REPL and a hosted session (as `paicli serve`, `paicli acp` and background tasks drive
//! it) send the same events, in the same order, for the same scripted turn and the same scripted plan. The REPL
//! runs as the binary runs it (`ui::repl::Session::submit`, its terminal sink printing to stdout); a watcher gets
//! a copy of every event it shows, and a scripted reviewer stands in for the review keys.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::{Arc, Mutex};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use paicli::app::sessions::StartOptions;
use paicli::app::{HostOptions, Input, Session};
use paicli::config::{ApprovalMode, Config, Overrides};
use paicli::protocol::plan::RunWithoutReview;
use paicli::protocol::{AgentEvent, EventSink, NonInteractiveApprover};
use paicli::ui::sessions::Launch;

use crate::support::{Reply, ScriptedServer};

/// A project with one file, and a home of its own.
struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("notes.txt"), "alpha beta\n").unwrap();
        Sandbox {
            project,
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn config(&self, server: &ScriptedServer, mode: ApprovalMode) -> Config {
        let env = vec![(
            "PAICLI_HOME".to_string(),
            self.home.path().display().to_string(),
        )];
        let overrides = Overrides {
            base_url: Some(server.url()),
            model: Some("scripted-model".to_string()),
            approval: Some(mode),
            ..Overrides::default()
        };
        Config::load_with_env(self.project.path(), env, &overrides).unwrap()
    }
}

/// Every event as JSON, in order, with durations zeroed (the one thing two runs of a script do not share).
#[derive(Default)]
struct Recorder(Mutex<Vec<Value>>);

impl Recorder {
    fn events(&self) -> Vec<Value> {
        self.0.lock().unwrap().clone()
    }
}

impl EventSink for Recorder {
    fn emit(&self, event: AgentEvent) {
        let mut value = serde_json::to_value(&event).unwrap();
        zero_durations(&mut value);
        self.0.lock().unwrap().push(value);
    }

    // As the terminal does: live tool output and full results too.
    fn wants_tool_output(&self) -> bool {
        true
    }
}

fn zero_durations(value: &mut Value) {
    match value {
        Value::Object(map) => {
            for (key, field) in map.iter_mut() {
                if key == "duration_ms" {
                    *field = json!(0);
                } else {
                    zero_durations(field);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(zero_durations),
        _ => {}
    }
}

/// The events the REPL shows for `text` typed at its prompt, in approval mode `mode`.
fn repl_events(server: &ScriptedServer, mode: ApprovalMode, text: &str) -> Vec<Value> {
    let sandbox = Sandbox::new();
    let launch = Launch::Start(StartOptions::default());
    let config = sandbox.config(server, mode);
    let mut repl = paicli::ui::repl::Session::new(config, Overrides::default(), launch).unwrap();
    let recorder = Arc::new(Recorder::default());
    repl.watch_events(Arc::clone(&recorder) as _);
    repl.set_plan_reviewer(Arc::new(RunWithoutReview));
    repl.submit(text);
    repl.shutdown();
    recorder.events()
}

/// The events a hosted session sends for the input `text`, in approval mode `mode`.
fn hosted_events(server: &ScriptedServer, mode: ApprovalMode, text: &str) -> Vec<Value> {
    let sandbox = Sandbox::new();
    let config = sandbox.config(server, mode);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let approver = Arc::new(NonInteractiveApprover);
        let session = Session::start(config, approver, HostOptions::default()).unwrap();
        let recorder = Recorder::default();
        let cancel = CancellationToken::new();
        session
            .run_input(Input::typed(text), &recorder, cancel, &RunWithoutReview)
            .await;
        session.shutdown().await;
        recorder.events()
    })
}

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

#[test]
fn a_turn_gives_the_same_events_in_the_repl_and_a_hosted_session() {
    let script = || {
        ScriptedServer::with_replies([
            Reply::tool_calls([("call_1", "read_file", json!({"path": "notes.txt"}))]),
            Reply::text("The notes say alpha beta."),
        ])
    };
    let text = "what do @notes.txt and @missing.txt say?";
    let repl = repl_events(&script(), ApprovalMode::Full, text);
    let hosted = hosted_events(&script(), ApprovalMode::Full, text);
    assert_eq!(repl, hosted);
    // The same, and what it should be: the skipped mention told first, the call, the answer.
    assert_eq!(repl[0]["type"], "notice");
    assert_eq!(repl[0]["kind"], "mention_skipped");
    assert!(
        repl[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("@missing.txt not attached: cannot read it"),
        "{}",
        repl[0]
    );
    let kinds = types(&repl);
    let call = kinds.iter().position(|k| *k == "tool_call_finished");
    let answer = kinds.iter().position(|k| *k == "text_delta");
    assert!(call.is_some() && answer > call, "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"turn_finished"), "{kinds:?}");
}

#[test]
fn a_plan_gives_the_same_events_in_the_repl_and_a_hosted_session() {
    let script = || {
        let server = ScriptedServer::start();
        let plan = json!({"tasks": [
            {"id": "A", "title": "Read the notes", "description": "", "depends_on": []},
            {"id": "B", "title": "Sum them up", "description": "", "depends_on": ["A"]},
        ]});
        server.route_task("Make a plan for this goal", [Reply::text(plan.to_string())]);
        server.route_task(
            "Your task (id `A`)",
            [
                Reply::tool_calls([("call_a", "read_file", json!({"path": "notes.txt"}))]),
                Reply::text("The notes say alpha beta."),
            ],
        );
        server.route_task("Your task (id `B`)", [Reply::text("Two words.")]);
        server
    };
    // In the `plan` approval mode: planned, approved (which leaves plan mode), run.
    let text = "read @notes.txt, then sum the notes up";
    let repl = repl_events(&script(), ApprovalMode::Plan, text);
    let hosted = hosted_events(&script(), ApprovalMode::Plan, text);
    assert_eq!(repl, hosted);
    let kinds: Vec<&str> = types(&repl)
        .into_iter()
        .filter(|k| !matches!(*k, "plan_task_event" | "usage" | "request_started"))
        .collect();
    assert_eq!(
        kinds,
        [
            // `@notes.txt` was attached.
            "notice",
            "plan_proposed",
            "notice",
            "plan_task_started",
            "plan_task_finished",
            "plan_task_started",
            "plan_task_finished",
            "plan_finished",
            "turn_finished"
        ]
    );
    let notices: Vec<&serde_json::Value> = repl.iter().filter(|e| e["type"] == "notice").collect();
    assert_eq!(notices[0]["kind"], "mentions_attached", "{}", notices[0]);
    assert_eq!(notices[1]["kind"], "plan_mode_left", "{}", notices[1]);
}

/// `/clear` ends one conversation and `/exit` the session: `SessionEnd` hooks see `clear`, then
/// `prompt_input_exit`, as Claude Code's contract names them.
#[test]
fn session_end_hooks_see_clear_and_then_the_person_leaving() {
    let sandbox = Sandbox::new();
    let log = sandbox.project.path().join("ends.txt");
    let script = sandbox.home.path().join("end.py");
    std::fs::write(
        &script,
        format!(
            "import json, sys\nreason = json.load(sys.stdin)['reason']\nopen({:?}, 'a').write(reason + '\\n')\n",
            log.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        sandbox.home.path().join("config.toml"),
        format!(
            "[[hooks.SessionEnd]]\n[[hooks.SessionEnd.hooks]]\ntype = \"command\"\ncommand = \"python3 {}\"\n",
            script.display()
        ),
    )
    .unwrap();
    let server = ScriptedServer::with_replies(Vec::new());
    let config = sandbox.config(&server, ApprovalMode::Auto);
    let launch = Launch::Start(StartOptions::default());
    let mut repl = paicli::ui::repl::Session::new(config, Overrides::default(), launch).unwrap();
    repl.clear_history();
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "clear\n");
    repl.shutdown();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "clear\nprompt_input_exit\n"
    );
}
