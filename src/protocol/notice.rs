//! Typed notices: what the agent and the layers under it tell the person, as data. The UI words them in the
//! person's language; `Display` gives the English text that logs and `--output-format json` scripts read.

use serde::ser::{Serialize, SerializeMap, Serializer};

/// Something the user should know that is not part of the answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The model wrote tool calls as DSML text; they run as tool calls.
    DsmlCallsRun { calls: usize },
    /// DSML markup in the answer could not be run.
    DsmlNotRun { why: String },
    /// The answer stopped at the model's output limit.
    AnswerCutOff,
    /// The runaway guard reminded the model to change course.
    RunawayReminder,
    /// The session ledger could not be written this turn.
    LedgerNotWritten { error: String },
    /// The request overflowed the context window; compacting and retrying once.
    ContextOverflow,
    /// A budget stopped the turn; the model is asked for a report.
    PartialCompletion { reason: String },
    /// Long-term memory could not be read for this turn.
    MemoryUnavailable { error: String },
    /// The compaction summary failed (the window guarantee may still trim the history).
    CompactionSkipped { error: String },
    /// The snapshot store could not be opened (e.g. `git` is missing).
    SnapshotsOff { error: String },
    /// The input is only a headline, so web tools are off for the turn.
    HeadlineOnly,
    /// An MCP server failed.
    McpServerFailed { server: String, error: String },
    /// An MCP config file was skipped.
    McpConfigSkipped { error: String },
    /// An MCP server has no usable launch configuration.
    McpNotStarted { server: String, reason: String },
    /// A project MCP server waits for approval.
    McpNeedsApproval {
        server: String,
        source: String,
        command: String,
    },
    /// The approval of an MCP server could not be saved.
    McpApprovalNotSaved { server: String, error: String },
    /// An MCP server is still starting when the first turn begins.
    McpStarting { server: String },
    /// A rare notice with no wording of its own: `text` is foreign (an error from elsewhere).
    Note { text: String },
    // local
    /// A reply stopped at the output limit while writing tool calls; none ran, the model may retry once.
    ToolCallsCutOff { calls: usize },
    /// A second reply this turn stopped at the output limit; its calls did not run and the turn ends.
    ToolCallsCutOffAgain { calls: usize },
    /// The model ended its turn with an empty reply.
    EmptyAnswer,
    /// The model's reply held only reasoning, no answer.
    ReasoningOnly,
    /// The reply reached the output limit while the model was still reasoning.
    ReasoningCutOff,
    // compaction
    /// The request still did not fit the context window, so the oldest history was dropped or shortened.
    ContextTrimmed {
        dropped: usize,
        shortened: usize,
        before: u64,
        after: u64,
    },
    /// A model request failed with a retryable error and is tried again after a wait. `cause` is `HTTP 429` or
    /// a short English label; `seconds` is the wait, already formatted (`2`, `0.4`); `attempt` of `max` is next.
    Retrying {
        cause: String,
        seconds: String,
        attempt: u32,
        max: u32,
    },
    /// A remote MCP server wants OAuth authorization and has no usable tokens.
    McpNeedsLogin { server: String },
    // plan
    /// The planner's plan was invalid; it is asked once to fix it.
    PlanRepairing { error: String },
    /// Failures left the plan under 50% done: it is made again with what failed.
    PlanReplanning { failed: usize, total: usize },
    /// The re-plan failed; the work already done is reported.
    PlanReplanFailed { error: String },
    /// The team's reviewer rejected a step; its worker tries again (`retry` of `max`).
    PlanStepRejected {
        reasons: String,
        retry: u32,
        max: u32,
    },
    /// The team's reviewer rejected a step after its `retries` retries: the step failed.
    PlanStepRejectedFinal { reasons: String, retries: u32 },
    /// The team's reviewer passed a step.
    PlanStepApproved,
    /// A plan made in `plan` mode was approved: the session left plan mode for `mode` (the one before it).
    PlanModeLeft { mode: String },
    // input
    // hooks
    /// A hook said something for the person (`systemMessage`) or failed without blocking; `text` is foreign.
    HookMessage { text: String },
    /// A `UserPromptSubmit` hook blocked the prompt: nothing was sent to the model.
    HookPromptBlocked { reason: String },
    /// A `Stop` hook blocked the end of the turn: the agent goes on with its reason.
    HookStopContinues { reason: String },
    /// `Stop` hooks kept the turn going `times` times, the most allowed; the turn ends.
    HookStopLimit { times: u32, reason: String },
    /// A project hook waits for the person's trust and does not run (its command shown made visible).
    HookNeedsTrust {
        event: String,
        source: String,
        command: String,
    },
    // delegation
    /// A sub-agent's definition named a Claude model alias and no Anthropic provider is configured: it runs on
    /// the lead's model.
    AgentModelInherited {
        agent: String,
        alias: String,
        model: String,
    },
    /// The model `[plan]` names for a role cannot be used: the role runs on the session's model.
    RoleModelRefused { role: String, reason: String },
    // input
    /// An `@path` mention of the input was not attached.
    MentionSkipped { mention: String, reason: SkipReason },
    /// The input mentioned images, and the model does not take images: they were not sent.
    ImagesNotSent { model: String, paths: Vec<String> },
    /// The input's `@path` mentions were attached (paths relative to the root), so the person sees what was sent.
    MentionsAttached { paths: Vec<String> },
}

/// Why an `@path` mention was not attached; each front-end words it for the person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SkipReason {
    /// The path resolves outside the project root (the guard's sentence).
    #[error("{0}")]
    OutsideRoot(String),
    /// The path could not be resolved (the guard's sentence).
    #[error("{0}")]
    Unresolvable(String),
    #[error("cannot read it: {0}")]
    Unreadable(String),
    #[error("it is a binary file")]
    Binary,
    #[error("cannot list it: {0}")]
    Unlistable(String),
    /// `@image:` named a file that is not a PNG, JPEG, GIF or WebP image, or one that does not decode.
    #[error("{0}")]
    NotAnImage(String),
}

impl Notice {
    /// A stable snake_case name, the `kind` of the JSON form.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::DsmlCallsRun { .. } => "dsml_calls_run",
            Notice::DsmlNotRun { .. } => "dsml_not_run",
            Notice::AnswerCutOff => "answer_cut_off",
            Notice::RunawayReminder => "runaway_reminder",
            Notice::LedgerNotWritten { .. } => "ledger_not_written",
            Notice::ContextOverflow => "context_overflow",
            Notice::PartialCompletion { .. } => "partial_completion",
            Notice::MemoryUnavailable { .. } => "memory_unavailable",
            Notice::CompactionSkipped { .. } => "compaction_skipped",
            Notice::SnapshotsOff { .. } => "snapshots_off",
            Notice::HeadlineOnly => "headline_only",
            Notice::McpServerFailed { .. } => "mcp_server_failed",
            Notice::McpConfigSkipped { .. } => "mcp_config_skipped",
            Notice::McpNotStarted { .. } => "mcp_not_started",
            Notice::McpNeedsApproval { .. } => "mcp_needs_approval",
            Notice::McpApprovalNotSaved { .. } => "mcp_approval_not_saved",
            Notice::McpStarting { .. } => "mcp_starting",
            Notice::Note { .. } => "note",
            Notice::ToolCallsCutOff { .. } => "tool_calls_cut_off",
            Notice::ToolCallsCutOffAgain { .. } => "tool_calls_cut_off_again",
            Notice::EmptyAnswer => "empty_answer",
            Notice::ReasoningOnly => "reasoning_only",
            Notice::ReasoningCutOff => "reasoning_cut_off",
            Notice::ContextTrimmed { .. } => "context_trimmed",
            Notice::Retrying { .. } => "retrying",
            Notice::McpNeedsLogin { .. } => "mcp_needs_login",
            Notice::PlanRepairing { .. } => "plan_repairing",
            Notice::PlanReplanning { .. } => "plan_replanning",
            Notice::PlanReplanFailed { .. } => "plan_replan_failed",
            Notice::PlanStepRejected { .. } => "plan_step_rejected",
            Notice::PlanStepRejectedFinal { .. } => "plan_step_rejected_final",
            Notice::PlanStepApproved => "plan_step_approved",
            Notice::PlanModeLeft { .. } => "plan_mode_left",
            Notice::HookMessage { .. } => "hook_message",
            Notice::HookPromptBlocked { .. } => "hook_prompt_blocked",
            Notice::HookStopContinues { .. } => "hook_stop_continues",
            Notice::HookStopLimit { .. } => "hook_stop_limit",
            Notice::HookNeedsTrust { .. } => "hook_needs_trust",
            Notice::AgentModelInherited { .. } => "agent_model_inherited",
            Notice::RoleModelRefused { .. } => "role_model_refused",
            Notice::MentionSkipped { .. } => "mention_skipped",
            Notice::ImagesNotSent { .. } => "images_not_sent",
            Notice::MentionsAttached { .. } => "mentions_attached",
        }
    }

    /// The English wording with `{name}` placeholders; the UI's English table entry for this kind is the same.
    pub fn english(&self) -> &'static str {
        match self {
            Notice::DsmlCallsRun { .. } => {
                "the model wrote {calls} tool call(s) as DSML text; running them as tool calls"
            }
            Notice::DsmlNotRun { .. } => {
                "tool call not executed: the answer holds DSML markup that paicli cannot run ({why})"
            }
            Notice::AnswerCutOff => "the answer was cut off at the model's output limit",
            Notice::RunawayReminder => {
                "runaway guard: the model keeps repeating itself; reminded it to change course"
            }
            Notice::LedgerNotWritten { .. } => {
                "the session ledger could not be written; resuming may miss this turn: {error}"
            }
            Notice::ContextOverflow => {
                "the request exceeded the model's context window: compacting and retrying once"
            }
            Notice::PartialCompletion { .. } => {
                "partial completion ({reason}): asking the model for a report"
            }
            Notice::MemoryUnavailable { .. } => "long-term memory unavailable: {error}",
            Notice::CompactionSkipped { .. } => "context compaction skipped: {error}",
            Notice::SnapshotsOff { .. } => "snapshots are off: {error}",
            Notice::HeadlineOnly => {
                "This looks like a headline only, so web tools are off for this turn. Say what you want done \
                 with it (e.g. summarize it, write an article, explain the topic)."
            }
            Notice::McpServerFailed { .. } => "MCP server `{server}` failed: {error}",
            Notice::McpConfigSkipped { .. } => "MCP config skipped: {error}",
            Notice::McpNotStarted { .. } => "MCP server `{server}` not started: {reason}",
            Notice::McpNeedsApproval { .. } => {
                "MCP server `{server}` from {source} is not approved for this project and was not started. \
                 Review its command `{command}`, then run paicli once with --trust-project-mcp to approve it."
            }
            Notice::McpApprovalNotSaved { .. } => {
                "could not remember the approval of `{server}`: {error}"
            }
            Notice::McpStarting { .. } => {
                "MCP server `{server}` is still starting; its tools join when it is ready"
            }
            Notice::Note { .. } => "note: {text}",
            Notice::ToolCallsCutOff { .. } => {
                "the reply was cut off at the output limit before its {calls} tool call(s) were complete; none \
                 ran, asking the model for a shorter step"
            }
            Notice::ToolCallsCutOffAgain { .. } => {
                "the reply was cut off at the output limit again; its {calls} tool call(s) did not run and the \
                 task stops (raise max_output_tokens or ask for smaller steps)"
            }
            Notice::EmptyAnswer => "the model gave no answer: its reply was empty",
            Notice::ReasoningOnly => "the model gave no answer: its reply held only reasoning",
            Notice::ReasoningCutOff => {
                "the model gave no answer: it was still reasoning when the reply reached the output limit \
                 (raise max_output_tokens)"
            }
            Notice::ContextTrimmed { .. } => {
                "the conversation still did not fit the context window: dropped {dropped} older messages and \
                 shortened {shortened} tool results ({before} → {after} tokens)"
            }
            Notice::Retrying { .. } => "{cause}, retrying in {seconds} s ({attempt}/{max})",
            Notice::McpNeedsLogin { .. } => {
                "MCP server `{server}` needs you to log in and was not started: run `paicli mcp login {server}`"
            }
            Notice::PlanRepairing { .. } => {
                "the plan is invalid ({error}); asking the planner to fix it"
            }
            Notice::PlanReplanning { .. } => {
                "{failed} of {total} tasks failed and less than half is done: making a new plan"
            }
            Notice::PlanReplanFailed { .. } => "the new plan could not be made: {error}",
            Notice::PlanStepRejected { .. } => {
                "the reviewer rejected the step (retry {retry} of {max}): {reasons}"
            }
            Notice::PlanStepRejectedFinal { .. } => {
                "the reviewer rejected the step again after {retries} retries; the step failed: {reasons}"
            }
            Notice::PlanStepApproved => "the reviewer approved the step",
            Notice::PlanModeLeft { .. } => {
                "plan approved: it runs in {mode} mode, and plan mode ends"
            }
            Notice::HookMessage { .. } => "hook: {text}",
            Notice::HookPromptBlocked { .. } => {
                "a UserPromptSubmit hook blocked the prompt; nothing was sent to the model: {reason}"
            }
            Notice::HookStopContinues { .. } => "a Stop hook keeps the agent working: {reason}",
            Notice::HookStopLimit { .. } => {
                "Stop hooks kept the agent working {times} times, the most allowed; the turn ends here ({reason})"
            }
            Notice::HookNeedsTrust { .. } => {
                "the project's {event} hook `{command}` from {source} does not run until you trust this project: \
                 review it, then use /trust in the REPL or run paicli with --trust-project"
            }
            Notice::AgentModelInherited { .. } => {
                "agent {agent} asks for `{alias}`, a Claude model, and no Anthropic provider is configured: it runs on {model}"
            }
            Notice::RoleModelRefused { .. } => {
                "the plan's {role} runs on the session's model: {reason}"
            }
            Notice::MentionSkipped { .. } => "{mention} not attached: {reason}",
            Notice::MentionsAttached { .. } => "attached {paths}",
            Notice::ImagesNotSent { .. } => {
                "{model} does not take images, so {paths} was not attached; switch to a vision model (/model, --model) or set llm.vision = true if it does take them"
            }
        }
    }

    /// The data of the notice, by placeholder name.
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        match self {
            Notice::DsmlCallsRun { calls } => vec![("calls", calls.to_string())],
            Notice::DsmlNotRun { why } => vec![("why", why.clone())],
            Notice::ToolCallsCutOff { calls } | Notice::ToolCallsCutOffAgain { calls } => {
                vec![("calls", calls.to_string())]
            }
            Notice::AnswerCutOff
            | Notice::EmptyAnswer
            | Notice::ReasoningOnly
            | Notice::ReasoningCutOff
            | Notice::RunawayReminder
            | Notice::ContextOverflow
            | Notice::HeadlineOnly => Vec::new(),
            Notice::PartialCompletion { reason } => vec![("reason", reason.clone())],
            Notice::LedgerNotWritten { error }
            | Notice::MemoryUnavailable { error }
            | Notice::CompactionSkipped { error }
            | Notice::SnapshotsOff { error }
            | Notice::McpConfigSkipped { error } => vec![("error", error.clone())],
            Notice::McpServerFailed { server, error }
            | Notice::McpApprovalNotSaved { server, error } => {
                vec![("server", server.clone()), ("error", error.clone())]
            }
            Notice::McpNotStarted { server, reason } => {
                vec![("server", server.clone()), ("reason", reason.clone())]
            }
            Notice::McpNeedsApproval {
                server,
                source,
                command,
            } => vec![
                ("server", server.clone()),
                ("source", source.clone()),
                ("command", command.clone()),
            ],
            Notice::McpStarting { server } | Notice::McpNeedsLogin { server } => {
                vec![("server", server.clone())]
            }
            Notice::PlanRepairing { error } | Notice::PlanReplanFailed { error } => {
                vec![("error", error.clone())]
            }
            Notice::PlanReplanning { failed, total } => {
                vec![("failed", failed.to_string()), ("total", total.to_string())]
            }
            Notice::PlanStepRejected {
                reasons,
                retry,
                max,
            } => vec![
                ("reasons", reasons.clone()),
                ("retry", retry.to_string()),
                ("max", max.to_string()),
            ],
            Notice::PlanStepRejectedFinal { reasons, retries } => vec![
                ("reasons", reasons.clone()),
                ("retries", retries.to_string()),
            ],
            Notice::PlanStepApproved => Vec::new(),
            Notice::Note { text } => vec![("text", text.clone())],
            Notice::PlanModeLeft { mode } => vec![("mode", mode.clone())],
            Notice::HookMessage { text } => vec![("text", text.clone())],
            Notice::HookPromptBlocked { reason } | Notice::HookStopContinues { reason } => {
                vec![("reason", reason.clone())]
            }
            Notice::HookStopLimit { times, reason } => {
                vec![("times", times.to_string()), ("reason", reason.clone())]
            }
            Notice::HookNeedsTrust {
                event,
                source,
                command,
            } => vec![
                ("event", event.clone()),
                ("source", source.clone()),
                ("command", command.clone()),
            ],
            Notice::AgentModelInherited {
                agent,
                alias,
                model,
            } => vec![
                ("agent", agent.clone()),
                ("alias", alias.clone()),
                ("model", model.clone()),
            ],
            Notice::RoleModelRefused { role, reason } => {
                vec![("role", role.clone()), ("reason", reason.clone())]
            }
            Notice::MentionSkipped { mention, reason } => {
                vec![("mention", mention.clone()), ("reason", reason.to_string())]
            }
            Notice::ImagesNotSent { model, paths } => {
                vec![("model", model.clone()), ("paths", paths.join(", "))]
            }
            Notice::MentionsAttached { paths } => vec![("paths", paths.join(", "))],
            Notice::ContextTrimmed {
                dropped,
                shortened,
                before,
                after,
            } => vec![
                ("dropped", dropped.to_string()),
                ("shortened", shortened.to_string()),
                ("before", before.to_string()),
                ("after", after.to_string()),
            ],
            Notice::Retrying {
                cause,
                seconds,
                attempt,
                max,
            } => vec![
                ("cause", cause.clone()),
                ("seconds", seconds.clone()),
                ("attempt", attempt.to_string()),
                ("max", max.to_string()),
            ],
        }
    }

    /// Fills `template` (this notice's wording in some language) with the notice's data.
    pub fn fill(&self, template: &str) -> String {
        let fields = self.fields();
        fill_placeholders(template, |name| {
            fields
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
        })
    }
}

/// Replaces each `{name}` in `template` by `value_of(name)`; unknown placeholders stay as written. One pass, so a
/// value that itself holds `{name}` is not filled again.
pub fn fill_placeholders(template: &str, value_of: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let hit = after
            .find('}')
            .and_then(|close| value_of(&after[..close]).map(|v| (v, close)));
        match hit {
            Some((value, close)) => {
                out.push_str(&value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fill(self.english()))
    }
}

/// JSON keeps the shape scripts read: the `kind` and the English `message`.
impl Serialize for Notice {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("kind", self.kind())?;
        map.serialize_entry("message", &self.to_string())?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn display_fills_the_english_wording_once() {
        let n = Notice::McpServerFailed {
            server: "git".into(),
            error: "exit {server}".into(),
        };
        assert_eq!(n.to_string(), "MCP server `git` failed: exit {server}");
    }

    #[test]
    fn a_notice_event_serializes_its_kind_and_english_message() {
        let event = super::super::AgentEvent::Notice {
            notice: Notice::DsmlCallsRun { calls: 2 },
        };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "type": "notice",
                "kind": "dsml_calls_run",
                "message": "the model wrote 2 tool call(s) as DSML text; running them as tool calls",
            })
        );
    }
}
