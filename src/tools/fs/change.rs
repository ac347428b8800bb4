//! The result of a file change: summary text for the model, a unified diff for the UI, the changed path.

use std::path::PathBuf;

use similar::TextDiff;

use crate::tools::{FileDiff, ToolOutput};

/// Builds the output of a write or edit of `rel` (relative to the root) from `old` to `new`.
pub fn change_output(rel: &str, old: &str, new: &str, summary: String) -> ToolOutput {
    ToolOutput {
        text: summary,
        diff: Some(FileDiff {
            path: rel.to_string(),
            unified: unified_diff(rel, old, new),
        }),
        changed_files: vec![PathBuf::from(rel)],
        ..Default::default()
    }
}

/// A unified diff with three lines of context, headed `a/<rel>` / `b/<rel>`.
fn unified_diff(rel: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{rel}"), &format!("b/{rel}"))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_names_the_relative_path_and_hunks() {
        let out = change_output("src/a.txt", "one\ntwo\n", "one\n2\n", "ok".into());
        let diff = out.diff.unwrap_or_else(|| panic!("no diff"));
        assert_eq!(diff.path, "src/a.txt");
        assert_eq!(
            diff.unified,
            "--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
        );
        assert_eq!(out.changed_files, vec![PathBuf::from("src/a.txt")]);
    }
}
