//! A sub-agent on another provider in `/cost`: its line names that provider and is priced from that provider's
//! list, and after `-c` the resumed session shows the same lines (the usage is recorded with the session).

use paicli::llm::Usage;
use paicli::llm::providers::{cost_of, price_of};
use serde_json::json;

use crate::suite::repl_tmux::terminal::{self, Terminal};
use crate::support::{Reply, ScriptedServer};

const CHEAP: &str = "---\nname: cheap\ndescription: Looks things up cheaply\nmodel: kimi/kimi-k2.6\n---\nYou look things up.\n";

/// The `/cost` lines naming a model (`<model>: in …`), as shown.
fn model_lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("kimi/kimi-k2.6:") || l.starts_with("scripted-model:"))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_sub_agent_on_another_provider_is_priced_there_and_its_cost_survives_a_resume() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join(".paicli/agents")).unwrap();
    std::fs::write(project.path().join(".paicli/agents/cheap.md"), CHEAP).unwrap();
    let lead = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_c",
            "agent",
            json!({"agent": "cheap", "prompt": "Find it", "description": "look"}),
        )])
        .usage(500, 50),
        Reply::text("The cheap agent answered.").usage(700, 70),
    ]);
    let kimi = ScriptedServer::with_replies([Reply::text("CHEAP-FOUND-IT").usage(1_000_000, 0)]);
    let env = [
        ("KIMI_API_KEY", "sk-kimi"),
        ("KIMI_BASE_URL", &kimi.url() as &str),
    ];
    let t = Terminal::start(&lead, project.path(), home.path(), &env);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("look it up");
    t.wait_for("The cheap agent answered.");
    t.wait_prompt(2, terminal::DEADLINE);
    assert_eq!(kimi.chat_requests()[0].body["model"], "kimi-k2.6");
    t.submit("/cost");
    let screen = t.wait_for("kimi/kimi-k2.6:");
    let (currency, amount, _) = cost_of(
        &Usage::tokens(1_000_000, 0, 0, 0),
        price_of("kimi", "kimi-k2.6"),
    )
    .expect("kimi-k2.6 is in the price list");
    let expected = [
        // The lead's own model is not in any list: unpriced, not free.
        "scripted-model: in 1200 · out 120 · cached 0 · no price known".to_string(),
        format!("kimi/kimi-k2.6: in 1000000 · out 0 · cached 0 · {currency}{amount:.4}"),
    ];
    assert_eq!(model_lines(&screen), expected, "{screen}");
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
    drop(t);

    let resumed = ScriptedServer::with_replies([Reply::text("Still here.")]);
    let t = Terminal::start_with_args(&resumed, project.path(), home.path(), &env, &["-c"]);
    t.wait_prompt(1, terminal::DEADLINE);
    t.submit("/cost");
    let screen = t.wait_for("kimi/kimi-k2.6:");
    assert_eq!(model_lines(&screen), expected, "{screen}");
    t.submit("/exit");
    t.wait_until("exit", terminal::DEADLINE, |_| t.exited());
}
