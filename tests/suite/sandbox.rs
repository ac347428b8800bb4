//! The OS sandbox around `execute_command` (issue 20), through the real tool on this machine's kernel. Writes
//! the command guard cannot see (through a variable, a symlink, python, cp/mv) are the sandbox's to stop.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use paicli::config::{SandboxMode, SandboxSettings};
use paicli::guard::path_guard::PathGuard;
use paicli::protocol::{Confinement, SANDBOX_REQUIRED};
use paicli::sandbox::{Sandbox, Support, probe};
use paicli::tools::{SpillStore, ToolContext, ToolLimits, ToolOutcome};

/// A project in the temp dir and a folder outside every writable root (under the build's own target dir).
struct Fixture {
    project: tempfile::TempDir,
    outside: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        Fixture {
            project: tempfile::tempdir().unwrap(),
            outside: crate::support::outside_dir().unwrap(),
        }
    }

    fn root(&self) -> PathBuf {
        self.project.path().canonicalize().unwrap()
    }

    fn out(&self, name: &str) -> PathBuf {
        self.outside.path().canonicalize().unwrap().join(name)
    }

    fn ctx(&self, sandbox: Sandbox) -> ToolContext {
        let root = self.root();
        ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits {
                sandbox,
                ..ToolLimits::default()
            },
        )
    }
}

fn with(settings: SandboxSettings) -> Sandbox {
    Sandbox::new(settings, Vec::new())
}

fn auto() -> Sandbox {
    with(SandboxSettings::default())
}

use crate::support::kernel_confines;

async fn run(ctx: &ToolContext, command: &str) -> ToolOutcome {
    crate::support::run_command(ctx, command).await
}

fn failure(outcome: &ToolOutcome) -> &str {
    match outcome {
        ToolOutcome::Failed { reason } => reason,
        other => panic!("expected a failure, got {other:?}"),
    }
}

fn ok(outcome: &ToolOutcome) -> &str {
    match outcome {
        ToolOutcome::Ok(out) => &out.text,
        other => panic!("expected success, got {other:?}"),
    }
}

/// The command failed, the sandbox was named to the model, and `path` was not created.
fn assert_blocked(outcome: &ToolOutcome, path: &Path) {
    let reason = failure(outcome);
    assert!(reason.contains("[sandbox]"), "{reason}");
    assert!(reason.contains("ask the user"), "{reason}");
    assert!(!path.exists(), "{} was created", path.display());
}

#[tokio::test]
async fn writes_outside_the_roots_fail_however_they_are_made() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    let ctx = f.ctx(auto());
    let direct = f.out("direct.txt");
    let outcome = run(&ctx, &format!("t={}; echo x > \"$t\"", direct.display())).await;
    assert_blocked(&outcome, &direct);
    assert!(
        failure(&outcome).contains(&format!("blocked a write to {}", direct.display())),
        "{outcome:?}"
    );

    let py = f.out("python.txt");
    let line = format!("python3 -c \"open('{}', 'w').write('x')\"", py.display());
    assert_blocked(&run(&ctx, &line).await, &py);

    std::os::unix::fs::symlink(f.outside.path(), f.root().join("link")).unwrap();
    let behind_link = f.out("via-link.txt");
    let outcome = run(&ctx, "t=link/via-link.txt; echo x > \"$t\"").await;
    assert_blocked(&outcome, &behind_link);

    std::fs::write(f.root().join("src.txt"), "data").unwrap();
    let copied = f.out("copied.txt");
    let line = format!(
        "d={}; cp src.txt \"$d/copied.txt\"",
        f.outside.path().display()
    );
    assert_blocked(&run(&ctx, &line).await, &copied);
    let moved = f.out("moved.txt");
    let line = format!(
        "d={}; mv src.txt \"$d/moved.txt\"",
        f.outside.path().display()
    );
    assert_blocked(&run(&ctx, &line).await, &moved);
    assert!(f.root().join("src.txt").exists(), "mv removed the source");
}

#[tokio::test]
async fn files_outside_cannot_be_changed_or_moved_away() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    let ctx = f.ctx(auto());
    let existing = f.out("existing.txt");
    std::fs::write(&existing, "before").unwrap();
    let line = format!("t={}; echo after >> \"$t\"", existing.display());
    assert!(failure(&run(&ctx, &line).await).contains("[sandbox]"));
    let line = format!("t={}; mv \"$t\" here.txt", existing.display());
    assert!(matches!(run(&ctx, &line).await, ToolOutcome::Failed { .. }));
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "before");
    assert!(!f.root().join("here.txt").exists());
}

#[tokio::test]
async fn the_project_the_temp_dir_and_dev_null_stay_writable_and_tools_work() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    let ctx = f.ctx(auto());
    let scratch = tempfile::tempdir().unwrap();
    let tmp_file = scratch.path().join("t.txt");
    let line = format!(
        "mkdir -p sub && echo a > sub/a.txt && mv sub/a.txt b.txt && echo b > {} && echo c > /dev/null \
         && echo d >&2 && cat b.txt {}",
        tmp_file.display(),
        tmp_file.display()
    );
    assert_eq!(ok(&run(&ctx, &line).await), "d\na\nb\n");
    assert!(f.root().join("b.txt").exists());

    assert!(ok(&run(&ctx, "cargo --version").await).starts_with("cargo "));
    let git = "git init -q && git status --short && echo x > f.txt && git add f.txt \
               && git -c user.name=t -c user.email=t@example.com commit -q -m first && git log --oneline | wc -l";
    assert_eq!(ok(&run(&ctx, git).await), "?? b.txt\n1\n");
}

#[tokio::test]
async fn a_commit_in_a_git_worktree_reaches_the_main_repository_outside_the_project() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    let main = f.out("main");
    let git = |dir: &Path, args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    };
    std::fs::create_dir(&main).unwrap();
    git(&main, &["init", "-q"]);
    git(&main, &["commit", "-q", "--allow-empty", "-m", "root"]);
    let worktree = f.root().join("wt");
    git(
        &main,
        &["worktree", "add", "-q", worktree.to_str().unwrap()],
    );
    let ctx = ToolContext::new(
        PathGuard::new(&worktree).unwrap(),
        SpillStore::new(&worktree, true, 32_000),
        ToolLimits::default(),
    );
    let line = "echo x > f.txt && git add f.txt && git -c user.name=t -c user.email=t@example.com \
                commit -q -m second && git log --oneline | wc -l";
    assert_eq!(ok(&run(&ctx, line).await), "2\n");
}

#[tokio::test]
async fn protect_git_keeps_the_git_dir_read_only() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    std::fs::create_dir(f.root().join(".git")).unwrap();
    std::fs::create_dir(f.root().join("src")).unwrap();
    let ctx = f.ctx(with(SandboxSettings {
        protect_git: true,
        ..SandboxSettings::default()
    }));
    let hook = f.root().join(".git/hook");
    assert_blocked(&run(&ctx, "t=.git/hook; echo x > \"$t\"").await, &hook);
    ok(&run(&ctx, "echo fine > src/main.rs").await);
}

#[tokio::test]
async fn network_off_refuses_a_local_connection_and_on_allows_it() {
    let support = probe();
    if !support.confines_network() {
        eprintln!(
            "skipped: this kernel cannot refuse TCP ({})",
            support.describe()
        );
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let line = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    let f = Fixture::new();

    let open = f.ctx(auto());
    assert_eq!(ok(&run(&open, &line).await), "connected\n");

    let closed = f.ctx(with(SandboxSettings {
        network: false,
        ..SandboxSettings::default()
    }));
    let reason = failure(&run(&closed, &line).await).to_string();
    assert!(!reason.contains("connected\n"), "{reason}");
    assert!(reason.contains("network = false"), "{reason}");
}

#[tokio::test]
async fn required_refuses_where_the_kernel_lacks_a_sandbox_and_auto_runs_unconfined() {
    let f = Fixture::new();
    let none = Support::Unavailable {
        reason: "pretend: no Landlock",
    };
    let required = Sandbox::with_support(
        SandboxSettings {
            mode: SandboxMode::Required,
            ..SandboxSettings::default()
        },
        Vec::new(),
        none,
    );
    let target = f.out("x.txt");
    let line = format!("t={}; echo x > \"$t\"", target.display());
    match run(&f.ctx(required), &line).await {
        ToolOutcome::Denied { code, reason } => {
            assert_eq!(code, SANDBOX_REQUIRED);
            assert!(reason.contains("the sandbox is required"), "{reason}");
            assert!(reason.contains("pretend: no Landlock"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(!target.exists());

    let unconfined = Sandbox::with_support(SandboxSettings::default(), Vec::new(), none);
    ok(&run(&f.ctx(unconfined), &line).await);
    assert!(target.exists(), "auto without a sandbox runs as before");
}

#[tokio::test]
async fn the_person_may_run_one_command_outside_and_plan_mode_runs_read_only() {
    if !kernel_confines() {
        return;
    }
    let f = Fixture::new();
    let target = f.out("once.txt");
    let line = format!("t={}; echo x > \"$t\"", target.display());
    let mut ctx = f.ctx(auto());
    ctx.limits.confinement = Confinement::Unsandboxed;
    ok(&run(&ctx, &line).await);
    assert!(target.exists());

    ctx.limits.confinement = Confinement::ReadOnly;
    let inside = f.root().join("plan.txt");
    assert_blocked(&run(&ctx, "echo x > plan.txt").await, &inside);
    assert_eq!(
        ok(&run(&ctx, "echo x > /dev/null && echo read").await),
        "read\n"
    );
}

#[tokio::test]
async fn mode_off_runs_commands_unconfined() {
    let f = Fixture::new();
    let off = with(SandboxSettings {
        mode: SandboxMode::Off,
        ..SandboxSettings::default()
    });
    assert!(!off.is_active());
    let target = f.out("off.txt");
    ok(&run(
        &f.ctx(off),
        &format!("t={}; echo x > \"$t\"", target.display()),
    )
    .await);
    assert!(target.exists());
}
