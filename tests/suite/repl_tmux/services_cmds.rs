//! `/compact`, `/mcp` and `/lsp` in the real terminal.

use std::time::{Duration, Instant};

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::suite::mcp_servers::peers;
use crate::support::{Reply, ScriptedServer};

const SUMMARY: &str = "## Goal and success criteria\nApples.\n## User requirements and decisions\nNone.\n\
## Done work and evidence\nTalked.\n## Open issues and next steps\nNone.\n";

#[test]
fn compact_summarizes_the_conversation_or_says_why_not() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::text("first answer"),
        Reply::text("second answer"),
        Reply::text(SUMMARY),
    ]);
    // A large attachment, so the summary is smaller than what it replaces.
    std::fs::write(
        sandbox.project.path().join("big.txt"),
        "apples are red or green\n".repeat(400),
    )
    .unwrap();
    let t = sandbox.start(&server);
    t.submit("/compact");
    t.wait_for("nothing compacted: nothing old enough to compact");
    t.submit("tell me about @big.txt");
    t.wait_prompt(3, terminal::DEADLINE);
    t.submit("and pears");
    t.wait_prompt(4, terminal::DEADLINE);
    t.submit("/compact keep the apples");
    t.wait_for("context compacted: summarized earlier conversation");
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 3);
    let summary_request = requests[2].body.to_string();
    assert!(
        summary_request.contains("keep the apples"),
        "{summary_request}"
    );
}

#[test]
fn lsp_shows_the_servers_or_that_diagnostics_are_off() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/lsp");
    t.wait_for("Language servers:");
    t.wait_for("No problems in the files checked so far.");
    let t = sandbox.start_with(&server, &[("PAICLI_LSP_ENABLED", "false")]);
    t.submit("/lsp");
    t.wait_for("diagnostics are off");
}

#[test]
fn mcp_shows_servers_their_logs_and_approves_project_servers() {
    let Some(python) = peers::python() else {
        return;
    };
    let sandbox = Sandbox::new();
    let script = peers::peer_script();
    let server_entry = json!({"command": python, "args": [script, "normal"]});
    let home = sandbox.paicli_home();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("mcp.json"),
        json!({"mcpServers": {"peer": server_entry}}).to_string(),
    )
    .unwrap();
    let project_dir = sandbox.project.path().join(".paicli");
    std::fs::create_dir_all(&project_dir).unwrap();
    std::fs::write(
        project_dir.join("mcp.json"),
        json!({"mcpServers": {"local": server_entry}}).to_string(),
    )
    .unwrap();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    // The banner counts the configured servers (the user's may still be starting; the project's waits).
    assert!(
        t.screen().contains("/2 ready (/mcp for details)"),
        "{}",
        t.screen()
    );
    let mut prompts = 1;
    let mut run = |command: &str| {
        t.submit(command);
        prompts += 1;
        let screen = t.wait_prompt(prompts, terminal::DEADLINE);
        let start = screen.rfind(&format!("› {command}")).unwrap();
        screen[start..].to_string()
    };
    let line_of = |out: &str, name: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    // The user's server starts in the background; the project's waits for approval.
    let deadline = Instant::now() + terminal::DEADLINE;
    let out = loop {
        let out = run("/mcp");
        if line_of(&out, "peer").contains(" ready ") {
            break out;
        }
        assert!(Instant::now() < deadline, "peer never became ready:\n{out}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(line_of(&out, "peer").contains("user "), "{out}");
    // The tool count, then the revision `initialize` settled on.
    assert!(
        line_of(&out, "peer").ends_with("3 tools · MCP 2025-06-18"),
        "{out}"
    );
    let local = line_of(&out, "local");
    assert!(
        local.contains("project")
            && local.contains("needs approval")
            && local.contains("/mcp approve local"),
        "{out}"
    );

    let logs = run("/mcp logs peer");
    assert!(logs.contains("peer started in mode normal"), "{logs}");
    assert!(run("/mcp logs nope").contains("no MCP server named `nope`"));
    assert!(run("/mcp approve peer").contains("does not need approval"));
    assert!(run("/mcp approve local").contains("local: approved for this project; starting"));
    let deadline = Instant::now() + terminal::DEADLINE;
    loop {
        let out = run("/mcp");
        if line_of(&out, "local").contains(" ready ") {
            assert!(
                line_of(&out, "local").ends_with("3 tools · MCP 2025-06-18"),
                "{out}"
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "local never became ready:\n{out}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let wait_state = |run: &mut dyn FnMut(&str) -> String, name: &str, state: &str| {
        let deadline = Instant::now() + terminal::DEADLINE;
        loop {
            let out = run("/mcp");
            if line_of(&out, name).contains(state) {
                return out;
            }
            assert!(
                Instant::now() < deadline,
                "{name} never became {state}:\n{out}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    assert!(run("/mcp disable peer").contains("peer: stopped and disabled for this session"));
    let out = wait_state(&mut run, "peer", " disabled");
    assert!(!line_of(&out, "peer").ends_with("3 tools"), "{out}");
    assert!(run("/mcp restart peer").contains("/mcp enable peer"));
    assert!(run("/mcp enable peer").contains("peer: enabled; starting"));
    wait_state(&mut run, "peer", " ready ");
    assert!(run("/mcp restart peer").contains("peer: restarting"));
    let out = wait_state(&mut run, "peer", " ready ");
    // The tool count, then the revision `initialize` settled on.
    assert!(
        line_of(&out, "peer").ends_with("3 tools · MCP 2025-06-18"),
        "{out}"
    );
    assert!(run("/mcp prompts peer").contains("peer: the server lists no prompts"));
    assert!(run("/mcp resources peer").contains("peer: the server lists no resources"));
    assert!(run("/mcp restart nope").contains("no MCP server named `nope`"));
    assert!(run("/mcp frobnicate peer").contains("usage: /mcp [logs|approve|restart"));
}
