//! The SDK's own hooks: `initialize` names callbacks per hook event (`{"PreToolUse": [{"matcher": "Bash",
//! "hookCallbackIds": ["hook_0"]}]}`), and paicli calls one with a `hook_callback` control request whose answer is
//! a hook reply of Claude's contract (read by `hooks::reply`, as a command hook's stdout is). `PreToolUse` is
//! honoured: a deny or block refuses the call, `updatedInput` rewrites it. It runs after paicli's approval, so an
//! `allow` does not skip a question. Other events are accepted and not called.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::{Value, json};

use super::channel::{Channel, lock};
use crate::hooks::event::HookEvent;
use crate::hooks::matcher::Matcher;
use crate::hooks::reply::{Permission, read_reply};
use crate::hooks::runner::{Exit, Output};
use crate::protocol::{CallGate, GateCall, GateVerdict, HOOK_DENIED, TurnHook, TurnScope};
use crate::text::{Lang, Msg, trf};
use crate::tools::claude_names::{from_claude_input, to_claude_input, to_claude_name};

/// The `PreToolUse` callbacks `initialize` registered.
pub struct SdkHooks {
    channel: Arc<Channel>,
    session_id: String,
    cwd: String,
    /// The language of its notes on stderr.
    lang: Lang,
    pre_tool_use: Mutex<Vec<(Matcher, Vec<String>)>>,
}

impl SdkHooks {
    pub fn new(channel: Arc<Channel>, session_id: String, cwd: String, lang: Lang) -> Self {
        SdkHooks {
            channel,
            session_id,
            cwd,
            lang,
            pre_tool_use: Mutex::default(),
        }
    }

    /// Registers the callbacks of `initialize`'s `hooks`; returns the events accepted but not called.
    pub fn register(&self, hooks: &Value) -> Vec<String> {
        let Some(events) = hooks.as_object() else {
            return Vec::new();
        };
        let mut ignored = Vec::new();
        for (event, groups) in events {
            if event != "PreToolUse" {
                ignored.push(event.clone());
                continue;
            }
            for group in groups.as_array().into_iter().flatten() {
                let pattern = group["matcher"].as_str();
                let Ok(matcher) = Matcher::parse(pattern) else {
                    let matcher = pattern.unwrap_or_default();
                    let note = trf(self.lang, Msg::HeadlessBadMatcher, &[("matcher", &matcher)]);
                    eprintln!("paicli: {note}");
                    continue;
                };
                let ids = group["hookCallbackIds"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect();
                lock(&self.pre_tool_use).push((matcher, ids));
            }
        }
        ignored
    }

    /// The callbacks for a call of the Claude tool `tool`.
    fn callbacks(&self, tool: &str) -> Vec<String> {
        lock(&self.pre_tool_use)
            .iter()
            .filter(|(matcher, _)| matcher.matches(tool))
            .flat_map(|(_, ids)| ids.iter().cloned())
            .collect()
    }
}

#[async_trait]
impl CallGate for SdkHooks {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        let tool = to_claude_name(call.name);
        let mut input = to_claude_input(call.name, call.args);
        let mut rewritten = false;
        for id in self.callbacks(tool) {
            let request = json!({
                "subtype": "hook_callback",
                "callback_id": id,
                "tool_use_id": call.id,
                "input": {
                    "hook_event_name": "PreToolUse",
                    "session_id": self.session_id,
                    "cwd": self.cwd,
                    "tool_name": tool,
                    "tool_input": input,
                    "tool_use_id": call.id,
                },
            });
            let answer = tokio::select! {
                answer = self.channel.request(request) => answer,
                () = call.cancel.cancelled() => return GateVerdict::deny(HOOK_DENIED, "cancelled"),
            };
            let answer = match answer {
                Ok(answer) => answer,
                Err(e) => {
                    // A hook that fails does not block, as a command hook's error does not.
                    let args: &[(&str, &dyn std::fmt::Display)] = &[("id", &id), ("error", &e)];
                    eprintln!("paicli: {}", trf(self.lang, Msg::HeadlessHookFailed, args));
                    continue;
                }
            };
            let output = Output {
                exit: Exit::Code(0),
                stdout: answer.to_string(),
                stderr: String::new(),
            };
            let reply = read_reply(HookEvent::PreToolUse, &output);
            if let Some(reason) = reply.block {
                return GateVerdict::deny(HOOK_DENIED, reason);
            }
            if let Some((Permission::Deny, reason)) = reply.permission {
                return GateVerdict::deny(HOOK_DENIED, reason);
            }
            if let Some(updated) = reply.updated_input {
                input = updated;
                rewritten = true;
            }
        }
        if rewritten {
            GateVerdict::AllowWith(from_claude_input(call.name, &input))
        } else {
            GateVerdict::Allow
        }
    }
}

/// The callbacks as a turn hook: their gate in every turn.
pub struct SdkHooksTurn(pub Arc<SdkHooks>);

impl TurnHook for SdkHooksTurn {
    fn begin_turn(&self, _submitted: &str) -> TurnScope {
        TurnScope {
            gates: vec![self.0.clone()],
            ..TurnScope::default()
        }
    }
}
