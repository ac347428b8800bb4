#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use super::*;

fn settings() -> SandboxSettings {
    SandboxSettings::default()
}

fn places(root: &Path) -> Places<'_> {
    Places {
        root,
        paicli_home: None,
        tool_caches: &[],
    }
}

#[test]
fn the_project_temp_dir_and_devices_are_writable_and_plan_mode_keeps_only_devices() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let sandbox = Sandbox::with_support(settings(), Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(places(&root), Confinement::Sandboxed);
    assert_eq!(policy.writable[0], root);
    assert!(policy.writable.contains(&PathBuf::from("/tmp")));
    assert!(policy.devices.contains(&PathBuf::from("/dev/null")));
    assert!(policy.network);

    let read_only = sandbox.policy(places(&root), Confinement::ReadOnly);
    assert!(read_only.writable.is_empty());
    assert_eq!(read_only.devices, policy.devices);
}

#[test]
fn paicli_home_contributes_only_its_caches_and_missing_roots_are_dropped() {
    let home = tempfile::tempdir().unwrap();
    let home_path = home.path().canonicalize().unwrap();
    std::fs::create_dir(home_path.join("cache")).unwrap();
    std::fs::create_dir(home_path.join("skills")).unwrap();
    let project = tempfile::tempdir().unwrap();
    let extra = tempfile::tempdir().unwrap();
    let mut s = settings();
    s.writable_roots = vec![extra.path().to_path_buf(), PathBuf::from("/no/such/dir")];
    let sandbox = Sandbox::with_support(s, Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(
        Places {
            paicli_home: Some(&home_path),
            ..places(project.path())
        },
        Confinement::Sandboxed,
    );
    assert!(policy.writable.contains(&home_path.join("cache")));
    assert!(
        !policy
            .writable
            .iter()
            .any(|p| p == &home_path.join("skills") || p == &home_path)
    );
    assert!(
        policy
            .writable
            .contains(&extra.path().canonicalize().unwrap())
    );
    assert!(!policy.writable.contains(&PathBuf::from("/no/such/dir")));
}

#[test]
fn a_worktree_git_dir_is_writable_unless_git_is_protected() {
    let main = tempfile::tempdir().unwrap();
    let common = main.path().join(".git");
    let own = common.join("worktrees/wt");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(own.join("commondir"), "../..\n").unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join(".git"),
        format!("gitdir: {}\n", own.display()),
    )
    .unwrap();
    let sandbox = Sandbox::with_support(settings(), Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(places(project.path()), Confinement::Sandboxed);
    assert!(policy.writable.contains(&own.canonicalize().unwrap()));
    assert!(policy.writable.contains(&common.canonicalize().unwrap()));

    let mut s = settings();
    s.protect_git = true;
    let sandbox = Sandbox::with_support(s, Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(places(project.path()), Confinement::Sandboxed);
    assert!(
        !policy
            .writable
            .iter()
            .any(|p| p.starts_with(main.path().canonicalize().unwrap()))
    );
    assert_eq!(
        policy.protected,
        [project.path().canonicalize().unwrap().join(".git")]
    );
}

#[test]
fn required_without_support_refuses_and_auto_runs_plainly_with_a_shortfall() {
    let project = tempfile::tempdir().unwrap();
    let none = Support::Unavailable { reason: "pretend" };
    let mut s = settings();
    s.mode = SandboxMode::Required;
    let required = Sandbox::with_support(s, Vec::new(), none);
    let err = required
        .prepare(project.path(), None, Confinement::Sandboxed)
        .unwrap_err();
    assert!(matches!(err, SandboxError::Unavailable(_)));
    assert!(err.to_string().contains("unavailable: pretend"), "{err}");
    // The person's `u` runs it plainly even so.
    assert!(
        !required
            .prepare(project.path(), None, Confinement::Unsandboxed)
            .unwrap()
            .is_confined()
    );

    let auto = Sandbox::with_support(settings(), Vec::new(), none);
    assert!(
        !auto
            .prepare(project.path(), None, Confinement::Sandboxed)
            .unwrap()
            .is_confined()
    );
    assert_eq!(
        auto.shortfall(),
        Some(Shortfall::NoSandbox("unavailable: pretend".to_string()))
    );
    let mut off = settings();
    off.mode = SandboxMode::Off;
    assert_eq!(
        Sandbox::with_support(off, Vec::new(), none).shortfall(),
        None
    );
}

#[test]
fn network_off_on_an_old_landlock_is_a_shortfall() {
    let mut s = settings();
    s.network = false;
    let old = Sandbox::with_support(s.clone(), Vec::new(), Support::Landlock { abi: 3 });
    assert_eq!(old.shortfall(), Some(Shortfall::NetworkOpen));
    let new = Sandbox::with_support(s, Vec::new(), Support::Landlock { abi: 4 });
    assert_eq!(new.shortfall(), None);
}

#[test]
fn the_seatbelt_profile_denies_writes_outside_the_roots_and_protects_git() {
    let policy = Policy {
        writable: vec![PathBuf::from("/Users/me/p"), PathBuf::from("/private/tmp")],
        protected: vec![PathBuf::from("/Users/me/p/.git")],
        devices: vec![PathBuf::from("/dev/null")],
        network: false,
    };
    assert_eq!(
        seatbelt::profile(&policy),
        "(version 1)\n\
         (allow default)\n\
         (deny file-write*)\n\
         (allow file-write*\n    (subpath \"/Users/me/p\")\n    (subpath \"/private/tmp\")\n    (subpath \"/dev/null\"))\n\
         (deny file-write* (subpath \"/Users/me/p/.git\"))\n\
         (deny network-outbound (remote ip))\n\
         (deny network-bind (local ip))\n"
    );
}

#[test]
fn the_seatbelt_profile_escapes_quotes_and_keeps_the_network_when_allowed() {
    let policy = Policy {
        writable: vec![PathBuf::from("/a \"b\\c")],
        protected: Vec::new(),
        devices: Vec::new(),
        network: true,
    };
    assert_eq!(
        seatbelt::profile(&policy),
        "(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n    (subpath \"/a \\\"b\\\\c\"))\n"
    );
    let read_only = Policy::default();
    assert_eq!(
        seatbelt::profile(&read_only),
        "(version 1)\n(allow default)\n(deny file-write*)\n(deny network-outbound (remote ip))\n(deny network-bind (local ip))\n"
    );
}

#[test]
fn a_permission_error_is_explained_with_the_path() {
    for (output, path) in [
        ("bash: /etc/paicli-x: Permission denied", "/etc/paicli-x"),
        (
            "touch: cannot touch '/home/u/x': Permission denied",
            "/home/u/x",
        ),
        (
            "PermissionError: [Errno 13] Permission denied: '/root/y'",
            "/root/y",
        ),
        (
            "cp: cannot create regular file '/opt/z': Read-only file system",
            "/opt/z",
        ),
    ] {
        let note = explain_denial(output, false).unwrap();
        assert!(
            note.contains(&format!("blocked a write to {path}:")),
            "{note}"
        );
        assert!(!note.contains("network"), "{note}");
    }
    let note = explain_denial("curl: (7) Failed to connect: Permission denied", true).unwrap();
    assert!(
        note.contains("a write outside the writable folders"),
        "{note}"
    );
    assert!(note.contains("network = false"), "{note}");
    assert_eq!(explain_denial("error: no such file", false), None);
}

#[cfg(target_os = "linux")]
#[test]
fn protecting_git_splits_the_project_into_its_other_entries_and_skips_symlinks() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    std::fs::write(root.join("Cargo.toml"), "").unwrap();
    std::os::unix::fs::symlink("/etc", root.join("etc-link")).unwrap();
    let other = tempfile::tempdir().unwrap();
    let other = other.path().canonicalize().unwrap();
    let mut split = landlock::split_protected(&[root.clone(), other.clone()], &[root.join(".git")]);
    split.sort();
    let mut expected = vec![root.join("Cargo.toml"), root.join("src"), other];
    expected.sort();
    assert_eq!(split, expected);
}
