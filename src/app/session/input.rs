//! What the person sent, and getting it ready for the model: `@path` mentions attached (images queued for a turn),
//! the first input waiting for MCP servers still starting, `@server:uri` mentions read, and everything the person
//! should hear about it sent as notices.

use std::sync::atomic::Ordering;

use tokio_util::sync::CancellationToken;

use super::Session;
use crate::agent::Agent;
use crate::app::mcp_audit::McpAudit;
use crate::app::mentions::{expand_mentions, queue_images};
use crate::config::ApprovalMode;
use crate::mcp::{self, McpManager};
use crate::plan::PlanMode;
use crate::protocol::ContentPart;
use crate::protocol::{AgentEvent, EventSink, Notice};

/// One input to a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// As the person sent it: turn policies judge this text, not the files its mentions bring in.
    pub text: String,
    /// Read for `@path` and `@server:uri` mentions (not a prompt paicli wrote, such as `/init`'s).
    pub mentions: bool,
    /// Added after the mentions were read, and never read for mentions itself (`-p`'s piped stdin).
    pub attached: Option<String>,
    /// Images sent with the text (a headless client's image blocks), for a turn.
    pub images: Vec<ContentPart>,
    pub run_as: RunAs,
}

/// Whether an input runs as a turn or a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunAs {
    /// A turn, or in the `plan` approval mode a plan.
    ByMode,
    /// A turn in any mode (`-p` without `--plan`; in the `plan` mode its calls are judged read-only).
    Turn,
    /// A plan of this kind (`/plan`, `/team`, `-p --plan`).
    Plan(PlanMode),
}

impl Input {
    /// What the person typed: mentions read, a turn or a plan as the mode says.
    pub fn typed(text: impl Into<String>) -> Input {
        Input {
            text: text.into(),
            mentions: true,
            attached: None,
            images: Vec::new(),
            run_as: RunAs::ByMode,
        }
    }

    /// A prompt paicli wrote for the person (a command's): sent as it is, as a turn.
    pub fn prompt(text: impl Into<String>) -> Input {
        Input {
            text: text.into(),
            mentions: false,
            attached: None,
            images: Vec::new(),
            run_as: RunAs::Turn,
        }
    }

    /// The same input run as `run_as` says.
    pub fn run_as(self, run_as: RunAs) -> Input {
        Input { run_as, ..self }
    }

    /// The same input with `text` added after it.
    pub fn attach(self, text: Option<String>) -> Input {
        Input {
            attached: text,
            ..self
        }
    }

    /// The same input with `images` sent along.
    pub fn with_images(self, images: Vec<ContentPart>) -> Input {
        Input { images, ..self }
    }

    /// The plan this input runs as in the approval mode `mode`; `None` for a turn.
    pub fn plan_mode(&self, mode: ApprovalMode) -> Option<PlanMode> {
        match self.run_as {
            RunAs::Plan(plan) => Some(plan),
            RunAs::ByMode if mode == ApprovalMode::Plan => Some(PlanMode::Plan),
            RunAs::ByMode | RunAs::Turn => None,
        }
    }
}

impl Session {
    /// The text the model receives for `input`; notices go to `sink`. Images are queued on `agent` for a turn.
    pub(super) async fn prepare(
        &self,
        agent: &mut Agent,
        input: &Input,
        turn: bool,
        sink: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> String {
        let mut text = if input.mentions {
            self.read_mentions(agent, &input.text, turn, sink, cancel)
                .await
        } else {
            input.text.clone()
        };
        if let Some(attached) = &input.attached {
            text = format!("{text}\n\n{attached}");
        }
        // Commands the person ran at the prompt come first: the message may be about them.
        if let Some(ran) = self.take_shell_context() {
            text = format!("{ran}\n\n{text}");
        }
        if turn && !input.images.is_empty() {
            let images = input.images.iter().enumerate();
            let named = images.map(|(n, part)| (format!("image {}", n + 1), part.clone()));
            let refused = queue_images(agent, named.collect());
            if !refused.is_empty() {
                sink.emit(AgentEvent::Notice {
                    notice: Notice::ImagesNotSent {
                        model: agent.model().to_string(),
                        paths: refused,
                    },
                });
            }
        }
        text
    }

    async fn read_mentions(
        &self,
        agent: &mut Agent,
        typed: &str,
        turn: bool,
        sink: &dyn EventSink,
        cancel: &CancellationToken,
    ) -> String {
        let notify = |notice| sink.emit(AgentEvent::Notice { notice });
        let mut expanded = expand_mentions(typed, &self.guard);
        for (mention, reason) in expanded.skipped {
            notify(Notice::MentionSkipped { mention, reason });
        }
        // A plan's planner and tasks see the text only.
        let images = std::mem::take(&mut expanded.images);
        let mut unsent: Vec<String> = images.iter().map(|(path, _)| path.clone()).collect();
        if turn {
            let refused = queue_images(agent, images);
            if !refused.is_empty() {
                notify(Notice::ImagesNotSent {
                    model: agent.model().to_string(),
                    paths: refused.clone(),
                });
            }
            unsent = refused;
        }
        let attached: Vec<String> = std::mem::take(&mut expanded.attached)
            .into_iter()
            .filter(|path| !unsent.contains(path))
            .collect();
        if !attached.is_empty() {
            notify(Notice::MentionsAttached { paths: attached });
        }
        let mcp = &self.services.mcp;
        let first = !self.mcp_waited.swap(true, Ordering::SeqCst);
        if first {
            wait_for_mcp(self.config.mcp.startup_wait, mcp, cancel).await;
        }
        let text = self.read_mcp_mentions(&expanded.text, cancel).await;
        for notice in mcp.take_notices() {
            notify(notice);
        }
        if first {
            for status in mcp.status() {
                if status.state == mcp::ServerState::Starting {
                    notify(Notice::McpStarting {
                        server: status.name.clone(),
                    });
                }
            }
        }
        text
    }

    /// `@server:uri` mentions of `text` replaced by the resources' contents, each read audited with
    /// `approver = "mention"`.
    async fn read_mcp_mentions(&self, text: &str, cancel: &CancellationToken) -> String {
        if mcp::mentions::find_mentions(text).is_empty() {
            return text.to_string();
        }
        let audit = McpAudit::new(&self.config);
        mcp::expand_mentions_observed(&self.services.mcp, text, cancel, &|read| {
            audit.mention(read)
        })
        .await
    }
}

/// Waits at most `wait` for MCP servers still starting (or until the input is cancelled).
async fn wait_for_mcp(wait: std::time::Duration, mcp: &McpManager, cancel: &CancellationToken) {
    tokio::select! {
        _ = mcp.wait_for_startup(wait) => {}
        () = cancel.cancelled() => {}
    }
}
