//! The language servers paicli starts without configuration, and the languages each one serves.

use crate::languages::Language;

/// A built-in language server: used when its command is installed, unless `[lsp.servers]` replaces it.
pub struct BuiltinServer {
    pub name: &'static str,
    pub command: &'static str,
    pub args: &'static [&'static str],
    pub languages: &'static [Language],
}

impl BuiltinServer {
    /// The file extensions this server is started for: those of its languages.
    pub fn extensions(&self) -> Vec<String> {
        self.languages
            .iter()
            .flat_map(|l| l.extensions())
            .map(|e| e.to_string())
            .collect()
    }
}

/// The servers paicli knows how to start without configuration.
pub const BUILTIN_SERVERS: &[BuiltinServer] = &[
    BuiltinServer {
        name: "pyright",
        command: "pyright-langserver",
        args: &["--stdio"],
        languages: &[Language::Python],
    },
    BuiltinServer {
        name: "typescript",
        command: "typescript-language-server",
        args: &["--stdio"],
        languages: &[Language::TypeScript, Language::Tsx, Language::JavaScript],
    },
    BuiltinServer {
        name: "rust-analyzer",
        command: "rust-analyzer",
        args: &[],
        languages: &[Language::Rust],
    },
    BuiltinServer {
        name: "clangd",
        command: "clangd",
        args: &[],
        languages: &[Language::C, Language::Cpp],
    },
    BuiltinServer {
        name: "gopls",
        command: "gopls",
        args: &[],
        languages: &[Language::Go],
    },
    BuiltinServer {
        name: "jdtls",
        command: "jdtls",
        args: &[],
        languages: &[Language::Java],
    },
];

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_language_has_one_builtin_server() {
        for language in Language::ALL {
            let serving: Vec<&str> = BUILTIN_SERVERS
                .iter()
                .filter(|s| s.languages.contains(&language))
                .map(|s| s.name)
                .collect();
            assert_eq!(serving.len(), 1, "{language:?}: {serving:?}");
        }
    }

    #[test]
    fn a_server_is_started_for_every_extension_of_its_languages() {
        let clangd = BUILTIN_SERVERS.iter().find(|s| s.name == "clangd").unwrap();
        let extensions = clangd.extensions();
        for ext in ["c", "h", "cpp", "c++", "hpp", "cc"] {
            assert!(extensions.contains(&ext.to_string()), "{ext}");
        }
    }
}
