//! What a file is to the index (code in a language from `crate::languages`, Markdown, other text), and which
//! nodes of each language are the definitions the chunker cuts at. Other text files are indexed in line windows.

use std::path::Path;

use crate::languages::Language;

/// What a file is to the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Source code, cut at definitions.
    Code(Language),
    /// Markdown, cut at headings.
    Markdown,
    /// Other text (TOML, YAML, shell…), cut in line windows.
    Text,
}

/// Extensions of text files worth indexing; anything else (images, archives, data) is skipped.
const TEXT_EXTENSIONS: &[&str] = &[
    "txt",
    "toml",
    "yaml",
    "yml",
    "json",
    "sh",
    "bash",
    "zsh",
    "fish",
    "cfg",
    "ini",
    "conf",
    "sql",
    "proto",
    "gradle",
    "kts",
    "xml",
    "html",
    "css",
    "scss",
    "rst",
    "adoc",
    "cmake",
    "mk",
    "properties",
    "graphql",
    "tf",
    "nix",
    "rb",
    "php",
    "kt",
    "swift",
    "scala",
    "lua",
    "pl",
    "ex",
    "exs",
    "cs",
    "dart",
];

/// File names without a telling extension that are still worth indexing.
const TEXT_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "Justfile",
    "Rakefile",
    "Gemfile",
    "README",
    "CHANGELOG",
    "LICENSE",
];

/// Lock files and the like: generated, large and never the answer.
const SKIPPED_NAMES: &[&str] = &[
    "Cargo.lock",
    "package-lock.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "poetry.lock",
    "go.sum",
    "composer.lock",
    "Gemfile.lock",
    "uv.lock",
];

impl FileKind {
    /// The kind of the file at `path`, or `None` when it is not indexed.
    pub fn of(path: &Path) -> Option<FileKind> {
        let name = path.file_name()?.to_str()?;
        if SKIPPED_NAMES.contains(&name) || name.ends_with(".min.js") || name.ends_with(".min.css")
        {
            return None;
        }
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            return TEXT_NAMES.contains(&name).then_some(FileKind::Text);
        };
        if let Some(language) = Language::from_extension(ext) {
            return Some(FileKind::Code(language));
        }
        let ext = ext.to_ascii_lowercase();
        if ext == "md" || ext == "markdown" {
            Some(FileKind::Markdown)
        } else if TEXT_EXTENSIONS.contains(&ext.as_str()) || TEXT_NAMES.contains(&name) {
            Some(FileKind::Text)
        } else {
            None
        }
    }

    /// The name `search_code`'s `language` argument and the store use (`rust`, `markdown`, `text`).
    pub fn name(self) -> &'static str {
        match self {
            FileKind::Code(language) => language.name(),
            FileKind::Markdown => "markdown",
            FileKind::Text => "text",
        }
    }
}

/// How the index chunks each language; the language itself (extensions, grammar) is `crate::languages`.
impl Language {
    /// What separates the parts of a symbol path (`a::b::C::f` in Rust and C++, `pkg.C.f` elsewhere).
    pub fn separator(self) -> &'static str {
        match self {
            Language::Rust | Language::Cpp => "::",
            _ => ".",
        }
    }

    /// How the node kind `kind` takes part in chunking, if it does.
    pub fn definition(self, kind: &str) -> Option<DefKind> {
        use DefKind::{Container, Leaf};
        let role = match self {
            Language::Rust => match kind {
                "function_item" | "function_signature_item" => Leaf("function"),
                "struct_item" | "enum_item" | "union_item" | "type_item" => Leaf("type"),
                "macro_definition" => Leaf("macro"),
                "trait_item" => Container("trait"),
                "impl_item" => Container("impl"),
                "mod_item" => Container("module"),
                _ => return None,
            },
            Language::Python => match kind {
                "function_definition" => Leaf("function"),
                "class_definition" => Container("class"),
                _ => return None,
            },
            Language::Java => match kind {
                "method_declaration" | "constructor_declaration" => Leaf("method"),
                "class_declaration" | "record_declaration" => Container("class"),
                "interface_declaration" | "annotation_type_declaration" => Container("interface"),
                "enum_declaration" => Container("enum"),
                _ => return None,
            },
            Language::JavaScript | Language::TypeScript | Language::Tsx => match kind {
                "function_declaration" | "generator_function_declaration" => Leaf("function"),
                "method_definition" | "method_signature" | "abstract_method_signature" => {
                    Leaf("method")
                }
                "interface_declaration" | "type_alias_declaration" | "enum_declaration" => {
                    Leaf("type")
                }
                "lexical_declaration" | "variable_declaration" => Leaf("function"),
                "class_declaration" | "abstract_class_declaration" | "class" => Container("class"),
                "internal_module" | "module" => Container("module"),
                _ => return None,
            },
            Language::Go => match kind {
                "function_declaration" => Leaf("function"),
                "method_declaration" => Leaf("method"),
                "type_declaration" => Leaf("type"),
                _ => return None,
            },
            Language::C => match kind {
                "function_definition" => Leaf("function"),
                "struct_specifier" | "union_specifier" | "enum_specifier" | "type_definition" => {
                    Leaf("type")
                }
                _ => return None,
            },
            Language::Cpp => match kind {
                "function_definition" => Leaf("function"),
                "enum_specifier" | "type_definition" | "alias_declaration" => Leaf("type"),
                "class_specifier" | "struct_specifier" | "union_specifier" => Container("class"),
                "namespace_definition" => Container("namespace"),
                _ => return None,
            },
        };
        Some(role)
    }

    /// Node kinds that are calls, for `/graph`'s "calls" and "called by".
    pub fn is_call(self, kind: &str) -> bool {
        matches!(
            kind,
            "call_expression"
                | "call"
                | "method_invocation"
                | "macro_invocation"
                | "new_expression"
                | "object_creation_expression"
        )
    }
}

/// How a definition node is chunked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// A function, type or constant: one chunk (split when long); nested definitions stay inside it.
    Leaf(&'static str),
    /// A class, impl, trait or module: its own chunk for the part before its members, and its members nested
    /// under its name.
    Container(&'static str),
}

impl DefKind {
    /// `function`, `class`, `impl`…
    pub fn label(self) -> &'static str {
        match self {
            DefKind::Leaf(label) | DefKind::Container(label) => label,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_known_by_extension_and_name() {
        let kind = |p: &str| FileKind::of(Path::new(p));
        assert_eq!(kind("src/a.rs"), Some(FileKind::Code(Language::Rust)));
        assert_eq!(kind("a/b.tsx"), Some(FileKind::Code(Language::Tsx)));
        assert_eq!(kind("x.h"), Some(FileKind::Code(Language::C)));
        assert_eq!(kind("x.hpp"), Some(FileKind::Code(Language::Cpp)));
        assert_eq!(kind("x.c++"), Some(FileKind::Code(Language::Cpp)));
        assert_eq!(
            kind("lib/a.mjs"),
            Some(FileKind::Code(Language::JavaScript))
        );
        assert_eq!(kind("OLD.RS"), Some(FileKind::Code(Language::Rust)));
        assert_eq!(kind("NOTES.MD"), Some(FileKind::Markdown));
        assert_eq!(kind("Config.TOML"), Some(FileKind::Text));
        assert_eq!(kind("README.md"), Some(FileKind::Markdown));
        assert_eq!(kind("Cargo.toml"), Some(FileKind::Text));
        assert_eq!(kind("Makefile"), Some(FileKind::Text));
        assert_eq!(kind("Cargo.lock"), None);
        assert_eq!(kind("app.min.js"), None);
        assert_eq!(kind("logo.png"), None);
        assert_eq!(kind("data.bin"), None);
    }
}
