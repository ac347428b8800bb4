//! The file walk both search tools share: .gitignore honoured, build and tool directories skipped.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use globset::{GlobBuilder, GlobMatcher};
use ignore::{DirEntry, WalkBuilder, WalkState};
use tokio_util::sync::CancellationToken;

/// Directories never searched, whatever the ignore files say (shared with the snapshot walk).
pub use crate::guard::skip_dirs::SKIP_DIRS;

/// What a parallel walk found, in walk order (the order a walk sorted by name per directory would give).
pub struct Walked<T> {
    /// Each visited file that produced a result, with that result.
    pub found: Vec<(PathBuf, T)>,
    /// The last file in walk order that passed the glob, whether or not it produced a result.
    pub last: Option<PathBuf>,
    /// The turn was cancelled, so the walk stopped early and `found` is incomplete.
    pub cancelled: bool,
}

/// Visits the regular files under `base` that match `glob` on ripgrep's parallel walker.
///
/// Honours `.gitignore` (also outside a git repository), `.ignore` and `.git/info/exclude`; hidden files are
/// included; symlinks are neither followed nor listed, so the walk cannot leave the project. Each thread gets
/// its own `S` (a searcher, a buffer); `visit` returns what a file yields. Cancellation is checked per entry.
pub fn walk_parallel<S, T, F>(
    base: &Path,
    glob: Option<&PathGlob>,
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
        glob,
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

/// Regular files under `base` in walk order.
#[cfg(test)]
pub fn walk_files(base: &Path) -> impl Iterator<Item = PathBuf> {
    let walked = walk_parallel(base, None, &CancellationToken::new(), |_, _: &mut ()| {
        Some(())
    });
    walked.found.into_iter().map(|(path, ())| path)
}

/// The walk's settings, shared by every thread.
struct WalkContext<'a, T, F> {
    base: &'a Path,
    glob: Option<&'a PathGlob>,
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
        if self.context.glob.is_some_and(|glob| !glob.is_match(rel)) {
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

/// The walker both search tools use: ignore files honoured, build and tool directories skipped.
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

/// A glob as the search tools read it: without a `/` it matches a file name at any depth.
pub struct PathGlob {
    path: GlobMatcher,
    name: Option<GlobMatcher>,
}

impl PathGlob {
    /// Compiles `pattern`; `*` never crosses a `/`, `**` does.
    pub fn new(pattern: &str) -> Result<Self, globset::Error> {
        let pattern = pattern.trim().trim_start_matches("./");
        if pattern.contains('/') {
            return Ok(PathGlob {
                path: compile(pattern)?,
                name: None,
            });
        }
        Ok(PathGlob {
            path: compile(&format!("**/{pattern}"))?,
            name: Some(compile(pattern)?),
        })
    }

    /// True when `rel` (relative to the search directory) matches, or its file name does.
    pub fn is_match(&self, rel: &Path) -> bool {
        self.path.is_match(rel)
            || self
                .name
                .as_ref()
                .is_some_and(|name| rel.file_name().is_some_and(|file| name.is_match(file)))
    }
}

fn compile(pattern: &str) -> Result<GlobMatcher, globset::Error> {
    Ok(GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn bare_pattern_matches_at_any_depth() {
        let glob = PathGlob::new("*.rs").unwrap();
        assert!(glob.is_match(Path::new("main.rs")));
        assert!(glob.is_match(Path::new("src/deep/lib.rs")));
        assert!(!glob.is_match(Path::new("src/lib.rsx")));
    }

    #[test]
    fn pattern_with_slash_is_anchored() {
        let glob = PathGlob::new("./src/*.rs").unwrap();
        assert!(glob.is_match(Path::new("src/lib.rs")));
        assert!(!glob.is_match(Path::new("src/deep/lib.rs")));
        assert!(!glob.is_match(Path::new("other/src/lib.rs")));
        assert!(
            PathGlob::new("src/**/*.rs")
                .unwrap()
                .is_match(Path::new("src/a/b.rs"))
        );
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
        let found: Vec<String> = walk_files(root)
            .map(|p| p.strip_prefix(root).unwrap().display().to_string())
            .collect();
        assert_eq!(found, vec![".env", ".gitignore", "a.rs", "b.rs"]);
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
        let glob = PathGlob::new("*.rs").unwrap();
        let walked = walk_parallel(
            root,
            Some(&glob),
            &CancellationToken::new(),
            |path, _: &mut ()| (path.file_name()? != "z.rs").then_some(()),
        );
        let found: Vec<String> = walked
            .found
            .iter()
            .map(|(p, ())| p.strip_prefix(root).unwrap().display().to_string())
            .collect();
        // A directory's files come before a sibling file whose name extends the directory's, as in a sorted walk.
        assert_eq!(found, vec!["a/b.rs", "a.rs", "b/c/d.rs"]);
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
