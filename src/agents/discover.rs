//! Finds the definitions of every layer. A broken file is skipped with its reason and one warning in the log; it
//! never stops start-up. Every file is read by the one safe reader, beneath the project for the project's layers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{AgentCatalog, AgentDef, Layer, Skipped, builtin, parse};
use crate::config::claude_settings::ClaudeSources;
use crate::config::safe_read::{SKILL_CAP, read_whole_noticed};

/// The directories the layers live under.
#[derive(Clone, Debug)]
pub struct AgentRoots {
    /// The user's home (`~`), for `~/.claude/agents`; `None` when unknown.
    pub user_home: Option<PathBuf>,
    /// Which of Claude's folders are read (`--setting-sources`: `user` for `~/.claude/agents`, `project` for
    /// `.claude/agents`).
    pub claude_sources: ClaudeSources,
    /// `$PAICLI_HOME` (`~/.paicli`).
    pub paicli_home: PathBuf,
    pub project_root: PathBuf,
}

impl AgentRoots {
    /// The folder of `layer`; `None` for built-in and caller agents and when the home is unknown.
    pub fn dir(&self, layer: Layer) -> Option<PathBuf> {
        match layer {
            Layer::BuiltIn | Layer::Caller => None,
            Layer::UserClaude if !self.claude_sources.user => None,
            Layer::ProjectClaude if !self.claude_sources.project => None,
            Layer::UserClaude => self.user_home.as_ref().map(|h| h.join(".claude/agents")),
            Layer::UserPaicli => Some(self.paicli_home.join("agents")),
            Layer::ProjectCodex => Some(self.project_root.join(".codex/agents")),
            Layer::ProjectClaude => Some(self.project_root.join(".claude/agents")),
            Layer::ProjectPaicli => Some(self.project_root.join(".paicli/agents")),
        }
    }

    /// The folder a layer's files must lie beneath: the project for the project's layers, else the folder.
    fn base(&self, layer: Layer, dir: &Path) -> PathBuf {
        if layer.is_project() {
            self.project_root.clone()
        } else {
            dir.to_path_buf()
        }
    }
}

/// Every layer's agents, later layers replacing earlier ones of the same name.
pub fn discover(roots: &AgentRoots) -> AgentCatalog {
    let mut catalog = AgentCatalog::default();
    builtin::add_to(&mut catalog);
    let mut by_name: BTreeMap<String, AgentDef> = catalog
        .agents
        .drain(..)
        .map(|def| (def.name.clone(), def))
        .collect();
    for layer in Layer::ON_DISK {
        let Some(dir) = roots.dir(layer) else {
            continue;
        };
        let extension = if layer == Layer::ProjectCodex {
            "toml"
        } else {
            "md"
        };
        let base = roots.base(layer, &dir);
        for file in files_with(&dir, extension) {
            let Some(text) = read_whole_noticed(&base, &file, SKILL_CAP, &mut catalog.file_notices)
            else {
                continue;
            };
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let parsed = if extension == "toml" {
                parse::codex_toml(&text, &stem, layer)
            } else {
                parse::markdown(&text, &stem, layer)
            };
            match parsed {
                Ok(mut def) => {
                    def.path = Some(file);
                    by_name.insert(def.name.clone(), def);
                }
                Err(problem) => {
                    tracing::warn!("agent skipped: {}: {problem}", file.display());
                    catalog.skipped.push(Skipped {
                        path: file,
                        problem,
                    });
                }
            }
        }
    }
    catalog.agents = by_name.into_values().collect();
    catalog
}

/// The non-hidden files of `dir` ending in `.extension`, sorted.
fn files_with(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::agents::ModelChoice;

    fn write(dir: &Path, rel: &str, text: &str) {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn later_layers_win_broken_files_are_skipped_and_links_out_refused() {
        let home = tempfile::tempdir().unwrap();
        let paicli = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        write(
            home.path(),
            ".claude/agents/helper.md",
            "---\ndescription: user's\n---\nA\n",
        );
        write(
            project.path(),
            ".paicli/agents/helper.md",
            "---\ndescription: project's\nprovider: kimi\nmodel: kimi-k2\n---\nB\n",
        );
        write(
            project.path(),
            ".claude/agents/broken.md",
            "---\nname: broken\n---\nC\n",
        );
        write(
            project.path(),
            ".codex/agents/scout.toml",
            "name = \"scout\"\ndescription = \"d\"\ndeveloper_instructions = \"look\"\n",
        );
        write(
            project.path(),
            ".paicli/agents/general.md",
            "---\ndescription: mine\n---\nD\n",
        );
        write(
            outside.path(),
            "planted.md",
            "---\ndescription: planted\n---\nE\n",
        );
        std::os::unix::fs::symlink(
            outside.path().join("planted.md"),
            project.path().join(".claude/agents/planted.md"),
        )
        .unwrap();
        let mut roots = AgentRoots {
            user_home: Some(home.path().to_path_buf()),
            claude_sources: ClaudeSources::ALL,
            paicli_home: paicli.path().to_path_buf(),
            project_root: project.path().to_path_buf(),
        };
        let found = discover(&roots);
        let helper = found.get("helper").unwrap();
        assert_eq!(
            (helper.description.as_str(), helper.layer),
            ("project's", Layer::ProjectPaicli)
        );
        assert_eq!(
            helper.model,
            ModelChoice::Named {
                provider: Some("kimi".into()),
                model: "kimi-k2".into()
            }
        );
        assert_eq!(found.get("general").unwrap().layer, Layer::ProjectPaicli);
        assert_eq!(found.get("scout").unwrap().layer, Layer::ProjectCodex);
        assert!(found.get("reviewer").is_some() && found.get("planted").is_none());
        assert_eq!(found.skipped.len(), 1);
        assert!(found.skipped[0].problem.contains("description"));
        assert_eq!(found.file_notices.len(), 1);
        // `--setting-sources=`: neither Claude folder is read (its broken file and planted link are not seen).
        roots.claude_sources = ClaudeSources::parse("").unwrap();
        let found = discover(&roots);
        assert_eq!(found.get("helper").unwrap().layer, Layer::ProjectPaicli);
        assert!(found.skipped.is_empty() && found.file_notices.is_empty());
    }
}
