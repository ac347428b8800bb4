//! The OS sandbox around `execute_command`'s children: Landlock on Linux, Seatbelt on macOS. Reading stays
//! allowed everywhere; writing only where the [`Policy`] says; with `[sandbox] network = false`, no TCP. The
//! command guard still runs first: it refuses what it recognises, the sandbox holds for what it cannot parse.

mod detect;
mod explain;
#[cfg(target_os = "linux")]
mod landlock;
mod policy;
pub mod seatbelt;

use std::path::{Path, PathBuf};

pub use crate::config::{SandboxMode, SandboxSettings};
pub use crate::protocol::Confinement;
pub use detect::{Support, probe};
pub use explain::explain_denial;
pub use policy::{Places, Policy, tool_caches};

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
    tool_caches: Vec<PathBuf>,
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
    pub fn new(settings: SandboxSettings, tool_caches: Vec<PathBuf>) -> Self {
        Sandbox::with_support(settings, tool_caches, probe())
    }

    /// `settings` as if the machine offered `support`: the seam tests use to pretend the kernel lacks Landlock.
    pub fn with_support(
        settings: SandboxSettings,
        tool_caches: Vec<PathBuf>,
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

    /// The policy a command gets under `confinement` (`ReadOnly` drops every writable folder).
    pub fn policy(&self, places: Places<'_>, confinement: Confinement) -> Policy {
        let places = Places {
            tool_caches: &self.tool_caches,
            ..places
        };
        Policy::build(&self.settings, places, confinement == Confinement::ReadOnly)
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
        Ok(Launch::Confined { policy, confined })
    }
}

/// What the settings ask for and this machine cannot give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// No sandbox at all (why); commands run unconfined.
    NoSandbox(String),
    /// `network = false` cannot be enforced (Landlock before ABI 4).
    NetworkOpen,
}

/// How one command is started.
#[derive(Debug)]
pub enum Launch {
    /// Unconfined.
    Plain,
    /// Inside the sandbox, under this policy.
    Confined { policy: Policy, confined: Confined },
}

impl Launch {
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
    #[cfg(target_os = "linux")]
    Landlock(landlock::LandlockRules),
    /// A Seatbelt profile for `sandbox-exec -p`.
    Seatbelt(String),
}

impl Confined {
    fn build(policy: &Policy, support: Support) -> Result<Confined, SandboxError> {
        match support {
            #[cfg(target_os = "linux")]
            Support::Landlock { abi } => Ok(Confined::Landlock(landlock::LandlockRules::build(
                policy, abi,
            )?)),
            Support::Seatbelt => Ok(Confined::Seatbelt(seatbelt::profile(policy))),
            other => Err(SandboxError::Unavailable(other.describe())),
        }
    }

    fn command(&self, program: &str) -> tokio::process::Command {
        match self {
            #[cfg(target_os = "linux")]
            Confined::Landlock(rules) => {
                let mut command = tokio::process::Command::new(program);
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
