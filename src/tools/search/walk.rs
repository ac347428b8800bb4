//! The file walk both search tools share: .gitignore honoured, build and tool directories skipped.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use ignore::WalkBuilder;

/// Directories never searched, whatever the ignore files say.
pub const SKIP_DIRS: &[&str] = &[
    ".git",
    ".paicli",
    "target",
    "node_modules",
    "dist",
    "build",
    "coverage",
    ".idea",
    ".gradle",
];

/// Regular files under `base`, sorted by name per directory.
///
/// Honours `.gitignore` (also outside a git repository), `.ignore` and `.git/info/exclude`; hidden files are
/// included; symlinks are neither followed nor listed, so the walk cannot leave the project.
pub fn walk_files(base: &Path) -> impl Iterator<Item = PathBuf> {
    WalkBuilder::new(base)
        .hidden(false)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            let skipped = entry
                .file_name()
                .to_str()
                .is_some_and(|name| SKIP_DIRS.contains(&name));
            entry.depth() == 0 || !(is_dir && skipped)
        })
        .build()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_some_and(|t| t.is_file()))
        .map(ignore::DirEntry::into_path)
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
}
