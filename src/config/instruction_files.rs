//! Which files paicli reads as a project's instructions, and how one imports another: declared once for the
//! system prompt (`agent::context::prompt`) and for the control-path table (`guard::control_files`), which asks
//! the person before anything writes one of them or a file one of them imports.

use std::path::Path;

/// Instruction files read into the prompt, in order, from each directory. `CLAUDE.md` is read like
/// `AGENTS.md` because many projects keep their only instructions there.
pub const NAMES: &[&str] = &[
    "AGENTS.md",
    "CLAUDE.md",
    "PAI.md",
    ".paicli/PAI.md",
    "PAI.local.md",
    "CLAUDE.local.md",
    ".paicli/PAI.local.md",
];

/// The file a line imports, relative to the importing file's folder: a line that is only `@relative/path` (no
/// spaces, not absolute). Any other line is text.
pub fn import_of(line: &str) -> Option<&Path> {
    line.trim()
        .strip_prefix('@')
        .filter(|rest| !rest.is_empty() && !rest.contains(char::is_whitespace))
        .map(Path::new)
        .filter(|rel| rel.is_relative())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_line_that_is_one_relative_path_imports() {
        assert_eq!(
            import_of("@docs/style.md"),
            Some(Path::new("docs/style.md"))
        );
        assert_eq!(import_of("  @notes.md  "), Some(Path::new("notes.md")));
        assert_eq!(import_of("@/etc/passwd"), None);
        assert_eq!(import_of("@two words.md"), None);
        assert_eq!(import_of("see @docs/style.md"), None);
        assert_eq!(import_of("@"), None);
    }
}
