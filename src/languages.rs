//! The programming languages paicli parses: file extension → language → tree-sitter grammar.
//!
//! One table for the code index (chunking at definitions) and the diagnostics (syntax check, language server),
//! so a file is the same language to both. It uses no other module of the crate.

use std::path::Path;

/// A language with a tree-sitter grammar.
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
    /// Every language, in declaration order.
    pub const ALL: [Language; 9] = [
        Language::Rust,
        Language::Python,
        Language::Java,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::C,
        Language::Cpp,
    ];

    /// The language of `path`, from its extension (any case: `A.PY` is Python).
    pub fn of(path: &Path) -> Option<Language> {
        Language::from_extension(path.extension()?.to_str()?)
    }

    /// The language files ending in `.ext` are written in (`ext` without the dot, any case).
    pub fn from_extension(ext: &str) -> Option<Language> {
        let ext = ext.to_ascii_lowercase();
        Language::ALL
            .into_iter()
            .find(|l| l.extensions().contains(&ext.as_str()))
    }

    /// The extensions (lower case, without the dot) of this language's files.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Language::Rust => &["rs"],
            Language::Python => &["py", "pyi"],
            Language::Java => &["java"],
            Language::JavaScript => &["js", "jsx", "mjs", "cjs"],
            Language::TypeScript => &["ts", "mts", "cts"],
            Language::Tsx => &["tsx"],
            Language::Go => &["go"],
            Language::C => &["c", "h"],
            Language::Cpp => &["cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx"],
        }
    }

    /// Lower-case name (`rust`, `typescript`; TSX counts as `typescript`), as `search_code`'s filter spells it.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::Java => "java",
            Language::JavaScript => "javascript",
            Language::TypeScript | Language::Tsx => "typescript",
            Language::Go => "go",
            Language::C => "c",
            Language::Cpp => "cpp",
        }
    }

    /// The `languageId` a language server expects for `path` (JSX and TSX are their own ids).
    pub fn lsp_id(self, path: &Path) -> &'static str {
        let jsx = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("jsx"));
        match self {
            Language::JavaScript if jsx => "javascriptreact",
            Language::Tsx => "typescriptreact",
            other => other.name(),
        }
    }

    /// The tree-sitter grammar.
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

#[cfg(test)]
mod tests {
    use super::*;

    fn of(path: &str) -> Option<Language> {
        Language::of(Path::new(path))
    }

    #[test]
    fn extensions_map_to_languages_in_any_case() {
        assert_eq!(of("src/a.rs"), Some(Language::Rust));
        assert_eq!(of("a/b.PY"), Some(Language::Python));
        assert_eq!(of("stubs.pyi"), Some(Language::Python));
        assert_eq!(of("Main.Java"), Some(Language::Java));
        assert_eq!(of("x.mjs"), Some(Language::JavaScript));
        assert_eq!(of("x.cjs"), Some(Language::JavaScript));
        assert_eq!(of("App.JSX"), Some(Language::JavaScript));
        assert_eq!(of("x.mts"), Some(Language::TypeScript));
        assert_eq!(of("a/b.tsx"), Some(Language::Tsx));
        assert_eq!(of("x.h"), Some(Language::C));
        assert_eq!(of("X.C"), Some(Language::C));
        assert_eq!(of("x.hpp"), Some(Language::Cpp));
        assert_eq!(of("x.c++"), Some(Language::Cpp));
        assert_eq!(of("x.CC"), Some(Language::Cpp));
        assert_eq!(of("main.go"), Some(Language::Go));
    }

    #[test]
    fn files_without_a_known_extension_have_no_language() {
        assert_eq!(of("README.md"), None);
        assert_eq!(of("Makefile"), None);
        assert_eq!(of(".rs"), None);
        assert_eq!(of("archive.rs.bak"), None);
    }

    #[test]
    fn each_extension_belongs_to_one_language() {
        for language in Language::ALL {
            for ext in language.extensions() {
                assert_eq!(Language::from_extension(ext), Some(language), "{ext}");
                assert_eq!(*ext, ext.to_ascii_lowercase(), "{ext}");
            }
        }
    }

    #[test]
    fn language_server_ids_tell_jsx_and_tsx_apart() {
        let id = |l: Language, p: &str| l.lsp_id(Path::new(p));
        assert_eq!(id(Language::JavaScript, "a.jsx"), "javascriptreact");
        assert_eq!(id(Language::JavaScript, "a.JSX"), "javascriptreact");
        assert_eq!(id(Language::JavaScript, "a.mjs"), "javascript");
        assert_eq!(id(Language::Tsx, "a.tsx"), "typescriptreact");
        assert_eq!(id(Language::TypeScript, "a.ts"), "typescript");
        assert_eq!(id(Language::Cpp, "a.c++"), "cpp");
    }

    #[test]
    fn every_grammar_loads_into_the_parser() {
        for language in Language::ALL {
            let mut parser = tree_sitter::Parser::new();
            assert!(
                parser.set_language(&language.grammar()).is_ok(),
                "{language:?}"
            );
        }
    }
}
