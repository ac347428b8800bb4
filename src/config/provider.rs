//! Picks the provider, model, endpoint and API key from the settings and the environment.

use super::providers::{self, PROVIDERS, ProviderInfo, ResolvedProvider};

use super::{ConfigError, EnvVars, LlmSettings};

/// Resolves the provider. Precedence for each value: flag > `PAICLI_*` > the provider's own variables
/// (`<PREFIX>_MODEL`, `<PREFIX>_BASE_URL`, its key variables) > config file > table default.
///
/// With no provider named, a base URL alone means `custom`; otherwise the first provider whose key variable is set
/// is used, in the table's order (DeepSeek first).
///
/// A URL from an untrusted project's file is sent only a key from that same file (or none): the user's own keys
/// never go to an endpoint a repository chose.
///
/// With no model configured, the model the server said it serves (`settings.served`) comes before the table's
/// default; a provider whose table names none (custom, llama.cpp, LM Studio, vLLM) needs one of them.
pub fn resolve_provider(
    settings: &LlmSettings,
    env: &EnvVars,
) -> Result<ResolvedProvider, ConfigError> {
    resolve(settings, env, ModelNeed::Required).map(|(provider, _)| provider)
}

/// [`resolve_provider`] before the server was asked which model it serves: the model is empty when none is
/// configured. The flag says whether it was configured (flag, environment, file) rather than the table's default.
pub fn resolve_endpoint(
    settings: &LlmSettings,
    env: &EnvVars,
) -> Result<(ResolvedProvider, bool), ConfigError> {
    resolve(settings, env, ModelNeed::Optional)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ModelNeed {
    Required,
    Optional,
}

fn resolve(
    settings: &LlmSettings,
    env: &EnvVars,
    need: ModelNeed,
) -> Result<(ResolvedProvider, bool), ConfigError> {
    let info = pick_provider(settings, env)?;
    let prefixed = |suffix: &str| {
        env.get(&format!("{}_{suffix}", info.env_prefix))
            .map(str::to_string)
    };

    let configured = settings
        .model
        .clone()
        .or_else(|| prefixed("MODEL"))
        .or_else(|| settings.file_model.clone());
    let model_configured = configured.is_some();
    let model = configured
        .or_else(|| settings.served.model.clone())
        .or_else(|| (!info.default_model.is_empty()).then(|| info.default_model.to_string()))
        .or_else(|| (need == ModelNeed::Optional).then(String::new))
        .ok_or_else(|| {
            ConfigError::Incomplete(format!(
                "no model set for provider {}: pass --model or set PAICLI_MODEL",
                info.id
            ))
        })?;
    let url_var = format!("{}_BASE_URL", info.env_prefix);
    let (base_url, project_file) = if let Some(url) = &settings.base_url {
        let file = settings.base_url_from_project.then_some(ProjectFile::Env);
        (Some(url.clone()), file)
    } else if let Some(url) = prefixed("BASE_URL") {
        let file = env.from_project(&url_var).then_some(ProjectFile::Env);
        (Some(url), file)
    } else if let Some(url) = &settings.file_base_url {
        let file = settings
            .file_base_url_from_project
            .then_some(ProjectFile::Toml);
        (Some(url.clone()), file)
    } else {
        (None, None)
    };
    if info.base_url.is_empty() && base_url.is_none() {
        return Err(ConfigError::Incomplete(
            "provider custom needs an endpoint: pass --base-url or set PAICLI_BASE_URL".to_string(),
        ));
    }
    if let Some(url) = &base_url
        && !(url.starts_with("http://") || url.starts_with("https://"))
    {
        return Err(ConfigError::InvalidValue {
            key: "base_url".to_string(),
            value: url.clone(),
            reason: "expected an http:// or https:// URL".to_string(),
        });
    }

    let key_vars = || std::iter::once("PAICLI_API_KEY").chain(info.key_envs.iter().copied());
    let file_key = || "llm.api_key in config.toml".to_string();
    let (api_key, key_source) = match project_file {
        Some(ProjectFile::Toml) => settings
            .file_api_key
            .clone()
            .filter(|_| settings.file_api_key_from_project)
            .map(|k| (k, "llm.api_key in .paicli/config.toml".to_string()))
            .unzip(),
        Some(ProjectFile::Env) => key_vars()
            .find(|k| env.from_project(k))
            .and_then(|k| env.get(k).map(|v| (v.to_string(), format!("{k} in .env"))))
            .unzip(),
        None => settings
            .api_key
            .clone()
            .map(|k| (k, "PAICLI_API_KEY".to_string()))
            .or_else(|| {
                info.key_envs
                    .iter()
                    .find_map(|k| env.get(k).map(|v| (v.to_string(), k.to_string())))
            })
            .or_else(|| settings.file_api_key.clone().map(|k| (k, file_key())))
            .unzip(),
    };
    // A local server reached through a custom URL needs no key.
    let needs_key = info.needs_key && base_url.is_none();
    if needs_key && api_key.is_none() {
        return Err(ConfigError::MissingApiKey {
            hint: format!(
                "provider {} needs {} (or PAICLI_API_KEY) in the environment or a .env file",
                info.id,
                info.key_envs.join(" or ")
            ),
        });
    }

    let mut resolved = ResolvedProvider::new(info, &model, base_url.as_deref(), api_key);
    if let Some(limit) = settings.max_output_tokens {
        resolved.max_tokens = Some(limit).filter(|n| *n > 0);
    }
    resolved.key_source = key_source;
    if let Some(vision) = settings.vision {
        resolved.vision = vision;
    }
    if info.id == "xfyun"
        && let Some(lora) = env.get("XFYUN_LORA_ID")
    {
        resolved
            .headers
            .push(("lora_id".to_string(), lora.to_string()));
    }
    Ok((resolved, model_configured))
}

fn pick_provider(
    settings: &LlmSettings,
    env: &EnvVars,
) -> Result<&'static ProviderInfo, ConfigError> {
    if let Some(name) = settings.provider.as_deref() {
        return providers::lookup(name).ok_or_else(|| ConfigError::UnknownProvider {
            name: name.to_string(),
            known: PROVIDERS
                .iter()
                .map(|p| p.id)
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    if settings.base_url.is_some() || settings.file_base_url.is_some() {
        return providers::lookup("custom").ok_or_else(|| {
            ConfigError::Incomplete("provider table has no custom entry".to_string())
        });
    }
    PROVIDERS
        .iter()
        .filter(|p| p.needs_key)
        .find(|p| p.key_envs.iter().any(|k| env.get(k).is_some()))
        .ok_or_else(|| ConfigError::MissingApiKey {
            hint: "set DEEPSEEK_API_KEY (or GLM_API_KEY, KIMI_API_KEY, OPENAI_API_KEY, ...), or point paicli at a \
                   local server with --base-url / PAICLI_BASE_URL"
                .to_string(),
        })
}

/// Which untrusted project file supplied the endpoint.
#[derive(Clone, Copy)]
enum ProjectFile {
    Toml,
    Env,
}
