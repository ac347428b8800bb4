//! The provider table (spec §4): endpoints, default models, windows and per-provider request quirks.

/// Provider-specific fields added to the request body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestExtras {
    /// Nothing beyond the standard body.
    None,
    /// DeepSeek thinking models: `temperature 1.0`, `top_p 0.95`, `reasoning_effort "max"`,
    /// `thinking {type: enabled}`.
    DeepSeekThinking,
    /// GLM-5.3: DeepSeek's extras plus `thinking.clear_thinking=false` and `tool_stream=true`.
    GlmThinking,
    /// Hunyuan: `reasoning_effort "high"`.
    HunyuanHigh,
}

/// Per-model adjustments, matched by model-name prefix (case-insensitive, longest prefix wins).
#[derive(Clone, Copy, Debug)]
pub struct ModelOverride {
    pub prefix: &'static str,
    pub context_window: Option<u64>,
    pub reasoning_echo: Option<bool>,
    pub extras: Option<RequestExtras>,
    /// Replaces the provider's base URL for this model family (GLM vision models).
    pub base_url: Option<&'static str>,
}

/// List prices per million tokens, in the provider's currency (for the status line's cost estimate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    /// Currency symbol, e.g. `$` or `¥`.
    pub currency: &'static str,
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// Cached input tokens; `None` = billed as normal input.
    pub cached_input_per_mtok: Option<f64>,
}

impl Price {
    /// The estimated cost of these token counts (`cached` is part of `input`).
    pub fn cost(&self, input: u64, output: u64, cached: u64) -> f64 {
        let cached = cached.min(input);
        let per = |n: u64, p: f64| n as f64 * p / 1_000_000.0;
        per(input - cached, self.input_per_mtok)
            + per(
                cached,
                self.cached_input_per_mtok.unwrap_or(self.input_per_mtok),
            )
            + per(output, self.output_per_mtok)
    }
}

/// One known provider.
#[derive(Debug)]
pub struct ProviderInfo {
    /// Canonical id used in config and flags.
    pub id: &'static str,
    /// Other names accepted for the id.
    pub aliases: &'static [&'static str],
    /// Environment variables holding the API key, in lookup order.
    pub key_envs: &'static [&'static str],
    /// Prefix of `<PREFIX>_MODEL` and `<PREFIX>_BASE_URL`.
    pub env_prefix: &'static str,
    /// Base URL without the `/chat/completions` path.
    pub base_url: &'static str,
    pub default_model: &'static str,
    /// Context window in tokens for models without an override.
    pub context_window: u64,
    /// Whether `reasoning_content` is echoed back on assistant tool-call messages.
    pub reasoning_echo: bool,
    /// Some gateways misbehave on HTTP/2 streams (DeepSeek); talk HTTP/1.1 to them.
    pub force_http1: bool,
    /// Whether to ask for `stream_options.include_usage`.
    pub include_usage: bool,
    /// Whether a key is required (local servers need none).
    pub needs_key: bool,
    /// Whether tool definitions may be sent at all.
    pub supports_tools: bool,
    pub extras: RequestExtras,
    pub model_overrides: &'static [ModelOverride],
    /// Output limit sent with every request unless `[llm] max_output_tokens` says otherwise; `None` = none sent
    /// (the server's own default).
    pub max_output_tokens: Option<u32>,
    /// The request field that carries the output limit (`max_tokens`, or OpenAI's `max_completion_tokens`).
    pub max_tokens_field: &'static str,
    /// Whether the server lists the model it serves and its window (local engines, custom endpoints): with no
    /// model configured it is asked (`/v1/models`), and its window replaces the table's.
    pub serves_own_models: bool,
}

/// The output limit of local engines: one runaway reply of a small model cannot fill its whole context.
pub const LOCAL_MAX_OUTPUT_TOKENS: u32 = 4096;

/// A local engine (no key, model and window as the server says).
const fn local(
    id: &'static str,
    env_prefix: &'static str,
    key_env: &'static [&'static str],
    base_url: &'static str,
    default_model: &'static str,
) -> ProviderInfo {
    ProviderInfo {
        key_envs: key_env,
        env_prefix,
        needs_key: false,
        context_window: 32_000,
        max_output_tokens: Some(LOCAL_MAX_OUTPUT_TOKENS),
        serves_own_models: true,
        ..entry(id, base_url, default_model)
    }
}

const fn entry(
    id: &'static str,
    base_url: &'static str,
    default_model: &'static str,
) -> ProviderInfo {
    ProviderInfo {
        id,
        aliases: &[],
        key_envs: &[],
        env_prefix: "",
        base_url,
        default_model,
        context_window: 128_000,
        reasoning_echo: false,
        force_http1: false,
        include_usage: true,
        needs_key: true,
        supports_tools: true,
        extras: RequestExtras::None,
        model_overrides: &[],
        max_output_tokens: None,
        max_tokens_field: "max_tokens",
        serves_own_models: false,
    }
}

/// Every known provider, in the order keys are looked for when no provider is chosen.
pub static PROVIDERS: &[ProviderInfo] = &[
    ProviderInfo {
        key_envs: &["DEEPSEEK_API_KEY"],
        env_prefix: "DEEPSEEK",
        context_window: 1_000_000,
        reasoning_echo: true,
        force_http1: true,
        extras: RequestExtras::DeepSeekThinking,
        ..entry("deepseek", "https://api.deepseek.com", "deepseek-flash")
    },
    ProviderInfo {
        aliases: &["zhipu", "bigmodel", "zai"],
        key_envs: &["GLM_API_KEY", "ZHIPU_API_KEY"],
        env_prefix: "GLM",
        context_window: 200_000,
        model_overrides: &[
            ModelOverride {
                prefix: "glm-5",
                context_window: None,
                reasoning_echo: Some(true),
                extras: None,
                base_url: None,
            },
            ModelOverride {
                prefix: "glm-5.3",
                context_window: Some(1_000_000),
                reasoning_echo: Some(true),
                extras: Some(RequestExtras::GlmThinking),
                base_url: None,
            },
            ModelOverride {
                prefix: "glm-5v",
                context_window: None,
                reasoning_echo: Some(true),
                extras: None,
                base_url: Some("https://open.bigmodel.cn/api/paas/v4"),
            },
        ],
        ..entry(
            "glm",
            "https://open.bigmodel.cn/api/coding/paas/v4",
            "glm-5.1",
        )
    },
    ProviderInfo {
        aliases: &["hy4", "tokenhub", "tencent"],
        key_envs: &["HUNYUAN_API_KEY"],
        env_prefix: "HUNYUAN",
        context_window: 1_000_000,
        reasoning_echo: true,
        extras: RequestExtras::HunyuanHigh,
        ..entry(
            "hunyuan",
            "https://tokenhub.tencentmaas.com/v1",
            "hy4-preview",
        )
    },
    ProviderInfo {
        aliases: &["stepfun"],
        key_envs: &["STEP_API_KEY"],
        env_prefix: "STEP",
        context_window: 256_000,
        ..entry("step", "https://api.stepfun.com/v1", "step-3.5-flash")
    },
    ProviderInfo {
        aliases: &["moonshot"],
        key_envs: &["KIMI_API_KEY", "MOONSHOT_API_KEY"],
        env_prefix: "KIMI",
        context_window: 256_000,
        reasoning_echo: true,
        ..entry("kimi", "https://api.moonshot.ai/v1", "kimi-k2.6")
    },
    ProviderInfo {
        key_envs: &["FREELLMAPI_API_KEY"],
        env_prefix: "FREELLMAPI",
        ..entry("freellmapi", "http://localhost:5173/v1", "auto")
    },
    ProviderInfo {
        aliases: &["iflytek", "maas"],
        key_envs: &["XFYUN_MAAS_API_KEY", "XFYUN_API_KEY"],
        env_prefix: "XFYUN",
        supports_tools: false,
        include_usage: false,
        ..entry(
            "xfyun",
            "https://maas-api.cn-huabei-1.xf-yun.com/v2",
            "Qwen3.6-35B-A3B",
        )
    },
    ProviderInfo {
        aliases: &["sapiens"],
        key_envs: &["AGNES_API_KEY"],
        env_prefix: "AGNES",
        context_window: 1_000_000,
        ..entry("agnes", "https://apihub.agnes-ai.com/v1", "agnes-2.0-flash")
    },
    ProviderInfo {
        aliases: &["dashscope", "alibaba", "bailian"],
        key_envs: &["DASHSCOPE_API_KEY", "QWEN_API_KEY"],
        env_prefix: "QWEN",
        context_window: 256_000,
        ..entry(
            "qwen",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
            "qwen3-coder-plus",
        )
    },
    ProviderInfo {
        key_envs: &["OPENAI_API_KEY"],
        env_prefix: "OPENAI",
        // OpenAI's reasoning models refuse `max_tokens`; every current model takes this name.
        max_tokens_field: "max_completion_tokens",
        ..entry("openai", "https://api.openai.com/v1", "gpt-4o")
    },
    ProviderInfo {
        key_envs: &["OPENROUTER_API_KEY"],
        env_prefix: "OPENROUTER",
        ..entry(
            "openrouter",
            "https://openrouter.ai/api/v1",
            "deepseek/deepseek-chat",
        )
    },
    local(
        "ollama",
        "OLLAMA",
        &["OLLAMA_API_KEY"],
        "http://localhost:11434/v1",
        "qwen2.5-coder",
    ),
    ProviderInfo {
        aliases: &["llama.cpp", "llama-cpp", "llama-server"],
        // No made-up default model: the server is asked which one it serves.
        ..local(
            "llamacpp",
            "LLAMACPP",
            &["LLAMACPP_API_KEY"],
            "http://localhost:8080/v1",
            "",
        )
    },
    ProviderInfo {
        aliases: &["lm-studio"],
        ..local(
            "lmstudio",
            "LMSTUDIO",
            &["LMSTUDIO_API_KEY"],
            "http://localhost:1234/v1",
            "",
        )
    },
    local(
        "vllm",
        "VLLM",
        &["VLLM_API_KEY"],
        "http://localhost:8000/v1",
        "",
    ),
    ProviderInfo {
        // An unknown endpoint is most often a local engine: same limit, the table's generic window.
        context_window: 128_000,
        ..local("custom", "CUSTOM", &["CUSTOM_API_KEY"], "", "")
    },
];

/// Finds a provider by id or alias (case-insensitive).
pub fn lookup(name: &str) -> Option<&'static ProviderInfo> {
    let name = name.trim().to_ascii_lowercase();
    PROVIDERS
        .iter()
        .find(|p| p.id == name || p.aliases.iter().any(|a| *a == name))
}

pub use super::prices::{CostSource, cost_of, price_of, prices_as_of};

/// A provider with its model and settings fixed: everything the client needs to build requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedProvider {
    /// Provider id (`custom` for an arbitrary endpoint).
    pub id: String,
    /// Base URL; `/chat/completions` is appended unless it already ends with it.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub context_window: u64,
    pub reasoning_echo: bool,
    pub force_http1: bool,
    pub include_usage: bool,
    pub supports_tools: bool,
    pub extras: RequestExtras,
    /// Extra HTTP headers (e.g. xfyun's `lora_id`).
    pub headers: Vec<(String, String)>,
    /// The output limit sent with every request when set (a short classifier call, `[llm] max_output_tokens`,
    /// the provider's default); `None` = the server's default.
    pub max_tokens: Option<u32>,
    /// The request field the output limit goes in.
    pub max_tokens_field: &'static str,
    /// Whether the server is asked for its model and window (see [`ProviderInfo::serves_own_models`]).
    pub serves_own_models: bool,
    /// Where the key came from (`PAICLI_API_KEY`, `DEEPSEEK_API_KEY`, `llm.api_key in config.toml`), so an
    /// authentication error names the setting actually used; `None` when no key is sent.
    pub key_source: Option<String>,
    /// Whether the model takes image input (the vision table, or `llm.vision`).
    pub vision: bool,
    /// The largest image the provider takes (images are scaled down to it).
    pub image_limits: super::vision::ImageLimits,
}

impl ResolvedProvider {
    /// Fixes `info` to `model`, applying the longest matching model override.
    pub fn new(
        info: &ProviderInfo,
        model: &str,
        base_url: Option<&str>,
        api_key: Option<String>,
    ) -> Self {
        let lower = model.to_ascii_lowercase();
        let mut overrides: Vec<&ModelOverride> = info
            .model_overrides
            .iter()
            .filter(|o| lower.starts_with(o.prefix))
            .collect();
        overrides.sort_by_key(|o| o.prefix.len());
        let mut resolved = ResolvedProvider {
            id: info.id.to_string(),
            base_url: info.base_url.to_string(),
            model: model.to_string(),
            api_key,
            context_window: info.context_window,
            reasoning_echo: info.reasoning_echo,
            force_http1: info.force_http1,
            include_usage: info.include_usage,
            supports_tools: info.supports_tools,
            extras: info.extras,
            headers: Vec::new(),
            max_tokens: info.max_output_tokens,
            max_tokens_field: info.max_tokens_field,
            serves_own_models: info.serves_own_models,
            key_source: None,
            vision: super::vision::model_takes_images(info.id, model),
            image_limits: super::vision::image_limits(info.id),
        };
        for o in overrides {
            if let Some(w) = o.context_window {
                resolved.context_window = w;
            }
            if let Some(e) = o.reasoning_echo {
                resolved.reasoning_echo = e;
            }
            if let Some(x) = o.extras {
                resolved.extras = x;
            }
            if let Some(u) = o.base_url {
                resolved.base_url = u.to_string();
            }
        }
        if let Some(url) = base_url {
            resolved.base_url = url.to_string();
        }
        resolved.base_url = resolved.base_url.trim_end_matches('/').to_string();
        resolved
    }

    /// The chat-completions endpoint URL.
    pub fn chat_url(&self) -> String {
        if self.base_url.ends_with("/chat/completions") {
            self.base_url.clone()
        } else {
            format!("{}/chat/completions", self.base_url)
        }
    }

    /// The model-listing endpoint URL (`GET {base}/models`).
    pub fn models_url(&self) -> String {
        let base = self.base_url.trim_end_matches("/chat/completions");
        format!("{base}/models")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_accepts_aliases_in_any_case() {
        assert_eq!(lookup("Moonshot").map(|p| p.id), Some("kimi"));
        assert_eq!(lookup("deepseek").map(|p| p.id), Some("deepseek"));
        assert!(lookup("nope").is_none());
    }

    #[test]
    fn longest_model_override_wins() {
        let glm = lookup("glm").map(|p| ResolvedProvider::new(p, "GLM-5.3-flash", None, None));
        let glm = glm.unwrap_or_else(|| panic!("glm missing"));
        assert_eq!(glm.context_window, 1_000_000);
        assert_eq!(glm.extras, RequestExtras::GlmThinking);
        assert!(glm.reasoning_echo);
        let old = lookup("glm").map(|p| ResolvedProvider::new(p, "glm-4.6", None, None));
        assert!(!old.unwrap_or_else(|| panic!("glm missing")).reasoning_echo);
    }

    #[test]
    fn local_engines_limit_output_and_name_no_made_up_model() {
        for p in PROVIDERS {
            let local = ["ollama", "llamacpp", "lmstudio", "vllm", "custom"].contains(&p.id);
            let expected = local.then_some(LOCAL_MAX_OUTPUT_TOKENS);
            assert_eq!(p.max_output_tokens, expected, "{}", p.id);
            assert_eq!(p.serves_own_models, local, "{}", p.id);
            assert_ne!(p.default_model, "default", "{}", p.id);
        }
    }

    #[test]
    fn urls_are_built_from_the_base() {
        let Some(info) = lookup("deepseek") else {
            panic!("deepseek missing")
        };
        let p = ResolvedProvider::new(info, "m", Some("http://127.0.0.1:9/v1/"), None);
        assert_eq!(p.chat_url(), "http://127.0.0.1:9/v1/chat/completions");
        assert_eq!(p.models_url(), "http://127.0.0.1:9/v1/models");
        let q = ResolvedProvider::new(info, "m", Some("https://x/chat/completions"), None);
        assert_eq!(q.chat_url(), "https://x/chat/completions");
        assert_eq!(q.models_url(), "https://x/models");
    }
}
