//! File types the diagnostics know: their LSP language id, their tree-sitter grammar, their built-in server.

use std::path::Path;

/// A language with a syntax check (and usually a language server).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    Rust,
    Python,
    Java,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    C,
    Cpp,
}

impl Language {
    /// The language of `path`, from its extension.
    pub fn of(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "rs" => Language::Rust,
            "py" | "pyi" => Language::Python,
            "java" => Language::Java,
            "js" | "jsx" | "mjs" | "cjs" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "go" => Language::Go,
            "c" | "h" => Language::C,
            "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" => Language::Cpp,
            _ => return None,
        })
    }

    /// The `languageId` sent in `textDocument/didOpen`.
    pub fn lsp_id(self, path: &Path) -> &'static str {
        let jsx = path.extension().is_some_and(|e| e == "jsx");
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::Java => "java",
            Language::JavaScript if jsx => "javascriptreact",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "typescriptreact",
            Language::Go => "go",
            Language::C => "c",
            Language::Cpp => "cpp",
        }
    }

    /// The tree-sitter grammar for the syntax check.
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        }
    }
}

/// A built-in language server: used when its command is installed, unless `[lsp.servers]` replaces it.
pub struct BuiltinServer {
    pub name: &'static str,
    pub command: &'static str,
    pub args: &'static [&'static str],
    pub extensions: &'static [&'static str],
}

/// The servers paicli knows how to start without configuration.
pub const BUILTIN_SERVERS: &[BuiltinServer] = &[
    BuiltinServer {
        name: "pyright",
        command: "pyright-langserver",
        args: &["--stdio"],
        extensions: &["py", "pyi"],
    },
    BuiltinServer {
        name: "typescript",
        command: "typescript-language-server",
        args: &["--stdio"],
        extensions: &["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"],
    },
    BuiltinServer {
        name: "rust-analyzer",
        command: "rust-analyzer",
        args: &[],
        extensions: &["rs"],
    },
    BuiltinServer {
        name: "clangd",
        command: "clangd",
        args: &[],
        extensions: &["c", "h", "cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx"],
    },
    BuiltinServer {
        name: "gopls",
        command: "gopls",
        args: &[],
        extensions: &["go"],
    },
    BuiltinServer {
        name: "jdtls",
        command: "jdtls",
        args: &[],
        extensions: &["java"],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_to_languages_case_insensitively() {
        assert_eq!(Language::of(Path::new("a/b.PY")), Some(Language::Python));
        assert_eq!(Language::of(Path::new("x.h")), Some(Language::C));
        assert_eq!(Language::of(Path::new("x.hpp")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("x.tsx")), Some(Language::Tsx));
        assert_eq!(Language::of(Path::new("README.md")), None);
        assert_eq!(Language::of(Path::new("Makefile")), None);
        assert_eq!(
            Language::JavaScript.lsp_id(Path::new("a.jsx")),
            "javascriptreact"
        );
    }
}
