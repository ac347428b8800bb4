//! What confinement this machine offers, probed once per process.

use std::sync::OnceLock;

/// The sandbox this machine can apply to a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Linux Landlock with this ABI version (network rules need 4 or later).
    Landlock { abi: i32 },
    /// macOS Seatbelt through `/usr/bin/sandbox-exec`.
    Seatbelt,
    /// Nothing to confine commands with, and why.
    Unavailable { reason: &'static str },
}

impl Support {
    /// True when commands can be confined.
    pub fn is_available(self) -> bool {
        !matches!(self, Support::Unavailable { .. })
    }

    /// True when `network = false` can be enforced.
    pub fn confines_network(self) -> bool {
        match self {
            Support::Landlock { abi } => abi >= 4,
            Support::Seatbelt => true,
            Support::Unavailable { .. } => false,
        }
    }

    /// One phrase for `/policy` and `/config`: `Landlock ABI 7`, `Seatbelt`, or the reason there is none.
    pub fn describe(self) -> String {
        match self {
            Support::Landlock { abi } => format!("Landlock ABI {abi}"),
            Support::Seatbelt => "Seatbelt (sandbox-exec)".to_string(),
            Support::Unavailable { reason } => format!("unavailable: {reason}"),
        }
    }
}

/// The machine's support, probed on first use (one syscall or one file check) and remembered: the kernel does
/// not change under a running process.
pub fn probe() -> Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    *SUPPORT.get_or_init(probe_now)
}

#[cfg(target_os = "linux")]
fn probe_now() -> Support {
    /// `LANDLOCK_CREATE_RULESET_VERSION`: asks for the ABI version instead of creating a ruleset.
    const VERSION: libc::c_uint = 1;
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call only returns a number.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            VERSION,
        )
    };
    match i32::try_from(abi) {
        Ok(abi) if abi >= 1 => Support::Landlock { abi },
        _ => Support::Unavailable {
            reason: match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EOPNOTSUPP) => {
                    "Landlock is built into this kernel but turned off (lsm= boot option)"
                }
                _ => {
                    "this kernel has no Landlock (Linux 5.13 or later with CONFIG_SECURITY_LANDLOCK)"
                }
            },
        },
    }
}

#[cfg(target_os = "macos")]
fn probe_now() -> Support {
    if std::path::Path::new(super::seatbelt::SANDBOX_EXEC).exists() {
        Support::Seatbelt
    } else {
        Support::Unavailable {
            reason: "/usr/bin/sandbox-exec is missing",
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn probe_now() -> Support {
    Support::Unavailable {
        reason: "no sandbox for this operating system",
    }
}

/// Off Linux there are no PID namespaces: the process group is killed (see the Linux `contain` module).
#[cfg(not(target_os = "linux"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifetime {
    Namespace,
    GroupOnly,
}
