//! `update_plan` in the real terminal: the model's task list is drawn above the working line while the turn runs.

use serde_json::json;

use crate::suite::repl_tmux::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

#[test]
fn the_task_list_shows_above_the_working_line() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_plan",
            "update_plan",
            json!({"plan": [
                {"step": "Read the parser", "status": "completed"},
                {"step": "Fix the off-by-one", "status": "in_progress"},
                {"step": "Run the tests", "status": "pending"}
            ]}),
        )]),
        // Stays open: the turn is still running while the screen is read.
        Reply::text("Working on the fix").hang_after(2),
    ]);
    let t = Terminal::start(&server, project.path(), home.path(), &[]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("fix the parser");
    server.wait_chat_request_blocking(1);
    let screen = t.wait_for("Run the tests");
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    let first = lines
        .iter()
        .position(|l| l.contains("Read the parser"))
        .unwrap_or_else(|| panic!("{screen}"));
    assert_eq!(
        lines[first..first + 3],
        [
            "✓ 1  Read the parser · done",
            "◐ 2  Fix the off-by-one · running",
            "○ 3  Run the tests · pending"
        ],
        "{screen}"
    );
    assert!(
        lines[first + 3].contains("esc to stop"),
        "the working line is under the list: {screen}"
    );
    t.keys(&["Escape"]);
    t.wait_prompt(2, terminal::DEADLINE);
}
