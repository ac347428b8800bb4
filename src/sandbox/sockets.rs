//! The user's own daemons: a confined command must not ask a program outside the sandbox (tmux, ssh-agent,
//! D-Bus, Docker, X11, gpg-agent, a language server) to act for it. Landlock does not cover connecting to a
//! Unix socket that already exists, so each named socket bound on this machine when the command starts
//! (`/proc/net/unix`) is covered in the command's mount namespace by an empty file, except those inside the
//! project and those the user allows (`[sandbox] allow_sockets`). Sockets the command opens itself (in the
//! project or the temp dir) stay usable. Abstract sockets are Landlock's (ABI 6 scoping).

use std::io::Read;
use std::path::{Path, PathBuf};

/// Variables that point commands at a daemon's socket; not passed to confined commands unless the user keeps
/// them (`[shell] keep_env`).
pub const SOCKET_VARS: [&str; 9] = [
    "TMUX",
    "TMUX_PANE",
    "SSH_AUTH_SOCK",
    "DBUS_SESSION_BUS_ADDRESS",
    "DOCKER_HOST",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "GPG_AGENT_INFO",
    "XDG_RUNTIME_DIR",
];

/// Bytes of `/proc/net/unix` read: a busy desktop lists a few thousand sockets.
const TABLE_CAP: u64 = 4 * 1024 * 1024;

/// The named sockets bound right now whose connections a command in `root` must not reach: every path in the
/// kernel's table outside `root` and `allowed` (canonical, deduplicated).
pub fn daemon_sockets(root: &Path, allowed: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(file) = std::fs::File::open("/proc/net/unix") else {
        return Vec::new();
    };
    let mut table = String::new();
    if file.take(TABLE_CAP).read_to_string(&mut table).is_err() {
        return Vec::new();
    }
    let allowed: Vec<PathBuf> = allowed
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let mut out: Vec<PathBuf> = Vec::new();
    for path in socket_paths(&table) {
        let Ok(real) = path.canonicalize() else {
            continue;
        };
        if real.starts_with(root) || allowed.contains(&real) || out.contains(&real) {
            continue;
        }
        out.push(real);
    }
    out
}

/// The named (not abstract, not unnamed) socket paths in a `/proc/net/unix` table.
fn socket_paths(table: &str) -> Vec<PathBuf> {
    table
        .lines()
        .skip(1)
        .filter_map(|line| {
            // Num RefCount Protocol Flags Type St Inode Path: the path is what follows the seventh field.
            let mut rest = line.trim_start();
            for _ in 0..7 {
                let end = rest.find(char::is_whitespace)?;
                rest = rest[end..].trim_start();
            }
            rest.starts_with('/').then(|| PathBuf::from(rest))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn named_sockets_are_read_from_the_kernel_table_and_abstract_or_unnamed_ones_are_skipped() {
        let table = "Num       RefCount Protocol Flags    Type St Inode Path\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 20334 /run/user/1000/bus\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 20335 @/tmp/.X11-unix/X0\n\
            0000000000000000: 00000003 00000000 00000000 0001 03 20336\n\
            0000000000000000: 00000002 00000000 00010000 0001 01 20337 /tmp/with space/agent.sock\n";
        assert_eq!(
            socket_paths(table),
            [
                PathBuf::from("/run/user/1000/bus"),
                PathBuf::from("/tmp/with space/agent.sock")
            ]
        );
    }

    #[test]
    fn a_live_socket_outside_the_project_is_listed_unless_allowed_or_inside() {
        let outside = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let daemon = outside.path().join("daemon.sock");
        let own = project.path().join("own.sock");
        let _d = std::os::unix::net::UnixListener::bind(&daemon).unwrap();
        let _o = std::os::unix::net::UnixListener::bind(&own).unwrap();
        let root = project.path().canonicalize().unwrap();
        let daemon = daemon.canonicalize().unwrap();
        let listed = daemon_sockets(&root, &[]);
        assert!(listed.contains(&daemon), "{listed:?}");
        assert!(!listed.iter().any(|p| p.starts_with(&root)), "{listed:?}");
        assert!(!daemon_sockets(&root, std::slice::from_ref(&daemon)).contains(&daemon));
    }
}
