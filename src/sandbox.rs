//! The OS sandbox around `execute_command`'s children: Landlock on Linux, Seatbelt on macOS. Reading stays
//! allowed everywhere; writing only where the [`Policy`] says; with `[sandbox] network = false`, no TCP. The
//! command guard still runs first: it refuses what it recognises, the sandbox holds for what it cannot parse.

#[cfg(target_os = "linux")]
mod contain;
pub mod control_watch;
mod detect;
mod explain;
mod git_link;
#[cfg(target_os = "linux")]
mod landlock;
mod policy;
pub mod seatbelt;
mod sockets;

use std::path::{Path, PathBuf};

pub use crate::config::{SandboxMode, SandboxSettings};
pub use crate::protocol::Confinement;
#[cfg(target_os = "linux")]
pub use contain::Lifetime;
#[cfg(not(target_os = "linux"))]
pub use detect::Lifetime;
pub use detect::{Support, probe};
pub use explain::explain_denial;
pub use git_link::GitLinkRefusal;
pub use policy::{Origin, Places, Policy, Root, ToolCache, tool_caches};
pub use sockets::SOCKET_VARS;

/// Hides paicli's own memory and environment (its API keys) from the commands it runs: the process becomes
/// non-dumpable, so `/proc/<pid>/environ`, `mem` and `maps` open only to a process with `CAP_SYS_PTRACE`, which
/// a confined command (root included) does not have. Call once at start; a no-op off Linux.
pub fn harden_process() {
    #[cfg(target_os = "linux")]
    // SAFETY: one prctl on this process.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// The git directories the `.git` file of the project at `root` links to, when they provably belong to it (a
/// linked worktree's own directory and its common one): their config and hooks are control paths too.
pub fn linked_git_dirs(root: &Path, paicli_home: Option<&Path>) -> Vec<std::path::PathBuf> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    policy::linked_git(&root, paicli_home).dirs
}

/// Why a command cannot run as asked.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// `mode = "required"` and this machine cannot confine commands.
    #[error(
        "the sandbox is required ([sandbox] mode = \"required\") but not available here ({0}); the command was not \
         run. Tell the user: they can set [sandbox] mode = \"auto\" or run paicli where the sandbox works"
    )]
    Unavailable(String),
    /// Building the confinement failed.
    #[error("the sandbox could not be set up: {0}")]
    Setup(String),
}

/// The session's sandbox: its settings, what the machine supports, and the tool caches found at start.
#[derive(Clone, Debug)]
pub struct Sandbox {
    settings: SandboxSettings,
    support: Support,
    tool_caches: Vec<ToolCache>,
}

impl Default for Sandbox {
    /// The default settings (`auto`) on this machine, with the tool caches under the user's home.
    fn default() -> Self {
        let caches = tool_caches(dirs::home_dir().as_deref(), |var| std::env::var(var).ok());
        Sandbox::new(SandboxSettings::default(), caches)
    }
}

impl Sandbox {
    /// `settings` on this machine (probed once per process).
    pub fn new(settings: SandboxSettings, tool_caches: Vec<ToolCache>) -> Self {
        Sandbox::with_support(settings, tool_caches, probe())
    }

    /// `settings` as if the machine offered `support`: the seam tests use to pretend the kernel lacks Landlock.
    pub fn with_support(
        settings: SandboxSettings,
        tool_caches: Vec<ToolCache>,
        support: Support,
    ) -> Self {
        Sandbox {
            settings,
            support,
            tool_caches,
        }
    }

    pub fn settings(&self) -> &SandboxSettings {
        &self.settings
    }

    pub fn support(&self) -> Support {
        self.support
    }

    /// True when commands run confined (the mode is not `off` and the machine supports it).
    pub fn is_active(&self) -> bool {
        self.settings.mode != SandboxMode::Off && self.support.is_available()
    }

    /// The once-per-session notice when the settings ask for more than this machine gives: `auto` without
    /// support, or the network off on a kernel whose Landlock cannot refuse TCP. `None` when all is in force.
    pub fn shortfall(&self) -> Option<Shortfall> {
        if self.settings.mode == SandboxMode::Off {
            return None;
        }
        if !self.support.is_available() {
            return Some(Shortfall::NoSandbox(self.support.describe()));
        }
        (!self.settings.network && !self.support.confines_network())
            .then_some(Shortfall::NetworkOpen)
    }

    /// Everything to tell the person once per session about `root`: the [`Sandbox::shortfall`] and a `.git`
    /// file whose target stays read-only.
    pub fn notices(&self, root: &Path, paicli_home: Option<&Path>) -> Vec<Shortfall> {
        let mut notices: Vec<Shortfall> = self.shortfall().into_iter().collect();
        // Only the `.git` check of a command's policy: the rest (sockets, caches) is not needed to tell this.
        if self.is_active() && !self.settings.protect_git {
            let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            if let Some(why) = policy::linked_git(&root, paicli_home).refused {
                notices.push(Shortfall::GitLinkRefused(why));
            }
        }
        notices
    }

    /// How this machine keeps a command's processes together (`None` off Linux, where Seatbelt has no such
    /// rule and the process group is killed).
    pub fn lifetime(&self) -> Option<Lifetime> {
        #[cfg(target_os = "linux")]
        return self.is_active().then(Lifetime::probe);
        #[cfg(not(target_os = "linux"))]
        return None;
    }

    /// The policy a command gets under `confinement` (`ReadOnly` drops every writable folder).
    pub fn policy(&self, places: Places<'_>, confinement: Confinement) -> Policy {
        let places = Places {
            tool_caches: &self.tool_caches,
            ..places
        };
        Policy::build(
            &self.settings,
            places,
            confinement == Confinement::ReadOnly,
            confinement == Confinement::ControlWritable,
        )
    }

    /// How to launch `program` for one command: confined, or plainly when the mode is off, the person chose to
    /// run it outside the sandbox, or `auto` finds no support. `required` without support is an error.
    pub fn prepare(
        &self,
        root: &Path,
        paicli_home: Option<&Path>,
        confinement: Confinement,
    ) -> Result<Launch, SandboxError> {
        if confinement == Confinement::Unsandboxed || self.settings.mode == SandboxMode::Off {
            return Ok(Launch::Plain);
        }
        if !self.support.is_available() {
            return match self.settings.mode {
                SandboxMode::Required => Err(SandboxError::Unavailable(self.support.describe())),
                _ => Ok(Launch::Plain),
            };
        }
        let places = Places {
            root,
            paicli_home,
            tool_caches: &[],
        };
        let policy = self.policy(places, confinement);
        let confined = Confined::build(&policy, self.support)?;
        Ok(Launch::Confined {
            policy: Box::new(policy),
            confined,
        })
    }
}

/// What the settings ask for and this machine cannot give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// No sandbox at all (why); commands run unconfined.
    NoSandbox(String),
    /// `network = false` cannot be enforced (Landlock before ABI 4).
    NetworkOpen,
    /// The project's `.git` file names a directory that stays read-only, and why.
    GitLinkRefused(GitLinkRefusal),
}

/// How one command is started.
#[derive(Debug)]
pub enum Launch {
    /// Unconfined.
    Plain,
    /// Inside the sandbox, under this policy.
    Confined {
        policy: Box<Policy>,
        confined: Confined,
    },
}

impl Launch {
    /// Records the control paths this launch cannot keep read-only (not there yet, symlinks, or all of them
    /// without mount namespaces), to undo after the command ends; `None` when there are none.
    pub fn watch_control(&self) -> Option<control_watch::ControlWatch> {
        let Launch::Confined { policy, confined } = self else {
            return None;
        };
        let mut paths = policy.control_watch.clone();
        if !confined.enforces_control() {
            paths.extend(policy.control.iter().cloned());
        }
        let watch = control_watch::ControlWatch::before(&paths);
        (!watch.is_empty()).then_some(watch)
    }

    /// True when the command runs in the sandbox.
    pub fn is_confined(&self) -> bool {
        matches!(self, Launch::Confined { .. })
    }

    /// The command that starts `program` this way. Keep `self` alive until the child is spawned.
    pub fn command(&self, program: &str) -> tokio::process::Command {
        match self {
            Launch::Plain => tokio::process::Command::new(program),
            Launch::Confined { confined, .. } => confined.command(program),
        }
    }
}

/// The platform's confinement, prepared in the parent.
#[derive(Debug)]
pub enum Confined {
    /// The ruleset, and the namespaces that keep the command's processes and paicli's state in hand.
    #[cfg(target_os = "linux")]
    Landlock {
        rules: landlock::LandlockRules,
        containment: contain::Containment,
    },
    /// A Seatbelt profile for `sandbox-exec -p`.
    Seatbelt(String),
}

impl Confined {
    fn build(policy: &Policy, support: Support) -> Result<Confined, SandboxError> {
        match support {
            #[cfg(target_os = "linux")]
            Support::Landlock { abi } => {
                // The control paths that exist are mounted read-only like paicli's state (Landlock alone cannot
                // carve them out of the project without stopping new files at its top; see `control_watch`).
                let read_only: Vec<PathBuf> = policy
                    .read_only
                    .iter()
                    .chain(&policy.control)
                    .cloned()
                    .collect();
                let containment =
                    contain::Containment::new(&read_only, &policy.masked_sockets, true);
                // Without mounts, Landlock carves paicli's state out of the roots itself.
                let mut split = policy.protected.clone();
                if !containment.mounts_read_only() {
                    split.extend(policy.read_only.iter().cloned());
                }
                let rules = landlock::LandlockRules::build(policy, abi, &split)?;
                Ok(Confined::Landlock { rules, containment })
            }
            Support::Seatbelt => Ok(Confined::Seatbelt(seatbelt::profile(policy))),
            other => Err(SandboxError::Unavailable(other.describe())),
        }
    }

    /// True when the control paths that exist are read-only to the command (mounts, or Seatbelt's rules).
    fn enforces_control(&self) -> bool {
        match self {
            #[cfg(target_os = "linux")]
            Confined::Landlock { containment, .. } => containment.mounts_read_only(),
            Confined::Seatbelt(_) => true,
        }
    }

    fn command(&self, program: &str) -> tokio::process::Command {
        match self {
            #[cfg(target_os = "linux")]
            Confined::Landlock { rules, containment } => {
                let mut command = tokio::process::Command::new(program);
                // In this order: the namespaces fork the command's process, which then restricts itself.
                containment.apply(&mut command);
                rules.apply(&mut command);
                command
            }
            Confined::Seatbelt(profile) => {
                let mut command = tokio::process::Command::new(seatbelt::SANDBOX_EXEC);
                command.arg("-p").arg(profile).arg(program);
                command
            }
        }
    }
}

#[cfg(test)]
mod tests;
