//! `/plan` and the `plan` approval mode in the real terminal: the review's tree and keys, the live task list, ESC
//! stopping every running task with one result per tool call, and approving a plan made in plan mode returning
//! to the mode the person had before. The scripted model routes replies by role and by the task named in the
//! request (`Your task (id `B`)`), streaming slowly.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::terminal::{self, Terminal};
use super::{Sandbox, pgrep};
use crate::support::{RecordedRequest, Reply, ScriptedServer};

/// Each streamed chunk waits this long, so the plan and the answers arrive while the person watches.
const SLOW: Duration = Duration::from_millis(15);

fn messages(r: &RecordedRequest) -> Vec<Value> {
    r.body["messages"].as_array().cloned().unwrap_or_default()
}

fn is_planner(r: &RecordedRequest) -> bool {
    messages(r)
        .first()
        .and_then(|m| m["content"].as_str())
        .is_some_and(|s| s.contains("You are the planner"))
}

/// The task a sub-agent's request is about: the id in `Your task (id `…`)`.
fn task_of(r: &RecordedRequest) -> Option<String> {
    messages(r).iter().find_map(|m| {
        let text = m["content"].as_str()?;
        let rest = text.split("Your task (id `").nth(1)?;
        Some(rest.split('`').next()?.to_string())
    })
}

fn tool_results(r: &RecordedRequest) -> usize {
    messages(r).iter().filter(|m| m["role"] == "tool").count()
}

fn plan_reply(tasks: Value) -> Reply {
    Reply::text(json!({ "tasks": tasks }).to_string())
        .chunk_chars(12)
        .chunk_delay(SLOW)
}

/// Every tool call in every request the server received has exactly one result, and every result a call.
fn assert_every_call_has_one_result(server: &ScriptedServer) {
    for (n, r) in server.chat_requests().iter().enumerate() {
        let messages = messages(r);
        let calls: Vec<String> = messages
            .iter()
            .flat_map(|m| m["tool_calls"].as_array().cloned().unwrap_or_default())
            .map(|c| c["id"].as_str().unwrap_or_default().to_string())
            .collect();
        let results: Vec<String> = messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["tool_call_id"].as_str().unwrap_or_default().to_string())
            .collect();
        for call in &calls {
            let n_results = results.iter().filter(|r| *r == call).count();
            assert_eq!(
                n_results, 1,
                "request {n}: call {call} has {n_results} results"
            );
        }
        for result in &results {
            assert!(
                calls.contains(result),
                "request {n}: result {result} has no call"
            );
        }
    }
}

fn wait_running(marker: &str, t: &Terminal) {
    let deadline = Instant::now() + terminal::DEADLINE;
    while !pgrep(marker) {
        assert!(
            Instant::now() < deadline,
            "{marker} never started:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn slash_plan_reviews_the_tree_runs_it_live_and_esc_stops_every_running_task() {
    let sandbox = Sandbox::new();
    let n = fastrand::u32(10_000..99_999);
    let (sleep_b, sleep_c) = (format!("sleep 40.{n}"), format!("sleep 41.{n}"));
    let (b, c) = (sleep_b.clone(), sleep_c.clone());
    let server = ScriptedServer::with_responder(move |r| {
        if is_planner(r) {
            return plan_reply(json!([
                {"id": "A", "title": "Read the notes", "description": "Look at notes.txt.", "depends_on": []},
                {"id": "B", "title": "First long job", "description": "Run the first job.", "depends_on": ["A"]},
                {"id": "C", "title": "Second long job", "description": "Run the second job.", "depends_on": ["A"]},
            ]));
        }
        let done = tool_results(r);
        let reply = match (task_of(r).as_deref(), done) {
            (Some(task), 0) => Reply::tool_calls([(
                format!("{task}-read"),
                "read_file",
                json!({"path": "notes.txt"}),
            )]),
            (Some("A"), _) => Reply::text("The notes say **alpha beta**."),
            (Some("B"), 1) => {
                Reply::tool_calls([("B-run", "execute_command", json!({"command": b}))])
            }
            (Some("C"), 1) => {
                Reply::tool_calls([("C-run", "execute_command", json!({"command": c}))])
            }
            (Some(task), _) => Reply::text(format!("{task} finished.")),
            (None, _) => Reply::text("The plan was stopped while B and C ran."),
        };
        reply.chunk_delay(SLOW)
    });
    let t = sandbox.start(&server);
    t.submit("/plan read the notes and then run both long jobs");

    // The review: the plan as a tree by dependencies, and its keys.
    let screen = t.wait_for("ESC cancel");
    assert!(
        screen.contains("Plan (3 tasks): read the notes and then run both long jobs"),
        "{screen}"
    );
    assert!(screen.contains("└─ A  Read the notes"), "{screen}");
    assert!(screen.contains("   ├─ B  First long job"), "{screen}");
    assert!(screen.contains("   └─ C  Second long job"), "{screen}");
    assert!(!screen.contains("Look at notes.txt."), "{screen}");
    // Ctrl+O shows the descriptions in place.
    t.keys(&["C-o"]);
    t.wait_for("Look at notes.txt.");
    t.keys(&["Enter"]);

    // The live list: A done, then B and C running side by side, their calls tagged.
    wait_running(&sleep_b, &t);
    wait_running(&sleep_c, &t);
    let screen = t.wait_until("both tasks running in the list", terminal::DEADLINE, |s| {
        s.contains("◐ B  First long job · running") && s.contains("◐ C  Second long job · running")
    });
    assert!(screen.contains("[A] ● read_file notes.txt"), "{screen}");
    assert!(
        screen.contains("[A] ✓ A  Read the notes · done"),
        "{screen}"
    );
    assert!(screen.contains("The notes say alpha beta."), "{screen}");
    assert!(
        screen.contains(&format!("[B] ● execute_command {sleep_b}")),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("[C] ● execute_command {sleep_c}")),
        "{screen}"
    );

    let pressed = Instant::now();
    t.keys(&["Escape"]);
    let screen = t.wait_prompt(2, Duration::from_secs(10));
    assert!(
        pressed.elapsed() < Duration::from_secs(3),
        "the prompt came back after {:?}",
        pressed.elapsed()
    );
    assert!(
        !pgrep(&sleep_b) && !pgrep(&sleep_c),
        "a task's command still runs"
    );
    for task in ["B", "C"] {
        let aborted = format!("[{task}]   ⎿ execute_command aborted by user");
        assert_eq!(screen.matches(&aborted).count(), 1, "{screen}");
    }
    assert!(
        screen.contains("Plan finished: 1 of 3 tasks done"),
        "{screen}"
    );
    assert!(screen.contains("✗ B  First long job · failed"), "{screen}");
    assert!(
        screen.contains("plan stopped: the running tasks were cancelled"),
        "{screen}"
    );
    // The list is gone with the working line: no running row is left on screen.
    assert!(!screen.contains("· running"), "{screen}");

    // The lead learns the outcome, and nothing anyone sent broke the call/result pairing.
    t.submit("what happened?");
    t.wait_for("The plan was stopped while B and C ran.");
    let lead = server
        .chat_requests()
        .into_iter()
        .rfind(|r| task_of(r).is_none() && !is_planner(r))
        .unwrap();
    let told = messages(&lead)
        .iter()
        .filter_map(|m| m["content"].as_str().map(str::to_string))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(told.contains("Plan results: (cancelled)"), "{told}");
    assert_every_call_has_one_result(&server);
    let reads = server
        .chat_requests()
        .iter()
        .filter(|r| task_of(r).is_some() && tool_results(r) == 1)
        .count();
    assert_eq!(
        reads, 3,
        "every task's read_file result reached its next request"
    );
}

#[test]
fn plan_mode_plans_esc_keeps_it_and_an_approved_plan_runs_in_the_mode_before() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_responder(|r| {
        if is_planner(r) {
            return plan_reply(json!([
                {"id": "W", "title": "Write out.txt", "description": "", "depends_on": []},
            ]));
        }
        let reply = match (task_of(r).as_deref(), tool_results(r)) {
            (Some(_), 0) => Reply::tool_calls([(
                "W-write",
                "write_file",
                json!({"path": "out.txt", "content": "planned\n"}),
            )]),
            (Some(_), _) => Reply::text("Wrote out.txt."),
            (None, _) => Reply::text("unused"),
        };
        reply.chunk_delay(SLOW)
    });
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("/mode plan");
    t.wait_for("approval mode: plan");
    let goal = "write out.txt and then check it";

    // ESC at the review runs nothing and stays in plan mode.
    t.submit(goal);
    t.wait_for("ESC cancel");
    t.keys(&["Escape"]);
    let screen = t.wait_prompt(3, terminal::DEADLINE);
    assert!(
        screen.contains("plan cancelled; nothing was run"),
        "{screen}"
    );
    assert!(screen.contains("plan mode (shift+tab)"), "{screen}");
    assert!(!sandbox.project.path().join("out.txt").exists());

    // Enter approves: back to ask mode, so the task's write asks first.
    t.submit(goal);
    t.wait_until("the second review", terminal::DEADLINE, |s| {
        s.matches("ESC cancel").count() >= 2
    });
    t.keys(&["Enter"]);
    t.wait_for("plan approved: it runs in ask mode, and plan mode ends");
    let screen = t.wait_for("Approve? [y/Enter]");
    // The prompt names the task asking, as its tool lines do.
    assert!(screen.contains("[W] ● write_file out.txt"), "{screen}");
    assert!(
        screen.contains("⚠ [W] write_file wants to run (risk: medium)"),
        "{screen}"
    );
    t.keys(&["y"]);
    let screen = t.wait_prompt(4, terminal::DEADLINE);
    assert!(
        screen.contains("Plan finished: 1 of 1 tasks done"),
        "{screen}"
    );
    assert!(screen.contains("ask mode (shift+tab)"), "{screen}");
    // The planner's and the task's tokens count for the turn (one plan reply, two of the task).
    assert!(screen.contains("turn in 30 out 15"), "{screen}");
    assert_eq!(
        std::fs::read_to_string(sandbox.project.path().join("out.txt")).unwrap(),
        "planned\n"
    );
    assert_every_call_has_one_result(&server);
}

#[test]
fn a_waiting_plan_shows_in_the_prompt_and_plan_again_drops_it() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("An ordinary answer.")]);
    let t = sandbox.start(&server);
    t.submit("/plan");
    t.wait_for("your next message is planned first (review, then run) · /plan off drops it");
    t.wait_until("the plan prompt", terminal::DEADLINE, |s| {
        s.lines().rfind(|l| !l.trim().is_empty()).map(str::trim_end) == Some("plan ›")
    });
    // ESC and Ctrl-C at the prompt leave the plan waiting.
    t.keys(&["Escape"]);
    t.wait_for("plan ›   ESC again to rewind");
    t.keys(&["C-c"]);
    t.wait_for("press Ctrl-C again to exit");
    t.submit("/plan");
    let screen = t.wait_prompt(1, terminal::DEADLINE);
    assert!(
        screen.contains("dropped: your next message is sent as usual, not planned"),
        "{screen}"
    );
    t.submit("/plan off");
    t.wait_for("no plan is waiting for your next message");
    // The next message is an ordinary turn: no planner was asked.
    t.submit("just answer");
    t.wait_for("An ordinary answer.");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 1);
    assert!(!is_planner(&requests[0]));
}

/// `/team` in Chinese: a re-plan after `i` is headed as a new revision, and the reviewer's verdict on the step is
/// a line of its own.
#[test]
fn team_labels_the_re_plan_and_shows_the_reviewers_verdict() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_responder(|r| {
        let first_user = messages(r)
            .iter()
            .find(|m| m["role"] == "user")
            .and_then(|m| m["content"].as_str().map(str::to_string))
            .unwrap_or_default();
        let reply = if first_user.starts_with("Review step `S`") {
            Reply::text(r#"{"approved": true}"#)
        } else if is_planner(r) && first_user.contains("keep it to one step") {
            return plan_reply(json!([
                {"id": "S", "title": "One step", "description": "", "depends_on": []},
            ]));
        } else if is_planner(r) {
            return plan_reply(json!([
                {"id": "A", "title": "First step", "description": "", "depends_on": []},
                {"id": "B", "title": "Second step", "description": "", "depends_on": ["A"]},
            ]));
        } else if task_of(r).is_some() {
            Reply::text("S done.")
        } else {
            Reply::text("unused")
        };
        reply.chunk_delay(SLOW)
    });
    let t = sandbox.start_with(&server, &[("LC_ALL", "zh_CN.UTF-8")]);
    t.submit("/team 给项目加上用户登录");
    let screen = t.wait_for("i 补充要求并重新规划");
    assert!(
        screen.contains("计划（2 个任务）：给项目加上用户登录"),
        "{screen}"
    );
    t.keys(&["i"]);
    t.keys(&["-l", "keep it to one step"]);
    t.keys(&["Enter"]);
    let screen = t.wait_for("计划（第 1 版，1 个任务）：给项目加上用户登录");
    assert!(screen.contains("└─ S  One step"), "{screen}");
    t.keys(&["Enter"]);
    let screen = t.wait_for("[S] ✓ 审查者通过了这一步");
    assert!(!screen.contains("驳回"), "{screen}");
}
