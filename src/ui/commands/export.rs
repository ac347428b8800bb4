//! `/export [id]`: the conversation, or any recorded session by id, as Markdown under `$PAICLI_HOME/exports/`,
//! followed by the conversations of its plan tasks' sub-agents (their own ledgers beside the session's).

use std::path::{Path, PathBuf};

use super::{Flow, say_error, say_wrapped};
use crate::llm::{Message, Role};
use crate::session::ledger::{
    SessionStore, UsageByModel, ledger_usage, load, recorded_usage, sidechains,
};
use crate::text::{Msg, trf};
use crate::ui::repl::Session;
use crate::ui::sessions::find_error_text;

pub(super) fn export(session: &mut Session, args: &str) -> Flow {
    let dir = session.config.home.join("exports");
    let (id, markdown) = if args.is_empty() || args == session.id() {
        let id = session.id().to_string();
        let model = format!("{}/{}", session.provider.id, session.provider.model);
        let root = session.config.project_root.clone();
        let agent = session.agent_mut();
        let mut markdown = conversation_markdown(agent.history(), &id, &model, &root);
        if let Some(ledger) = agent.ledger() {
            markdown.push_str(&session_usage_markdown(&ledger.path()));
            markdown.push_str(&sidechains_markdown(&ledger.path()));
        }
        (id, markdown)
    } else {
        match recorded_markdown(session, args) {
            Ok(found) => found,
            Err(message) => {
                session.say_error(&message);
                return Flow::Continue;
            }
        }
    };
    match write_export(&dir, &id, &markdown) {
        Ok(path) => say_wrapped(
            session,
            &format!("{} {}", session.tr(Msg::ExportedTo), path.display()),
        ),
        Err(e) => say_error(
            session,
            &trf(
                session.lang,
                Msg::ExportFailed,
                &[("dir", &dir.display()), ("error", &e)],
            ),
        ),
    }
    Flow::Continue
}

/// The recorded session whose id is or starts with `prefix`, as Markdown, with its full id.
fn recorded_markdown(session: &Session, prefix: &str) -> Result<(String, String), String> {
    let store = SessionStore::new(&session.config.home);
    let found = store
        .find(prefix, &session.config.project_root)
        .map_err(|e| find_error_text(session.lang, &e))?;
    let loaded = load(&found.path).map_err(|e| e.to_string())?;
    let header = &loaded.header;
    let mut markdown = conversation_markdown(
        loaded.conversation.messages(),
        &header.id,
        &format!("{}/{}", header.provider, loaded.model),
        &header.project_root,
    );
    markdown.push_str(&session_usage_markdown(&found.path));
    markdown.push_str(&sidechains_markdown(&found.path));
    Ok((header.id.clone(), markdown))
}

fn write_export(dir: &Path, session_id: &str, markdown: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("session-{session_id}.md"));
    std::fs::write(&path, markdown)?;
    Ok(path)
}

/// A fence longer than any backtick run in `text`, so the text cannot close it.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The conversation (without the system prompt) as a Markdown document.
pub fn conversation_markdown(
    history: &[Message],
    session_id: &str,
    model: &str,
    root: &Path,
) -> String {
    let mut out = format!(
        "# paicli session {session_id}\n\n- model: {model}\n- project: {}\n- exported: {}\n",
        root.display(),
        chrono::Local::now().format("%Y-%m-%d %H:%M:%S")
    );
    out.push_str(&messages_markdown(history));
    out
}

/// The sub-agents' conversations of the session whose ledger is `ledger`, each under a heading naming it;
/// empty when it has none. A ledger that cannot be read says so in its place.
pub fn sidechains_markdown(ledger: &Path) -> String {
    let mut out = String::new();
    for path in sidechains(ledger) {
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().to_string());
        out.push_str(&format!("\n---\n\n# Sub-agent {name}\n"));
        out.push_str(&usage_markdown(&ledger_usage(&path)));
        match load(&path) {
            Ok(loaded) => out.push_str(&messages_markdown(loaded.conversation.messages())),
            Err(e) => out.push_str(&format!("\n({e})\n")),
        }
    }
    out
}

/// The whole session's spending per model (its sub-agents' included), under a heading of its own.
fn session_usage_markdown(ledger: &Path) -> String {
    let spent = recorded_usage(ledger);
    if spent.is_empty() {
        return String::new();
    }
    format!("\n---\n\n# Usage\n{}", usage_markdown(&spent))
}

/// What each model spent, a list item per model (nothing when nothing was recorded).
pub fn usage_markdown(spent: &UsageByModel) -> String {
    let mut out = String::new();
    if !spent.is_empty() {
        out.push('\n');
    }
    for (model, u) in spent {
        out.push_str(&format!(
            "- usage of {}: in {} · out {} · cached {}\n",
            model.label(),
            u.prompt_tokens,
            u.completion_tokens,
            u.cached_tokens
        ));
    }
    out
}

/// The messages but the system prompt, each role a section.
fn messages_markdown(history: &[Message]) -> String {
    let mut out = String::new();
    for message in history.iter().filter(|m| m.role != Role::System) {
        let text = message.content.text();
        match message.role {
            Role::User => out.push_str(&format!("\n## User\n\n{}\n", text.trim_end())),
            Role::Assistant => {
                out.push_str("\n## Assistant\n\n");
                if !text.trim().is_empty() {
                    out.push_str(&format!("{}\n", text.trim_end()));
                }
                for call in &message.tool_calls {
                    let fence = fence_for(&call.arguments);
                    out.push_str(&format!(
                        "\nTool call `{}` ({}):\n\n{fence}json\n{}\n{fence}\n",
                        call.name, call.id, call.arguments
                    ));
                }
            }
            Role::Tool => {
                let id = message.tool_call_id.as_deref().unwrap_or("?");
                // The boundary is for the model; people read the result itself.
                let text = crate::tools::boundary::unwrap(&text);
                let fence = fence_for(text);
                out.push_str(&format!(
                    "\n### Tool result ({id})\n\n{fence}\n{}\n{fence}\n",
                    text.trim_end()
                ));
            }
            Role::System => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolCall;

    #[test]
    fn roles_tool_calls_and_results_are_sections() {
        let history = vec![
            Message::system("sys"),
            Message::user("read it"),
            Message::assistant_tool_calls(
                String::new(),
                None,
                vec![ToolCall {
                    id: "c1".into(),
                    name: "read_file".into(),
                    arguments: "{\"path\":\"a\"}".into(),
                }],
            ),
            Message::tool(
                "c1".to_string(),
                crate::tools::boundary::wrap("read_file", "has ``` inside"),
            ),
            Message::assistant("done"),
        ];
        let md = conversation_markdown(&history, "s1", "custom/m", Path::new("/p"));
        assert!(!md.contains("sys"));
        assert!(md.contains("## User\n\nread it\n"));
        assert!(md.contains("Tool call `read_file` (c1):\n\n```json\n{\"path\":\"a\"}\n```\n"));
        assert!(md.contains("### Tool result (c1)\n\n````\nhas ``` inside\n````\n"));
        assert!(md.ends_with("## Assistant\n\ndone\n"));
        assert!(
            !md.contains("<tool_result") && !md.contains("untrusted-data"),
            "{md}"
        );
    }

    #[test]
    fn the_sub_agents_conversations_follow_the_sessions() {
        #![allow(clippy::unwrap_used)]
        use crate::session::Conversation;
        use crate::session::ledger::{FORMAT_VERSION, Header, Ledger, Record};

        let dir = tempfile::tempdir().unwrap();
        let lead_path = dir.path().join("20261201T090000000-lead.jsonl");
        let header = Header {
            format: FORMAT_VERSION,
            id: "lead".into(),
            project_root: dir.path().to_path_buf(),
            provider: "custom".into(),
            model: "m".into(),
            version: "0.0.0".into(),
            git_branch: None,
            started: "2026-12-01T09:00:00+00:00".into(),
            system_prompt: "lead".into(),
            tools: Vec::new(),
            forked_from: None,
        };
        let lead = Ledger::create(
            &lead_path,
            header,
            std::sync::Arc::new(|s: &str| s.to_string()),
        )
        .unwrap();
        assert_eq!(sidechains_markdown(&lead_path), "", "no plan ran");
        let mut task = Conversation::new("task");
        task.attach_ledger(lead.sidechain("t1-A", "task").unwrap());
        task.begin_turn(None, "Your task (id `A`): read it");
        task.push_answer("A is done");
        let kimi = crate::session::ModelKey {
            provider: "kimi".into(),
            model: "kimi-k2.6".into(),
        };
        task.ledger().unwrap().write(&Record::Usage {
            model: kimi,
            usage: crate::llm::Usage::tokens(300, 20, 100, 0),
        });
        let markdown = sidechains_markdown(&lead_path);
        assert!(markdown.contains("# Sub-agent t1-A"), "{markdown}");
        assert!(
            markdown.contains("- usage of kimi/kimi-k2.6: in 300 · out 20 · cached 100\n"),
            "{markdown}"
        );
        assert!(
            markdown.contains("## User\n\nYour task (id `A`): read it"),
            "{markdown}"
        );
        assert!(markdown.contains("## Assistant\n\nA is done"), "{markdown}");
    }
}
