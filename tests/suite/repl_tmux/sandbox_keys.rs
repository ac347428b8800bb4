//! The sandbox in the real terminal (issue 20): a write outside the project fails sandboxed and the model is
//! told why; `u` at the prompt runs the retry outside the sandbox once; `/policy` shows the sandbox.

use serde_json::json;

use super::terminal::{self, Terminal};
use super::{Sandbox, tool_messages};
use crate::support::{Reply, ScriptedServer};

fn wait_approvals(t: &Terminal, n: usize) -> String {
    t.wait_until(&format!("approval prompt #{n}"), terminal::DEADLINE, |s| {
        s.matches("Approve? [y/Enter]").count() >= n && s.trim_end().ends_with("[?] keys")
    })
}

#[test]
fn u_runs_the_blocked_command_once_outside_the_sandbox() {
    if !paicli::sandbox::probe().is_available() {
        eprintln!("skipped: the sandbox is not available here");
        return;
    }
    let sandbox = Sandbox::new();
    let Some(outside) = crate::support::outside_dir() else {
        return;
    };
    let target = outside.path().join("x.txt");
    let command = format!("t={}; echo x > \"$t\"", target.display());
    let call =
        |id: &str| Reply::tool_calls([(id, "execute_command", json!({ "command": command }))]);
    let server = ScriptedServer::with_replies([
        call("c1"),
        call("c2"),
        Reply::text("Written."),
        call("c3"),
        call("c4"),
    ]);
    let t = sandbox.start_with(&server, &[("PAICLI_APPROVAL", "ask")]);
    t.submit("write the file");
    let screen = wait_approvals(&t, 1);
    assert!(
        screen.contains("[u] yes, outside the sandbox (once)"),
        "{screen}"
    );
    t.keys(&["y"]);
    wait_approvals(&t, 2);
    assert!(!target.exists());
    t.keys(&["u"]);
    let screen = t.wait_for("Written.");
    assert!(
        screen.contains("allowed once, outside the sandbox"),
        "{screen}"
    );
    assert!(target.exists());
    let told = tool_messages(&server, 1).join("\n");
    assert!(
        told.contains("paicli's sandbox, which blocked a write to"),
        "{told}"
    );

    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/policy");
    let screen = t.wait_for("commands may write to:");
    assert!(
        screen.contains("sandbox: on (mode = auto, Landlock ABI"),
        "{screen}"
    );

    // ESC and Ctrl-C at a prompt offering `u` still cancel the task.
    std::fs::remove_file(&target).unwrap();
    for (n, key) in [(3, "Escape"), (4, "C-c")] {
        t.submit("write it again");
        wait_approvals(&t, n);
        t.keys(&[key]);
        let screen = t.wait_prompt(n + 1, terminal::DEADLINE);
        assert_eq!(
            screen.matches("denied; the task is cancelled").count(),
            n - 2,
            "{screen}"
        );
    }
    assert!(!target.exists());
}
