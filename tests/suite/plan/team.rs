//! Team mode: only the workers get tools; the reviewer passes a step only on the JSON boolean `approved: true`,
//! and a rejected step goes back to its worker at most twice.

use paicli::text::{Lang, notice_text};

use super::*;

#[tokio::test]
async fn a_string_true_and_prose_are_rejections_and_the_boolean_passes() {
    let setup = Setup::planned(&[("S", &[])]);
    let server = &setup.server;
    server.route_task(
        task("S"),
        [
            Reply::text("first try"),
            Reply::text("second try"),
            Reply::text("third try"),
        ],
    );
    server.route_task(
        review("S"),
        [
            Reply::text(r#"{"approved": "true"}"#),
            Reply::text("Looks fine to me, approved."),
            Reply::text(r#"{"approved": true}"#),
        ],
    );
    let mut agent = setup.agent(vec![]);
    let (report, events) = run_ok(&mut agent, "Ship S", PlanMode::Team).await;

    assert_eq!(states(&report), all_done(&["S"]));
    assert_eq!(report.outcomes[0].summary, "third try");
    // Each verdict is a line: two rejections, then the approval.
    let notices = task_notices(&events, Lang::En);
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert_eq!(notices[2], "the reviewer approved the step");
    assert_eq!(task_notices(&events, Lang::Zh)[2], "审查者通过了这一步");
    let worker = setup.requests_for(&task("S"));
    assert_eq!(worker.len(), 3);
    // The rejection's reasons went back to the worker.
    let rework = last_message(&worker[1]);
    assert!(rework.contains("boolean"), "{rework}");
    let third = worker[2].body.to_string();
    assert!(third.contains("Looks fine to me"), "{third}");
    // Only the workers get tools.
    assert!(offered_tools(&worker[0]).contains(&"write_file".to_string()));
    assert!(offered_tools(&setup.requests_for(PLANNER)[0]).is_empty());
    assert!(offered_tools(&setup.requests_for(&review("S"))[0]).is_empty());
}

#[tokio::test]
async fn a_worker_is_retried_at_most_twice() {
    let setup = Setup::planned(&[("S", &[])]);
    let server = &setup.server;
    server.route_task(task("S"), (0..4).map(|i| Reply::text(format!("try {i}"))));
    server.route_task(
        review("S"),
        (0..4).map(|_| Reply::text(r#"{"approved": false, "reasons": ["no tests"]}"#)),
    );
    let mut agent = setup.agent(vec![]);
    // A failed single step would re-plan; this test is about the retries only.
    let settings = PlanSettings {
        max_replans: 0,
        ..PlanSettings::default()
    };
    let events = EventLog::default();
    let report = run_with(&mut agent, "Ship S", PlanMode::Team, settings, &events)
        .await
        .unwrap();
    // Two retries counted "of 2", then the last rejection says the step failed (never "retry 3 of 2").
    for (lang, expected) in [
        (
            Lang::En,
            [
                "the reviewer rejected the step (retry 1 of 2): - no tests",
                "the reviewer rejected the step (retry 2 of 2): - no tests",
                "the reviewer rejected the step again after 2 retries; the step failed: - no tests",
            ],
        ),
        (
            Lang::Zh,
            [
                "审查者驳回了这一步（第 1/2 次重试）：- no tests",
                "审查者驳回了这一步（第 2/2 次重试）：- no tests",
                "重试 2 次后审查者仍驳回了这一步；这一步失败：- no tests",
            ],
        ),
    ] {
        assert_eq!(task_notices(&events, lang), expected);
    }

    assert_eq!(states(&report), vec![s("S", TaskState::Failed)]);
    assert!(report.outcomes[0].summary.contains("no tests"));
    assert_eq!(
        setup.requests_for(&task("S")).len(),
        3,
        "one run and two retries"
    );
    assert_eq!(setup.requests_for(&review("S")).len(), 3);
}

#[tokio::test]
async fn the_reviewer_sees_the_diff_of_the_workers_changes_not_only_its_report() {
    let setup = Setup::planned(&[("S", &[])]);
    std::fs::write(setup.project.root.join("notes.txt"), "helo world\n").unwrap();
    let server = &setup.server;
    server.route_task(
        task("S"),
        [
            Reply::tool_calls([(
                "call_e",
                "edit_file",
                json!({"path": "notes.txt", "old_text": "helo", "new_text": "hello"}),
            )]),
            // The report claims more than was done.
            Reply::text("Fixed the greeting and added tests."),
        ],
    );
    server.route_task(review("S"), [Reply::text(r#"{"approved": true}"#)]);
    let mut agent = setup.agent(vec![]);
    let (report, _) = run_ok(&mut agent, "Fix the greeting", PlanMode::Team).await;

    assert_eq!(states(&report), all_done(&["S"]));
    let asked = last_message(&setup.requests_for(&review("S"))[0]);
    assert!(
        asked.contains("Fixed the greeting and added tests."),
        "{asked}"
    );
    for line in [
        "--- a/notes.txt",
        "+++ b/notes.txt",
        "-helo world",
        "+hello world",
    ] {
        assert!(asked.contains(line), "`{line}` missing: {asked}");
    }
}

#[tokio::test]
async fn a_step_that_changed_no_files_says_so_to_the_reviewer() {
    let setup = Setup::planned(&[("S", &[])]);
    let server = &setup.server;
    server.route_task(task("S"), [Reply::text("All files are updated.")]);
    server.route_task(review("S"), [Reply::text(r#"{"approved": true}"#)]);
    let mut agent = setup.agent(vec![]);
    run_ok(&mut agent, "Update the files", PlanMode::Team).await;
    let asked = last_message(&setup.requests_for(&review("S"))[0]);
    assert!(
        asked.contains("The worker changed no files in this step."),
        "{asked}"
    );
}

/// The notices plan tasks sent, worded in `lang`.
fn task_notices(events: &EventLog, lang: Lang) -> Vec<String> {
    events
        .events()
        .iter()
        .filter_map(|e| match e {
            AgentEvent::PlanTaskEvent { event, .. } => match event.as_ref() {
                AgentEvent::Notice { notice } => Some(notice_text(lang, notice)),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
