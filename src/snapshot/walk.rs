//! Which project files a snapshot holds: what `.gitignore` / `.ignore` keep (also outside a git repository),
//! without the search tools' skip directories, paicli's spilled tool outputs, and files over the size cap.
//! Symlinks are listed as links, never followed.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use ignore::{WalkBuilder, WalkState};

use crate::guard::skip_dirs::SKIP_DIRS;

/// paicli's own directory: kept (project settings, `PAI.md`), except its spilled tool outputs.
const PAICLI_DIR: &str = ".paicli";
/// Large tool results spilled to files: regenerated, never worth a snapshot.
const TOOL_OUTPUTS: &str = ".paicli/tool-outputs";

/// The relative paths (with `/` separators) of the files and symlinks a snapshot of `root` holds, sorted.
pub fn snapshot_files(root: &Path, max_file_bytes: u64) -> Vec<String> {
    let found = Mutex::new(Vec::new());
    let mut builder = WalkBuilder::new(root);
    let filter_root = root.to_path_buf();
    builder
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .filter_entry(move |entry| {
            if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            let skipped = entry
                .file_name()
                .to_str()
                .is_some_and(|name| name != PAICLI_DIR && SKIP_DIRS.contains(&name));
            let outputs = entry
                .path()
                .strip_prefix(&filter_root)
                .is_ok_and(|rel| rel == Path::new(TOOL_OUTPUTS));
            !(skipped || outputs)
        });
    builder.build_parallel().run(|| {
        let found = &found;
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            let Some(kind) = entry.file_type() else {
                return WalkState::Continue;
            };
            let keep = kind.is_symlink()
                || (kind.is_file() && entry.metadata().is_ok_and(|m| m.len() <= max_file_bytes));
            if keep
                && let Ok(rel) = entry.path().strip_prefix(root)
                && let Some(rel) = rel.to_str()
            {
                found
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(rel.replace(std::path::MAIN_SEPARATOR, "/"));
            }
            WalkState::Continue
        })
    });
    let mut files = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn ignored_skipped_spilled_and_large_files_are_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for (file, size) in [
            ("src/a.rs", 3),
            ("out/gen.o", 3),
            ("target/debug/x", 3),
            (".paicli/PAI.md", 3),
            (".paicli/tool-outputs/1.txt", 3),
            ("big.bin", 40),
            (".gitignore", 0),
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "x".repeat(size)).unwrap();
        }
        std::fs::write(root.join(".gitignore"), "out/\n").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", root.join("link")).unwrap();
        assert_eq!(
            snapshot_files(root, 10),
            [".gitignore", ".paicli/PAI.md", "link", "src/a.rs"]
        );
    }
}
