//! The syntax check that always works: tree-sitter parses the file, and its ERROR and MISSING nodes become
//! diagnostics. It knows nothing of types or names; it catches the broken brackets, quotes and statements that
//! a bad edit leaves behind.

use std::path::Path;

use tree_sitter::{Node, Parser};

use super::diagnostic::{Diagnostic, Severity};
use crate::languages::Language;

/// Who the syntax check's diagnostics are from.
pub const SOURCE: &str = "syntax";

/// Syntax errors in `text`, the content of `rel`; empty for unknown file types and for valid code.
pub fn check_syntax(rel: &Path, text: &str) -> Vec<Diagnostic> {
    let Some(language) = Language::of(rel) else {
        return Vec::new();
    };
    let mut parser = Parser::new();
    if let Err(e) = parser.set_language(&language.grammar()) {
        tracing::warn!("tree-sitter grammar for {language:?} cannot be loaded: {e}");
        return Vec::new();
    }
    let Some(tree) = parser.parse(text, None) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if tree.root_node().has_error() {
        collect(tree.root_node(), rel, text, &mut found);
    }
    found
}

/// Depth-first over the nodes with errors; an ERROR node is reported once, not its contents, which would repeat
/// the same mistake.
fn collect(node: Node<'_>, rel: &Path, text: &str, found: &mut Vec<Diagnostic>) {
    if node.is_missing() {
        found.push(at(node, rel, format!("missing `{}`", node.kind())));
        return;
    }
    if node.is_error() {
        let near = snippet(&text[node.byte_range()]);
        let message = if near.is_empty() {
            "syntax error".to_string()
        } else {
            format!("syntax error near `{near}`")
        };
        found.push(at(node, rel, message));
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.has_error() || child.is_missing() {
            collect(child, rel, text, found);
        }
    }
}

fn at(node: Node<'_>, rel: &Path, message: String) -> Diagnostic {
    let start = node.start_position();
    Diagnostic {
        path: rel.to_path_buf(),
        line: u32::try_from(start.row)
            .unwrap_or(u32::MAX)
            .saturating_add(1),
        column: u32::try_from(start.column)
            .unwrap_or(u32::MAX)
            .saturating_add(1),
        severity: Severity::Error,
        message,
        code: None,
        source: SOURCE.to_string(),
    }
}

/// The first line of the erroneous text, shortened.
fn snippet(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    match line.char_indices().nth(30) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each listed language: a correct snippet has no diagnostics, a broken one has one at the right line.
    #[test]
    fn every_language_finds_its_errors_and_accepts_correct_code() {
        let cases: &[(&str, &str, &str, u32)] = &[
            (
                "a.rs",
                "fn main() {\n    let x = 1;\n}\n",
                "fn main() {\n    let x = ;\n}\n",
                2,
            ),
            (
                "a.py",
                "def f(x):\n    return x\n",
                "def f(x):\n    return (x\n",
                2,
            ),
            (
                "A.java",
                "class A {\n  void f() { int x = 1; }\n}\n",
                "class A {\n  void f() { int x = 1 }\n}\n",
                2,
            ),
            (
                "a.js",
                "function f() {\n  return [1, 2];\n}\n",
                "function f() {\n  return [1, 2;\n}\n",
                2,
            ),
            (
                "a.ts",
                "const x: number = 1;\nexport { x };\n",
                "const x: number = 1;\nexport { x ;\n",
                2,
            ),
            (
                "a.tsx",
                "const e = <div>hi</div>;\n",
                "const e = <div>hi</span;\n",
                1,
            ),
            (
                "a.go",
                "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n",
                "package main\n\nfunc main() {\n\tx := \n}\n",
                4,
            ),
            (
                "a.c",
                "int main(void) {\n  return 0;\n}\n",
                "int main(void) {\n  return 0\n}\n",
                2,
            ),
            (
                "a.cpp",
                "#include <vector>\nint main() { std::vector<int> v{1}; return v[0]; }\n",
                "#include <vector>\nint main() { std::vector<int> v{1; return v[0]; }\n",
                2,
            ),
        ];
        for (file, good, bad, line) in cases {
            let rel = Path::new(file);
            assert_eq!(check_syntax(rel, good), Vec::new(), "{file}: correct code");
            let found = check_syntax(rel, bad);
            assert!(!found.is_empty(), "{file}: no error found in {bad:?}");
            assert!(
                found.iter().any(|d| d.line == *line),
                "{file}: expected an error on line {line}, got {found:?}"
            );
            assert!(
                found
                    .iter()
                    .all(|d| d.severity == Severity::Error && d.source == SOURCE)
            );
        }
    }

    #[test]
    fn missing_tokens_are_named() {
        let found = check_syntax(Path::new("a.c"), "int main(void) {\n  return 0\n}\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].message, "missing `;`");
        assert_eq!((found[0].line, found[0].column), (2, 11));
    }

    #[test]
    fn unknown_file_types_are_not_checked() {
        assert!(check_syntax(Path::new("notes.md"), "((((").is_empty());
    }
}
