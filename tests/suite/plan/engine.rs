//! The plan engine: batches and parallelism, validation with one repair round, re-plan or skip on failure, the
//! one-step shortcut, and the summary recorded in the lead's conversation.

use super::*;
use paicli::protocol::Notice;

#[tokio::test]
async fn a_runs_first_then_b_and_c_together_and_the_summary_lists_all_three() {
    let setup = Setup::planned(&[("A", &[]), ("B", &["A"]), ("C", &["A"])]);
    let server = &setup.server;
    server.route_task(task("A"), [Reply::text("A is built")]);
    // Requests: planner, A, then B and C. Neither B nor C is answered before both were asked: they overlap.
    server.route_task(
        task("B"),
        [Reply::text("B is built").after_chat_requests(4)],
    );
    server.route_task(
        task("C"),
        [Reply::text("C is built").after_chat_requests(4)],
    );
    let mut agent = setup.agent(vec![]);

    let goal = "Build A, then B and C on top of it";
    let (report, events) = run_ok(&mut agent, goal, PlanMode::Plan).await;

    assert_eq!(states(&report), all_done(&["A", "B", "C"]));
    let timeline = plan_timeline(&events);
    assert_eq!(timeline[..3], ["proposed 0", "start A", "A Done"]);
    assert_eq!(timeline[3..5], ["start B", "start C"]);
    assert_eq!(timeline.last().map(String::as_str), Some("finished"));
    // B's dependency result reached it.
    assert!(first_user(&setup.requests_for(&task("B"))[0]).contains("A is built"));
    // The planner researched with read-only tools only; the tasks had every tool.
    let planner_tools = offered_tools(&setup.requests_for(PLANNER)[0]);
    assert!(
        planner_tools.contains(&"read_file".to_string()),
        "{planner_tools:?}"
    );
    assert!(
        !planner_tools
            .iter()
            .any(|t| t == "write_file" || t == "execute_command")
    );
    assert!(offered_tools(&setup.requests_for(&task("A"))[0]).contains(&"write_file".to_string()));
    // The sub-agents' tokens count toward the lead's session: planner, A, B and C, 10 + 5 each.
    assert_eq!(agent.session_usage().prompt_tokens, 40);
    assert_eq!(agent.session_usage().completion_tokens, 20);
    // The lead's conversation records the goal and a summary naming all three.
    let last = agent.history().last().unwrap().text();
    for answer in ["A is built", "B is built", "C is built"] {
        assert!(last.contains(answer), "{last}");
    }
}

#[tokio::test]
async fn a_cyclic_plan_is_repaired_once_then_refused() {
    let setup = Setup::new();
    let cyclic = || plan_reply(&[("A", &["B"]), ("B", &["A"])]);
    setup.server.route_task(PLANNER, [cyclic(), cyclic()]);
    let mut agent = setup.agent(vec![]);
    let events = EventLog::default();

    let result = run(&mut agent, "Do A and B", PlanMode::Plan, &events).await;

    assert!(
        matches!(
            result,
            Err(PlanError::Invalid(paicli::plan::PlanInvalid::Cycle { .. }))
        ),
        "{result:?}"
    );
    let requests = setup.requests_for(PLANNER);
    assert_eq!(requests.len(), 2, "one repair round, no more");
    let repair = last_message(&requests[1]);
    assert!(repair.contains("cycle: A -> B -> A"), "{repair}");
    assert!(events.events().iter().any(|e| matches!(
        e,
        AgentEvent::Notice {
            notice: Notice::PlanRepairing { .. }
        }
    )));
    // Nothing ran.
    assert!(
        !plan_timeline(&events)
            .iter()
            .any(|l| l.starts_with("start"))
    );
}

#[tokio::test]
async fn a_repaired_plan_runs() {
    let setup = Setup::new();
    setup.server.route_task(
        PLANNER,
        [plan_reply(&[("A", &["Z"])]), plan_reply(&[("A", &[])])],
    );
    setup.server.route_task(task("A"), [Reply::text("done")]);
    let mut agent = setup.agent(vec![]);
    let (report, _) = run_ok(&mut agent, "Do A and check it", PlanMode::Plan).await;
    assert_eq!(states(&report), all_done(&["A"]));
}

#[tokio::test]
async fn a_failure_leaving_less_than_half_done_replans_with_what_failed() {
    let setup = Setup::planned(&[("A", &[]), ("B", &[]), ("C", &["B"]), ("D", &["B"])]);
    let server = &setup.server;
    server.route_task(task("A"), [Reply::text("A ok")]);
    server.route_task(task("B"), [rejected()]);
    server.route_task(REPLANNER, [plan_reply(&[("B2", &[])])]);
    server.route_task(task("B2"), [Reply::text("B2 ok")]);
    let mut agent = setup.agent(vec![]);

    let (report, events) = run_ok(&mut agent, "Do A, B, C and D", PlanMode::Plan).await;

    assert_eq!(report.replans, 1);
    assert_eq!(states(&report), all_done(&["A", "B2"]));
    let replan = first_user(&setup.requests_for(REPLANNER)[0]);
    assert!(replan.contains("Failed:\n- Task B (B): "), "{replan}");
    assert!(replan.contains("Finished:\n- Task A (A): A ok"), "{replan}");
    assert!(replan.contains("Not run:\n- Task C (C)"), "{replan}");
    let timeline = plan_timeline(&events);
    assert!(timeline.contains(&"proposed 1".to_string()), "{timeline:?}");
    assert!(timeline.contains(&"C Skipped".to_string()), "{timeline:?}");
    assert!(events.events().iter().any(|e| matches!(
        e,
        AgentEvent::Notice {
            notice: Notice::PlanReplanning {
                failed: 1,
                total: 4
            }
        }
    )));
}

#[tokio::test]
async fn a_failure_with_half_done_skips_its_dependants_without_replanning() {
    let setup = Setup::planned(&[("A", &[]), ("B", &["A"]), ("C", &["A"]), ("D", &["B"])]);
    let server = &setup.server;
    server.route_task(task("A"), [Reply::text("A ok")]);
    server.route_task(task("B"), [rejected()]);
    server.route_task(task("C"), [Reply::text("C ok")]);
    let mut agent = setup.agent(vec![]);

    let (report, _) = run_ok(&mut agent, "Do A, B, C and D", PlanMode::Plan).await;

    assert_eq!(report.replans, 0);
    assert_eq!(
        states(&report),
        vec![
            s("A", TaskState::Done),
            s("B", TaskState::Failed),
            s("C", TaskState::Done),
            s("D", TaskState::Skipped)
        ]
    );
    assert!(setup.requests_for(REPLANNER).is_empty());
    assert!(setup.requests_for(&task("D")).is_empty());
    assert!(
        report.outcomes[3].summary.contains("`B`"),
        "{:?}",
        report.outcomes[3]
    );
}

#[tokio::test]
async fn a_short_goal_goes_to_the_planner_which_may_answer_with_one_task() {
    let setup = Setup::planned(&[("task-1", &[])]);
    setup
        .server
        .route_task(task("task-1"), [Reply::text("typo fixed")]);
    let mut agent = setup.agent(vec![]);

    let (report, _) = run_ok(&mut agent, "Fix the typo in README.md", PlanMode::Plan).await;

    assert_eq!(states(&report), all_done(&["task-1"]));
    assert_eq!(setup.requests_for(PLANNER).len(), 1);
}
