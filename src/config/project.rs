//! Project files may only tighten. `<project>/.paicli/config.toml` and `<project>/.env` come with the repository,
//! so someone else may have written them: every key they set is checked against the settings table, and one the
//! table keeps from projects is dropped with a [`RefusedSetting`] the front-ends show.

use std::path::{Path, PathBuf};

use super::providers::PROVIDERS;
use super::settings::{self, Project, SETTINGS};

/// Why a project file's setting was not used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Only the user's own files, the environment or a flag may set it.
    UserOnly,
    /// Used once the user trusts the project (`paicli --trust-project` or `/trust`).
    NeedsTrust,
    /// An endpoint that would receive the user's key: used with a key from the same file, or once trusted.
    NeedsOwnKey,
    /// The value loosens a guard; a project may only tighten it.
    Loosens,
}

/// A setting a project file tried to set and that was ignored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusedSetting {
    /// The project file.
    pub file: PathBuf,
    /// The file key (`llm.base_url`) or environment variable (`DEEPSEEK_BASE_URL`).
    pub key: String,
    pub refusal: Refusal,
}

/// Drops the keys of a project `config.toml` that the table keeps from projects. A `<name>` table (a language
/// server) with a refused key is dropped whole, so no half entry remains.
pub(super) fn filter_file(
    file: &Path,
    table: &mut toml::Table,
    trusted: bool,
    refused: &mut Vec<RefusedSetting>,
) {
    let has_own_key = table
        .get("llm")
        .and_then(|llm| llm.get("api_key"))
        .and_then(toml::Value::as_str)
        .is_some_and(|k| !k.trim().is_empty());
    let mut walk = Walk {
        file,
        trusted,
        has_own_key,
        refused,
    };
    walk.table("", table);
}

struct Walk<'a> {
    file: &'a Path,
    trusted: bool,
    has_own_key: bool,
    refused: &'a mut Vec<RefusedSetting>,
}

impl Walk<'_> {
    /// Filters `table` (at dotted `prefix`); true when something in it was refused.
    fn table(&mut self, prefix: &str, table: &mut toml::Table) -> bool {
        let mut any = false;
        let mut drop = Vec::new();
        for (name, value) in table.iter_mut() {
            let path = join(prefix, name);
            let refused = match (settings::for_file_key(&path), value.as_table_mut()) {
                (Some(row), _) => self.leaf(row.project, &path, value),
                (None, Some(inner)) => {
                    let refused = self.table(&path, inner);
                    // A named entry (`lsp.servers.x`) goes whole when part of it is refused.
                    if refused && is_named_entry(prefix) {
                        drop.push(name.clone());
                    }
                    refused
                }
                // Unknown keys are the parser's to report.
                (None, None) => false,
            };
            if refused && settings::for_file_key(&path).is_some() {
                drop.push(name.clone());
            }
            any |= refused;
        }
        for name in drop {
            table.remove(&name);
        }
        any
    }

    fn leaf(&mut self, rule: Project, key: &str, value: &toml::Value) -> bool {
        let refusal = judge(rule, self.trusted, self.has_own_key, value);
        if let Some(refusal) = refusal {
            self.refused.push(RefusedSetting {
                file: self.file.to_path_buf(),
                key: key.to_string(),
                refusal,
            });
        }
        refusal.is_some()
    }
}

/// Whether the row's `<name>` level sits right below `prefix` (`lsp.servers` → `lsp.servers.<name>.command`).
fn is_named_entry(prefix: &str) -> bool {
    let named = format!("{prefix}.<name>.");
    SETTINGS.iter().any(|s| s.key.starts_with(&named))
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

fn judge(rule: Project, trusted: bool, has_own_key: bool, value: &toml::Value) -> Option<Refusal> {
    match rule {
        Project::May => None,
        Project::Never => Some(Refusal::UserOnly),
        Project::Trusted => (!trusted).then_some(Refusal::NeedsTrust),
        Project::WithOwnKeyOrTrusted => (!trusted && !has_own_key).then_some(Refusal::NeedsOwnKey),
        Project::TightenOnly(tightens) => (!tightens(value)).then_some(Refusal::Loosens),
    }
}

/// Drops the variables of a project `.env` that the table keeps from projects. A provider URL stays only when
/// the same file also holds a key for it that the process environment does not override.
pub(super) fn filter_env(
    file: &Path,
    pairs: &mut Vec<(String, String)>,
    process_env: &[(String, String)],
    trusted: bool,
    refused: &mut Vec<RefusedSetting>,
) {
    let survives = |name: &str, pairs: &[(String, String)]| {
        pairs.iter().any(|(k, v)| k == name && !v.trim().is_empty())
            && !process_env.iter().any(|(k, _)| k == name)
    };
    let snapshot = pairs.clone();
    pairs.retain(|(name, value)| {
        let Some(row) = settings::for_env(name) else {
            return true;
        };
        let own_key = key_names_for(name)
            .iter()
            .any(|key| survives(key, &snapshot));
        let value = toml::Value::String(value.clone());
        match judge(row.project, trusted, own_key, &value) {
            None => true,
            Some(refusal) => {
                refused.push(RefusedSetting {
                    file: file.to_path_buf(),
                    key: name.clone(),
                    refusal,
                });
                false
            }
        }
    });
}

/// The key variables that go with a URL variable: `PAICLI_API_KEY` and, for `<PREFIX>_BASE_URL`, that provider's
/// key variables (for `PAICLI_BASE_URL`, any provider's).
fn key_names_for(url_var: &str) -> Vec<&'static str> {
    let mut names = vec!["PAICLI_API_KEY"];
    for p in PROVIDERS {
        let matches = url_var == "PAICLI_BASE_URL"
            || (!p.env_prefix.is_empty()
                && url_var.strip_prefix(p.env_prefix) == Some("_BASE_URL"));
        if matches {
            names.extend(p.key_envs.iter().copied());
        }
    }
    names
}

#[cfg(test)]
mod tests;
