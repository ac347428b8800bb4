//! The lines of a ledger: the session header, then one record per change to the conversation.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::safe_read::read_regular_capped;
use crate::protocol::message::{Message, ToolSpec, Usage};
use crate::session::ModelKey;

/// The ledger format this build writes and reads; a ledger with a higher number is refused.
pub const FORMAT_VERSION: u32 = 1;

/// The first line of a ledger: what the session is and the exact prefix of its requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`] of the writer.
    pub format: u32,
    /// The session id `--resume` accepts.
    pub id: String,
    pub project_root: PathBuf,
    pub provider: String,
    pub model: String,
    /// The paicli version that started the session.
    pub version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_branch: Option<String>,
    /// Local time, RFC 3339.
    pub started: String,
    /// The system prompt exactly as sent (a resumed session sends it again, so the provider's cache hits).
    pub system_prompt: String,
    /// The tool list as sent with the first request.
    pub tools: Vec<ToolSpec>,
    /// The session this one was forked from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<String>,
}

/// One line of a ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Record {
    /// The header; always the first line.
    Session(Header),
    /// A user turn starts: recalled facts (if any), then the user's input.
    Turn {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        recall: Option<String>,
        input: String,
    },
    /// A message appended to the history as sent to the model: an answer, a user message inside a turn, an
    /// assistant message calling tools (written before the tools run) or one tool result (written when it ends).
    Message { message: Message },
    /// Compaction replaced messages `start..end` with `replacement`.
    Compaction {
        start: usize,
        end: usize,
        replacement: Vec<Message>,
    },
    /// An old tool result was cleared to save context.
    ToolOutputCleared { index: usize, text: String },
    /// Turn `turn` (0-based) and everything after it were dropped.
    Rewind { turn: usize },
    /// The history was cleared (`/clear`).
    Clear,
    /// The system prompt changed (a resumed session whose project instructions changed).
    SystemPrompt { text: String },
    /// The tool list changed from the header's.
    Tools { tools: Vec<ToolSpec> },
    /// Later requests go to another model.
    Model { model: String },
    /// The approval mode changed.
    Mode { mode: String },
    /// What one response (or summary) of `model` cost; `/cost` shows them again when the session is resumed.
    Usage {
        #[serde(flatten)]
        model: ModelKey,
        usage: Usage,
    },
}

/// Most bytes read of a `.git` link or `HEAD`: both are one short line, and either may be a project's planted link
/// to a device that never ends.
const GIT_FILE_CAP: u64 = 4096;

/// The git branch checked out at `root` or the nearest folder above it with a `.git`, read from `HEAD` (no
/// child process: this runs before the first request).
pub fn git_branch(root: &Path) -> Option<String> {
    let git = root
        .ancestors()
        .map(|d| d.join(".git"))
        .find(|g| g.exists())?;
    let dir = if git.is_file() {
        // A worktree or submodule: `.git` is a file naming the real folder.
        let text = read_regular_capped(&git, GIT_FILE_CAP)?;
        let target = text.trim().strip_prefix("gitdir:")?.trim();
        git.parent()?.join(target)
    } else {
        git
    };
    let head = read_regular_capped(&dir.join("HEAD"), GIT_FILE_CAP)?;
    let head = head.trim();
    match head.strip_prefix("ref: refs/heads/") {
        Some(branch) => Some(branch.to_string()),
        None => head.get(..12).map(|sha| format!("detached at {sha}")),
    }
}
