//! ESC in the real terminal while two sub-agents work side by side: both stop, each `agent` call gets exactly
//! one result, and the next request carries both (the conversation stays valid).

use serde_json::json;

use crate::suite::repl_tmux::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

#[test]
fn escape_stops_two_parallel_agents_with_one_result_per_call() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let call = |id: &str, prompt: &str| {
        (
            id.to_string(),
            "agent".to_string(),
            json!({"agent": "explore", "prompt": prompt, "description": prompt}),
        )
    };
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            call("call_a", "find the parser"),
            call("call_b", "find the tests"),
        ]),
        // Both sub-agents start answering, then stall.
        Reply::text("looking at the parser").hang_after(2),
        Reply::text("looking at the tests").hang_after(2),
        Reply::text("Stopped as asked."),
    ]);
    let t = Terminal::start(&server, project.path(), home.path(), &[]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("explore both");
    server.wait_chat_request_blocking(2);
    t.keys(&["Escape"]);
    let screen = t.wait_prompt(2, terminal::DEADLINE);
    let aborted: Vec<&str> = screen
        .lines()
        .filter(|l| l.contains("aborted by user"))
        .collect();
    assert_eq!(aborted.len(), 2, "{screen}");
    assert!(
        aborted[0].contains("find the parser") && aborted[1].contains("find the tests"),
        "{screen}"
    );
    t.submit("what now?");
    t.wait_for("Stopped as asked.");
    let requests = server.chat_requests();
    let next = &requests[3].body["messages"];
    let results: Vec<&str> = next
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["tool_call_id"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["call_a", "call_b"], "{next}");
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}
