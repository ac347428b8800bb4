//! The SDK's own hooks: `initialize` names callbacks per hook event (`{"PreToolUse": [{"matcher": "Bash",
//! "hookCallbackIds": ["hook_0"]}]}`), and paicli calls one with a `hook_callback` control request whose answer is
//! a hook reply of Claude's contract. They are plugged into the session's hooks as callbacks
//! ([`crate::hooks::HookCallbacks`]), so every event paicli fires reaches them with the input a command hook from
//! Claude's files gets, and their replies mean what a command's do (`docs/hooks.md`).

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::{Value, json};

use super::channel::{Channel, lock};
use crate::hooks::HookCallbacks;
use crate::hooks::event::HookEvent;
use crate::hooks::matcher::Matcher;
use crate::hooks::runner::{Exit, Output};
use crate::text::{Lang, Msg, trf};

/// The callbacks `initialize` registered, by event.
pub struct SdkHooks {
    channel: Arc<Channel>,
    /// The language of its notes on stderr.
    lang: Lang,
    registered: Mutex<Vec<(HookEvent, Matcher, Vec<String>)>>,
}

impl SdkHooks {
    pub fn new(channel: Arc<Channel>, lang: Lang) -> Self {
        SdkHooks {
            channel,
            lang,
            registered: Mutex::default(),
        }
    }

    /// Registers the callbacks of `initialize`'s `hooks`; returns the events paicli has no moment for.
    pub fn register(&self, hooks: &Value) -> Vec<String> {
        let Some(events) = hooks.as_object() else {
            return Vec::new();
        };
        let mut ignored = Vec::new();
        for (name, groups) in events {
            let Some(event) = HookEvent::from_name(name) else {
                ignored.push(name.clone());
                continue;
            };
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
                lock(&self.registered).push((event, matcher, ids));
            }
        }
        ignored
    }
}

#[async_trait]
impl HookCallbacks for SdkHooks {
    fn has(&self, event: HookEvent) -> bool {
        lock(&self.registered).iter().any(|(e, _, _)| *e == event)
    }

    fn matching(&self, event: HookEvent, subject: Option<&str>) -> Vec<String> {
        // Once the client closed its input nobody can answer: the queued turns and `SessionEnd` run without them.
        if self.channel.is_closed() {
            return Vec::new();
        }
        lock(&self.registered)
            .iter()
            .filter(|(e, matcher, _)| *e == event && subject.is_none_or(|s| matcher.matches(s)))
            .flat_map(|(_, _, ids)| ids.iter().cloned())
            .collect()
    }

    async fn call(&self, id: &str, input: Value) -> Result<Output, String> {
        let mut request = json!({"subtype": "hook_callback", "callback_id": id, "input": input});
        if let Some(call) = request["input"].get("tool_use_id").cloned() {
            request["tool_use_id"] = call;
        }
        match self.channel.request(request).await {
            Ok(answer) => Ok(Output {
                exit: Exit::Code(0),
                stdout: answer.to_string(),
                stderr: String::new(),
            }),
            Err(e) => {
                // A callback that fails does not block, as a command hook's error does not.
                let args: &[(&str, &dyn std::fmt::Display)] = &[("id", &id), ("error", &e)];
                let note = trf(self.lang, Msg::HeadlessHookFailed, args);
                eprintln!("paicli: {note}");
                Err(note)
            }
        }
    }
}
