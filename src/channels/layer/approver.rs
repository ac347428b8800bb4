//! Approval by reply: the approver of a chat's session. Edits follow `[channels] edits`, listed command lines run,
//! and everything else that would ask a person is asked in the chat (buttons where the service has them, else
//! "reply y / n"), one question at a time, refused when nobody answers within the timeout or the task is stopped.
//! Nothing is ever approved silently.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use async_trait::async_trait;
use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::super::log::ChannelLog;
use super::super::policy::ChannelPolicy;
use super::super::transport::{ChatRef, Question, Transport};
use crate::config::ChannelEdits;
use crate::guard::redact::Redactor;
use crate::protocol::approval::{ApprovalAnswer, ApprovalRequest, Approver};
use crate::protocol::plan::{Plan, PlanDecision, PlanReviewer};
use crate::protocol::{Risk, ToolTraitsLookup};
use crate::text::{Lang, Msg, tr, trf};

/// The longest call text a question shows; the rest is cut with a note.
const MAX_CALL_CHARS: usize = 1_500;

/// The question waiting for its answer.
struct Pending {
    id: String,
    answer: oneshot::Sender<bool>,
}

/// The approver (and plan reviewer) of one chat.
pub struct ChatApprover {
    transport: Arc<dyn Transport>,
    policy: Arc<ChannelPolicy>,
    log: ChannelLog,
    /// Masks secrets in the call shown.
    redactor: Redactor,
    lang: Lang,
    /// Where questions go: the chat of the message being worked on (its reply token included).
    chat: Mutex<ChatRef>,
    /// The session's tools, to know which calls run commands.
    tools: OnceLock<Arc<dyn ToolTraitsLookup>>,
    pending: Mutex<Option<Pending>>,
    /// One question at a time: a second waits for the first to be answered.
    asking: tokio::sync::Mutex<()>,
    /// Cancelled (and replaced) by `/stop`: the open question counts as refused.
    withdraw: Mutex<CancellationToken>,
    asked: AtomicU64,
}

/// What the policy says about a request before anyone is asked.
#[derive(Debug, PartialEq)]
enum Ruling {
    Run,
    Refuse(String),
    Ask,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ChatApprover {
    pub fn new(
        transport: Arc<dyn Transport>,
        policy: Arc<ChannelPolicy>,
        log: ChannelLog,
        redactor: Redactor,
        lang: Lang,
        chat: ChatRef,
    ) -> Self {
        ChatApprover {
            transport,
            policy,
            log,
            redactor,
            lang,
            chat: Mutex::new(chat),
            tools: OnceLock::new(),
            pending: Mutex::new(None),
            asking: tokio::sync::Mutex::new(()),
            withdraw: Mutex::default(),
            asked: AtomicU64::new(0),
        }
    }

    /// Questions from now on go to `chat` (the message being worked on).
    pub fn set_chat(&self, chat: ChatRef) {
        *lock(&self.chat) = chat;
    }

    /// Where replies go now.
    pub fn chat(&self) -> ChatRef {
        lock(&self.chat).clone()
    }

    /// The session's tools, once it has started.
    pub fn set_tools(&self, tools: Arc<dyn ToolTraitsLookup>) {
        let _ = self.tools.set(tools);
    }

    /// Whether a question waits for its answer.
    pub fn is_asking(&self) -> bool {
        lock(&self.pending).is_some()
    }

    /// Answers the open question (`question_id` from a button must name it; a typed answer names none). Returns
    /// false when no such question is open.
    pub fn answer(&self, question_id: Option<&str>, approve: bool) -> bool {
        let mut pending = lock(&self.pending);
        let matches = match (pending.as_ref(), question_id) {
            (Some(open), Some(id)) => open.id == id,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if !matches {
            return false;
        }
        pending
            .take()
            .is_some_and(|open| open.answer.send(approve).is_ok())
    }

    /// Refuses the open question (the task was stopped).
    pub fn withdraw(&self) {
        std::mem::take(&mut *lock(&self.withdraw)).cancel();
    }

    fn rule(&self, request: &ApprovalRequest) -> Ruling {
        let traits = self
            .tools
            .get()
            .and_then(|tools| tools.traits_of(&request.tool));
        // A file edit inside the project follows `edits`. A sensitive edit (a control file) comes as high risk and
        // is always asked; so is every other medium-risk tool (the browser's actions are not edits).
        let edits_files = traits.is_some_and(|t| t.edits_files);
        if edits_files && request.risk == Risk::Medium {
            return match self.policy.edits {
                ChannelEdits::Workspace => Ruling::Run,
                ChannelEdits::Deny => Ruling::Refuse(
                    "edits are not allowed from this chat channel ([channels] edits = \"deny\"); tell the user what \
                     you would change instead"
                        .to_string(),
                ),
                ChannelEdits::Ask => Ruling::Ask,
            };
        }
        let runs_commands = traits.is_some_and(|t| t.runs_commands);
        let command = request.args.get("command").and_then(Value::as_str);
        match command {
            Some(line) if runs_commands && self.policy.runs_unasked(line) => Ruling::Run,
            _ => Ruling::Ask,
        }
    }

    /// Asks `text` in the chat and waits: `Some(answer)`, or `None` when it timed out, was withdrawn or could not
    /// be sent.
    async fn ask_in_chat(&self, text: String) -> Option<bool> {
        let _one_at_a_time = self.asking.lock().await;
        let id = format!("q{}", self.asked.fetch_add(1, Ordering::Relaxed) + 1);
        let (tx, rx) = oneshot::channel();
        *lock(&self.pending) = Some(Pending {
            id: id.clone(),
            answer: tx,
        });
        let withdrawn = lock(&self.withdraw).clone();
        let chat = lock(&self.chat).clone();
        let question = Question {
            id,
            text: self.redactor.redact(&text),
            approve_label: tr(self.lang, Msg::ChannelApproveLabel).to_string(),
            deny_label: tr(self.lang, Msg::ChannelDenyLabel).to_string(),
        };
        if let Err(e) = self.transport.ask(&chat, &question).await {
            self.log
                .record(&trf(self.lang, Msg::ChannelSendFailed, &[("error", &e)]));
            lock(&self.pending).take();
            return None;
        }
        let timeout = self.policy.approval_timeout;
        let answer = tokio::select! {
            answer = rx => answer.ok(),
            () = withdrawn.cancelled() => None,
            () = tokio::time::sleep(timeout) => {
                let secs = timeout.as_secs();
                let notice = trf(self.lang, Msg::ChannelQuestionTimedOut, &[("secs", &secs)]);
                if let Err(e) = self.transport.send(&chat, &notice).await {
                    self.log.record(&trf(self.lang, Msg::ChannelSendFailed, &[("error", &e)]));
                }
                None
            }
        };
        lock(&self.pending).take();
        answer
    }
}

/// The call as the person reads it: a command by its line, anything else as its tool and arguments.
fn call_text(request: &ApprovalRequest) -> String {
    let shown = match request.args.get("command").and_then(Value::as_str) {
        Some(line) => line.to_string(),
        None => {
            serde_json::to_string_pretty(&Value::Object(request.args.clone())).unwrap_or_default()
        }
    };
    if shown.chars().count() <= MAX_CALL_CHARS {
        return shown;
    }
    let cut: String = shown.chars().take(MAX_CALL_CHARS).collect();
    format!("{cut}\n…")
}

#[async_trait]
impl Approver for ChatApprover {
    async fn ask(&self, request: &ApprovalRequest) -> ApprovalAnswer {
        match self.rule(request) {
            Ruling::Run => return ApprovalAnswer::Approve,
            Ruling::Refuse(reason) => {
                return ApprovalAnswer::Reject {
                    reason: Some(reason),
                };
            }
            Ruling::Ask => {}
        }
        let call = call_text(request);
        let mut text = trf(
            self.lang,
            Msg::ChannelQuestion,
            &[("tool", &request.tool), ("call", &call)],
        );
        if let Some(note) = &request.note {
            text.push_str(&format!("\n({note})"));
        }
        text.push('\n');
        text.push_str(tr(self.lang, Msg::ChannelHowToAnswer));
        match self.ask_in_chat(text).await {
            Some(true) => ApprovalAnswer::Approve,
            Some(false) => ApprovalAnswer::Reject { reason: None },
            None => ApprovalAnswer::Reject {
                reason: Some(
                    "nobody approved this call in the chat in time (or the task was stopped); do not retry it \
                     unchanged"
                        .to_string(),
                ),
            },
        }
    }
}

#[async_trait]
impl PlanReviewer for ChatApprover {
    async fn review(&self, plan: &Plan, _revision: u32) -> PlanDecision {
        let mut tasks = String::new();
        for (n, task) in plan.tasks.iter().enumerate() {
            tasks.push_str(&format!("\n{}. {}", n + 1, task.title.trim()));
        }
        let mut text = trf(self.lang, Msg::ChannelPlanQuestion, &[("tasks", &tasks)]);
        text.push('\n');
        text.push_str(tr(self.lang, Msg::ChannelHowToAnswer));
        match self.ask_in_chat(text).await {
            Some(true) => PlanDecision::Run,
            _ => PlanDecision::Cancel,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::channels::transport::{ChannelError, ChannelKind, Incoming};
    use crate::protocol::ToolTraits;

    struct Silent;

    #[async_trait]
    impl Transport for Silent {
        fn kind(&self) -> ChannelKind {
            ChannelKind::Telegram
        }
        async fn poll(&self, _: &CancellationToken) -> Result<Vec<Incoming>, ChannelError> {
            Ok(Vec::new())
        }
        async fn send(&self, _: &ChatRef, _: &str) -> Result<(), ChannelError> {
            Ok(())
        }
        async fn ask(&self, _: &ChatRef, _: &Question) -> Result<(), ChannelError> {
            Ok(())
        }
        async fn typing(&self, _: &ChatRef, _: bool) -> Result<(), ChannelError> {
            Ok(())
        }
    }

    /// A file editor and a medium-risk tool that edits nothing (as the browser's actions are).
    struct Tools;

    impl ToolTraitsLookup for Tools {
        fn traits_of(&self, name: &str) -> Option<ToolTraits> {
            match name {
                "write_file" => Some(ToolTraits::FILE_EDIT),
                "browser_click" => Some(ToolTraits::side_effect(Risk::Medium)),
                _ => None,
            }
        }
    }

    fn approver(edits: ChannelEdits) -> ChatApprover {
        let home = std::env::temp_dir();
        let policy = ChannelPolicy {
            allow_from: vec!["1".into()],
            edits,
            commands: Vec::new(),
            approval_timeout: Duration::from_secs(1),
        };
        let approver = ChatApprover::new(
            Arc::new(Silent),
            Arc::new(policy),
            ChannelLog::new(&home, "telegram"),
            Redactor::new(Vec::new()),
            Lang::En,
            ChatRef {
                chat_id: "1".into(),
                reply_token: None,
            },
        );
        approver.set_tools(Arc::new(Tools));
        approver
    }

    fn request(tool: &str) -> ApprovalRequest {
        ApprovalRequest {
            call_id: "c1".into(),
            tool: tool.into(),
            risk: Risk::Medium,
            args: serde_json::Map::new(),
            session_rule: None,
            project_rule: None,
            unsandboxed: false,
            note: None,
        }
    }

    #[test]
    fn only_file_edits_follow_the_edits_policy_other_medium_risk_calls_are_asked() {
        let workspace = approver(ChannelEdits::Workspace);
        assert_eq!(workspace.rule(&request("write_file")), Ruling::Run);
        assert_eq!(workspace.rule(&request("browser_click")), Ruling::Ask);
        let deny = approver(ChannelEdits::Deny);
        assert!(matches!(
            deny.rule(&request("write_file")),
            Ruling::Refuse(_)
        ));
        assert_eq!(deny.rule(&request("browser_click")), Ruling::Ask);
        assert_eq!(deny.rule(&request("unknown")), Ruling::Ask);
    }
}
