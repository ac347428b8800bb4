//! CommandGuard: refuses command lines that are destructive beyond repair (spec §6.2), in every form the shell
//! accepts — quoted, ANSI-C quoted, brace-expanded, split over `&&`/`;`/pipes, inside subshells, `$(...)`,
//! backticks, `bash -c`, `find -exec`, or behind wrappers such as `env -S`, `time -p`, `chroot`, `xargs`.
//!
//! It reads the line with the bash grammar (see [`parse`]) instead of matching regexes over it, so `rm -r -f /`
//! and `/bin/rm -fr $HOME` are caught while `echo "rm -rf /"` is not, and it follows `cd` so `cd .. && rm -rf
//! project` is seen for what it is. It also keeps writes (redirections, `tee`, `cp`, `mv`, `rm`, `sed -i`, ...)
//! inside the project root, `/tmp` and `$PAICLI_HOME`'s caches, judged after resolving symlinks.
//!
//! What cannot be known before the line runs (a computed command name or target, `eval`, a script fed to a
//! shell on stdin, an alias) is not refused but reported as [`CommandAssessment::Opaque`], and a write to a control
//! path (git config or hooks, editor tasks, instruction files, paicli's settings, …; `git config`, `git remote add`
//! included) as [`CommandAssessment::ControlFile`]: the approval gate decides who may run those.
//! It is a helper, not the main defence: real isolation needs the sandbox.

mod destructive;
mod fence;
mod git_writes;
pub mod parse;
mod rules;
pub mod unwrap;
mod words;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::guard::control_files::{ControlFiles, ControlKind};
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
    /// It writes a control path (see [`crate::guard::control_files`]): `path` as the person should read it.
    ControlFile { path: String, kind: ControlKind },
}

/// Checks command lines before they run.
#[derive(Clone)]
pub struct CommandGuard {
    fence: WriteFence,
}

impl CommandGuard {
    /// A guard whose writes are fenced to `guard`'s root, `/tmp` and the caches of `paicli_home`
    /// (`$PAICLI_HOME`), whose control files (and the project's) are reported as such.
    pub fn new(guard: Arc<PathGuard>, paicli_home: Option<PathBuf>) -> Self {
        CommandGuard {
            fence: WriteFence::new(guard, paicli_home),
        }
    }

    /// [`CommandGuard::new`] reporting the control files of `control` (the session's table).
    pub fn with_control_files(
        guard: Arc<PathGuard>,
        paicli_home: Option<PathBuf>,
        control: ControlFiles,
    ) -> Self {
        CommandGuard {
            fence: WriteFence::with_control_files(guard, paicli_home, control),
        }
    }

    /// The project root the guard judges paths against.
    pub fn root(&self) -> &Path {
        self.fence.root()
    }

    /// `Err` with the first rule `line` breaks; otherwise what could be known about it.
    pub fn check(&self, line: &str) -> Result<CommandAssessment, GuardDenial> {
        let mut checker = rules::Checker::new(&self.fence);
        checker.line(line, &Some(PathBuf::new()), 0)?;
        Ok(checker.assessment())
    }
}

#[cfg(test)]
mod tests;
