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

use crate::guard::path_guard::PathGuard;

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

/// What the guard knows about a line it did not refuse. Only `Known` lines may run without a person (or `full`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandAssessment {
    /// Every command name and write target could be known statically.
    Known,
    /// Something cannot be known before it runs (a substitution as the command name, `eval`, a script fed to a
    /// shell on stdin, process substitution, an alias): never auto-run; `why` says what, for the person.
    Opaque { why: String },
    /// It writes one of paicli's control files (see [`crate::guard::control_files`]).
    ControlFile { path: String },
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

    /// `Err` with the first rule `line` breaks; otherwise what could be known about it.
    pub fn check(&self, line: &str) -> Result<CommandAssessment, GuardDenial> {
        rules::check_line(line, &self.fence, 0).map(|()| CommandAssessment::Known)
    }
}

#[cfg(test)]
mod tests;
