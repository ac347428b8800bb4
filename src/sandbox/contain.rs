//! Linux: every process a command starts ends with it, and paicli's own state stays read-only to it.
//!
//! The child that `std` forks (A) moves into a new PID and mount namespace (and a user namespace that maps only
//! the user's own ids when paicli is not root), makes the carve-outs read-only by bind mounts, and forks the
//! namespace's init (B). B forks the command (C), reaps whatever is orphaned to it, and exits with C's status;
//! when B exits the kernel kills every process left in the namespace, however it was started (`setsid`, double
//! forks, daemons). A waits for B and mirrors C's status, so the caller sees the command's own exit. Each of A, B
//! and C dies with its parent (`PR_SET_PDEATHSIG`), so nothing outlives paicli either.
//!
//! All of it runs between fork and exec: only async-signal-safe syscalls, on data prepared in the parent.

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Capabilities a confined root command gives up (numbers from `linux/capability.h`): each is a way around
/// file rules (raw devices, kernel modules, file handles, other processes' memory, mounts). `CAP_SETPCAP`, needed
/// to drop the rest, goes last.
const DROPPED_CAPS: [(libc::c_int, &str); 22] = [
    (19, "CAP_SYS_PTRACE"),
    (16, "CAP_SYS_MODULE"),
    (17, "CAP_SYS_RAWIO"),
    (22, "CAP_SYS_BOOT"),
    (21, "CAP_SYS_ADMIN"),
    (27, "CAP_MKNOD"),
    (2, "CAP_DAC_READ_SEARCH"),
    (25, "CAP_SYS_TIME"),
    (39, "CAP_BPF"),
    (38, "CAP_PERFMON"),
    (33, "CAP_MAC_ADMIN"),
    (32, "CAP_MAC_OVERRIDE"),
    (12, "CAP_NET_ADMIN"),
    (34, "CAP_SYSLOG"),
    (30, "CAP_AUDIT_CONTROL"),
    (9, "CAP_LINUX_IMMUTABLE"),
    (20, "CAP_SYS_PACCT"),
    (35, "CAP_WAKE_ALARM"),
    (36, "CAP_BLOCK_SUSPEND"),
    (40, "CAP_CHECKPOINT_RESTORE"),
    (31, "CAP_SETFCAP"),
    (8, "CAP_SETPCAP"),
];

/// What this machine lets paicli do to keep a command's processes together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lifetime {
    /// A PID namespace per command: everything it starts ends with it.
    Namespace,
    /// No namespaces here (user namespaces turned off): the process group is killed, but a process that
    /// leaves it (`setsid`) can outlive the command.
    GroupOnly,
}

impl Lifetime {
    /// Probed once per process by trying the namespaces in a throwaway child.
    pub fn probe() -> Lifetime {
        static LIFETIME: OnceLock<Lifetime> = OnceLock::new();
        *LIFETIME.get_or_init(|| {
            if probe_namespaces() {
                Lifetime::Namespace
            } else {
                Lifetime::GroupOnly
            }
        })
    }
}

/// The containment of one command, prepared in the parent.
#[derive(Clone, Debug)]
pub struct Containment {
    namespaces: bool,
    /// Non-root: the user namespace's maps (`"<uid> <uid> 1"`), written by A itself.
    user_maps: Option<(CString, CString)>,
    /// Folders beneath a writable root that are bind-mounted read-only (`$PAICLI_HOME`), with the mount flags
    /// they already have (a user namespace may not drop `nosuid`, `noexec`, ...).
    read_only: Vec<(CString, libc::c_ulong)>,
    /// Sockets of daemons outside the sandbox, each covered by `/dev/null` (see `sockets`).
    masked_sockets: Vec<CString>,
    /// Root: capabilities dropped from the bounding set before exec.
    drop_caps: bool,
}

impl Containment {
    /// Namespaces where the machine has them; `read_only` folders are bind-mounted read-only there, the
    /// `masked_sockets` covered, and a confined root command (`confine`) drops the capabilities that reach
    /// around file rules.
    pub fn new(read_only: &[PathBuf], masked_sockets: &[PathBuf], confine: bool) -> Containment {
        let namespaces = Lifetime::probe() == Lifetime::Namespace;
        let user_maps = user_maps();
        Containment {
            namespaces,
            drop_caps: confine && user_maps.is_none(),
            user_maps,
            read_only: if namespaces {
                read_only
                    .iter()
                    .map(|p| (path_cstring(p), mount_flags(p)))
                    .collect()
            } else {
                Vec::new()
            },
            masked_sockets: if namespaces {
                masked_sockets.iter().map(|p| path_cstring(p)).collect()
            } else {
                Vec::new()
            },
        }
    }

    /// True when the read-only folders are enforced by mounts (otherwise the caller must split them out).
    pub fn mounts_read_only(&self) -> bool {
        self.namespaces
    }

    /// Makes `command`'s child enter this containment before it execs.
    pub fn apply(&self, command: &mut tokio::process::Command) {
        let this = self.clone();
        // SAFETY: `enter` makes async-signal-safe syscalls only, on the copy prepared here.
        unsafe {
            command.pre_exec(move || enter(&this));
        }
    }
}

/// The user namespace's maps (`"<uid> <uid> 1"`, the same for the group) when paicli is not root: a user
/// namespace maps only the user's own ids. Root needs none (it may make the other namespaces itself).
fn user_maps() -> Option<(CString, CString)> {
    // SAFETY: plain getters.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    (uid != 0).then(|| {
        (
            cstring(format!("{uid} {uid} 1")),
            cstring(format!("{gid} {gid} 1")),
        )
    })
}

/// The namespaces a command's child enters: its own user namespace only when it has `user_maps`.
fn unshare_flags(user_maps: &Option<(CString, CString)>) -> libc::c_int {
    let flags = libc::CLONE_NEWPID | libc::CLONE_NEWNS;
    if user_maps.is_some() {
        flags | libc::CLONE_NEWUSER
    } else {
        flags
    }
}

fn cstring(text: String) -> CString {
    // Formatted numbers hold no NUL.
    CString::new(text).unwrap_or_default()
}

/// The flags of the mount `path` lies on that a read-only bind must keep.
fn mount_flags(path: &Path) -> libc::c_ulong {
    let Ok(stat) = nix::sys::statvfs::statvfs(path) else {
        return libc::MS_NOSUID | libc::MS_NODEV;
    };
    use nix::sys::statvfs::FsFlags;
    let kept = [
        (FsFlags::ST_NOSUID, libc::MS_NOSUID),
        (FsFlags::ST_NODEV, libc::MS_NODEV),
        (FsFlags::ST_NOEXEC, libc::MS_NOEXEC),
        (FsFlags::ST_NOATIME, libc::MS_NOATIME),
        (FsFlags::ST_NODIRATIME, libc::MS_NODIRATIME),
        (FsFlags::ST_RELATIME, libc::MS_RELATIME),
    ];
    kept.iter()
        .filter(|(st, _)| stat.flags().contains(*st))
        .fold(libc::MS_NOSUID | libc::MS_NODEV, |flags, (_, ms)| {
            flags | ms
        })
}

fn path_cstring(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).unwrap_or_default()
}

/// Runs in the forked child A. Returns only in the command's own process C; A and B exit inside.
fn enter(c: &Containment) -> io::Result<()> {
    // SAFETY (whole function): async-signal-safe syscalls on stack data and memory prepared in the parent.
    unsafe {
        die_with_parent()?;
        if c.namespaces {
            if libc::unshare(unshare_flags(&c.user_maps)) != 0 {
                return Err(io::Error::last_os_error());
            }
            if let Some((uid_map, gid_map)) = &c.user_maps {
                write_user_maps(uid_map, gid_map)?;
            }
            mount_read_only(&c.read_only)?;
            mask_sockets(&c.masked_sockets);
            let outer_pid = libc::getpid();
            run_init(outer_pid)?;
        }
        if c.drop_caps {
            for (cap, _name) in DROPPED_CAPS {
                // EINVAL: a capability this kernel does not know.
                if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0
                    && *libc::__errno_location() != libc::EINVAL
                {
                    return Err(io::Error::last_os_error());
                }
            }
        }
    }
    Ok(())
}

/// Maps the user's own ids into the new user namespace. paicli is non-dumpable, which makes its `/proc/self`
/// files root's: A turns dumpable only for these three writes (nothing else runs in it meanwhile) and back.
unsafe fn write_user_maps(uid_map: &CString, gid_map: &CString) -> io::Result<()> {
    // SAFETY: prctl and file writes on this process only.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0);
        let written = write_file(c"/proc/self/setgroups", b"deny")
            .and_then(|()| write_file(c"/proc/self/uid_map", uid_map.as_bytes()))
            .and_then(|()| write_file(c"/proc/self/gid_map", gid_map.as_bytes()));
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        written
    }
}

/// `PR_SET_PDEATHSIG`: SIGKILL when the parent goes.
unsafe fn die_with_parent() -> io::Result<()> {
    // SAFETY: one prctl.
    if unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Makes the mount tree private (nothing leaks back to the host), then each folder a read-only bind of itself.
unsafe fn mount_read_only(folders: &[(CString, libc::c_ulong)]) -> io::Result<()> {
    // SAFETY: mount(2) on NUL-terminated strings prepared in the parent.
    unsafe {
        if libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        for (folder, flags) in folders {
            let path = folder.as_ptr();
            if libc::mount(
                path,
                path,
                std::ptr::null(),
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
            if libc::mount(
                std::ptr::null(),
                path,
                std::ptr::null(),
                libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | flags,
                std::ptr::null(),
            ) != 0
            {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Covers each socket with `/dev/null`: connecting there is refused. A socket this process cannot even look
/// up (another user's private folder) is one the command cannot reach either, so failures are skipped.
unsafe fn mask_sockets(sockets: &[CString]) {
    for socket in sockets {
        // SAFETY: mount(2) on NUL-terminated strings prepared in the parent.
        unsafe {
            libc::mount(
                c"/dev/null".as_ptr(),
                socket.as_ptr(),
                std::ptr::null(),
                libc::MS_BIND,
                std::ptr::null(),
            );
        }
    }
}

/// Mounts a `/proc` of the new PID namespace over the host's: the command sees only its own processes, so no
/// `/proc/<pid>/root` or `/cwd` of a process outside leads past the mounts above. Runs in B, the first process
/// in the namespace.
unsafe fn mount_own_proc() -> io::Result<()> {
    // SAFETY: mount(2) on static strings.
    unsafe {
        if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// In A: forks the namespace's init B and mirrors the command's status. Returns only in the command C.
unsafe fn run_init(outer_pid: libc::pid_t) -> io::Result<()> {
    // SAFETY (whole function): fork, pipe, waitpid, read, write, _exit and signals: async-signal-safe.
    unsafe {
        let mut status_pipe = [0 as libc::c_int; 2];
        if libc::pipe2(status_pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        let [read_end, write_end] = status_pipe;
        match libc::fork() {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                libc::close(read_end);
                die_with_parent()?;
                init(outer_pid, write_end)
            }
            b => {
                libc::close(write_end);
                // A holds nothing the command needs: its copies of the output pipe and of std's exec-error pipe
                // must close, or the caller waits for A instead of the command.
                close_all_but(read_end);
                let status = wait_for(b);
                let mut command_status: libc::c_int = 0;
                let got = libc::read(
                    read_end,
                    (&raw mut command_status).cast(),
                    size_of::<libc::c_int>(),
                );
                let status = if got == size_of::<libc::c_int>() as isize {
                    command_status
                } else {
                    status
                };
                mirror(status)
            }
        }
    }
}

/// In B, the namespace's init: starts the command C, reaps every process orphaned to it, and reports C's status.
unsafe fn init(outer_pid: libc::pid_t, status_out: libc::c_int) -> io::Result<()> {
    // SAFETY (whole function): see `run_init`.
    unsafe {
        start_pids_after(outer_pid);
        mount_own_proc()?;
        match libc::fork() {
            -1 => Err(io::Error::last_os_error()),
            0 => {
                libc::close(status_out);
                die_with_parent()?;
                Ok(())
            }
            c => {
                close_all_but(status_out);
                let status = wait_for(c);
                libc::write(
                    status_out,
                    (&raw const status).cast(),
                    size_of::<libc::c_int>(),
                );
                // Exiting kills every process still in the namespace.
                libc::_exit(0)
            }
        }
    }
}

/// Waits until `pid` ends, reaping any other child on the way; its raw wait status.
unsafe fn wait_for(pid: libc::pid_t) -> libc::c_int {
    loop {
        let mut status = 0;
        // SAFETY: waitpid on our own children.
        let got = unsafe { libc::waitpid(-1, &mut status, 0) };
        if got == pid {
            return status;
        }
        // SAFETY: reads errno.
        if got == -1 && unsafe { *libc::__errno_location() } != libc::EINTR {
            // No children left (ECHILD): nothing to report but a failure.
            return 1 << 8;
        }
    }
}

/// Ends A the way the command ended: the same exit code, or the same signal.
unsafe fn mirror(status: libc::c_int) -> ! {
    // SAFETY: signal and exit calls on our own process.
    unsafe {
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, signal);
            libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::kill(libc::getpid(), signal);
            libc::_exit(128 + signal)
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }
}

/// Numbers the namespace's next PIDs after `base` (A's own PID outside), so `$$` differs between commands
/// running at once and temp files named after it do not collide. Best effort: on failure PIDs start at 2.
unsafe fn start_pids_after(base: libc::pid_t) {
    let mut digits = [0u8; 12];
    let text = decimal(base.max(1) as u32, &mut digits);
    // SAFETY: see `write_file`.
    let _ = unsafe { write_file(c"/proc/sys/kernel/ns_last_pid", text) };
}

/// `n` in decimal, written into `buf` without allocating.
fn decimal(mut n: u32, buf: &mut [u8; 12]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &buf[at..]
}

/// Closes every descriptor but `keep`.
unsafe fn close_all_but(keep: libc::c_int) {
    // SAFETY: close_range(2) on our own descriptors; on kernels without it, nothing is closed (the caller then
    // waits for A as well, which ends with the command).
    unsafe {
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
    }
}

/// Writes `bytes` to the file at `path` with one write.
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: open/write/close on a NUL-terminated path and a live buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        let error = io::Error::last_os_error();
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(error);
        }
    }
    Ok(())
}

/// True when a child can enter the namespaces a command would get (tried in a throwaway fork).
fn probe_namespaces() -> bool {
    let maps = user_maps();
    // SAFETY: the child makes the same syscalls `enter` makes and exits; the parent only waits for it.
    unsafe {
        match libc::fork() {
            -1 => false,
            0 => {
                let mut ok = libc::unshare(unshare_flags(&maps)) == 0;
                if ok && let Some((uid_map, gid_map)) = &maps {
                    ok = write_user_maps(uid_map, gid_map).is_ok();
                }
                ok = ok && mount_read_only(&[]).is_ok();
                if ok {
                    // The first process in the new PID namespace must start and mount its own /proc.
                    match libc::fork() {
                        -1 => ok = false,
                        0 => libc::_exit(if mount_own_proc().is_ok() { 0 } else { 1 }),
                        child => {
                            let mut status = 0;
                            libc::waitpid(child, &mut status, 0);
                            ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
                        }
                    }
                }
                libc::_exit(if ok { 0 } else { 1 })
            }
            child => {
                let mut status = 0;
                libc::waitpid(child, &mut status, 0) == child
                    && libc::WIFEXITED(status)
                    && libc::WEXITSTATUS(status) == 0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_writes_numbers_without_allocating() {
        let mut buf = [0u8; 12];
        assert_eq!(decimal(0, &mut buf), b"0");
        assert_eq!(decimal(4_194_304, &mut buf), b"4194304");
        assert_eq!(decimal(u32::MAX, &mut buf), b"4294967295");
    }
}
