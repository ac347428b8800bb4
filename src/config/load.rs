//! Loading: the declared defaults, then each config file, the environment and the flags, each through the
//! settings' declarations; a project's own files and `.env` pass the project filter first.

use std::path::{Path, PathBuf};

use super::layer::ConfigFile;
use super::safe_read::USER_FILES_BASE;
use super::{Config, ConfigError, EnvVars, Overrides, ProjectTrust, env, project, settings};

impl Config {
    /// Loads every layer for `project_dir`, reading the process environment.
    pub fn load(project_dir: &Path, overrides: &Overrides) -> Result<Config, ConfigError> {
        Self::load_with_env(project_dir, std::env::vars().collect(), overrides)
    }

    /// Loads every layer with an explicit process environment (tests pass their own).
    pub fn load_with_env(
        project_dir: &Path,
        process_env: Vec<(String, String)>,
        overrides: &Overrides,
    ) -> Result<Config, ConfigError> {
        let project_root =
            project_dir
                .canonicalize()
                .map_err(|source| ConfigError::ProjectDir {
                    path: project_dir.to_path_buf(),
                    source,
                })?;
        let home = paicli_home(&process_env);
        let trusted = ProjectTrust::load(&home).is_trusted(&project_root);
        let mut refused = Vec::new();
        // The project's files are read beneath the project (a link out of it is refused); the user's may link
        // anywhere (`USER_FILES_BASE`).
        let mut file_notices = Vec::new();
        let user_base = Path::new(USER_FILES_BASE);

        let user_env = env::read_dotenv(user_base, &home.join(".env"), &mut file_notices)?;
        let project_env_path = project_root.join(".env");
        let mut project_env =
            env::read_dotenv(&project_root, &project_env_path, &mut file_notices)?;
        project::filter_env(
            &project_env_path,
            &mut project_env,
            &process_env,
            trusted,
            &mut refused,
        );
        let env = EnvVars::from_layers(user_env, project_env, process_env, !trusted);

        let user_path = home.join("config.toml");
        let user_file = ConfigFile::read(user_base, &user_path, &mut file_notices)?;
        let project_path = project_root.join(".paicli/config.toml");
        let project_file = ConfigFile::read(&project_root, &project_path, &mut file_notices)?;

        let mut config = Config::defaults(project_root, home, env);
        if let Some(file) = user_file {
            file.apply(&mut config, &user_path)?;
        }
        if let Some(mut file) = project_file {
            project::filter_file(&project_path, &mut file, trusted, &mut refused);
            if !trusted {
                config.llm.file_base_url_from_project = file.get("llm.base_url").is_some();
                config.llm.file_api_key_from_project = file.get("llm.api_key").is_some();
            }
            file.apply(&mut config, &project_path)?;
        }
        config.trusted_project = trusted;
        config.refused = refused;
        config.file_notices = file_notices;
        config.apply_env()?;
        config.apply_overrides(overrides)?;
        config.validate()?;
        Ok(config)
    }

    /// Every setting at its declared default.
    fn defaults(project_root: PathBuf, home: PathBuf, env: EnvVars) -> Config {
        Config {
            project_root,
            // The one default that depends on another setting.
            audit_dir: home.join("audit"),
            home,
            env,
            ..Config::declared()
        }
    }

    /// Every declared variable, the lowest-precedence name of a setting first so the highest wins. Provider
    /// variables (`<PREFIX>_MODEL`, `<KEY>`) are read by [`super::resolve_provider`].
    fn apply_env(&mut self) -> Result<(), ConfigError> {
        let env = self.env.clone();
        for row in settings::all() {
            for name in row.info().env.iter().rev().filter(|n| !n.starts_with('<')) {
                if let Some(text) = env.get(name) {
                    row.apply_text(self, text)
                        .map_err(|reason| ConfigError::InvalidValue {
                            key: name.to_string(),
                            value: text.to_string(),
                            reason,
                        })?;
                }
            }
        }
        // Only a key from the same untrusted `.env` goes to an endpoint it names.
        self.llm.base_url_from_project =
            env.get("PAICLI_BASE_URL").is_some() && env.from_project("PAICLI_BASE_URL");
        Ok(())
    }

    /// The flags, each through the setting that declares it.
    fn apply_overrides(&mut self, o: &Overrides) -> Result<(), ConfigError> {
        for (flag, text) in o.given() {
            let row = settings::for_flag(flag).ok_or_else(|| {
                ConfigError::Incomplete(format!("{flag} is not declared by a setting"))
            })?;
            row.apply_text(self, &text)
                .map_err(|reason| ConfigError::InvalidValue {
                    key: flag.to_string(),
                    value: text.clone(),
                    reason,
                })?;
        }
        if o.base_url.is_some() {
            self.llm.base_url_from_project = false;
        }
        Ok(())
    }

    /// Rejects settings that are valid one by one but not as used.
    fn validate(&self) -> Result<(), ConfigError> {
        super::validate_stagnation_window(self.agent.stagnation_window).map_err(|reason| {
            ConfigError::InvalidValue {
                key: "agent.stagnation_window".to_string(),
                value: self.agent.stagnation_window.to_string(),
                reason,
            }
        })?;
        Ok(())
    }
}

/// `$PAICLI_HOME`, else `~/.paicli`, else `./.paicli-home` when no home directory is known.
fn paicli_home(process_env: &[(String, String)]) -> PathBuf {
    if let Some((_, v)) = process_env
        .iter()
        .find(|(k, v)| k == "PAICLI_HOME" && !v.is_empty())
    {
        return PathBuf::from(v);
    }
    match dirs::home_dir() {
        Some(h) => h.join(".paicli"),
        None => PathBuf::from(".paicli-home"),
    }
}
