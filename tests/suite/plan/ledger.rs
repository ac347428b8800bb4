//! Each plan task's sub-agent keeps its conversation in a ledger of its own beside the session's, so what a task
//! did survives the session (the lead's ledger holds only the goal and the per-task summary).

use paicli::session::ledger::{FORMAT_VERSION, Header, Ledger, load, sidechains};

use super::*;

fn lead_header(root: &std::path::Path) -> Header {
    Header {
        format: FORMAT_VERSION,
        id: "lead".into(),
        project_root: root.to_path_buf(),
        provider: "custom".into(),
        model: "m".into(),
        version: "0.0.0".into(),
        git_branch: None,
        started: "2026-12-01T09:00:00+00:00".into(),
        system_prompt: "lead".into(),
        tools: Vec::new(),
        forked_from: None,
    }
}

#[tokio::test]
async fn each_task_keeps_its_conversation_in_a_ledger_beside_the_sessions() {
    let setup = Setup::planned(&[("A", &[]), ("B", &["A"])]);
    std::fs::write(setup.project.root.join("notes.txt"), "alpha beta\n").unwrap();
    setup.server.route_task(
        task("A"),
        [
            Reply::tool_calls([("call_r", "read_file", json!({"path": "notes.txt"}))]),
            Reply::text("A read the notes"),
        ],
    );
    setup
        .server
        .route_task(task("B"), [Reply::text("B is done")]);
    let mut agent = setup.agent(vec![]);
    let home = tempfile::tempdir().unwrap();
    let lead_path = home.path().join("20261201T090000000-lead.jsonl");
    let ledger = Ledger::create(
        &lead_path,
        lead_header(&setup.project.root),
        Arc::new(|s: &str| s.to_string()),
    )
    .unwrap();
    agent.attach_ledger(ledger);

    let (report, _) = run_ok(&mut agent, "Read the notes, then finish", PlanMode::Plan).await;
    assert_eq!(states(&report), all_done(&["A", "B"]));

    // Named by start time, so A (which B waits for) comes first.
    let side = sidechains(&lead_path);
    assert_eq!(side.len(), 2, "{side:?}");
    assert!(side[0].to_string_lossy().ends_with("-A.jsonl"), "{side:?}");
    assert!(side[1].to_string_lossy().ends_with("-B.jsonl"), "{side:?}");
    let a = load(&side[0]).unwrap();
    assert_eq!(a.header.forked_from.as_deref(), Some("lead"));
    let told = serde_json::to_string(a.conversation.messages()).unwrap();
    for part in [
        "Your task (id `A`)",
        "call_r",
        "alpha beta",
        "A read the notes",
    ] {
        assert!(
            told.contains(part),
            "`{part}` missing from A's ledger: {told}"
        );
    }
    let b = serde_json::to_string(load(&side[1]).unwrap().conversation.messages()).unwrap();
    assert!(b.contains("B is done"), "{b}");
    // The session's own ledger keeps the plan as one exchange: the call stays in A's.
    let lead = std::fs::read_to_string(&lead_path).unwrap();
    assert!(lead.contains("Plan results:"), "{lead}");
    assert!(!lead.contains("call_r"), "{lead}");
}
