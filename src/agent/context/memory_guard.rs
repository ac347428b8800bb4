//! Keeps web, MCP and shell content out of long-term memory: once such content (from a tool declaring
//! `external_content`) reached the model in a turn, a tool declaring `writes_memory` (`save_memory`) is refused
//! for the rest of the turn unless the user's own text asked to remember something. (A page or a command's output
//! could otherwise plant a "fact" that steers every later session.)
//!
//! It also keeps the session's [`MemoryTaint`]: after each call it records what the call read that the session
//! did not write itself (the project's files, read by a tool of kind read or search, which in a cloned repository
//! are someone else's words; and any external content), and which files the call wrote. The approval gate reads
//! the taint: a `global` save after such content is the person's to decide in every mode but `full` (global
//! memory follows the user into every project, and their own "remember" may quote the file that asks for it);
//! `save_memory` stores the reads with the fact. A turn's external content without the user asking to remember
//! stays refused here first, in every scope and mode, as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use async_trait::async_trait;
use regex::Regex;
use serde_json::Value;

use crate::guard::constant_regex::constant_regex;
use crate::protocol::{CallGate, GateCall, GateVerdict, MemoryTaint, ToolKind, ToolOutcome};
use crate::protocol::{TurnHook, TurnScope};

/// Denial code for a memory save after external content.
pub const MEMORY_EXTERNAL_CONTEXT: &str = "MEMORY_EXTERNAL_CONTEXT";

const ASKS_TO_REMEMBER_PATTERN: &str = r"(?i)\b(remember|memori[sz]e|keep in mind|save (this|that|it) (to|in) memory|note (this|that) down)\b|记住|记下|记一下|牢记|保存到记忆|存到记忆";

static ASKS_TO_REMEMBER: LazyLock<Regex> =
    LazyLock::new(|| constant_regex(ASKS_TO_REMEMBER_PATTERN));

/// True when the user's text asks to remember something.
pub fn asks_to_remember(submitted: &str) -> bool {
    ASKS_TO_REMEMBER.is_match(submitted)
}

/// Compiles the pattern now (called on a background thread at start-up).
pub fn prewarm() {
    LazyLock::force(&ASKS_TO_REMEMBER);
}

/// Adds the per-turn [`ExternalContextGate`], recording into the session's [`MemoryTaint`].
pub struct MemoryGuardHook {
    taint: Arc<MemoryTaint>,
}

impl MemoryGuardHook {
    /// A hook recording the session's reads in `taint` (the one the approval gate and `save_memory` share).
    pub fn new(taint: Arc<MemoryTaint>) -> Self {
        MemoryGuardHook { taint }
    }
}

impl TurnHook for MemoryGuardHook {
    fn begin_turn(&self, submitted: &str) -> TurnScope {
        TurnScope {
            gates: vec![Arc::new(ExternalContextGate {
                user_asked: asks_to_remember(submitted),
                external_seen: AtomicBool::new(false),
                taint: Arc::clone(&self.taint),
            })],
            ..TurnScope::default()
        }
    }
}

/// Refuses `save_memory` after external content in the same turn, unless the user asked to remember; records
/// each call's reads and writes in the session's taint.
pub struct ExternalContextGate {
    user_asked: bool,
    external_seen: AtomicBool,
    taint: Arc<MemoryTaint>,
}

#[async_trait]
impl CallGate for ExternalContextGate {
    async fn check(&self, call: GateCall<'_>) -> GateVerdict {
        if call.traits.writes_memory
            && !self.user_asked
            && self.external_seen.load(Ordering::SeqCst)
        {
            return GateVerdict::deny(
                MEMORY_EXTERNAL_CONTEXT,
                "this turn read web, MCP or command output, and the user did not ask to remember anything: a fact \
learned from that content is not saved. Ask the user to confirm it first.",
            );
        }
        GateVerdict::Allow
    }

    async fn after(&self, call: GateCall<'_>, outcome: &ToolOutcome, _duration: Duration) {
        if !outcome.is_ok() {
            return;
        }
        if call.traits.edits_files {
            for path in call.write_targets {
                self.taint.wrote(path);
            }
        }
        // Tools whose output comes from outside the user and the project files say so in their traits.
        if call.traits.external_content {
            self.external_seen.store(true, Ordering::SeqCst);
            self.taint.read(&read_of(&call));
            return;
        }
        // The project's files (and their names) are someone else's words in a cloned repository, unless this
        // session wrote the file it reads.
        if matches!(call.traits.kind, ToolKind::Read | ToolKind::Search) {
            let own = call.traits.kind == ToolKind::Read
                && call
                    .args
                    .get("path")
                    .and_then(Value::as_str)
                    .is_some_and(|path| self.taint.written_by_session(path));
            if !own {
                self.taint.read(&read_of(&call));
            }
        }
    }
}

/// `tool target`: the call's name and the argument that says what it read, if it has one.
fn read_of(call: &GateCall<'_>) -> String {
    let target = ["path", "url", "command", "query", "pattern", "uri"]
        .iter()
        .find_map(|key| call.args.get(*key).and_then(Value::as_str));
    match target {
        Some(target) => format!("{} {target}", call.name),
        None => call.name.to_string(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::guard::constant_regex::broken_patterns;

    #[test]
    fn the_pattern_compiles() {
        assert_eq!(
            broken_patterns([ASKS_TO_REMEMBER_PATTERN]),
            Vec::<String>::new()
        );
    }

    #[test]
    fn recognizes_requests_to_remember() {
        assert!(asks_to_remember(
            "Please remember that we deploy on Fridays"
        ));
        assert!(asks_to_remember("记住：测试用 cargo nextest"));
        assert!(!asks_to_remember("fetch the docs and fix the build"));
    }
}
