//! The client's control requests: `initialize` (its prompt, schema and servers), `interrupt`,
//! `set_permission_mode`, `set_model`, `mcp_status`, `get_context_usage`; any other subtype gets an error
//! response. Answers that wait for a running turn (the model, the context) are sent from their own task, so the
//! reader keeps reading meanwhile.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::caller_agents::CallerAgents;
use super::channel::lock;
use super::flags::PermissionMode;
use super::init::{add_mcp_servers, initialize_answer, mcp_servers};
use super::sdk_hooks::SdkHooks;
use super::sdk_mcp::sdk_servers;
use super::state::Headless;
use crate::app::session::Session;
use crate::text::{Msg, tr, trf};

/// What `initialize` (or the command line) asks of the turns to come, applied before the next one starts, and
/// the SDK's hook callbacks it registers.
pub struct Setup {
    prompt: Mutex<PromptChange>,
    schema: Mutex<Option<Value>>,
    hooks: Arc<SdkHooks>,
    pub agents: CallerAgents,
}

/// The system prompt asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PromptChange {
    /// Replaces paicli's prompt; `Some("")` and `None` keep it.
    pub replace: Option<String>,
    pub append: Option<String>,
    /// Not applied yet.
    pub pending: bool,
}

impl Setup {
    pub fn new(hooks: Arc<SdkHooks>, agents: CallerAgents) -> Self {
        Setup {
            prompt: Mutex::default(),
            schema: Mutex::default(),
            hooks,
            agents,
        }
    }

    /// Asks for `replace` / `append` from the next turn on (`None` leaves what was asked before).
    pub fn ask_prompt(&self, replace: Option<String>, append: Option<String>) {
        let mut prompt = lock(&self.prompt);
        if replace.is_some() {
            prompt.replace = replace;
        }
        if append.is_some() {
            prompt.append = append;
        }
        prompt.pending = prompt.replace.is_some() || prompt.append.is_some();
    }

    /// The prompt change not applied yet (and marks it applied).
    pub fn take_prompt(&self) -> Option<PromptChange> {
        let mut prompt = lock(&self.prompt);
        let pending = std::mem::replace(&mut prompt.pending, false);
        pending.then(|| prompt.clone())
    }

    pub fn set_schema(&self, schema: Value) {
        *lock(&self.schema) = Some(schema);
    }

    pub fn schema(&self) -> Option<Value> {
        lock(&self.schema).clone()
    }
}

/// The system prompt `change` makes of paicli's own prompt `base`.
pub fn prompt_of(base: &str, change: &PromptChange) -> String {
    super::flags::prompt_over(base, change.replace.as_deref(), change.append.as_deref())
}

/// A prompt as `initialize` carries it: a string, or (the TypeScript SDK) a list of strings, joined as Claude
/// joins its prompt's blocks.
fn prompt_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(Value::as_str)
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("\n\n"),
        ),
        _ => None,
    }
}

/// Handles the control request `request` with id `id`.
pub fn handle(
    id: &str,
    request: &Value,
    session: &Arc<Session>,
    headless: &Arc<Headless>,
    setup: &Setup,
) {
    let channel = &headless.channel;
    let subtype = request["subtype"].as_str().unwrap_or_default();
    match subtype {
        "initialize" => {
            let text = |key: &str| prompt_text(&request[key]);
            setup.ask_prompt(text("systemPrompt"), text("appendSystemPrompt"));
            if let Some(schema) = request.get("jsonSchema").filter(|s| s.is_object()) {
                setup.set_schema(schema.clone());
            }
            let ignored = setup.hooks.register(&request["hooks"]);
            if !ignored.is_empty() {
                let events = ignored.join(", ");
                let note = trf(headless.lang, Msg::HeadlessHooksNotCalled, &[("events", &events)]);
                eprintln!("paicli: {note}");
            }
            match crate::agents::caller::from_json(&request["agents"]) {
                Ok(defs) => setup.agents.add(defs),
                Err(error) => {
                    let note = trf(headless.lang, Msg::HeadlessBadAgents, &[("error", &error)]);
                    eprintln!("paicli: {note}");
                }
            }
            let mut applied = add_mcp_servers(session, &request["mcpServers"], channel)
                .unwrap_or_else(|| {
                    eprintln!("paicli: {}", tr(headless.lang, Msg::HeadlessInitMcpRefused));
                    Vec::new()
                });
            // The TypeScript SDK names its in-process servers here instead of in `--mcp-config`.
            let names: Vec<String> = request["sdkMcpServers"]
                .as_array()
                .map(|names| names.iter().filter_map(Value::as_str).map(str::to_string).collect())
                .unwrap_or_default();
            applied.extend(session.services.mcp.add(sdk_servers(&names, channel)));
            let answer = initialize_answer(session, headless, &applied, setup.agents.infos());
            channel.answer(id, answer);
        }
        "interrupt" => {
            // Answered first, so the client reads the answer before the interrupted turn's result.
            channel.answer(id, json!({}));
            headless.running.interrupt();
        }
        "set_permission_mode" => match request["mode"].as_str().and_then(PermissionMode::parse) {
            Some(mode) => {
                session.set_approval_mode(mode.approval());
                channel.answer(id, json!({}));
            }
            None => channel.refuse(
                id,
                &format!(
                    "unknown permission mode {}: expected default, acceptEdits, plan or bypassPermissions",
                    request["mode"]
                ),
            ),
        },
        "set_model" => {
            let (session, headless, id) = (Arc::clone(session), Arc::clone(headless), id.to_string());
            let model = request["model"].as_str().map(str::to_string);
            tokio::spawn(async move {
                // No model (`null`) means the configured default.
                let model = model.unwrap_or_else(|| session.model.clone());
                match session.switch_model(&model).await {
                    Ok(()) => {
                        headless.set_model(&model);
                        headless.channel.answer(&id, json!({}));
                    }
                    Err(e) => headless.channel.refuse(&id, &e.to_string()),
                }
            });
        }
        // A message an in-process server starts (a notification such as `tools/list_changed`): acknowledged;
        // paicli lists an SDK server's tools when it connects.
        "mcp_message" => channel.answer(id, json!({})),
        "mcp_status" => channel.answer(id, json!({"mcpServers": mcp_servers(session)})),
        "get_context_usage" => {
            let (session, headless, id) = (Arc::clone(session), Arc::clone(headless), id.to_string());
            tokio::spawn(async move {
                let usage = session.context_usage().await;
                let percentage = if usage.window == 0 {
                    0.0
                } else {
                    usage.tokens as f64 * 100.0 / usage.window as f64
                };
                headless.channel.answer(
                    &id,
                    json!({
                        "totalTokens": usage.tokens,
                        "maxTokens": usage.window,
                        "rawMaxTokens": usage.window,
                        "percentage": percentage,
                        "model": headless.model(),
                        "categories": [],
                    }),
                );
            });
        }
        other => channel.refuse(id, &format!("unsupported control request subtype: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_system_prompt_keeps_paicli_s_and_append_adds_to_either() {
        let change = |replace: Option<&str>, append: Option<&str>| PromptChange {
            replace: replace.map(str::to_string),
            append: append.map(str::to_string),
            pending: true,
        };
        assert_eq!(prompt_of("ours", &change(Some(""), None)), "ours");
        assert_eq!(prompt_of("ours", &change(Some("theirs"), None)), "theirs");
        // The TypeScript SDK sends a list; `[""]` is its default and keeps paicli's prompt.
        assert_eq!(prompt_text(&json!([""])), Some(String::new()));
        assert_eq!(prompt_text(&json!(["a", "b"])), Some("a\n\nb".into()));
        assert_eq!(prompt_text(&json!("a")), Some("a".into()));
        assert_eq!(prompt_text(&Value::Null), None);
        assert_eq!(
            prompt_of("ours", &change(Some(""), Some("more"))),
            "ours\n\nmore"
        );
        let channel = Arc::new(super::super::channel::Channel::new(Box::new(
            std::io::sink(),
        )));
        let hooks = SdkHooks::new(channel, crate::text::Lang::En);
        let setup = Setup::new(
            Arc::new(hooks),
            CallerAgents::new(crate::agents::AgentCatalog::default()),
        );
        assert_eq!(setup.take_prompt(), None);
        setup.ask_prompt(Some(String::new()), Some("more".into()));
        assert!(setup.take_prompt().is_some());
        assert_eq!(setup.take_prompt(), None);
    }
}
