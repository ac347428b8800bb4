//! Where each effective setting came from (`/config`). Derived after loading by asking the layers in precedence
//! order, so the loader itself stays a plain fold.

use std::path::{Path, PathBuf};

use crate::llm::providers;

use super::{Config, Overrides};

/// One effective setting: its key, its value (secrets masked) and the layer that set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigEntry {
    pub key: String,
    pub value: String,
    pub source: String,
}

/// The config files in precedence order (lowest first), parsed leniently: the loader already reported errors.
struct Layers {
    files: Vec<(PathBuf, toml::Table)>,
}

impl Layers {
    fn read(config: &Config) -> Layers {
        let files = [
            config.home.join("config.toml"),
            config.project_root.join(".paicli/config.toml"),
        ]
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let table = text.parse::<toml::Table>().ok()?;
            Some((path, table))
        })
        .collect();
        Layers { files }
    }

    /// The highest file that sets the dotted `key`.
    fn file_with(&self, key: &str) -> Option<&Path> {
        self.files
            .iter()
            .rev()
            .find(|(_, table)| lookup(table, key).is_some())
            .map(|(path, _)| path.as_path())
    }

    fn file_value(&self, key: &str) -> Option<String> {
        self.files
            .iter()
            .rev()
            .find_map(|(_, table)| lookup(table, key))
            .map(|v| match v {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            })
    }
}

fn lookup<'a>(table: &'a toml::Table, key: &str) -> Option<&'a toml::Value> {
    let mut parts = key.split('.');
    let mut value = table.get(parts.next()?)?;
    for part in parts {
        value = value.as_table()?.get(part)?;
    }
    Some(value)
}

/// Which layer set `key`: flag > the first set env variable > config file > `fallback`.
fn origin(
    config: &Config,
    layers: &Layers,
    flag: Option<&str>,
    envs: &[String],
    key: &str,
    fallback: &str,
) -> String {
    if let Some(flag) = flag {
        return format!("flag {flag}");
    }
    if let Some(var) = envs.iter().find(|v| config.env.get(v).is_some()) {
        return format!("env {var}");
    }
    match layers.file_with(key) {
        Some(path) => format!("file {}", path.display()),
        None => fallback.to_string(),
    }
}

/// Shows a secret by its edges only.
pub fn mask_secret(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < 12 {
        return "****".to_string();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

/// Every effective setting with its source, in a stable order. `overrides` are the command-line flags.
pub fn describe_config(config: &Config, overrides: &Overrides) -> Vec<ConfigEntry> {
    let layers = Layers::read(config);
    let mut out = Vec::new();
    let mut push = |key: &str, value: String, source: String| {
        out.push(ConfigEntry {
            key: key.to_string(),
            value,
            source,
        })
    };
    let env = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();

    // The provider decides which provider-specific variables count.
    let resolved = config.provider();
    let info = resolved
        .as_ref()
        .ok()
        .and_then(|p| providers::lookup(&p.id));
    let prefixed = |suffix: &str| {
        info.map(|i| vec![format!("{}_{suffix}", i.env_prefix)])
            .unwrap_or_default()
    };
    match &resolved {
        Ok(p) => {
            let provider_src = origin(
                config,
                &layers,
                overrides.provider.as_ref().map(|_| "--provider"),
                &env(&["PAICLI_PROVIDER"]),
                "llm.provider",
                "detected from the API key variables or the base URL",
            );
            push("llm.provider", p.id.clone(), provider_src);
            let mut model_envs = env(&["PAICLI_MODEL"]);
            model_envs.extend(prefixed("MODEL"));
            let model_src = origin(
                config,
                &layers,
                overrides.model.as_ref().map(|_| "--model"),
                &model_envs,
                "llm.model",
                "provider default",
            );
            push("llm.model", p.model.clone(), model_src);
            let mut url_envs = env(&["PAICLI_BASE_URL"]);
            url_envs.extend(prefixed("BASE_URL"));
            let url_src = origin(
                config,
                &layers,
                overrides.base_url.as_ref().map(|_| "--base-url"),
                &url_envs,
                "llm.base_url",
                "provider default",
            );
            push("llm.base_url", p.base_url.clone(), url_src);
            let mut key_envs = env(&["PAICLI_API_KEY"]);
            key_envs.extend(
                info.iter()
                    .flat_map(|i| i.key_envs.iter().map(|k| k.to_string())),
            );
            let key_src = origin(config, &layers, None, &key_envs, "llm.api_key", "not set");
            let key = p
                .api_key
                .as_deref()
                .map_or_else(|| "(none)".to_string(), mask_secret);
            push("llm.api_key", key, key_src);
            push(
                "llm.context_window",
                p.context_window.to_string(),
                "provider table".to_string(),
            );
        }
        Err(e) => push("llm.provider", format!("(unresolved: {e})"), String::new()),
    }
    let file_only = |key: &str| origin(config, &layers, None, &[], key, "default");
    push(
        "llm.connect_timeout_secs",
        config.llm.connect_timeout.as_secs().to_string(),
        file_only("llm.connect_timeout_secs"),
    );
    push(
        "llm.idle_timeout_secs",
        config.llm.idle_timeout.as_secs().to_string(),
        file_only("llm.idle_timeout_secs"),
    );
    push(
        "llm.retry.max_attempts",
        config.llm.retry.max_attempts.to_string(),
        file_only("llm.retry.max_attempts"),
    );
    let unlimited = |v: Option<String>| v.unwrap_or_else(|| "unlimited".to_string());
    push(
        "agent.max_iterations",
        unlimited(config.agent.max_iterations.map(|n| n.to_string())),
        origin(
            config,
            &layers,
            overrides.max_iterations.map(|_| "--max-iterations"),
            &env(&["PAICLI_MAX_ITERATIONS"]),
            "agent.max_iterations",
            "default",
        ),
    );
    push(
        "agent.token_budget",
        unlimited(config.agent.token_budget.map(|n| n.to_string())),
        origin(
            config,
            &layers,
            None,
            &env(&["PAICLI_TOKEN_BUDGET"]),
            "agent.token_budget",
            "default",
        ),
    );
    let t = &config.tools;
    push(
        "tools.command_timeout_secs",
        t.command_timeout.as_secs().to_string(),
        origin(
            config,
            &layers,
            None,
            &env(&["PAICLI_COMMAND_TIMEOUT_SECS"]),
            "tools.command_timeout_secs",
            "default",
        ),
    );
    push(
        "tools.max_parallel",
        t.max_parallel.to_string(),
        file_only("tools.max_parallel"),
    );
    push(
        "tools.offload.enabled",
        t.offload_enabled.to_string(),
        origin(
            config,
            &layers,
            None,
            &env(&["PAICLI_TOOL_OFFLOAD_ENABLED"]),
            "tools.offload.enabled",
            "default",
        ),
    );
    push(
        "approval.mode",
        format!("{:?}", config.approval).to_ascii_lowercase(),
        origin(
            config,
            &layers,
            overrides.approval.map(|_| "--approval"),
            &env(&["PAICLI_APPROVAL"]),
            "approval.mode",
            "default",
        ),
    );
    push(
        "ui.language",
        layers
            .file_value("ui.language")
            .unwrap_or_else(|| "auto".to_string()),
        file_only("ui.language"),
    );
    push(
        "project_root",
        config.project_root.display().to_string(),
        "-C flag or current directory".to_string(),
    );
    push(
        "home",
        config.home.display().to_string(),
        origin(
            config,
            &layers,
            None,
            &env(&["PAICLI_HOME"]),
            "",
            "default ~/.paicli",
        ),
    );
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn entry<'a>(entries: &'a [ConfigEntry], key: &str) -> &'a ConfigEntry {
        entries.iter().find(|e| e.key == key).unwrap()
    }

    #[test]
    fn each_value_names_its_layer_and_keys_are_masked() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join("config.toml"),
            "[llm]\nprovider = \"deepseek\"\n[tools]\nmax_parallel = 2\n",
        )
        .unwrap();
        std::fs::create_dir_all(project.path().join(".paicli")).unwrap();
        std::fs::write(
            project.path().join(".paicli/config.toml"),
            "[tools]\nmax_parallel = 3\n",
        )
        .unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), home.path().display().to_string()),
            (
                "DEEPSEEK_API_KEY".to_string(),
                "sk-1234567890abcdef".to_string(),
            ),
            ("PAICLI_MAX_ITERATIONS".to_string(), "7".to_string()),
        ];
        let overrides = Overrides {
            model: Some("deepseek-chat".to_string()),
            ..Overrides::default()
        };
        let config = Config::load_with_env(project.path(), env, &overrides).unwrap();
        let entries = describe_config(&config, &overrides);

        assert!(
            entry(&entries, "llm.provider")
                .source
                .ends_with("config.toml")
        );
        assert_eq!(entry(&entries, "llm.model").source, "flag --model");
        let key = entry(&entries, "llm.api_key");
        assert_eq!(key.value, "sk-…cdef");
        assert_eq!(key.source, "env DEEPSEEK_API_KEY");
        assert_eq!(
            entry(&entries, "agent.max_iterations").source,
            "env PAICLI_MAX_ITERATIONS"
        );
        let parallel = entry(&entries, "tools.max_parallel");
        assert_eq!(parallel.value, "3");
        assert!(parallel.source.contains(".paicli"), "{}", parallel.source);
        assert_eq!(entry(&entries, "llm.idle_timeout_secs").source, "default");
    }

    #[test]
    fn short_secrets_are_hidden_entirely() {
        assert_eq!(mask_secret("abc"), "****");
    }
}
