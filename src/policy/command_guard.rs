//! CommandGuard: refuses command lines that are destructive beyond repair (spec §6.2), in every form the shell
//! accepts — quoted, split over `&&`/`;`/pipes, inside subshells, `$(...)`, backticks, `bash -c`, or behind
//! wrappers such as `env`, `nohup`, `timeout`, `xargs`, `nice`, `command`, `exec`.
//!
//! It parses the line (see [`parse`]) instead of matching regexes over it, so `rm -r -f /` and `/bin/rm -fr $HOME`
//! are caught while `echo "rm -rf /"` is not. It is a helper, not the main defence: real isolation needs the
//! sandbox. It also keeps writes (redirections, `tee`, `cp`, `mv`, `rm`, `touch`, `mkdir`, `ln`, `chmod`, ...)
//! inside the project root, `$PAICLI_HOME`, `/tmp/…` and `/dev/null`-like devices, as far as the targets are
//! visible in the text; variables other than `$HOME` and computed paths are not expanded.

mod fence;
pub mod parse;
mod rules;
pub mod unwrap;

use std::path::PathBuf;
use std::sync::Arc;

use crate::policy::path_guard::PathGuard;

pub use fence::WriteFence;

/// The denial code tools report.
pub const COMMAND_GUARD: &str = "COMMAND_GUARD";

/// Why a command line was refused: the rule's id and an explanation for the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardDenial {
    /// Stable rule id, e.g. `rm-recursive-root`.
    pub rule: &'static str,
    pub message: String,
}

impl GuardDenial {
    fn new(rule: &'static str, message: impl Into<String>) -> Self {
        GuardDenial {
            rule,
            message: message.into(),
        }
    }

    /// The text the model receives.
    pub fn reason(&self) -> String {
        format!(
            "blocked by CommandGuard rule `{}`: {}. This command will be refused every time; do not retry it \
             unchanged. Change the approach (stay inside the project directory, avoid destructive or system-wide \
             commands) or ask the user to run it themselves.",
            self.rule, self.message
        )
    }
}

/// Checks command lines before they run.
#[derive(Clone)]
pub struct CommandGuard {
    fence: WriteFence,
}

impl CommandGuard {
    /// A guard whose writes are fenced to `guard`'s root plus `extra_roots` (e.g. `$PAICLI_HOME`).
    pub fn new(guard: Arc<PathGuard>, extra_roots: Vec<PathBuf>) -> Self {
        CommandGuard {
            fence: WriteFence::new(guard, extra_roots),
        }
    }

    /// `Ok` when `line` may run; otherwise the first rule it breaks.
    pub fn check(&self, line: &str) -> Result<(), GuardDenial> {
        rules::check_line(line, &self.fence, 0)
    }
}

#[cfg(test)]
mod tests;
