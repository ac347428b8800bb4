//! Linux: a Landlock ruleset built in the parent and enforced in the child between fork and exec.
//!
//! Everything that allocates or can fail in interesting ways (opening the roots, `landlock_create_ruleset`,
//! `landlock_add_rule`) happens in the parent before spawning. Between fork and exec only async-signal-safe
//! work is allowed, and the `landlock` crate's `restrict_self` consumes its ruleset and builds a status value
//! (and an error with a boxed source on failure), so the child makes the two raw syscalls itself:
//! `prctl(PR_SET_NO_NEW_PRIVS)` and `landlock_restrict_self(fd)`. The ruleset fd is close-on-exec, so the command
//! never sees it. Landlock rules hold for root as well.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

use landlock::{
    ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, RulesetCreatedAttr, Scope,
    path_beneath_rules,
};

use super::{Policy, SandboxError};

/// A created ruleset, ready to be enforced on a child.
#[derive(Debug)]
pub struct LandlockRules {
    fd: OwnedFd,
}

impl LandlockRules {
    /// Builds the ruleset for `policy` on a kernel with Landlock `abi`: read and execute everywhere, write only
    /// beneath the writable roots and on the devices, and (with the network off, ABI 4+) no TCP connect or bind.
    /// From ABI 6 the command can neither signal processes outside its sandbox nor connect to abstract Unix
    /// sockets they opened. `split` lists read-only paths beneath writable roots that Landlock must carve out
    /// itself (those no mount makes read-only).
    pub fn build(
        policy: &Policy,
        abi: i32,
        split: &[PathBuf],
    ) -> Result<LandlockRules, SandboxError> {
        // The ABI is the one the kernel reported, so every right asked for is one it knows.
        let abi = ABI::from(abi);
        let setup = |e: landlock::RulesetError| SandboxError::Setup(e.to_string());
        let mut ruleset = Ruleset::default()
            .handle_access(AccessFs::from_all(abi))
            .map_err(setup)?;
        if !policy.network {
            ruleset = ruleset
                .handle_access(AccessNet::BindTcp | AccessNet::ConnectTcp)
                .map_err(setup)?;
        }
        if abi >= ABI::V6 {
            ruleset = ruleset
                .scope(Scope::AbstractUnixSocket | Scope::Signal)
                .map_err(setup)?;
        }
        let writable = split_protected(&policy.writable_paths(), split);
        let created = ruleset
            .create()
            .map_err(setup)?
            .add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi)))
            .map_err(setup)?
            .add_rules(path_beneath_rules(&writable, AccessFs::from_all(abi)))
            .map_err(setup)?
            .add_rules(path_beneath_rules(&policy.devices, AccessFs::from_all(abi)))
            .map_err(setup)?;
        let fd: Option<OwnedFd> = created.into();
        fd.map(|fd| LandlockRules { fd }).ok_or_else(|| {
            SandboxError::Setup("the kernel did not create a Landlock ruleset".into())
        })
    }

    /// Makes `command`'s child enforce these rules on itself before it execs. `self` must outlive the spawn.
    pub fn apply(&self, command: &mut tokio::process::Command) {
        let fd = self.fd.as_raw_fd();
        // SAFETY: the closure makes two syscalls and reads errno; it allocates nothing and takes no locks.
        unsafe {
            command.pre_exec(move || restrict_self(fd));
        }
    }
}

/// Runs in the forked child: async-signal-safe calls only.
fn restrict_self(fd: RawFd) -> io::Result<()> {
    // SAFETY: plain syscalls on integers; no memory is shared with the parent.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Landlock rules only add access, so a read-only folder beneath a writable one (`.git` in the project) cannot
/// be carved out. Instead a writable folder holding a protected path is replaced by its entries, minus the
/// protected path, recursively along the way to it. The cost: no new entries directly in the folders split
/// this way (new files at the top of the project need the person while `protect_git` is on; a project inside
/// the temp dir splits the temp dir too).
pub(super) fn split_protected(writable: &[PathBuf], protected: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in writable {
        split_one(root, protected, &mut out);
    }
    out.sort();
    out.dedup();
    out
}

fn split_one(dir: &Path, protected: &[PathBuf], out: &mut Vec<PathBuf>) {
    if protected.iter().any(|p| p == dir) {
        return;
    }
    if !protected.iter().any(|p| p.starts_with(dir)) {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        // A rule opens its path following symlinks: a link in the project must not grant its target.
        if entry.file_type().is_ok_and(|t| !t.is_symlink()) {
            split_one(&entry.path(), protected, out);
        }
    }
}
