//! Every slash command of the REPL, typed into the real terminal.

use serde_json::json;

use super::Sandbox;
use super::terminal;
use crate::support::{Reply, ScriptedServer};

#[test]
fn help_lists_every_command_and_unknown_commands_get_a_suggestion() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let t = sandbox.start(&server);
    t.submit("/help");
    let screen = t.wait_for("Shift+Tab cycles the approval mode");
    for name in [
        "/exit /quit",
        "/clear",
        "/cancel",
        "/model",
        "/config",
        "/context /ctx",
        "/cost",
        "/init",
        "/compact",
        "/mode",
        "/hitl",
        "/policy",
        "/audit",
        "/memory /mem",
        "/save",
        "/mcp",
        "/lsp",
        "Shift+Tab cycles the approval mode",
    ] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
    t.submit("/modle");
    let screen = t.wait_for("unknown command /modle; did you mean /model?");
    assert!(screen.contains("(/help)"));
    t.submit("/cancel");
    t.wait_for("no running task");
    assert_eq!(
        server.chat_requests().len(),
        0,
        "commands must never reach the model"
    );
}

#[test]
fn exit_and_quit_leave_the_repl() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    for command in ["/exit", "/quit"] {
        let t = sandbox.start(&server);
        t.submit(command);
        t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
        assert!(t.screen().contains("bye"));
    }
}

#[test]
fn clear_forgets_the_conversation() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("first"), Reply::text("second")]);
    let t = sandbox.start(&server);
    t.submit("remember apples");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/clear");
    t.wait_for("conversation cleared");
    t.submit("what did I say?");
    t.wait_for("second");
    let messages = server.chat_requests()[1].body["messages"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert_eq!(messages[1]["content"], "what did I say?");
}

#[test]
fn model_shows_lists_switches_and_saves() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    server.set_models(["scripted-model", "other-model"]);
    let t = sandbox.start(&server);
    t.submit("/model");
    t.wait_for("custom/scripted-model · window");
    t.submit("/model list");
    t.wait_for("  other-model");
    assert!(t.screen().contains("* scripted-model"));
    t.submit("/model other-model --save");
    t.wait_for("model for this session: custom/other-model");
    t.wait_for("saved as the default in");
    t.submit("hi");
    t.wait_prompt(5, terminal::DEADLINE);
    assert_eq!(server.chat_requests()[0].body["model"], "other-model");
    let saved = std::fs::read_to_string(sandbox.paicli_home().join("config.toml")).unwrap();
    assert!(saved.contains("model = \"other-model\""), "{saved}");
    t.submit("/model nope-provider m");
    t.wait_for("unknown provider \"nope-provider\"");
}

#[test]
fn config_shows_values_with_their_source_and_masks_keys() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::start();
    let home = sandbox.paicli_home();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.toml"), "[tools]\nmax_parallel = 3\n").unwrap();
    let t = sandbox.start_with(&server, &[("PAICLI_API_KEY", "sk-secret-1234567890abcd")]);
    t.submit("/config");
    let screen = t.wait_for("ui.language");
    assert!(
        screen.contains("llm.model") && screen.contains("(flag --model)"),
        "{screen}"
    );
    assert!(
        screen.contains("tools.max_parallel") && screen.contains("config.toml)"),
        "{screen}"
    );
    assert!(
        screen.contains("sk-…abcd") && screen.contains("(env PAICLI_API_KEY)"),
        "{screen}"
    );
    assert!(!screen.contains("sk-secret-1234567890abcd"), "{screen}");
}

#[test]
fn context_and_cost_report_the_session() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("fine").usage(1200, 34)]);
    let t = sandbox.start(&server);
    t.submit("/ctx");
    let screen = t.wait_for("total");
    for row in ["system", "tools", "history"] {
        assert!(screen.contains(row), "{screen}");
    }
    t.submit("hello");
    t.wait_prompt(3, terminal::DEADLINE);
    t.submit("/cost");
    let screen = t.wait_for("no prices known");
    assert!(
        screen.contains("session: 1 turn, 1 request · in 1200 · out 34"),
        "{screen}"
    );
}

#[test]
fn export_writes_the_conversation_as_markdown() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("The notes say alpha beta.")]);
    let t = sandbox.start(&server);
    t.submit("summarize @notes.txt");
    t.wait_prompt(2, terminal::DEADLINE);
    // @path reached the model expanded; the typed text is kept in front.
    let user = server.chat_requests()[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        user.starts_with("summarize @notes.txt\n\n<file path=\"notes.txt\">\nalpha beta\n</file>"),
        "{user}"
    );
    t.submit("/export");
    t.wait_for("conversation exported to");
    let dir = sandbox.paicli_home().join("exports");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let md = std::fs::read_to_string(file).unwrap();
    assert!(md.contains("## User\n\nsummarize @notes.txt"), "{md}");
    assert!(
        md.contains("## Assistant\n\nThe notes say alpha beta."),
        "{md}"
    );
}

#[test]
fn init_generates_pai_md_through_the_agent() {
    let sandbox = Sandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            json!({"path": "PAI.md", "content": "# Project\n\nNotes.\n"}),
        )]),
        Reply::text("Wrote PAI.md."),
    ]);
    let t = sandbox.start(&server);
    t.submit("/init");
    t.wait_for("Wrote PAI.md.");
    let pai = std::fs::read_to_string(sandbox.project.path().join("PAI.md")).unwrap();
    assert_eq!(pai, "# Project\n\nNotes.\n");
    let prompt = server.chat_requests()[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(prompt.contains("Create a PAI.md file"), "{prompt}");
    t.wait_prompt(2, terminal::DEADLINE);
    t.submit("/init");
    t.wait_for("PAI.md already exists");
    assert_eq!(server.chat_requests().len(), 2);
}
