//! `paicli serve` end to end: the built binary's runtime API over HTTP, against the scripted model.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::support::{Reply, ScriptedServer};

const KEY: &str = "test-key-0123456789";

struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    fn new() -> Self {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("notes.txt"), "first line\n").unwrap();
        Sandbox {
            project,
            home: tempfile::tempdir().unwrap(),
        }
    }

    fn command(&self, model: &ScriptedServer, key: Option<&str>) -> Command {
        let mut cmd = Command::cargo_bin("paicli").unwrap();
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.home.path().join(".paicli"))
            .arg("-C")
            .arg(self.project.path())
            .args(["--base-url", &model.url(), "--model", "scripted-model"])
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if let Some(key) = key {
            cmd.env("PAICLI_RUNTIME_API_KEY", key);
        }
        cmd
    }

    /// Starts `paicli serve` and waits for the line naming its address.
    fn serve(&self, model: &ScriptedServer) -> Api {
        let mut child = self.command(model, Some(KEY)).spawn().unwrap();
        let stderr = child.stderr.take().unwrap();
        let mut lines = BufReader::new(stderr).lines();
        let base = loop {
            let line = lines.next().expect("paicli serve exited").unwrap();
            if let Some(at) = line.find("http://") {
                let url = line[at..].split_whitespace().next().unwrap().to_string();
                break url;
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Api {
            child,
            base,
            http: reqwest::Client::new(),
        }
    }
}

struct Api {
    child: Child,
    base: String,
    http: reqwest::Client,
}

impl Drop for Api {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One SSE event as the client read it.
#[derive(Debug, Clone)]
struct SseEvent {
    id: u64,
    kind: String,
    data: Value,
}

impl Api {
    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.post_raw(path, body.to_string(), Some(KEY)).await
    }

    async fn post_raw(&self, path: &str, body: String, key: Option<&str>) -> (u16, Value) {
        let mut request = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(key) = key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn new_thread(&self, body: Value) -> String {
        let (status, thread) = self.post("/v1/threads", body).await;
        assert_eq!(status, 201, "{thread}");
        thread["id"].as_str().unwrap().to_string()
    }

    /// Reads the thread's events (after `last_event_id`) until one of type `until` arrives.
    async fn events_until(
        &self,
        thread: &str,
        last_event_id: Option<u64>,
        until: &str,
    ) -> Vec<SseEvent> {
        let mut request = self
            .http
            .get(format!("{}/v1/threads/{thread}/events", self.base))
            .bearer_auth(KEY);
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let mut body = response.bytes_stream();
        let mut buffer = String::new();
        let mut events = Vec::new();
        let read = async {
            while let Some(chunk) = body.next().await {
                buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
                while let Some(end) = buffer.find("\n\n") {
                    let frame: String = buffer.drain(..end + 2).collect();
                    if let Some(event) = parse_frame(&frame) {
                        let done = event.kind == until;
                        events.push(event);
                        if done {
                            return;
                        }
                    }
                }
            }
            panic!("the event stream ended before `{until}`");
        };
        tokio::time::timeout(Duration::from_secs(60), read)
            .await
            .unwrap_or_else(|_| panic!("no `{until}` event within a minute: {events:?}"));
        events
    }
}

fn parse_frame(frame: &str) -> Option<SseEvent> {
    let (mut id, mut kind, mut data) = (None, None, String::new());
    for line in frame.lines() {
        if let Some(v) = line.strip_prefix("id:") {
            id = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("event:") {
            kind = Some(v.trim().to_string());
        } else if let Some(v) = line.strip_prefix("data:") {
            data.push_str(v.strip_prefix(' ').unwrap_or(v));
        }
    }
    Some(SseEvent {
        id: id?,
        kind: kind?,
        data: serde_json::from_str(&data).ok()?,
    })
}

fn kinds(events: &[SseEvent]) -> Vec<&str> {
    events.iter().map(|e| e.kind.as_str()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_streams_its_events_resumes_by_id_and_the_thread_survives_a_restart() {
    let sandbox = Sandbox::new();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "read_file", json!({"path": "notes.txt"}))]),
        Reply::text("The file says: first line."),
        Reply::text("Still here."),
    ]);
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({})).await;

    let (status, turn) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "what is in notes.txt?"}),
        )
        .await;
    assert_eq!(status, 202, "{turn}");
    let turn_id = turn["turn_id"].as_str().unwrap().to_string();
    let events = api.events_until(&thread, None, "turn_finished").await;
    let seen = kinds(&events);
    for kind in [
        "turn_started",
        "request_started",
        "tool_call_started",
        "tool_call_finished",
        "turn_finished",
    ] {
        assert!(seen.contains(&kind), "{kind} missing from {seen:?}");
    }
    assert!(events.windows(2).all(|w| w[0].id < w[1].id), "{events:?}");
    let started = events
        .iter()
        .find(|e| e.kind == "tool_call_started")
        .unwrap();
    assert_eq!(started.data["name"], "read_file");
    assert_eq!(started.data["turn_id"], turn_id.as_str());
    let finished = events
        .iter()
        .find(|e| e.kind == "tool_call_finished")
        .unwrap();
    assert_eq!(finished.data["status"], "ok");
    assert_eq!(
        events.last().unwrap().data["text"],
        "The file says: first line."
    );

    // Reconnecting after the tool call started replays only what came later.
    let resumed = api
        .events_until(&thread, Some(started.id), "turn_finished")
        .await;
    assert_eq!(resumed[0].id, started.id + 1);
    let later: Vec<u64> = events
        .iter()
        .filter(|e| e.id > started.id)
        .map(|e| e.id)
        .collect();
    assert_eq!(resumed.iter().map(|e| e.id).collect::<Vec<_>>(), later);

    // The thread is a session: after a restart it resumes with its history.
    drop(api);
    let api = sandbox.serve(&model);
    let (status, body) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "again"}),
        )
        .await;
    assert_eq!(status, 404, "a new server knows no threads yet: {body}");
    assert_eq!(body["error"]["code"], "unknown_thread");
    let again = api.new_thread(json!({"resume": thread})).await;
    assert_eq!(again, thread);
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "are you still there?"}),
        )
        .await;
    assert_eq!(status, 202);
    let events = api.events_until(&thread, None, "turn_finished").await;
    assert_eq!(events.last().unwrap().data["text"], "Still here.");
    let sent = model.chat_requests().last().unwrap().body.to_string();
    assert!(
        sent.contains("what is in notes.txt?") && sent.contains("The file says: first line."),
        "the resumed request carries the earlier turn: {sent}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_wrong_key_gets_401_and_nothing_runs() {
    let sandbox = Sandbox::new();
    let model = ScriptedServer::with_replies([Reply::text("never")]);
    let api = sandbox.serve(&model);
    for key in [None, Some("wrong-key"), Some("")] {
        let (status, body) = api.post_raw("/v1/threads", "{}".into(), key).await;
        assert_eq!(status, 401, "{key:?}: {body}");
        assert_eq!(body["error"]["code"], "unauthorized");
    }
    let thread = api.new_thread(json!({})).await;
    let (status, _) = api
        .post_raw(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "hi"}).to_string(),
            Some("wrong-key"),
        )
        .await;
    assert_eq!(status, 401);
    let response = api
        .http
        .get(format!("{}/v1/threads/{thread}/events", api.base))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    // Nothing reached the model.
    assert_eq!(model.chat_requests().len(), 0);

    // Clear 4xx for bad requests.
    let (status, body) = api
        .post_raw(
            &format!("/v1/threads/{thread}/turns"),
            "{not json".into(),
            Some(KEY),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_json"))
    );
    let (status, body) = api
        .post("/v1/threads/nope/turns", json!({"text": "hi"}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("unknown_thread"))
    );
    let (status, body) = api
        .post(&format!("/v1/threads/{thread}/cancel"), json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("no_turn_running"))
    );
    let (status, body) = api
        .post("/v1/threads", json!({"resume": "no-such-session"}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("unknown_session"))
    );
}

#[test]
fn without_a_key_or_off_loopback_it_refuses_to_start() {
    let sandbox = Sandbox::new();
    let model = ScriptedServer::with_replies([]);
    let out = sandbox.command(&model, None).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("PAICLI_RUNTIME_API_KEY is not set"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = sandbox
        .command(&model, Some(KEY))
        .args(["--bind", "0.0.0.0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--unsafe-bind"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ask_mode_write_waits_for_the_approval_answered_over_http() {
    let sandbox = Sandbox::new();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            json!({"path": "new.txt", "content": "hello"}),
        )]),
        Reply::text("Written."),
        Reply::tool_calls([(
            "call_w2",
            "write_file",
            json!({"path": "other.txt", "content": "no"}),
        )]),
    ]);
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({"approval": "ask"})).await;
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "write new.txt"}),
        )
        .await;
    assert_eq!(status, 202);
    let events = api.events_until(&thread, None, "approval_requested").await;
    let asked = events.last().unwrap();
    assert_eq!(asked.data["tool"], "write_file");
    assert_eq!(asked.data["arguments"]["path"], "new.txt");
    let request_id = asked.data["request_id"].as_str().unwrap().to_string();
    // It waits: nothing written, no further model request, and no second turn meanwhile.
    assert!(!sandbox.project.path().join("new.txt").exists());
    assert_eq!(model.chat_requests().len(), 1);
    let (status, body) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "another"}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("turn_running"))
    );
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/approvals/apr_999"),
            json!({"decision": "approve"}),
        )
        .await;
    assert_eq!(status, 404);

    let (status, body) = api
        .post(
            &format!("/v1/threads/{thread}/approvals/{request_id}"),
            json!({"decision": "approve"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let events = api
        .events_until(&thread, Some(asked.id), "turn_finished")
        .await;
    assert_eq!(kinds(&events)[0], "approval_resolved");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("new.txt")).unwrap(),
        "hello"
    );
    let last_id = events.last().unwrap().id;

    // A second write is asked about too; cancelling the turn rejects it and ends the turn.
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "write other.txt"}),
        )
        .await;
    assert_eq!(status, 202);
    api.events_until(&thread, Some(last_id), "approval_requested")
        .await;
    let (status, _) = api
        .post(&format!("/v1/threads/{thread}/cancel"), json!({}))
        .await;
    assert_eq!(status, 202);
    let events = api
        .events_until(&thread, Some(last_id), "turn_cancelled")
        .await;
    let finished = events.iter().find(|e| e.kind == "tool_call_finished");
    assert!(
        finished.is_none_or(|e| e.data["status"] != "ok"),
        "{events:?}"
    );
    assert!(!sandbox.project.path().join("other.txt").exists());
}

/// A model whose planner proposes A (write new.txt), then B (report) after A.
fn planning_model() -> ScriptedServer {
    let model = ScriptedServer::start();
    let tasks = json!({"tasks": [
        {"id": "A", "title": "Write the file", "description": "", "depends_on": []},
        {"id": "B", "title": "Report", "description": "", "depends_on": ["A"]},
    ]});
    model.route_task(
        "Make a plan for this goal",
        [Reply::text(tasks.to_string())],
    );
    model.route_task(
        "Your task (id `A`)",
        [
            Reply::tool_calls([(
                "call_w",
                "write_file",
                json!({"path": "new.txt", "content": "hello"}),
            )]),
            Reply::text("Written."),
        ],
    );
    model.route_task("Your task (id `B`)", [Reply::text("Reported.")]);
    model
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plan_mode_thread_asks_for_the_plan_over_http_and_runs_it_in_the_mode_before() {
    let sandbox = Sandbox::new();
    let model = planning_model();
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({"approval": "plan"})).await;
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "Write new.txt, then report that it is there"}),
        )
        .await;
    assert_eq!(status, 202);
    let events = api
        .events_until(&thread, None, "plan_review_requested")
        .await;
    assert!(kinds(&events).contains(&"plan_proposed"), "{events:?}");
    let asked = events.last().unwrap();
    assert_eq!(asked.data["plan"]["tasks"][1]["depends_on"], json!(["A"]));
    let request_id = asked.data["request_id"].as_str().unwrap().to_string();
    // Nothing runs while it waits; an answer meant for a tool call is refused and leaves it waiting.
    assert_eq!(model.chat_requests().len(), 1);
    let answer = format!("/v1/threads/{thread}/approvals/{request_id}");
    let (status, body) = api
        .post(&answer, json!({"decision": "approve_for_session"}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
    let (status, body) = api.post(&answer, json!({"decision": "approve"})).await;
    assert_eq!(status, 200, "{body}");

    let events = api
        .events_until(&thread, Some(asked.id), "turn_finished")
        .await;
    assert_eq!(kinds(&events)[0], "approval_resolved");
    // The thread started in plan mode, so approving returns it to auto, where the write runs unasked.
    let left = events
        .iter()
        .find(|e| e.kind == "notice" && e.data["kind"] == "plan_mode_left")
        .unwrap_or_else(|| panic!("no plan_mode_left notice: {events:?}"));
    assert!(
        left.data["message"].as_str().unwrap().contains("auto mode"),
        "{left:?}"
    );
    assert!(
        !kinds(&events).contains(&"approval_requested"),
        "{events:?}"
    );
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("new.txt")).unwrap(),
        "hello"
    );
    let finished = events.last().unwrap();
    let summary = finished.data["text"].as_str().unwrap();
    assert!(
        summary.contains("[done] Write the file (A): Written."),
        "{summary}"
    );
    assert!(
        summary.contains("[done] Report (B): Reported."),
        "{summary}"
    );

    // The thread says its mode, and a client can put it back in plan mode for the next goal.
    let mode = format!("/v1/threads/{thread}/mode");
    let (status, shown) = api.post(&mode, json!({"approval": "plann"})).await;
    assert_eq!(
        (status, shown["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
    let shown: Value = api
        .http
        .get(format!("{}/v1/threads/{thread}", api.base))
        .bearer_auth(KEY)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["approval"], "auto");
    let (status, shown) = api.post(&mode, json!({"approval": "plan"})).await;
    assert_eq!((status, shown["approval"].as_str()), (200, Some("plan")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_put_in_plan_mode_returns_to_ask_and_a_tasks_question_names_the_task() {
    let sandbox = Sandbox::new();
    let model = planning_model();
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({"approval": "ask"})).await;
    let (status, shown) = api
        .post(
            &format!("/v1/threads/{thread}/mode"),
            json!({"approval": "plan"}),
        )
        .await;
    assert_eq!((status, shown["approval"].as_str()), (200, Some("plan")));
    api.post(
        &format!("/v1/threads/{thread}/turns"),
        json!({"text": "Write new.txt, then report that it is there"}),
    )
    .await;
    let events = api
        .events_until(&thread, None, "plan_review_requested")
        .await;
    let review = events.last().unwrap();
    let request_id = review.data["request_id"].as_str().unwrap();
    api.post(
        &format!("/v1/threads/{thread}/approvals/{request_id}"),
        json!({"decision": "approve"}),
    )
    .await;
    // Back in ask mode, task A's write is asked about, and the question names the task.
    let events = api
        .events_until(&thread, Some(review.id), "approval_requested")
        .await;
    let left = events
        .iter()
        .find(|e| e.kind == "notice" && e.data["kind"] == "plan_mode_left")
        .unwrap_or_else(|| panic!("no plan_mode_left notice: {events:?}"));
    assert!(
        left.data["message"].as_str().unwrap().contains("ask mode"),
        "{left:?}"
    );
    let asked = events.last().unwrap();
    assert_eq!(
        (asked.data["tool"].as_str(), asked.data["task_id"].as_str()),
        (Some("write_file"), Some("A"))
    );
    let request_id = asked.data["request_id"].as_str().unwrap();
    api.post(
        &format!("/v1/threads/{thread}/approvals/{request_id}"),
        json!({"decision": "approve"}),
    )
    .await;
    api.events_until(&thread, Some(asked.id), "turn_finished")
        .await;
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("new.txt")).unwrap(),
        "hello"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_at_the_plan_review_runs_nothing() {
    let sandbox = Sandbox::new();
    let model = planning_model();
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({"approval": "plan"})).await;
    api.post(
        &format!("/v1/threads/{thread}/turns"),
        json!({"text": "Write new.txt, then report that it is there"}),
    )
    .await;
    let review = api
        .events_until(&thread, None, "plan_review_requested")
        .await;
    let request_id = review.last().unwrap().data["request_id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = api
        .post(&format!("/v1/threads/{thread}/cancel"), json!({}))
        .await;
    assert_eq!(status, 202);
    api.events_until(&thread, None, "turn_cancelled").await;
    // The review is gone with the turn, and nothing of the plan ran.
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/approvals/{request_id}"),
            json!({"decision": "approve"}),
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(model.chat_requests().len(), 1, "only the planner ran");
    assert!(!sandbox.project.path().join("new.txt").exists());
}

#[tokio::test]
async fn the_task_list_is_a_task_list_event() {
    let sandbox = Sandbox::new();
    let model = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_plan",
            "update_plan",
            json!({"plan": [
                {"step": "Read notes.txt", "status": "in_progress"},
                {"step": "Answer", "status": "pending"}
            ]}),
        )]),
        Reply::text("Done."),
    ]);
    let api = sandbox.serve(&model);
    let thread = api.new_thread(json!({})).await;
    let (status, _) = api
        .post(
            &format!("/v1/threads/{thread}/turns"),
            json!({"text": "plan it"}),
        )
        .await;
    assert_eq!(status, 202);
    let events = api.events_until(&thread, None, "turn_finished").await;
    let list = events
        .iter()
        .find(|e| e.kind == "task_list")
        .unwrap_or_else(|| panic!("no task_list event: {:?}", kinds(&events)));
    assert_eq!(
        list.data["list"]["plan"],
        json!([
            {"step": "Read notes.txt", "status": "in_progress"},
            {"step": "Answer", "status": "pending"}
        ]),
        "{:?}",
        list.data
    );
}
