//! Approvals of project-level MCP servers, remembered in `$PAICLI_HOME/mcp-trust.json` per project root and per
//! command line (or URL): a changed command needs a new approval. A repository cannot approve its own servers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::json_store::write_json_store;

/// The approvals file name under `$PAICLI_HOME`.
pub const TRUST_FILE: &str = "mcp-trust.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    #[serde(default)]
    projects: BTreeMap<String, BTreeSet<String>>,
}

/// The remembered approvals.
#[derive(Debug)]
pub struct TrustStore {
    path: PathBuf,
    file: TrustFile,
}

impl TrustStore {
    /// Reads `$PAICLI_HOME/mcp-trust.json`; a missing or unreadable file means nothing is approved.
    pub fn load(home: &Path) -> TrustStore {
        let path = home.join(TRUST_FILE);
        let file = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| match serde_json::from_str(&text) {
                Ok(file) => Some(file),
                Err(e) => {
                    tracing::warn!("ignoring unreadable {}: {e}", path.display());
                    None
                }
            })
            .unwrap_or_default();
        TrustStore { path, file }
    }

    /// True when `command_line` was approved for `project`.
    pub fn is_approved(&self, project: &Path, command_line: &str) -> bool {
        self.file
            .projects
            .get(&key(project))
            .is_some_and(|set| set.contains(command_line))
    }

    /// Remembers an approval and writes the file.
    pub fn approve(&mut self, project: &Path, command_line: &str) -> std::io::Result<()> {
        self.file
            .projects
            .entry(key(project))
            .or_default()
            .insert(command_line.to_string());
        write_json_store(&self.path, &self.file)
    }
}

fn key(project: &Path) -> String {
    project.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn approvals_are_per_project_and_command_line_and_persist() {
        let home = tempfile::tempdir().unwrap();
        let mut store = TrustStore::load(home.path());
        let proj = Path::new("/p");
        assert!(!store.is_approved(proj, "npx srv"));
        store.approve(proj, "npx srv").unwrap();
        let store = TrustStore::load(home.path());
        assert!(store.is_approved(proj, "npx srv"));
        assert!(!store.is_approved(proj, "npx srv --evil"));
        assert!(!store.is_approved(Path::new("/other"), "npx srv"));
    }
}
