//! The forked turn policy: hooks that carry into forks run for each sub-agent's turn; a hook that stays with the
//! lead (snapshots) sees the whole plan as one turn, and its gates still judge every sub-agent's calls.

use std::sync::Mutex;

use async_trait::async_trait;

use paicli::agent::{TurnHook, TurnScope};
use paicli::protocol::{CallGate, GateCall, GateVerdict};

use super::*;

#[derive(Default)]
struct Counting {
    carries: bool,
    begun: Mutex<Vec<String>>,
    ended: Mutex<usize>,
    /// Tool calls its gates saw.
    calls: Arc<Mutex<Vec<String>>>,
}

struct Seen(Arc<Mutex<Vec<String>>>);

#[async_trait]
impl CallGate for Seen {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        self.0.lock().unwrap().push(call.id.to_string());
        GateVerdict::Allow
    }
}

impl TurnHook for Counting {
    fn begin_turn(&self, submitted: &str) -> TurnScope {
        self.begun.lock().unwrap().push(submitted.to_string());
        TurnScope {
            gates: vec![Arc::new(Seen(Arc::clone(&self.calls)))],
            ..TurnScope::default()
        }
    }
    fn end_turn(&self) {
        *self.ended.lock().unwrap() += 1;
    }
    fn carries_into_forks(&self) -> bool {
        self.carries
    }
}

#[tokio::test]
async fn a_lead_only_hook_sees_one_turn_and_judges_every_sub_agents_calls() {
    let setup = Setup::planned(&[("A", &[]), ("B", &[])]);
    setup.project.write("a.txt", "a");
    let server = &setup.server;
    for id in ["A", "B"] {
        let call =
            Reply::tool_calls([(format!("read_{id}"), "read_file", json!({"path": "a.txt"}))]);
        server.route_task(task(id), [call, Reply::text(format!("{id} done"))]);
    }
    let lead_only = Arc::new(Counting::default());
    let carried = Arc::new(Counting {
        carries: true,
        ..Counting::default()
    });
    let mut agent = setup.agent(vec![]);
    agent.add_turn_hook(lead_only.clone());
    agent.add_turn_hook(carried.clone());

    let (report, _) = run_ok(&mut agent, "Read for A, and read for B", PlanMode::Plan).await;

    assert_eq!(states(&report), all_done(&["A", "B"]));
    assert_eq!(
        *lead_only.begun.lock().unwrap(),
        vec!["Read for A, and read for B".to_string()]
    );
    assert_eq!(*lead_only.ended.lock().unwrap(), 1);
    let mut judged = lead_only.calls.lock().unwrap().clone();
    judged.sort();
    assert_eq!(judged, vec!["read_A", "read_B"]);
    // The carried hook ran for the planner and for each task's own turn.
    assert_eq!(carried.begun.lock().unwrap().len(), 3);
    assert_eq!(*carried.ended.lock().unwrap(), 3);
    // The plan is one turn of the lead's conversation.
    assert_eq!(agent.conversation().turn_starts().len(), 1);
}
