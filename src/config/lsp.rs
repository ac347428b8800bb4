//! `[lsp]`: diagnostics after edits, and the language servers configured besides the built-in ones.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Deserialize;

use super::settings::{Millis, Plain, declare_settings, setting};

declare_settings! {
    /// Diagnostics after edits (`[lsp]`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct LspSettings in config.lsp {
        /// Check edited files with language servers (or the syntax check).
        pub enabled: bool = setting("lsp.enabled", Plain(true)).env(&["PAICLI_LSP_ENABLED"]),
        /// Longest wait for the servers per batch of edits (milliseconds); then the syntax check stands in.
        pub wait: Duration = setting("lsp.wait_ms", Millis(3000)).env(&["PAICLI_LSP_WAIT_MS"]),
        /// Diagnostics listed per message, errors first.
        pub max_diagnostics: usize = setting("lsp.max_diagnostics", Plain(20))
            .env(&["PAICLI_LSP_MAX_DIAGNOSTICS"]),
        /// `[lsp.servers.<name>]` entries; they add to or replace the built-in servers of the same name.
        pub servers: BTreeMap<String, LspServerSection>,
    }
}

/// `[lsp.servers.<name>]`: a language server command and the file extensions it checks.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LspServerSection {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extensions without the dot (`["py", "pyi"]`); may be left out for a built-in server name.
    #[serde(default)]
    pub extensions: Vec<String>,
}
