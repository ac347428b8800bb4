#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::sync::Arc;

use super::*;
use crate::guard::path_guard::PathGuard;

struct Fixture {
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    root: std::path::PathBuf,
    store: SnapshotStore,
}

fn fixture(keep: usize) -> Fixture {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let guard = Arc::new(PathGuard::new(&root).unwrap());
    let settings = StoreSettings {
        keep,
        max_file_bytes: 1024,
    };
    let store = SnapshotStore::open(home.path(), guard, settings).unwrap();
    Fixture {
        _dirs: (project, home),
        root,
        store,
    }
}

fn label() -> Label {
    Label::new("s", 1, "test")
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn an_unchanged_project_writes_no_snapshot_and_only_the_last_keep_stay() {
    let fx = fixture(3);
    write(&fx.root, "a.txt", "0");
    assert!(
        fx.store
            .take(SnapshotKind::PreTurn, &label())
            .unwrap()
            .is_some()
    );
    assert!(
        fx.store
            .take(SnapshotKind::PreTurn, &label())
            .unwrap()
            .is_none()
    );
    for i in 1..=4 {
        write(&fx.root, "a.txt", &i.to_string());
        let taken = fx.store.take(SnapshotKind::PostTurn, &label()).unwrap();
        assert_eq!(taken.unwrap().changed, 1);
    }
    let seqs: Vec<u64> = fx.store.list().unwrap().iter().map(|s| s.seq).collect();
    assert_eq!(seqs, [3, 4, 5]);
}

#[test]
fn a_restore_replaces_a_symlinked_directory_instead_of_writing_through_it() {
    let fx = fixture(50);
    let outside = tempfile::tempdir().unwrap();
    write(&fx.root, "dir/file.txt", "mine\n");
    fx.store.take(SnapshotKind::PreTurn, &label()).unwrap();
    std::fs::remove_dir_all(fx.root.join("dir")).unwrap();
    std::os::unix::fs::symlink(outside.path(), fx.root.join("dir")).unwrap();
    fx.store.take(SnapshotKind::PostTurn, &label()).unwrap();

    let report = fx
        .store
        .restore(&Target::BeforeChange(1), &label())
        .unwrap();
    assert_eq!(report.changes.len(), 2, "{report:?}");
    assert!(
        !std::fs::symlink_metadata(fx.root.join("dir"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(fx.root.join("dir/file.txt")).unwrap(),
        "mine\n"
    );
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        0,
        "nothing written outside"
    );
}

#[test]
fn an_offset_beyond_the_recorded_changes_is_refused_and_nothing_changes() {
    let fx = fixture(50);
    write(&fx.root, "a.txt", "one");
    fx.store.take(SnapshotKind::PreTurn, &label()).unwrap();
    write(&fx.root, "a.txt", "two");
    fx.store.take(SnapshotKind::PostTurn, &label()).unwrap();
    let err = fx
        .store
        .restore(&Target::BeforeChange(2), &label())
        .unwrap_err();
    assert!(err.to_string().contains("records 1 turn(s)"), "{err}");
    assert_eq!(
        std::fs::read_to_string(fx.root.join("a.txt")).unwrap(),
        "two"
    );
}

#[test]
fn clean_removes_every_snapshot() {
    let fx = fixture(50);
    write(&fx.root, "a.txt", "one");
    fx.store.take(SnapshotKind::PreTurn, &label()).unwrap();
    fx.store.clean().unwrap();
    assert!(fx.store.list().unwrap().is_empty());
    // The next snapshot starts afresh.
    assert!(
        fx.store
            .take(SnapshotKind::PreTurn, &label())
            .unwrap()
            .is_some()
    );
}

#[test]
fn an_index_another_session_wrote_is_read_again_so_its_deleted_files_go() {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    let open = || {
        let guard = Arc::new(PathGuard::new(&root).unwrap());
        SnapshotStore::open(home.path(), guard, StoreSettings::default()).unwrap()
    };
    let (first, second) = (open(), open());
    write(&root, "a.txt", "a");
    first.take(SnapshotKind::PreTurn, &label()).unwrap();
    write(&root, "c.txt", "c");
    second.take(SnapshotKind::PostTurn, &label()).unwrap();
    std::fs::remove_file(root.join("c.txt")).unwrap();
    let taken = first.take(SnapshotKind::PostTurn, &label()).unwrap();
    assert_eq!(taken.map(|s| s.changed), Some(1), "c.txt left the snapshot");
    assert!(
        first
            .take(SnapshotKind::PreTurn, &label())
            .unwrap()
            .is_none()
    );
}

/// A plan's sub-agents share one turn's gate: whichever of two file-changing calls is let through first, the
/// project's files are already saved by then.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_file_changing_calls_both_wait_for_the_pre_turn_snapshot() {
    use crate::protocol::{CallGate, GateCall, ToolTraits, TurnHook};
    let fx = fixture(5);
    for i in 0..200 {
        write(&fx.root, &format!("src/f{i}.txt"), &"x".repeat(500));
    }
    let store = Arc::new(fx.store);
    let hook = SnapshotHook::new(Arc::clone(&store), "s");
    let gate: Arc<dyn CallGate> = hook.begin_turn("edit").gates.remove(0);
    let check = |id: &'static str| {
        let gate = Arc::clone(&gate);
        tokio::spawn(async move {
            let args = serde_json::Map::new();
            let cancel = tokio_util::sync::CancellationToken::new();
            let traits = ToolTraits {
                edits_files: true,
                ..ToolTraits::default()
            };
            gate.check(GateCall {
                id,
                name: "write_file",
                args: &args,
                traits,
                write_targets: &[],
                cancel: &cancel,
            })
            .await
        })
    };
    let (mut first, mut second) = (check("a"), check("b"));
    let (verdict, other) = tokio::select! {
        v = &mut first => (v, second),
        v = &mut second => (v, first),
    };
    assert_eq!(verdict.unwrap(), crate::protocol::GateVerdict::Allow);
    assert!(
        hook.before_turn(0).is_some(),
        "a call passed before the files were saved"
    );
    assert_eq!(store.list().unwrap().len(), 1);
    assert_eq!(other.await.unwrap(), crate::protocol::GateVerdict::Allow);
}
