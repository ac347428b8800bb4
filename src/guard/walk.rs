//! The project walk the search tools and the code index share: `.gitignore` honoured (also outside a git
//! repository), the skip directories left out, symlinks neither followed nor listed, on ripgrep's parallel
//! walker. One walk, so `grep_code` and `search_code` always agree on which files the project has.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use ignore::{DirEntry, WalkBuilder, WalkState};
use tokio_util::sync::CancellationToken;

use super::skip_dirs::SKIP_DIRS;

/// Decides from a path relative to the walk's base whether a file is a candidate at all (a glob, say).
pub type Accept<'a> = &'a (dyn Fn(&Path) -> bool + Sync);

/// What a parallel walk found, in walk order (the order a walk sorted by name per directory would give).
pub struct Walked<T> {
    /// Each visited file that produced a result, with that result.
    pub found: Vec<(PathBuf, T)>,
    /// The last file in walk order that was accepted, whether or not it produced a result.
    pub last: Option<PathBuf>,
    /// The walk was cancelled, so it stopped early and `found` is incomplete.
    pub cancelled: bool,
}

/// Visits the regular files under `base` that `accept` takes (all when `None`) on ripgrep's parallel walker.
///
/// Honours `.gitignore` (also outside a git repository), `.ignore` and `.git/info/exclude`; hidden files are
/// included; symlinks are neither followed nor listed, so the walk cannot leave the project. Each thread gets
/// its own `S` (a searcher, a buffer); `visit` returns what a file yields. Cancellation is checked per entry.
pub fn walk_parallel<S, T, F>(
    base: &Path,
    accept: Option<Accept<'_>>,
    cancel: &CancellationToken,
    visit: F,
) -> Walked<T>
where
    S: Default + Send,
    T: Send,
    F: Fn(&Path, &mut S) -> Option<T> + Sync,
{
    let shared = Mutex::new(Walked {
        found: Vec::new(),
        last: None,
        cancelled: false,
    });
    let context = WalkContext {
        base,
        accept,
        cancel,
        visit: &visit,
        shared: &shared,
    };
    walker(base).build_parallel().run(|| {
        let mut local = Local {
            context: &context,
            scratch: S::default(),
            found: Vec::new(),
            last: None,
        };
        Box::new(move |entry| local.visit(entry))
    });
    let mut walked = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    walked.cancelled = cancel.is_cancelled();
    // `Path`'s order compares component by component: the order of a walk sorted by name per directory.
    walked.found.sort_by(|a, b| a.0.cmp(&b.0));
    walked
}

/// The walk's settings, shared by every thread.
struct WalkContext<'a, T, F> {
    base: &'a Path,
    accept: Option<Accept<'a>>,
    cancel: &'a CancellationToken,
    visit: &'a F,
    shared: &'a Mutex<Walked<T>>,
}

/// One walk thread's state; it hands its results to the shared list when the thread is done.
struct Local<'a, S, T, F> {
    context: &'a WalkContext<'a, T, F>,
    scratch: S,
    found: Vec<(PathBuf, T)>,
    last: Option<PathBuf>,
}

impl<S, T, F> Local<'_, S, T, F>
where
    F: Fn(&Path, &mut S) -> Option<T>,
{
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        if self.context.cancel.is_cancelled() {
            return WalkState::Quit;
        }
        let Ok(entry) = entry else {
            return WalkState::Continue;
        };
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            return WalkState::Continue;
        }
        let path = entry.path();
        let rel = path.strip_prefix(self.context.base).unwrap_or(path);
        if self.context.accept.is_some_and(|accept| !accept(rel)) {
            return WalkState::Continue;
        }
        if self.last.as_deref().is_none_or(|last| path > last) {
            self.last = Some(path.to_path_buf());
        }
        if let Some(result) = (self.context.visit)(path, &mut self.scratch) {
            self.found.push((entry.into_path(), result));
        }
        WalkState::Continue
    }
}

impl<S, T, F> Drop for Local<'_, S, T, F> {
    fn drop(&mut self) {
        let mut shared = self
            .context
            .shared
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        shared.found.append(&mut self.found);
        if self.last > shared.last {
            shared.last = self.last.take();
        }
    }
}

/// The walker: ignore files honoured, hidden files kept, links not followed, the skip directories left out.
fn walker(base: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(base);
    builder
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let skipped = entry
                .file_name()
                .to_str()
                .is_some_and(|name| SKIP_DIRS.contains(&name));
            entry.depth() == 0 || !(is_dir && skipped)
        });
    builder
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Regular files under `base` in walk order.
    fn walk_files(base: &Path) -> Vec<PathBuf> {
        let walked = walk_parallel(base, None, &CancellationToken::new(), |_, _: &mut ()| {
            Some(())
        });
        walked.found.into_iter().map(|(path, ())| path).collect()
    }

    fn rel_names(root: &Path, paths: &[PathBuf]) -> Vec<String> {
        paths
            .iter()
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn walk_skips_build_dirs_and_ignored_files() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for file in [
            "b.rs",
            "a.rs",
            "target/x.rs",
            "node_modules/m.js",
            "gen/g.rs",
            ".env",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        std::fs::write(root.join(".gitignore"), "gen/\n").unwrap();
        std::os::unix::fs::symlink(root.join("a.rs"), root.join("link.rs")).unwrap();
        assert_eq!(
            rel_names(root, &walk_files(root)),
            vec![".env", ".gitignore", "a.rs", "b.rs"]
        );
    }

    #[test]
    fn parallel_walk_returns_walk_order_and_the_last_candidate() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for file in ["a.rs", "a/z.rs", "b/c/d.rs", "b.txt", "a/b.rs"] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        let accept = |rel: &Path| rel.extension().is_some_and(|e| e == "rs");
        let walked = walk_parallel(
            root,
            Some(&accept),
            &CancellationToken::new(),
            |path, _: &mut ()| (path.file_name()? != "z.rs").then_some(()),
        );
        let found: Vec<PathBuf> = walked.found.into_iter().map(|(p, ())| p).collect();
        // A directory's files come before a sibling file whose name extends the directory's, as in a sorted walk.
        assert_eq!(rel_names(root, &found), vec!["a/b.rs", "a.rs", "b/c/d.rs"]);
        assert_eq!(
            walked.last.as_deref(),
            Some(root.join("b/c/d.rs").as_path())
        );
        assert!(!walked.cancelled);
    }

    #[test]
    fn parallel_walk_stops_soon_after_a_cancel() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..500 {
            std::fs::write(tmp.path().join(format!("f{i}.txt")), "x").unwrap();
        }
        let cancel = CancellationToken::new();
        let walked = walk_parallel(tmp.path(), None, &cancel, |_, _: &mut ()| {
            cancel.cancel();
            Some(())
        });
        assert!(walked.cancelled);
        // Each walk thread finishes at most the file it was on.
        assert!(walked.found.len() <= 64, "{}", walked.found.len());
    }
}
