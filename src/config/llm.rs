//! `[llm]` and `[llm.retry]`: the provider, model, endpoint and key, and the transport's limits.

use std::time::Duration;

use super::served::ServedModel;
use super::settings::Clamped;
use super::settings::{Maybe, Millis, Project, Secret, Secs, Unlimited, declare_settings, setting};

declare_settings! {
    /// LLM transport settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct LlmSettings in config.llm {
        /// Provider id: deepseek, glm, hunyuan, step, kimi, freellmapi, xfyun, agnes, qwen, openai, openrouter,
        /// ollama, llamacpp, lmstudio, vllm, custom. Unset: the first provider whose API key variable is set
        /// (in that order); or `custom` when only base_url is set.
        pub provider: Option<String> = setting("llm.provider", Maybe::UNSET)
            .env(&["PAICLI_PROVIDER"])
            .flag("--provider")
            .example("\"deepseek\""),
        /// Model name. Unset: the provider's default (deepseek: deepseek-flash); local engines and custom endpoints
        /// are asked (GET /v1/models) and the only model they serve is used. The provider's own <PREFIX>_MODEL
        /// variable (e.g. DEEPSEEK_MODEL) beats the file; PAICLI_MODEL and the flag beat both.
        pub model: Option<String> = setting("llm.model", Maybe::UNSET)
            .env(&["PAICLI_MODEL", "<PREFIX>_MODEL"])
            .flag("--model")
            .file_into(|c| &mut c.llm.file_model)
            .example("\"deepseek-flash\""),
        /// OpenAI-compatible endpoint; `/chat/completions` is appended unless the URL already ends with it. Unset:
        /// the provider's.
        pub base_url: Option<String> = setting("llm.base_url", Maybe::UNSET)
            .env(&["PAICLI_BASE_URL", "<PREFIX>_BASE_URL"])
            .flag("--base-url")
            .project(Project::WithOwnKeyOrTrusted)
            .file_into(|c| &mut c.llm.file_base_url)
            .example("\"https://api.deepseek.com\""),
        /// API key. Prefer the environment or a .env file: PAICLI_API_KEY, or the provider's variable
        /// (DEEPSEEK_API_KEY, GLM_API_KEY, KIMI_API_KEY / MOONSHOT_API_KEY, HUNYUAN_API_KEY, STEP_API_KEY,
        /// DASHSCOPE_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, ...). Local servers need none.
        pub api_key: Option<String> = setting("llm.api_key", Secret)
            .env(&["PAICLI_API_KEY", "<KEY>"])
            .file_into(|c| &mut c.llm.file_api_key)
            .example("\"\""),
        /// The config files' model (the provider's own variables beat it; `model` holds the explicit choice).
        pub file_model: Option<String>,
        /// The config files' endpoint.
        pub file_base_url: Option<String>,
        /// The config files' key.
        pub file_api_key: Option<String>,
        /// `base_url` came from an untrusted project's `PAICLI_BASE_URL`: only a key from that `.env` goes with it.
        pub base_url_from_project: bool,
        /// `file_base_url` came from an untrusted project's `config.toml`.
        pub file_base_url_from_project: bool,
        /// `file_api_key` came from an untrusted project's `config.toml`.
        pub file_api_key_from_project: bool,
        /// Seconds to wait for the TCP/TLS connection.
        pub connect_timeout: Duration = setting("llm.connect_timeout_secs", Secs(60)),
        /// Longest silence between two chunks of a streamed reply before the request fails (and is retried).
        pub idle_timeout: Duration = setting("llm.idle_timeout_secs", Secs(300)),
        /// The model's context window in tokens (0 = the provider table's value for the model, e.g. 128000 for
        /// custom endpoints). Compaction thresholds derive from it: summarize at window - min(20k, max(1k, w/4))
        /// - min(13k, max(1k, w/8)); clear old tool results at min(100k, 0.6 x that). No request is sent above
        /// window - min(20k, max(1k, w/4)): past it the oldest turns and tool results are dropped until it fits.
        pub context_window: Option<u64> = setting("llm.context_window", Unlimited::NONE)
            .env(&["PAICLI_CONTEXT_WINDOW"]),
        /// Output limit per reply, sent as max_tokens (max_completion_tokens for openai). Unset = the provider's
        /// default: 4096 for local engines and custom endpoints (ollama, llamacpp, lmstudio, vllm, custom), so a
        /// runaway small model cannot fill its context in one reply; none for hosted providers. 0 = send no limit.
        /// A reply cut off at the limit runs none of its tool calls.
        pub max_output_tokens: Option<u32> = setting("llm.max_output_tokens", Maybe::UNSET)
            .env(&["PAICLI_MAX_OUTPUT_TOKENS"])
            .flag("--max-output-tokens")
            .example("4096"),
        /// Whether the model takes images (@image:shot.png, Ctrl+V, read_file on an image). Unset = paicli's table
        /// of vision models per provider; set true for a vision model it does not know.
        pub vision: Option<bool> = setting("llm.vision", Maybe::UNSET)
            .env(&["PAICLI_VISION"])
            .example("false"),
        /// Attempts and backoff of one chat request.
        pub retry: RetrySettings,
        /// What the server said it serves, asked at start (never read from a file).
        pub served: ServedModel,
    }
}

declare_settings! {
    /// `[llm.retry]`: attempts and backoff of one chat request (the client builds its retry policy from it).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct RetrySettings in config.llm.retry {
        /// Attempts per request, including the first. 408/429/5xx, connection errors and cut streams are retried,
        /// never once reasoning or answer text has been shown, never 400/401/403/404 or a context-length error.
        pub max_attempts: u32 = setting("llm.retry.max_attempts", Clamped::new(3, 1, u32::MAX)),
        /// Exponential backoff with jitter starts here and doubles per further failure.
        pub base_delay: Duration = setting("llm.retry.base_delay_ms", Millis(500)),
        /// Longest backoff delay; a server's Retry-After is honoured up to it.
        pub max_delay: Duration = setting("llm.retry.max_delay_ms", Millis(30_000)),
    }
}
