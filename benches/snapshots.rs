//! The snapshot store on a tree of 5,000+ files: the first snapshot, an incremental one after one file changed
//! (target ≤ 150 ms), one with nothing changed, and the restore of one turn, against the plain
//! `git add -A && git commit` baseline on the same tree. Medians of a few runs.
//!
//! Run with `cargo bench --bench snapshots` (release build). It prints; it never fails on a number.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use paicli::guard::path_guard::PathGuard;
use paicli::snapshot::{Label, SnapshotKind, SnapshotStore, StoreSettings, Target};

const FILES: usize = 5_000;
const RUNS: usize = 5;

/// A source-like tree: 50 directories of 100 files of a few hundred bytes, plus ignored build output.
fn make_tree(root: &Path) {
    for d in 0..FILES / 100 {
        let dir = root.join(format!("src/mod{d:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            let body = format!(
                "// file {d}/{f}\n{}",
                "fn item() -> u32 { 42 }\n".repeat(12)
            );
            std::fs::write(dir.join(format!("f{f:03}.rs")), body).unwrap();
        }
    }
    std::fs::create_dir_all(root.join("target/debug")).unwrap();
    for i in 0..500 {
        std::fs::write(root.join(format!("target/debug/o{i}.o")), "obj").unwrap();
    }
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn git(root: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(root)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "b")
        .env("GIT_AUTHOR_EMAIL", "b@b")
        .env("GIT_COMMITTER_NAME", "b")
        .env("GIT_COMMITTER_EMAIL", "b@b")
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
}

fn touch_one(root: &Path, run: usize) {
    std::fs::write(
        root.join("src/mod07/f042.rs"),
        format!("// changed {run}\n"),
    )
    .unwrap();
}

fn main() {
    let label = Label::new("bench", 1, "bench");

    // The store.
    let mut first = Vec::new();
    let mut incremental = Vec::new();
    let mut unchanged = Vec::new();
    let mut restore = Vec::new();
    for run in 0..RUNS {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        make_tree(project.path());
        let guard = Arc::new(PathGuard::new(project.path()).unwrap());
        let store = SnapshotStore::open(home.path(), guard, StoreSettings::default()).unwrap();
        let t = Instant::now();
        store.take(SnapshotKind::PreTurn, &label).unwrap();
        first.push(t.elapsed());
        touch_one(project.path(), run);
        let t = Instant::now();
        assert!(
            store
                .take(SnapshotKind::PostTurn, &label)
                .unwrap()
                .is_some()
        );
        incremental.push(t.elapsed());
        let t = Instant::now();
        assert!(store.take(SnapshotKind::PreTurn, &label).unwrap().is_none());
        unchanged.push(t.elapsed());
        let t = Instant::now();
        let report = store.restore(&Target::BeforeChange(1), &label).unwrap();
        restore.push(t.elapsed());
        assert_eq!(report.changes.len(), 1);
    }

    // The baseline: plain git in the project itself.
    let mut git_first = Vec::new();
    let mut git_incremental = Vec::new();
    for run in 0..RUNS {
        let project = tempfile::tempdir().unwrap();
        make_tree(project.path());
        let root = project.path();
        let t = Instant::now();
        git(root, &["init", "-q"]);
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "first"]);
        git_first.push(t.elapsed());
        touch_one(root, run);
        let t = Instant::now();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-qm", "next"]);
        git_incremental.push(t.elapsed());
    }

    println!("snapshot store, {FILES} files (+500 ignored), median of {RUNS}:");
    println!("  first snapshot              {}", ms(median(first)));
    println!(
        "  after one file changed      {}  (target <= 150 ms)",
        ms(median(incremental))
    );
    println!("  nothing changed (skipped)   {}", ms(median(unchanged)));
    println!("  restore of one turn         {}", ms(median(restore)));
    println!("baseline `git add -A && git commit` on the same tree:");
    println!("  first (init + add + commit) {}", ms(median(git_first)));
    println!(
        "  after one file changed      {}",
        ms(median(git_incremental))
    );
}
