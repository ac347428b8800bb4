//! Issue 33's red-team findings, written as attacks through the real `execute_command` on this machine's kernel:
//! a `.git` file that names a folder outside, paicli's own state (the snapshot store's git) changed by a command,
//! tool caches used to plant code, and processes that try to outlive the command. Each attack must fail while the
//! ordinary use next to it (a real worktree, a temp file, a cargo build that fills the registry) keeps working.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod environ;
mod lifetime;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use paicli::config::SandboxSettings;
use paicli::guard::path_guard::PathGuard;
use paicli::sandbox::{Sandbox, ToolCache, tool_caches};
use paicli::snapshot::{Label, SnapshotError, SnapshotKind, SnapshotStore, StoreSettings};
use paicli::tools::{SpillStore, ToolContext, ToolLimits, ToolOutcome};

/// A project, paicli's home, and a folder outside every writable root.
struct Attack {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
    outside: tempfile::TempDir,
}

impl Attack {
    fn new() -> Self {
        Attack {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            outside: crate::support::outside_dir().unwrap(),
        }
    }

    fn root(&self) -> PathBuf {
        self.project.path().canonicalize().unwrap()
    }

    fn paicli_home(&self) -> PathBuf {
        let home = self.home.path().canonicalize().unwrap().join(".paicli");
        std::fs::create_dir_all(&home).unwrap();
        home
    }

    fn outside(&self) -> PathBuf {
        self.outside.path().canonicalize().unwrap()
    }

    fn ctx_with(&self, caches: Vec<ToolCache>) -> ToolContext {
        let root = self.root();
        ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits {
                sandbox: Sandbox::new(SandboxSettings::default(), caches),
                paicli_home: Some(self.paicli_home()),
                ..ToolLimits::default()
            },
        )
    }

    fn ctx(&self) -> ToolContext {
        self.ctx_with(Vec::new())
    }
}

use crate::support::kernel_confines;

async fn run(ctx: &ToolContext, command: &str) -> ToolOutcome {
    crate::support::run_command(ctx, command).await
}

/// Writes `path` through a variable, which the command guard cannot follow: the sandbox alone must hold.
async fn write_hidden(ctx: &ToolContext, path: &Path) -> ToolOutcome {
    let command = format!(
        "t={}; mkdir -p \"$(dirname \"$t\")\" 2>/dev/null; echo x > \"$t\"",
        path.display()
    );
    run(ctx, &command).await
}

fn text(outcome: &ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text.clone(),
        ToolOutcome::Failed { reason } => reason.clone(),
        other => format!("{other:?}"),
    }
}

fn assert_ok(outcome: &ToolOutcome) {
    assert!(matches!(outcome, ToolOutcome::Ok(_)), "{outcome:?}");
}

/// `path` does not exist and the command did not succeed.
fn assert_refused(outcome: &ToolOutcome, path: &Path) {
    assert!(
        matches!(outcome, ToolOutcome::Failed { .. }),
        "expected a failure, got {outcome:?}"
    );
    assert!(!path.exists(), "{} was written", path.display());
}

#[tokio::test]
async fn a_git_file_naming_root_home_an_ancestor_or_paicli_home_makes_nothing_writable() {
    if !kernel_confines() {
        return;
    }
    let a = Attack::new();
    // The project lives inside the outside folder, so `..` is an ancestor that holds it.
    let nested = a.outside().join("project");
    std::fs::create_dir(&nested).unwrap();
    let ctx = {
        let root = nested.clone();
        ToolContext::new(
            PathGuard::new(&root).unwrap(),
            SpillStore::new(&root, true, 32_000),
            ToolLimits {
                paicli_home: Some(a.paicli_home()),
                ..ToolLimits::default()
            },
        )
    };
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    let targets = [
        "/".to_string(),
        home,
        a.outside().display().to_string(),
        "..".to_string(),
        a.paicli_home().display().to_string(),
    ];
    for (n, target) in targets.iter().enumerate() {
        // Written by a command, as a cloned repository or an archive would ship it.
        assert_ok(&run(&ctx, &format!("printf 'gitdir: {target}\\n' > .git")).await);
        let planted = a.outside().join(format!("planted-{n}.txt"));
        assert_refused(&write_hidden(&ctx, &planted).await, &planted);
        let state = a.paicli_home().join(format!("planted-{n}.toml"));
        assert_refused(&write_hidden(&ctx, &state).await, &state);
    }
}

#[tokio::test]
async fn a_real_linked_worktree_still_commits_through_its_git_dir() {
    if !kernel_confines() || !has("git") {
        return;
    }
    let a = Attack::new();
    let main = a.outside().join("main");
    let wt = a.root().join("wt");
    let git = |dir: &Path, args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-C"])
            .arg(dir)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    std::fs::create_dir(&main).unwrap();
    git(&main, &["init", "-q", "-b", "main"]);
    git(&main, &["commit", "-q", "--allow-empty", "-m", "first"]);
    git(&main, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    let root = wt.canonicalize().unwrap();
    let ctx = ToolContext::new(
        PathGuard::new(&root).unwrap(),
        SpillStore::new(&root, true, 32_000),
        ToolLimits {
            paicli_home: Some(a.paicli_home()),
            ..ToolLimits::default()
        },
    );
    let outcome = run(
        &ctx,
        "echo hi > f && git add f && git -c user.name=t -c user.email=t@t commit -qm wt && git log --oneline | wc -l",
    )
    .await;
    assert_eq!(text(&outcome).trim(), "2", "{outcome:?}");
}

#[tokio::test]
async fn paicli_home_is_read_only_to_commands_even_inside_the_temp_dir() {
    if !kernel_confines() {
        return;
    }
    let a = Attack::new();
    let ctx = a.ctx();
    let home = a.paicli_home();
    std::fs::create_dir_all(home.join("snapshots/p")).unwrap();
    for target in [
        "config.toml",
        "snapshots/p/config",
        "sessions/x.jsonl",
        "mcp-trust.json",
    ] {
        let path = home.join(target);
        assert_refused(&write_hidden(&ctx, &path).await, &path);
    }
    // Its neighbours in the temp dir stay writable.
    let beside = a.home.path().join("beside.txt");
    assert_ok(&write_hidden(&ctx, &beside).await);
    assert!(beside.exists());
}

#[test]
fn a_filter_planted_in_the_snapshot_store_never_runs() {
    if !has("git") {
        return;
    }
    let a = Attack::new();
    std::fs::write(a.root().join("a.txt"), "one\n").unwrap();
    let guard = Arc::new(PathGuard::new(&a.root()).unwrap());
    let store = SnapshotStore::open(&a.paicli_home(), guard, StoreSettings::default()).unwrap();
    store
        .take(SnapshotKind::PreTurn, &Label::new("s", 1, "first"))
        .unwrap();
    let marker = a.outside().join("filter-ran");
    let git_dir = store.dir().to_path_buf();
    let mut config = std::fs::read_to_string(git_dir.join("config")).unwrap();
    config.push_str(&format!(
        "[filter \"x\"]\n\tclean = touch {} && cat\n[core]\n\tfsmonitor = touch {}\n",
        marker.display(),
        marker.display()
    ));
    std::fs::write(git_dir.join("config"), config).unwrap();
    std::fs::create_dir_all(git_dir.join("info")).unwrap();
    std::fs::write(git_dir.join("info/attributes"), "* filter=x\n").unwrap();
    std::fs::write(a.root().join("a.txt"), "two\n").unwrap();

    let err = store
        .take(SnapshotKind::PreTurn, &Label::new("s", 2, "second"))
        .unwrap_err();
    assert!(matches!(err, SnapshotError::Tampered { .. }), "{err}");
    assert!(err.to_string().contains("info/attributes"), "{err}");
    assert!(!marker.exists(), "the planted filter ran");
    // Repaired: the next snapshot runs, and still nothing planted runs.
    store
        .take(SnapshotKind::PreTurn, &Label::new("s", 3, "third"))
        .unwrap();
    assert!(!marker.exists(), "the planted filter ran");
}

#[tokio::test]
async fn tool_binaries_and_shell_files_are_read_only_while_a_cargo_build_fills_the_registry() {
    if !kernel_confines() || !has("cargo") {
        return;
    }
    let Some(crate_file) = cached_crate("itoa-") else {
        eprintln!("skipped: no itoa crate in the local cargo registry cache");
        return;
    };
    let a = Attack::new();
    // The user's home outside every writable root, as it is outside the temp dir on a real machine.
    let user_home = a.outside();
    let cargo_home = user_home.join(".cargo");
    std::fs::create_dir_all(cargo_home.join("bin")).unwrap();
    std::fs::write(
        cargo_home.join("env"),
        "export PATH=\"$HOME/.cargo/bin:$PATH\"\n",
    )
    .unwrap();
    seed_registry(&cargo_home, &crate_file);
    let caches = tool_caches(Some(&user_home), |_| None);
    let ctx = a.ctx_with(caches);

    let env_file = cargo_home.join("env");
    let append = format!(
        "python3 -c \"open('{}', 'a').write('touch /tmp/owned')\"",
        env_file.display()
    );
    let outcome = run(&ctx, &append).await;
    assert!(matches!(outcome, ToolOutcome::Failed { .. }), "{outcome:?}");
    let env_text = std::fs::read_to_string(&env_file).unwrap();
    assert!(!env_text.contains("owned"), "{env_text}");
    let binary = cargo_home.join("bin/x");
    assert_refused(&write_hidden(&ctx, &binary).await, &binary);

    let version = crate_file
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .trim_start_matches("itoa-")
        .to_string();
    std::fs::write(
        a.root().join("Cargo.toml"),
        format!(
            "[package]\nname = \"probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nitoa = \"={version}\"\n"
        ),
    )
    .unwrap();
    std::fs::create_dir(a.root().join("src")).unwrap();
    std::fs::write(
        a.root().join("src/main.rs"),
        "fn main() { println!(\"{}\", itoa::Buffer::new().format(42)); }\n",
    )
    .unwrap();
    let outcome = run(
        &ctx,
        &format!(
            "CARGO_HOME={} cargo build --offline --quiet 2>&1 && ./target/debug/probe",
            cargo_home.display()
        ),
    )
    .await;
    assert_eq!(text(&outcome).trim(), "42", "{outcome:?}");
    let extracted = cargo_home.join("registry/src");
    assert!(
        std::fs::read_dir(&extracted).unwrap().next().is_some(),
        "the build wrote nothing to {}",
        extracted.display()
    );
}

/// The newest cached `<prefix>*.crate` in the machine's cargo registry.
fn cached_crate(prefix: &str) -> Option<PathBuf> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cargo")))?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(home.join("registry/cache"))
        .ok()?
        .flatten()
        .flat_map(|index| {
            std::fs::read_dir(index.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix) && n.ends_with(".crate"))
        })
        .collect();
    found.sort();
    found.pop()
}

/// A cargo home whose registry holds one crate and its index entry, as an earlier online build leaves it.
fn seed_registry(cargo_home: &Path, crate_file: &Path) {
    let index_name = crate_file.parent().unwrap().file_name().unwrap();
    let real_registry = crate_file
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .parent()
        .unwrap();
    let cache = cargo_home.join("registry/cache").join(index_name);
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::copy(crate_file, cache.join(crate_file.file_name().unwrap())).unwrap();
    let real_index = real_registry.join("index").join(index_name);
    let index = cargo_home.join("registry/index").join(index_name);
    std::fs::create_dir_all(index.join(".cache/it/oa")).unwrap();
    std::fs::copy(
        real_index.join(".cache/it/oa/itoa"),
        index.join(".cache/it/oa/itoa"),
    )
    .unwrap();
    if real_index.join("config.json").exists() {
        std::fs::copy(real_index.join("config.json"), index.join("config.json")).unwrap();
    }
    std::fs::create_dir_all(cargo_home.join("registry/src")).unwrap();
}

fn has(program: &str) -> bool {
    let found = std::process::Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipped: {program} is not installed");
    }
    found
}

#[tokio::test]
async fn npm_installs_from_its_cache_while_the_rest_of_its_folder_stays_read_only() {
    if !kernel_confines() || !has("npm") {
        return;
    }
    let Some(home) = dirs::home_dir() else {
        return;
    };
    let cache = home.join(".npm/_cacache");
    if !cache.is_dir() {
        eprintln!("skipped: npm has no cache here yet");
        return;
    }
    let a = Attack::new();
    // The user's real caches, as a session finds them at start.
    let ctx = a.ctx_with(tool_caches(Some(&home), |_| None));
    std::fs::write(
        a.root().join("package.json"),
        "{\"name\":\"probe\",\"version\":\"1.0.0\"}\n",
    )
    .unwrap();
    let out = text(
        &run(
            &ctx,
            "npm install --offline --no-audit --no-fund zod 2>&1 | tail -3; ls node_modules",
        )
        .await,
    );
    if out.contains("ENOTCACHED") {
        eprintln!("skipped: zod is not in npm's cache here");
        return;
    }
    assert!(out.contains("zod"), "{out}");
    // Beside the cache, npm's folder is not a command's to write.
    let planted = home.join(format!(".npm/paicli-probe-{}", std::process::id()));
    assert_refused(&write_hidden(&ctx, &planted).await, &planted);
}

#[test]
fn a_refused_git_file_is_named_once_at_the_start_of_a_run() {
    if !kernel_confines() {
        return;
    }
    let server = crate::support::ScriptedServer::with_replies([crate::support::Reply::text("ok")]);
    let sandbox = crate::support::CliSandbox::new().with_env("PAICLI_API_KEY", "sk-test");
    sandbox.project_file(".git", "gitdir: /\n");
    let output = sandbox
        .against(&server)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = crate::support::stderr_of(&output);
    assert_eq!(
        stderr
            .matches("the project's .git file does not make its target writable: it names /")
            .count(),
        1,
        "{stderr}"
    );
}

#[tokio::test]
async fn control_files_in_an_added_writable_root_stay_read_only_to_commands() {
    if !kernel_confines() {
        return;
    }
    let a = Attack::new();
    let added = a.outside();
    std::fs::create_dir_all(added.join(".git/hooks")).unwrap();
    let root = a.root();
    let ctx = ToolContext::new(
        PathGuard::new(&root).unwrap(),
        SpillStore::new(&root, true, 32_000),
        ToolLimits {
            sandbox: Sandbox::new(
                SandboxSettings {
                    writable_roots: vec![added.clone()],
                    ..SandboxSettings::default()
                },
                Vec::new(),
            ),
            paicli_home: Some(a.paicli_home()),
            ..ToolLimits::default()
        },
    );
    for target in [".git/hooks/pre-commit", ".envrc"] {
        let path = added.join(target);
        let outcome = write_hidden(&ctx, &path).await;
        assert!(
            std::fs::read_to_string(&path).map_or(true, |t| t.is_empty()),
            "{target} was written: {outcome:?}"
        );
    }
    // The rest of the added folder is the command's to write.
    let plain = added.join("notes.txt");
    assert_ok(&write_hidden(&ctx, &plain).await);
    assert!(plain.exists());
}
