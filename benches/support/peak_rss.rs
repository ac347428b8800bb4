//! One child's own peak resident set: `wait4` reports the rusage of exactly the process it reaps, so two
//! clients measured in one bench process do not mix (`RUSAGE_CHILDREN` keeps only the largest of all).

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, ExitStatus};

/// Runs `cmd` to completion; its exit status and peak RSS in KB (Linux reports KB).
#[cfg(target_os = "linux")]
// The child is reaped by `wait4` below, which std does not see.
#[allow(clippy::zombie_processes)]
pub fn run(cmd: &mut Command) -> (ExitStatus, i64) {
    let child = cmd.spawn().unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct that wait4 fills in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not yet reaped (std reaps only in wait/try_wait, which we never call), and
    // both out-pointers point to live locals.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(
        reaped,
        pid,
        "wait4 failed: {}",
        std::io::Error::last_os_error()
    );
    (ExitStatus::from_raw(status), usage.ru_maxrss)
}

/// Elsewhere the figure is the largest of all children so far (measure the client of interest first).
#[cfg(not(target_os = "linux"))]
pub fn run(cmd: &mut Command) -> (ExitStatus, i64) {
    let status = cmd.status().unwrap();
    let usage =
        nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN).unwrap();
    (status, usage.max_rss())
}
