#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use super::*;

fn settings() -> SandboxSettings {
    SandboxSettings::default()
}

fn root(path: &str, origin: Origin) -> Root {
    Root {
        path: PathBuf::from(path),
        origin,
    }
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
    assert_eq!(
        policy.writable[0],
        Root {
            path: root.clone(),
            origin: Origin::Project
        }
    );
    assert!(policy.writable_paths().contains(&PathBuf::from("/tmp")));
    assert!(policy.devices.contains(&PathBuf::from("/dev/null")));
    assert!(policy.network);

    let read_only = sandbox.policy(places(&root), Confinement::ReadOnly);
    assert!(read_only.writable.is_empty());
    assert_eq!(read_only.devices, policy.devices);
}

#[test]
fn paicli_home_is_never_writable_and_is_carved_out_of_a_root_that_holds_it() {
    let home = tempfile::tempdir().unwrap();
    let home_path = home.path().canonicalize().unwrap();
    std::fs::create_dir(home_path.join("cache")).unwrap();
    std::fs::create_dir(home_path.join("snapshots")).unwrap();
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
    let paths = policy.writable_paths();
    assert!(
        !paths.iter().any(|p| p.starts_with(&home_path)),
        "{paths:?}"
    );
    // The temp dir holds this home: it stays writable, the home inside it read-only.
    assert_eq!(policy.read_only, std::slice::from_ref(&home_path));
    let extra_root = Root {
        path: extra.path().canonicalize().unwrap(),
        origin: Origin::UserSetting,
    };
    assert!(policy.writable.contains(&extra_root));
    assert!(!paths.contains(&PathBuf::from("/no/such/dir")));
}

#[test]
fn only_the_download_caches_of_tools_are_writable_not_their_binaries_or_shell_files() {
    let home = tempfile::tempdir().unwrap();
    for dir in [
        ".cargo/registry",
        ".cargo/bin",
        ".npm/_cacache",
        ".cache/pip",
        ".m2/repository",
    ] {
        std::fs::create_dir_all(home.path().join(dir)).unwrap();
    }
    std::fs::write(home.path().join(".cargo/env"), "").unwrap();
    let moved = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(moved.path().join("registry")).unwrap();
    let caches = tool_caches(Some(home.path()), |var| {
        (var == "CARGO_HOME").then(|| moved.path().display().to_string())
    });
    let canon = |p: &Path| p.canonicalize().unwrap();
    let found: Vec<(PathBuf, &str)> = caches.iter().map(|c| (c.path.clone(), c.tool)).collect();
    // `~/.cargo/git` did not exist: made now (cargo makes it on first use), `~/.cache/uv` is left to uv.
    assert!(home.path().join(".cargo/git").is_dir());
    assert!(!home.path().join(".cache/uv").exists());
    assert_eq!(
        found,
        [
            (canon(&home.path().join(".cargo/registry")), "cargo"),
            (canon(&home.path().join(".cargo/git")), "cargo"),
            (canon(&home.path().join(".npm/_cacache")), "npm"),
            (canon(&home.path().join(".npm/_logs")), "npm"),
            (canon(&home.path().join(".cache/pip")), "pip"),
            (canon(&home.path().join(".m2/repository")), "maven"),
            (canon(&moved.path().join("registry")), "cargo"),
        ]
    );
}

#[test]
fn a_worktree_git_dir_is_writable_unless_git_is_protected() {
    let main = tempfile::tempdir().unwrap();
    let common = main.path().join(".git");
    let own = common.join("worktrees/wt");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::create_dir_all(common.join("objects")).unwrap();
    std::fs::write(common.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(own.join("HEAD"), "ref: refs/heads/wt\n").unwrap();
    std::fs::write(own.join("commondir"), "../..\n").unwrap();
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join(".git"),
        format!("gitdir: {}\n", own.display()),
    )
    .unwrap();
    std::fs::write(
        own.join("gitdir"),
        format!("{}\n", project.path().join(".git").display()),
    )
    .unwrap();
    let sandbox = Sandbox::with_support(settings(), Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(places(project.path()), Confinement::Sandboxed);
    let linked: Vec<&Root> = policy
        .writable
        .iter()
        .filter(|r| r.origin == Origin::LinkedGitDir)
        .collect();
    assert_eq!(
        linked.iter().map(|r| r.path.clone()).collect::<Vec<_>>(),
        [own.canonicalize().unwrap(), common.canonicalize().unwrap()]
    );

    let mut s = settings();
    s.protect_git = true;
    let sandbox = Sandbox::with_support(s, Vec::new(), Support::Landlock { abi: 7 });
    let policy = sandbox.policy(places(project.path()), Confinement::Sandboxed);
    assert!(
        !policy
            .writable
            .iter()
            .any(|r| r.path.starts_with(main.path().canonicalize().unwrap()))
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
        writable: vec![
            root("/Users/me/p", Origin::Project),
            root("/private/tmp", Origin::Temp),
        ],
        protected: vec![PathBuf::from("/Users/me/p/.git")],
        read_only: vec![PathBuf::from("/private/tmp/h/.paicli")],
        devices: vec![PathBuf::from("/dev/null")],
        network: false,
        git_link_refused: None,
        masked_sockets: Vec::new(),
        control: vec![PathBuf::from("/Users/me/p/.vscode/tasks.json")],
        control_watch: vec![PathBuf::from("/Users/me/p/.envrc")],
    };
    assert_eq!(
        seatbelt::profile(&policy),
        "(version 1)\n\
         (allow default)\n\
         (deny file-write*)\n\
         (allow file-write*\n    (subpath \"/Users/me/p\")\n    (subpath \"/private/tmp\")\n    (subpath \"/dev/null\"))\n\
         (deny file-write* (subpath \"/Users/me/p/.git\"))\n\
         (deny file-write* (subpath \"/private/tmp/h/.paicli\"))\n\
         (deny file-write* (subpath \"/Users/me/p/.vscode/tasks.json\"))\n\
         (deny file-write* (subpath \"/Users/me/p/.envrc\"))\n\
         (deny network-outbound (remote ip))\n\
         (deny network-bind (local ip))\n"
    );
}

#[test]
fn the_seatbelt_profile_escapes_quotes_and_keeps_the_network_when_allowed() {
    let policy = Policy {
        writable: vec![root("/a \"b\\c", Origin::UserSetting)],
        network: true,
        ..Policy::default()
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

#[test]
fn control_paths_that_exist_are_read_only_and_the_others_watched_unless_approved() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
    std::fs::write(root.join("AGENTS.md"), "Be kind.\n").unwrap();
    let sandbox = Sandbox::new(SandboxSettings::default(), Vec::new());
    let policy = sandbox.policy(places(&root), Confinement::Sandboxed);
    for existing in [".git/config", ".git/hooks", "AGENTS.md"] {
        assert!(
            policy.control.contains(&root.join(existing)),
            "{existing}: {policy:?}"
        );
    }
    for absent in [
        ".envrc",
        ".vscode/tasks.json",
        ".github/workflows",
        ".git/info",
    ] {
        assert!(
            policy.control_watch.contains(&root.join(absent)),
            "{absent}: {policy:?}"
        );
    }
    // Nothing outside the writable folders: those are read-only anyway.
    assert!(
        policy
            .control
            .iter()
            .chain(&policy.control_watch)
            .all(|p| p.starts_with(&root))
    );
    let approved = sandbox.policy(places(&root), Confinement::ControlWritable);
    assert!(approved.control.is_empty() && approved.control_watch.is_empty());
    let plan = sandbox.policy(places(&root), Confinement::ReadOnly);
    assert!(plan.control.is_empty() && plan.control_watch.is_empty());
}
