//! Where each effective setting came from (`/config`). Derived after loading by asking the layers in precedence
//! order, so the loader itself stays a plain fold.

use std::path::{Path, PathBuf};

use super::layer::ConfigFile;
use super::providers::{self, ProviderInfo, ResolvedProvider};
use super::settings::{self, Row};
use super::{Config, Overrides, RefusedSetting};

/// One effective setting: its key, its value (secrets masked) and the layer that set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigEntry {
    pub key: String,
    pub value: String,
    pub source: String,
}

/// The config files in precedence order (lowest first), read again: the loader already reported their errors.
struct Layers {
    files: Vec<(PathBuf, ConfigFile)>,
}

impl Layers {
    fn read(config: &Config) -> Layers {
        let files = [
            (
                Path::new(super::safe_read::USER_FILES_BASE),
                config.home.join("config.toml"),
            ),
            (
                config.project_root.as_path(),
                config.project_root.join(".paicli/config.toml"),
            ),
        ]
        .into_iter()
        .filter_map(|(base, path)| {
            let file = ConfigFile::read(base, &path, &mut Vec::new())
                .ok()
                .flatten()?;
            Some((path, file))
        })
        .collect();
        Layers { files }
    }

    /// The highest file that sets the setting `key` (with these `<name>` parts) and was not refused for it.
    fn file_with(&self, key: &str, names: &[String], refused: &[RefusedSetting]) -> Option<&Path> {
        self.files
            .iter()
            .rev()
            .find(|(path, file)| {
                file.entries().iter().any(|e| {
                    e.row.info().key == key
                        && e.names == names
                        && !refused.iter().any(|r| r.file == *path && r.key == e.key)
                })
            })
            .map(|(path, _)| path.as_path())
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

/// Every effective setting with its source, in the declarations' order. `overrides` are the command-line flags.
pub fn describe_config(config: &Config, overrides: &Overrides) -> Vec<ConfigEntry> {
    let layers = Layers::read(config);
    let resolved = config.provider();
    let info = resolved
        .as_ref()
        .ok()
        .and_then(|p| providers::lookup(&p.id));
    let mut out = Vec::new();
    if let Err(e) = &resolved {
        out.push(ConfigEntry {
            key: "llm.provider".to_string(),
            value: format!("(unresolved: {e})"),
            source: String::new(),
        });
    }
    for row in settings::all() {
        let key = row.info().key;
        if key.contains("<name>") {
            continue;
        }
        let provider_row = matches!(
            key,
            "llm.provider" | "llm.model" | "llm.base_url" | "llm.api_key"
        );
        if provider_row && resolved.is_err() {
            continue;
        }
        let value = match (key, &resolved) {
            ("llm.context_window", Ok(p)) if config.llm.context_window.is_none() => {
                out.push(ConfigEntry {
                    key: key.to_string(),
                    value: p.context_window.to_string(),
                    source: "provider table".to_string(),
                });
                continue;
            }
            // Unset, the provider's own limit is what requests carry.
            ("llm.max_output_tokens", Ok(p)) if config.llm.max_output_tokens.is_none() => {
                out.push(ConfigEntry {
                    key: key.to_string(),
                    value: p
                        .max_tokens
                        .map_or_else(|| "(none sent)".to_string(), |n| n.to_string()),
                    source: "provider table".to_string(),
                });
                continue;
            }
            (_, Ok(p)) if provider_row => provider_value(key, p),
            _ => row.show(config),
        };
        let envs: Vec<String> = row
            .info()
            .env
            .iter()
            .flat_map(|pattern| expand_env(pattern, info))
            .collect();
        let source = origin(config, &layers, overrides, *row, &envs);
        out.push(ConfigEntry {
            key: key.to_string(),
            value,
            source,
        });
    }
    for (name, server) in &config.lsp.servers {
        let key = format!("lsp.servers.{name}");
        let mut value = server.command.clone();
        for arg in &server.args {
            value.push(' ');
            value.push_str(arg);
        }
        let names = [name.clone()];
        let source = match layers.file_with("lsp.servers.<name>", &names, &config.refused) {
            Some(path) => format!("file {}", path.display()),
            None => String::new(),
        };
        out.push(ConfigEntry { key, value, source });
    }
    out.push(ConfigEntry {
        key: "project_root".to_string(),
        value: config.project_root.display().to_string(),
        source: "-C flag or current directory".to_string(),
    });
    out.push(ConfigEntry {
        key: "project.trusted".to_string(),
        value: config.trusted_project.to_string(),
        source: format!("$PAICLI_HOME/{}", super::trust::TRUST_FILE),
    });
    out
}

/// Which layer set `row`: flag > the first set env variable > the highest config file that set it (and was not
/// refused) > the default.
fn origin(
    config: &Config,
    layers: &Layers,
    overrides: &Overrides,
    row: &dyn Row,
    envs: &[String],
) -> String {
    let info = row.info();
    if let Some(flag) = info.flag.filter(|f| overrides.has(f)) {
        return format!("flag {flag}");
    }
    if let Some(var) = envs.iter().find(|v| config.env.get(v).is_some()) {
        return format!("env {var}");
    }
    if info.in_file
        && let Some(path) = layers.file_with(info.key, &[], &config.refused)
    {
        return format!("file {}", path.display());
    }
    match info.key {
        "llm.provider" => "detected from the API key variables or the base URL".to_string(),
        "llm.model" | "llm.base_url" => "provider default".to_string(),
        "llm.api_key" => "not set".to_string(),
        _ => "default".to_string(),
    }
}

/// `<PREFIX>_MODEL` and `<KEY>` become the resolved provider's variables.
fn expand_env(pattern: &str, info: Option<&ProviderInfo>) -> Vec<String> {
    if pattern == "<KEY>" {
        return info
            .map(|i| i.key_envs.iter().map(|k| k.to_string()).collect())
            .unwrap_or_default();
    }
    match pattern.strip_prefix("<PREFIX>") {
        Some(suffix) => info
            .filter(|i| !i.env_prefix.is_empty())
            .map(|i| vec![format!("{}{suffix}", i.env_prefix)])
            .unwrap_or_default(),
        None => vec![pattern.to_string()],
    }
}

fn provider_value(key: &str, p: &ResolvedProvider) -> String {
    match key {
        "llm.provider" => p.id.clone(),
        "llm.model" => p.model.clone(),
        "llm.base_url" => p.base_url.clone(),
        _ => p
            .api_key
            .as_deref()
            .map_or_else(|| "(none)".to_string(), mask_secret),
    }
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
    fn every_flag_and_section_is_shown_and_refused_keys_are_not_sources() {
        let project = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(project.path().join(".paicli")).unwrap();
        std::fs::write(
            project.path().join(".paicli/config.toml"),
            "[approval]\nmode = \"full\"\n[lsp]\nwait_ms = 10\n",
        )
        .unwrap();
        let env = vec![
            ("PAICLI_HOME".to_string(), home.path().display().to_string()),
            ("DEEPSEEK_API_KEY".to_string(), "k".to_string()),
            (
                "BRAVE_API_KEY".to_string(),
                "brave-secret-123456".to_string(),
            ),
        ];
        let overrides = Overrides {
            token_budget: Some(500),
            trust_project_mcp: true,
            ..Overrides::default()
        };
        let config = Config::load_with_env(project.path(), env, &overrides).unwrap();
        let entries = describe_config(&config, &overrides);
        let budget = entry(&entries, "agent.token_budget");
        assert_eq!(
            (budget.value.as_str(), budget.source.as_str()),
            ("500", "flag --token-budget")
        );
        assert_eq!(
            entry(&entries, "mcp.trust_project_servers").source,
            "flag --trust-project-mcp"
        );
        assert!(entry(&entries, "lsp.wait_ms").source.contains(".paicli"));
        assert_eq!(entry(&entries, "web.brave_api_key").value, "bra…3456");
        assert_eq!(
            entry(&entries, "web.brave_api_key").source,
            "env BRAVE_API_KEY"
        );
        let mode = entry(&entries, "approval.mode");
        assert_eq!(
            (mode.value.as_str(), mode.source.as_str()),
            ("auto", "default")
        );
        for key in [
            "mcp.call_timeout_secs",
            "web.fetch_max_chars",
            "audit.dir",
            "log.level",
        ] {
            entry(&entries, key);
        }
    }

    #[test]
    fn short_secrets_are_hidden_entirely() {
        assert_eq!(mask_secret("abc"), "****");
    }
}
