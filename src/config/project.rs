//! Project files may only tighten. `<project>/.paicli/config.toml` and `<project>/.env` come with the repository,
//! so someone else may have written them: every key they set is checked against its setting's declaration, and
//! one the declaration keeps from projects is dropped with a [`RefusedSetting`] the front-ends show.

use std::path::{Path, PathBuf};

use super::layer::ConfigFile;
use super::providers::PROVIDERS;
use super::settings::{self, Project};

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

/// Drops the settings of a project `config.toml` that their declarations keep from projects (a `<name>` entry, such
/// as a language server, goes whole).
pub(super) fn filter_file(
    file: &Path,
    layer: &mut ConfigFile,
    trusted: bool,
    refused: &mut Vec<RefusedSetting>,
) {
    let has_own_key = layer
        .get("llm.api_key")
        .and_then(toml::Value::as_str)
        .is_some_and(|k| !k.trim().is_empty());
    layer.retain(|entry| {
        let refusal = judge(entry.row.info().project, trusted, has_own_key, &entry.value);
        if let Some(refusal) = refusal {
            refused.push(RefusedSetting {
                file: file.to_path_buf(),
                key: entry.key.clone(),
                refusal,
            });
        }
        refusal.is_none()
    });
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

/// Drops the variables of a project `.env` that their declarations keep from projects. A provider URL stays only when
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
        match judge(row.info().project, trusted, own_key, &value) {
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
