//! A scripted session through the real `Agent`: edits break a Python and a C file, the servers' diagnostics are
//! injected before the next model request, and the fixing edit injects nothing.
//!
//! The source is wired in with `Agent::set_diagnostics`, exactly as the app does.

use crate::support::agent_harness::{FnClient, answer, calls};
use paicli::agent::{Agent, AgentEvent, AgentOptions, EventLog, TurnOutcome};
use paicli::llm::{LlmClient, Message, Role};
use paicli::lsp::HEADER;
use paicli::tools::{self, Executor, ExecutorOptions, ToolRegistry};

use super::*;

/// The diagnostics messages a request carried.
fn injected(request: &[Message]) -> Vec<String> {
    request
        .iter()
        .filter(|m| m.role == Role::User && m.text().starts_with(HEADER))
        .map(Message::text)
        .collect()
}

#[tokio::test]
async fn broken_python_and_c_edits_inject_server_diagnostics_and_fixes_inject_nothing() {
    if !require("pyright-langserver") || !require("clangd") {
        return;
    }
    let project = Project::new();
    std::fs::write(
        project.root.join("calc.py"),
        "def add(a, b):\n    return a + b\n",
    )
    .unwrap();
    std::fs::write(
        project.root.join("main.c"),
        "int main(void) {\n    return 0;\n}\n",
    )
    .unwrap();
    let script = FnClient::script(vec![
        calls(&[
            (
                "c1",
                "edit_file",
                json!({"path": "calc.py", "old_text": "a + b", "new_text": "a + c"}),
            ),
            (
                "c2",
                "edit_file",
                json!({"path": "main.c", "old_text": "return 0;", "new_text": "return 0"}),
            ),
        ]),
        calls(&[
            (
                "c3",
                "edit_file",
                json!({"path": "calc.py", "old_text": "a + c", "new_text": "a + b"}),
            ),
            (
                "c4",
                "edit_file",
                json!({"path": "main.c", "old_text": "return 0", "new_text": "return 0;"}),
            ),
        ]),
        answer("fixed"),
    ]);
    let manager = Arc::new(project.manager(&[], Duration::from_secs(20)));

    let mut registry = ToolRegistry::new();
    for tool in tools::core_tools(&project.ctx.limits, &project.ctx.spill) {
        registry.register(tool);
    }
    let registry = Arc::new(registry);
    let executor = Executor::new(Arc::clone(&registry), ExecutorOptions::default());
    let ctx = project.ctx.clone();
    let mut agent = Agent::new(
        Arc::clone(&script) as Arc<dyn LlmClient>,
        registry,
        executor,
        ctx,
        "system prompt".into(),
        AgentOptions::default(),
    );
    agent.set_diagnostics(Arc::clone(&manager) as Arc<dyn DiagnosticsSource>);
    let events = EventLog::default();
    let report = agent
        .run_turn("break then fix", &events, CancellationToken::new())
        .await;
    assert!(
        matches!(report.outcome, TurnOutcome::Finished { .. }),
        "{:?}",
        report.outcome
    );

    let requests: Vec<Vec<Message>> = script.requests().into_iter().map(|r| r.messages).collect();
    assert_eq!(requests.len(), 3);
    assert!(injected(&requests[0]).is_empty());

    // After the breaking edits: one message, last in the request, naming both servers' findings.
    let second = &requests[1];
    assert_eq!(injected(second).len(), 1);
    let text = second.last().unwrap().text();
    assert!(text.starts_with(HEADER), "{text}");
    assert!(text.contains("calc.py:2:"), "{text}");
    assert!(text.contains("\"c\" is not defined"), "{text}");
    assert!(text.to_lowercase().contains("expected ';'"), "{text}");
    assert!(
        text.contains("(pyright)") && text.contains("(clangd)"),
        "{text}"
    );

    // The person sees one short line per injection, naming the files and their counts.
    let shown: Vec<Vec<(String, usize)>> = events
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::DiagnosticsInjected { files, text } => {
                assert_eq!(text, second.last().unwrap().text());
                Some(files.into_iter().map(|f| (f.path, f.problems)).collect())
            }
            _ => None,
        })
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    let mut names: Vec<&str> = shown[0].iter().map(|(p, _)| p.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["calc.py", "main.c"]);
    assert!(shown[0].iter().all(|(_, n)| *n >= 1), "{shown:?}");

    // After the fixing edits: nothing injected.
    assert_eq!(
        injected(&requests[2]).len(),
        1,
        "only the earlier message, kept in the history: {:?}",
        injected(&requests[2])
    );
    manager.close().await;
}
