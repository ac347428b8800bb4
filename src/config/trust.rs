//! Projects the user trusts with settings a cloned repository may not set on its own (a provider URL without
//! its own key, language-server commands, search endpoints). Remembered in `$PAICLI_HOME/project-trust.json` per
//! project root and per content hash of its `.paicli/config.toml` and `.env`: a changed file needs trusting again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::json_store::write_json_store;
use sha2::{Digest, Sha256};

/// The trust file's name under `$PAICLI_HOME`.
pub const TRUST_FILE: &str = "project-trust.json";

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    /// Project root → content hash of its config files when the user trusted it.
    #[serde(default)]
    projects: BTreeMap<String, String>,
    /// Project root → content hash of its hooks when the user trusted them (see `hooks::trust`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    hooks: BTreeMap<String, String>,
}

/// The remembered project trust.
#[derive(Debug)]
pub struct ProjectTrust {
    path: PathBuf,
    file: TrustFile,
}

impl ProjectTrust {
    /// Reads `$PAICLI_HOME/project-trust.json`; a missing or unreadable file trusts nothing.
    pub fn load(home: &Path) -> ProjectTrust {
        let path = home.join(TRUST_FILE);
        let file = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        ProjectTrust { path, file }
    }

    /// True when `project` was trusted with exactly its current config files.
    pub fn is_trusted(&self, project: &Path) -> bool {
        self.file
            .projects
            .get(&key(project))
            .is_some_and(|hash| *hash == content_hash(project))
    }

    /// Trusts `project` with its current config files and writes the store.
    pub fn trust(&mut self, project: &Path) -> std::io::Result<()> {
        self.file
            .projects
            .insert(key(project), content_hash(project));
        write_json_store(&self.path, &self.file)
    }
}

impl ProjectTrust {
    /// True when `project`'s hooks were trusted with exactly the content hash `hash`.
    pub fn hooks_trusted(&self, project: &Path, hash: &str) -> bool {
        self.file
            .hooks
            .get(&key(project))
            .is_some_and(|h| h == hash)
    }

    /// Trusts `project`'s hooks with content hash `hash` and writes the store.
    pub fn trust_hooks(&mut self, project: &Path, hash: &str) -> std::io::Result<()> {
        self.file.hooks.insert(key(project), hash.to_string());
        write_json_store(&self.path, &self.file)
    }
}

fn key(project: &Path) -> String {
    project.to_string_lossy().into_owned()
}

/// SHA-256 over the project's `.paicli/config.toml` and `.env`, each marked present or absent.
fn content_hash(project: &Path) -> String {
    let mut hasher = Sha256::new();
    for rel in [".paicli/config.toml", ".env"] {
        // The same reader the loader uses, so what is trusted is what is loaded (and a link to /dev/zero costs
        // at most the cap).
        match super::safe_read::read_whole_beneath(
            project,
            Path::new(rel),
            super::safe_read::SETTINGS_CAP,
        ) {
            Ok(text) => {
                hasher.update(b"present\0");
                hasher.update((text.len() as u64).to_le_bytes());
                hasher.update(text.as_bytes());
            }
            Err(_) => hasher.update(b"absent\0"),
        }
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn trust_is_per_project_and_lost_when_its_config_changes() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join(".env"), "A=1\n").unwrap();
        let mut trust = ProjectTrust::load(home.path());
        assert!(!trust.is_trusted(project.path()));
        trust.trust(project.path()).unwrap();
        let trust = ProjectTrust::load(home.path());
        assert!(trust.is_trusted(project.path()));
        assert!(!trust.is_trusted(other.path()));
        std::fs::write(project.path().join(".env"), "A=2\n").unwrap();
        assert!(
            !trust.is_trusted(project.path()),
            "a changed .env needs trusting again"
        );
    }
}
