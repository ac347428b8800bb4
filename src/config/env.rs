//! The environment as paicli sees it: `$PAICLI_HOME/.env` < `<project>/.env` < the process environment.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::ConfigError;
use super::safe_read::{FileNotice, SETTINGS_CAP, read_whole_noticed};

/// Merged environment variables.
#[derive(Clone, Debug, Default)]
pub struct EnvVars {
    vars: HashMap<String, String>,
    /// Names whose value came from an untrusted project's `.env`.
    from_project: HashSet<String>,
}

impl EnvVars {
    /// Reads the `.env` files (missing ones are fine) under the process environment.
    pub fn load(
        project_root: &Path,
        home: &Path,
        process_env: Vec<(String, String)>,
    ) -> Result<EnvVars, ConfigError> {
        let user = read_dotenv(
            Path::new(super::safe_read::USER_FILES_BASE),
            &home.join(".env"),
            &mut Vec::new(),
        )?;
        let project = read_dotenv(project_root, &project_root.join(".env"), &mut Vec::new())?;
        Ok(Self::from_layers(user, project, process_env, true))
    }

    /// Merges the layers; `project_is_foreign` remembers which values came from the project's `.env` (an
    /// untrusted project), so a provider URL from it is only ever paired with a key from it.
    pub(super) fn from_layers(
        user: Vec<(String, String)>,
        project: Vec<(String, String)>,
        process_env: Vec<(String, String)>,
        project_is_foreign: bool,
    ) -> EnvVars {
        let mut vars = HashMap::new();
        vars.extend(user);
        let mut from_project = HashSet::new();
        for (k, v) in project {
            if project_is_foreign {
                from_project.insert(k.clone());
            }
            vars.insert(k, v);
        }
        for (k, v) in process_env {
            from_project.remove(&k);
            vars.insert(k, v);
        }
        EnvVars { vars, from_project }
    }

    /// True when `key`'s value came from an untrusted project's `.env`.
    pub fn from_project(&self, key: &str) -> bool {
        self.from_project.contains(key)
    }

    /// Builds the view from explicit pairs (tests).
    pub fn from_pairs<I, K, V>(pairs: I) -> EnvVars
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        EnvVars {
            vars: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
            from_project: HashSet::new(),
        }
    }

    /// Every variable, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.vars.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// A non-empty variable.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .get(key)
            .map(|v| v.trim())
            .filter(|v| !v.is_empty())
    }
}

/// The pairs of one `.env` file, read beneath `base` by the safe reader; a missing file has none, a refused one
/// none and a notice.
pub(super) fn read_dotenv(
    base: &Path,
    path: &Path,
    notices: &mut Vec<FileNotice>,
) -> Result<Vec<(String, String)>, ConfigError> {
    let Some(text) = read_whole_noticed(base, path, SETTINGS_CAP, notices) else {
        return Ok(Vec::new());
    };
    dotenvy::from_read_iter(text.as_bytes())
        .map(|item| {
            item.map_err(|e| ConfigError::Parse {
                path: path.to_path_buf(),
                message: e.to_string(),
            })
        })
        .collect()
}
