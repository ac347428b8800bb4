//! What a hook's exit code and stdout mean (Claude Code's contract), as a typed reply, and the replies of all
//! hooks of one event combined into one decision.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::event::HookEvent;
use super::runner::{Exit, Output};

/// `permissionDecision` of a `PreToolUse` hook (or `behavior` of a `PermissionRequest` one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    Allow,
    Ask,
    Deny,
}

/// One hook's reply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reply {
    /// Exit 2, or `decision: "block"` (or a `deny`): the reason.
    pub block: Option<String>,
    pub permission: Option<(Permission, String)>,
    /// `updatedInput`, in the names the hook saw.
    pub updated_input: Option<Map<String, Value>>,
    /// `additionalContext`, or plain stdout where it becomes context.
    pub context: Option<String>,
    /// `continue: false`: the reason to stop everything.
    pub stop: Option<String>,
    /// `systemMessage`: shown to the person.
    pub message: Option<String>,
    /// A non-blocking error shown to the person (another exit code, a timeout, output that is not the contract).
    pub error: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct JsonReply {
    #[serde(rename = "continue")]
    keep_going: Option<bool>,
    stop_reason: Option<String>,
    system_message: Option<String>,
    decision: Option<String>,
    reason: Option<String>,
    hook_specific_output: Option<Specific>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Specific {
    permission_decision: Option<String>,
    permission_decision_reason: Option<String>,
    updated_input: Option<Map<String, Value>>,
    additional_context: Option<String>,
    /// `PermissionRequest`: `{"behavior": "allow"|"deny", "updatedInput": …, "message": …}`.
    decision: Option<PermissionRequestDecision>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct PermissionRequestDecision {
    behavior: Option<String>,
    updated_input: Option<Map<String, Value>>,
    message: Option<String>,
}

/// Where plain stdout of a successful hook becomes context for the model.
fn stdout_is_context(event: HookEvent) -> bool {
    matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
}

/// Reads `output` of a hook for `event`.
pub fn read_reply(event: HookEvent, output: &Output) -> Reply {
    match output.exit {
        Exit::Code(0) => read_success(event, output.stdout.trim()),
        Exit::Code(2) => {
            let reason = output.stderr.trim();
            Reply {
                block: Some(if reason.is_empty() {
                    "blocked by a hook (exit 2)".to_string()
                } else {
                    reason.to_string()
                }),
                ..Reply::default()
            }
        }
        Exit::Code(code) => Reply {
            error: Some(format!("exit {code}: {}", first_line(&output.stderr))),
            ..Reply::default()
        },
        Exit::Killed { timed_out: true } => Reply {
            error: Some("timed out and was killed".to_string()),
            ..Reply::default()
        },
        Exit::Killed { timed_out: false } => Reply {
            error: Some("killed by a signal".to_string()),
            ..Reply::default()
        },
    }
}

fn first_line(text: &str) -> &str {
    text.trim().lines().next().unwrap_or("")
}

fn read_success(event: HookEvent, stdout: &str) -> Reply {
    if stdout.is_empty() {
        return Reply::default();
    }
    if !stdout.starts_with('{') {
        return Reply {
            context: stdout_is_context(event).then(|| stdout.to_string()),
            ..Reply::default()
        };
    }
    let json: JsonReply = match serde_json::from_str(stdout) {
        Ok(j) => j,
        Err(e) => {
            return Reply {
                error: Some(format!("its output is not valid hook JSON: {e}")),
                ..Reply::default()
            };
        }
    };
    let mut reply = Reply {
        message: json.system_message,
        stop: (json.keep_going == Some(false)).then(|| {
            json.stop_reason
                .unwrap_or_else(|| "a hook stopped the session's work".to_string())
        }),
        ..Reply::default()
    };
    let reason = json.reason.unwrap_or_default();
    match json.decision.as_deref() {
        Some("block") => reply.block = Some(reason.clone()),
        // The older PreToolUse spelling.
        Some("approve") if event == HookEvent::PreToolUse => {
            reply.permission = Some((Permission::Allow, reason.clone()));
        }
        _ => {}
    }
    if let Some(specific) = json.hook_specific_output {
        let why = specific.permission_decision_reason.unwrap_or(reason);
        reply.permission = match specific.permission_decision.as_deref() {
            Some("allow") => Some((Permission::Allow, why)),
            Some("ask") => Some((Permission::Ask, why)),
            Some("deny") => Some((Permission::Deny, why)),
            _ => reply.permission,
        };
        reply.updated_input = specific.updated_input;
        reply.context = specific.additional_context;
        if let Some(d) = specific.decision {
            let message = d.message.unwrap_or_default();
            reply.permission = match d.behavior.as_deref() {
                Some("allow") => Some((Permission::Allow, message)),
                Some("deny") => Some((Permission::Deny, message)),
                _ => reply.permission,
            };
            reply.updated_input = d.updated_input.or(reply.updated_input);
        }
    }
    if event == HookEvent::PreToolUse && reply.block.is_some() && reply.permission.is_none() {
        // `decision: "block"` on a PreToolUse is the older spelling of a deny.
        reply.permission = reply.block.take().map(|r| (Permission::Deny, r));
    }
    reply
}

/// The replies of every hook of one event, combined: the strictest permission wins (deny over ask over allow),
/// any block blocks, contexts and messages are all kept in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    pub block: Option<String>,
    pub permission: Option<(Permission, String)>,
    pub updated_input: Option<Map<String, Value>>,
    pub context: Vec<String>,
    pub stop: Option<String>,
    /// `systemMessage`s and non-blocking errors, for the person.
    pub messages: Vec<String>,
}

impl Decision {
    /// Adds one hook's reply; `label` names the hook in messages.
    pub fn add(&mut self, label: &str, reply: Reply) {
        if let Some(block) = reply.block {
            self.block = Some(match self.block.take() {
                Some(earlier) => format!("{earlier}\n{block}"),
                None => block,
            });
        }
        if let Some((permission, reason)) = reply.permission {
            let stricter = self
                .permission
                .as_ref()
                .is_none_or(|(p, _)| permission > *p);
            if stricter {
                self.permission = Some((permission, reason));
            }
        }
        if self.updated_input.is_none() {
            self.updated_input = reply.updated_input;
        }
        self.context
            .extend(reply.context.filter(|c| !c.trim().is_empty()));
        if self.stop.is_none() {
            self.stop = reply.stop;
        }
        self.messages.extend(reply.message);
        if let Some(error) = reply.error {
            self.messages.push(format!("{label}: {error}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(code: i32, stdout: &str, stderr: &str) -> Output {
        Output {
            exit: Exit::Code(code),
            stdout: stdout.to_string(),
            stderr: stderr.to_string(),
        }
    }

    #[test]
    fn exit_two_blocks_with_stderr_and_other_codes_are_errors() {
        let r = read_reply(HookEvent::PreToolUse, &out(2, "ignored", "use rg\n"));
        assert_eq!(r.block.as_deref(), Some("use rg"));
        let r = read_reply(HookEvent::PreToolUse, &out(1, "", "boom"));
        assert_eq!(r.error.as_deref(), Some("exit 1: boom"));
        assert!(r.block.is_none());
    }

    #[test]
    fn plain_stdout_is_context_only_where_the_contract_says_so() {
        let r = read_reply(
            HookEvent::UserPromptSubmit,
            &out(0, "today is monday\n", ""),
        );
        assert_eq!(r.context.as_deref(), Some("today is monday"));
        let r = read_reply(HookEvent::PostToolUse, &out(0, "formatted", ""));
        assert_eq!(r, Reply::default());
    }

    #[test]
    fn json_deny_with_updated_input_and_garbage_json() {
        let r = read_reply(
            HookEvent::PreToolUse,
            &out(
                0,
                r#"{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                    "permissionDecisionReason": "no", "updatedInput": {"command": "rg x"}}}"#,
                "",
            ),
        );
        assert_eq!(r.permission, Some((Permission::Deny, "no".to_string())));
        assert!(r.updated_input.is_some());
        let r = read_reply(HookEvent::PreToolUse, &out(0, "{not json", ""));
        assert!(r.error.is_some());
        let r = read_reply(
            HookEvent::PreToolUse,
            &out(0, r#"{"decision": "block", "reason": "old"}"#, ""),
        );
        assert_eq!(r.permission, Some((Permission::Deny, "old".to_string())));
    }

    #[test]
    fn the_strictest_permission_wins_and_contexts_add_up() {
        let mut d = Decision::default();
        d.add(
            "a",
            Reply {
                permission: Some((Permission::Allow, "a".into())),
                context: Some("x".into()),
                ..Reply::default()
            },
        );
        d.add(
            "b",
            Reply {
                permission: Some((Permission::Ask, "b".into())),
                context: Some("y".into()),
                ..Reply::default()
            },
        );
        d.add(
            "c",
            Reply {
                permission: Some((Permission::Allow, "c".into())),
                ..Reply::default()
            },
        );
        assert_eq!(d.permission, Some((Permission::Ask, "b".to_string())));
        assert_eq!(d.context, vec!["x", "y"]);
    }

    #[test]
    fn continue_false_stops_with_its_reason() {
        let r = read_reply(
            HookEvent::Stop,
            &out(0, r#"{"continue": false, "stopReason": "done"}"#, ""),
        );
        assert_eq!(r.stop.as_deref(), Some("done"));
    }
}
