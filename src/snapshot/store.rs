//! The store: one side repository per project, a ref per snapshot (`refs/snapshots/<seq>`), each a parentless
//! commit so the oldest can be dropped without rewriting the rest. Operations are serialized by one lock; the
//! post-turn snapshot runs on a background thread and every later operation waits for it first.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::SnapshotError;
use super::entry::{Label, Snapshot, SnapshotKind};
use super::git::Git;
use super::restore::{self, RestoreReport};
use super::walk::snapshot_files;
use crate::config::project_id;
use crate::guard::path_guard::PathGuard;

/// Ref namespace of the snapshots.
const REF_PREFIX: &str = "refs/snapshots/";
/// Git's "must not exist yet" old value for `update-ref`.
const NO_REF: &str = "0000000000000000000000000000000000000000";

/// How many snapshots to keep and which files to leave out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreSettings {
    /// Snapshots kept per project; older ones are dropped.
    pub keep: usize,
    /// Files larger than this are not snapshotted (and so never restored).
    pub max_file_bytes: u64,
}

impl Default for StoreSettings {
    fn default() -> Self {
        StoreSettings {
            keep: 50,
            max_file_bytes: 5 * 1024 * 1024,
        }
    }
}

/// What to restore.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The files as they were before the `n`-th most recent change (a turn or a restore), 1 = the latest.
    BeforeChange(usize),
    /// The files of the snapshot with this sequence number.
    Seq(u64),
}

/// The snapshot store of one project.
pub struct SnapshotStore {
    git: Git,
    guard: Arc<PathGuard>,
    settings: StoreSettings,
    lock: Mutex<()>,
    /// The background post-turn snapshot still running, if any.
    pending: Mutex<Option<JoinHandle<()>>>,
    /// The paths in the store's index as this process last wrote it, saving a `git ls-files` per snapshot.
    indexed: Mutex<Option<IndexedPaths>>,
}

/// The index's paths, valid while the index file has the same length and modification time (another paicli
/// session of the same project may have written it since).
struct IndexedPaths {
    stamp: (u64, Option<std::time::SystemTime>),
    paths: HashSet<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SnapshotStore {
    /// Opens (creating on first use) the store of the project `guard` fences, under `home/snapshots/`.
    pub fn open(
        home: &Path,
        guard: Arc<PathGuard>,
        settings: StoreSettings,
    ) -> Result<SnapshotStore, SnapshotError> {
        if !Git::available() {
            return Err(SnapshotError::GitMissing);
        }
        let root = guard.root().to_path_buf();
        let dir = home.join("snapshots").join(project_id(&root));
        let store_err = |source| SnapshotError::Store {
            path: dir.clone(),
            source,
        };
        std::fs::create_dir_all(&dir).map_err(store_err)?;
        let git = Git::new(dir.clone(), root.clone());
        if !dir.join("HEAD").exists() {
            git.run(&["init", "--quiet", "--template="])?;
            std::fs::write(dir.join("config"), super::store_files::CONFIG).map_err(store_err)?;
            std::fs::write(dir.join("project"), root.as_os_str().as_encoded_bytes())
                .map_err(store_err)?;
        }
        Ok(SnapshotStore {
            git,
            guard,
            settings,
            lock: Mutex::new(()),
            pending: Mutex::new(None),
            indexed: Mutex::new(None),
        })
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        self.git.git_dir()
    }

    /// Snapshots the project now unless nothing changed since the latest snapshot; returns the new one.
    pub fn take(
        &self,
        kind: SnapshotKind,
        label: &Label,
    ) -> Result<Option<Snapshot>, SnapshotError> {
        let _held = self.exclusive();
        self.take_locked(kind, label).map(|(_, taken)| taken)
    }

    /// The pre-turn snapshot: taken when files changed since the latest; returns the sequence number of the
    /// snapshot that holds the files as they are now (the new one or the latest), `None` for an empty store.
    pub fn checkpoint(&self, label: &Label) -> Result<Option<u64>, SnapshotError> {
        let _held = self.exclusive();
        match self.take_locked(SnapshotKind::PreTurn, label)? {
            (_, Some(taken)) => Ok(Some(taken.seq)),
            (_, None) => Ok(self.list_locked()?.last().map(|s| s.seq)),
        }
    }

    /// [`SnapshotStore::take`] on a background thread; the next operation waits for it.
    pub fn take_in_background(self: &Arc<Self>, kind: SnapshotKind, label: Label) {
        let store = Arc::clone(self);
        let mut pending = lock(&self.pending);
        let earlier = pending.take();
        let spawned = std::thread::Builder::new()
            .name("paicli-snapshot".into())
            .spawn(move || {
                if let Some(earlier) = earlier {
                    let _ = earlier.join();
                }
                let _held = lock(&store.lock);
                match store.take_locked(kind, &label) {
                    // Dropped snapshots leave objects behind only once the store is full.
                    Ok((_, Some(_)))
                        if store
                            .list_locked()
                            .is_ok_and(|all| all.len() >= store.settings.keep) =>
                    {
                        store.prune_objects();
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!("post-turn snapshot failed: {e}"),
                }
            });
        match spawned {
            Ok(handle) => *pending = Some(handle),
            Err(e) => tracing::warn!("cannot start the snapshot thread: {e}"),
        }
    }

    /// Waits for a background snapshot to finish.
    pub fn wait_pending(&self) {
        let handle = lock(&self.pending).take();
        if let Some(handle) = handle {
            let _ = handle.join();
        }
    }

    /// Every snapshot in the store, oldest first.
    pub fn list(&self) -> Result<Vec<Snapshot>, SnapshotError> {
        let _held = self.exclusive();
        self.list_locked()
    }

    /// Restores `target`, first taking a pre-restore snapshot so the restore can be undone.
    pub fn restore(&self, target: &Target, label: &Label) -> Result<RestoreReport, SnapshotError> {
        let _held = self.exclusive();
        let (current, _) = self.take_locked(SnapshotKind::PreRestore, label)?;
        let snapshots = self.list_locked()?;
        let to = find_target(&snapshots, target)?;
        let mut report = restore::apply(&self.git, &self.guard, &current, &to.tree)?;
        report.to = Some(to.clone());
        // The pre-restore snapshot, or the latest one when the files already matched it (none was taken).
        report.undo = snapshots
            .iter()
            .rev()
            .find(|s| s.tree == current)
            .map(|s| s.seq);
        if !report.changes.is_empty() {
            self.take_locked(SnapshotKind::Restored, label)?;
        }
        Ok(report)
    }

    /// The files (relative, `/`-separated) a restore to `target` would write or remove now, without writing
    /// anything in the project: for the approval gate, which asks the person before a revert rewrites a control
    /// file.
    pub fn preview(&self, target: &Target) -> Result<Vec<String>, SnapshotError> {
        let _held = self.exclusive();
        let current = self.stage()?;
        let snapshots = self.list_locked()?;
        let to = find_target(&snapshots, target)?;
        self.changed_paths(&current, &to.tree)
    }

    /// Removes every snapshot and the objects they held.
    pub fn clean(&self) -> Result<(), SnapshotError> {
        let _held = self.exclusive();
        let refs = self.list_locked()?;
        let input: String = refs
            .iter()
            .map(|s| format!("delete {REF_PREFIX}{:010}\n", s.seq))
            .collect();
        self.git
            .run_with_input(&["update-ref", "--stdin"], input.as_bytes())?;
        let _ = std::fs::remove_file(self.dir().join("index"));
        *lock(&self.indexed) = None;
        self.prune_objects();
        Ok(())
    }

    /// Bytes the store takes on disk (allocated blocks).
    pub fn disk_size(&self) -> u64 {
        fn size(dir: &Path) -> u64 {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return 0;
            };
            entries
                .flatten()
                .map(|e| match e.file_type() {
                    Ok(t) if t.is_dir() => size(&e.path()),
                    // Allocated blocks: many small objects take more room than their lengths add up to.
                    Ok(_) => e
                        .metadata()
                        .map_or(0, |m| std::os::unix::fs::MetadataExt::blocks(&m) * 512),
                    Err(_) => 0,
                })
                .sum()
        }
        size(self.dir())
    }

    /// The store's lock, after any background snapshot finished.
    fn exclusive(&self) -> MutexGuard<'_, ()> {
        self.wait_pending();
        lock(&self.lock)
    }

    /// Stages the project into the store's index and writes its tree; returns the tree and the snapshot taken
    /// (none when the tree equals the latest snapshot's).
    fn take_locked(
        &self,
        kind: SnapshotKind,
        label: &Label,
    ) -> Result<(String, Option<Snapshot>), SnapshotError> {
        let tree = self.stage()?;
        let snapshots = self.list_locked()?;
        let latest = snapshots.last();
        if latest.is_some_and(|s| s.tree == tree) {
            return Ok((tree, None));
        }
        let changed = match latest {
            Some(s) => self.changed_between(&s.tree, &tree)?,
            None => self.changed_between(super::git::EMPTY_TREE, &tree)?,
        };
        let time = chrono::Utc::now().timestamp();
        let message = Snapshot::message(kind, label, time, changed);
        let commit = self.git.text(&["commit-tree", &tree, "-m", &message])?;
        let seq = latest.map_or(1, |s| s.seq + 1);
        let name = format!("{REF_PREFIX}{seq:010}");
        self.git.run(&["update-ref", &name, &commit, NO_REF])?;
        self.drop_oldest(&snapshots)?;
        let snapshot = Snapshot {
            seq,
            commit,
            tree: tree.clone(),
            kind,
            label: label.clone(),
            time,
            changed,
        };
        Ok((tree, Some(snapshot)))
    }

    /// Brings the store's index in line with the project's files and writes it as a tree. Unchanged files are
    /// not read again: git compares their stat data with the index.
    fn stage(&self) -> Result<String, SnapshotError> {
        let files = snapshot_files(self.guard.root(), self.settings.max_file_bytes);
        let indexed = match self.cached_index_paths() {
            Some(paths) => paths,
            None => {
                let out = self.git.run(&["ls-files", "-z"])?;
                String::from_utf8_lossy(&out)
                    .split('\0')
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
                    .collect()
            }
        };
        *lock(&self.indexed) = None;
        let wanted: HashSet<&str> = files.iter().map(String::as_str).collect();
        let stale: Vec<u8> = indexed
            .iter()
            .filter(|p| !wanted.contains(p.as_str()))
            .flat_map(|p| p.bytes().chain([0]))
            .collect();
        if !stale.is_empty() {
            self.git
                .run_with_input(&["update-index", "--force-remove", "-z", "--stdin"], &stale)?;
        }
        let input: Vec<u8> = files.iter().flat_map(|f| f.bytes().chain([0])).collect();
        self.git.run_with_input(
            &[
                "update-index",
                "--add",
                "--remove",
                "--replace",
                "-z",
                "--stdin",
            ],
            &input,
        )?;
        let tree = self.git.text(&["write-tree"])?;
        // The index now holds at most these paths (a file that vanished during the walk was dropped by
        // `--remove`; naming it as stale next time is harmless).
        let paths = files.into_iter().collect();
        *lock(&self.indexed) = self
            .index_stamp()
            .map(|stamp| IndexedPaths { stamp, paths });
        Ok(tree)
    }

    /// The index file's length and modification time.
    fn index_stamp(&self) -> Option<(u64, Option<std::time::SystemTime>)> {
        let meta = std::fs::metadata(self.dir().join("index")).ok()?;
        Some((meta.len(), meta.modified().ok()))
    }

    /// The remembered index paths, when the index is still the one this process wrote.
    fn cached_index_paths(&self) -> Option<HashSet<String>> {
        let cached = lock(&self.indexed).take()?;
        (Some(cached.stamp) == self.index_stamp()).then_some(cached.paths)
    }

    fn changed_between(&self, from: &str, to: &str) -> Result<usize, SnapshotError> {
        Ok(self.changed_paths(from, to)?.len())
    }

    /// The files (relative, `/`-separated) that differ between two trees.
    fn changed_paths(&self, from: &str, to: &str) -> Result<Vec<String>, SnapshotError> {
        let out = self.git.run(&[
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--name-only",
            from,
            to,
        ])?;
        Ok(String::from_utf8_lossy(&out)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect())
    }

    fn list_locked(&self) -> Result<Vec<Snapshot>, SnapshotError> {
        let out = self.git.run(&[
            "for-each-ref",
            "--format=%(refname)%00%(objectname)%00%(tree)%00%(contents)%00",
            REF_PREFIX,
        ])?;
        let text = String::from_utf8_lossy(&out);
        let fields: Vec<&str> = text.split('\0').collect();
        let mut snapshots: Vec<Snapshot> = fields
            .chunks_exact(4)
            .filter_map(|f| {
                let seq = f[0].trim().strip_prefix(REF_PREFIX)?.parse().ok()?;
                Snapshot::parse(seq, f[1], f[2], f[3])
            })
            .collect();
        snapshots.sort_by_key(|s| s.seq);
        Ok(snapshots)
    }

    /// Deletes the refs beyond `settings.keep` (the snapshot just taken counts); their objects go at the next
    /// prune, off the critical path.
    fn drop_oldest(&self, before_new: &[Snapshot]) -> Result<(), SnapshotError> {
        let total = before_new.len() + 1;
        let excess = total.saturating_sub(self.settings.keep.max(1));
        if excess == 0 {
            return Ok(());
        }
        let input: String = before_new[..excess.min(before_new.len())]
            .iter()
            .map(|s| format!("delete {REF_PREFIX}{:010}\n", s.seq))
            .collect();
        self.git
            .run_with_input(&["update-ref", "--stdin"], input.as_bytes())?;
        Ok(())
    }

    /// Removes objects no snapshot reaches any more (the index's blobs stay: git prune keeps them).
    fn prune_objects(&self) {
        if let Err(e) = self.git.run(&["prune", "--expire=now"]) {
            tracing::warn!("snapshot prune failed: {e}");
        }
    }
}

/// The snapshot holding the files as they were before the `n`-th most recent change.
/// The snapshot `target` names among `snapshots`.
fn find_target<'a>(
    snapshots: &'a [Snapshot],
    target: &Target,
) -> Result<&'a Snapshot, SnapshotError> {
    match target {
        Target::Seq(seq) => snapshots
            .iter()
            .find(|s| s.seq == *seq)
            .ok_or_else(|| SnapshotError::NotFound(format!("there is no snapshot {seq}"))),
        Target::BeforeChange(n) => before_change(snapshots, *n),
    }
}

fn before_change(snapshots: &[Snapshot], n: usize) -> Result<&Snapshot, SnapshotError> {
    let changes: Vec<usize> = (1..snapshots.len())
        .rev()
        .filter(|&i| snapshots[i].kind.is_change())
        .collect();
    match n.checked_sub(1).and_then(|i| changes.get(i)) {
        Some(&i) => Ok(&snapshots[i - 1]),
        None => Err(SnapshotError::NotFound(format!(
            "the snapshot store records {} turn(s) that changed files; there is nothing to revert at offset {n}",
            changes.len()
        ))),
    }
}
