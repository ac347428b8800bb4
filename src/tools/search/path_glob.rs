//! The glob the search tools pick their candidates with; the walk itself is the project's one walk
//! (`guard::walk`).

use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};

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
}
