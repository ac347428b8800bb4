//! The effective value of each settings-table row as `/config` shows it (secrets masked). The provider rows
//! (`llm.provider`, `llm.model`, `llm.base_url`, `llm.api_key`) are shown from the resolved provider instead.

use super::provenance::mask_secret;
use super::{ApprovalMode, Config, UiLanguage};

/// The value of the row `key`; `None` for a key that is not a row here (a test keeps every row covered).
pub fn value_of(config: &Config, key: &str) -> Option<String> {
    let c = config;
    let secret = |v: &Option<String>| v.as_deref().map(mask_secret).unwrap_or_default();
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    let count = |v: Option<u64>| v.unwrap_or(0).to_string();
    let list = |v: &[String]| v.join(", ");
    let value = match key {
        "llm.provider" => text(&c.llm.provider),
        "llm.model" => text(&c.llm.model.clone().or_else(|| c.llm.file_model.clone())),
        "llm.base_url" => text(
            &c.llm
                .base_url
                .clone()
                .or_else(|| c.llm.file_base_url.clone()),
        ),
        "llm.api_key" => secret(&c.llm.api_key),
        "llm.connect_timeout_secs" => c.llm.connect_timeout.as_secs().to_string(),
        "llm.idle_timeout_secs" => c.llm.idle_timeout.as_secs().to_string(),
        "llm.context_window" => count(c.llm.context_window),
        // Unset shows empty: the provider's default applies (0 would mean "send none").
        "llm.max_output_tokens" => c
            .llm
            .max_output_tokens
            .map(|n| n.to_string())
            .unwrap_or_default(),
        "llm.vision" => c.llm.vision.map(|v| v.to_string()).unwrap_or_default(),
        "llm.retry.max_attempts" => c.llm.retry.max_attempts.to_string(),
        "llm.retry.base_delay_ms" => c.llm.retry.base_delay.as_millis().to_string(),
        "llm.retry.max_delay_ms" => c.llm.retry.max_delay.as_millis().to_string(),
        "llm.xfyun_lora_id" => c.env.get("XFYUN_LORA_ID").unwrap_or_default().to_string(),
        "agent.max_iterations" => count(c.agent.max_iterations.map(u64::from)),
        "agent.token_budget" => count(c.agent.token_budget),
        "agent.stagnation_window" => c.agent.stagnation_window.to_string(),
        "tools.command_timeout_secs" => c.tools.command_timeout.as_secs().to_string(),
        "tools.command_inline_chars" => c.tools.command_inline_chars.to_string(),
        "tools.max_write_bytes" => c.tools.max_write_bytes.to_string(),
        "tools.batch_timeout_secs" => c.tools.batch_timeout.as_secs().to_string(),
        "tools.max_parallel" => c.tools.max_parallel.to_string(),
        "tools.offload.enabled" => c.tools.offload_enabled.to_string(),
        "tools.offload.threshold_chars" => c.tools.offload_threshold_chars.to_string(),
        "approval.mode" => approval_name(c.approval).to_string(),
        "approval.classifier_model" => text(&c.classifier_model),
        "approvals.allow" => list(&c.approvals.allow),
        "approvals.deny" => list(&c.approvals.deny),
        "shell.keep_env" => list(&c.shell.keep_env),
        "web.search_provider" => c
            .web
            .search_provider
            .map(|p| format!("{p:?}").to_ascii_lowercase())
            .unwrap_or_default(),
        "web.allow_private_hosts" => c.web.allow_private_hosts.to_string(),
        "web.fetch_max_chars" => c.web.fetch_max_chars.to_string(),
        "web.requests_per_minute" => c.web.requests_per_minute.to_string(),
        "web.zhipu_base_url" => c.web.zhipu_base_url.clone(),
        "web.serpapi_base_url" => c.web.serpapi_base_url.clone(),
        "web.tavily_base_url" => c.web.tavily_base_url.clone(),
        "web.brave_base_url" => c.web.brave_base_url.clone(),
        "web.zhipu_search_engine" => c.web.zhipu_search_engine.clone(),
        "web.searxng_url" => text(&c.web.searxng_url),
        "web.zhipu_api_key" => secret(&c.web.glm_api_key),
        "web.serpapi_key" => secret(&c.web.serpapi_key),
        "web.tavily_api_key" => secret(&c.web.tavily_api_key),
        "web.brave_api_key" => secret(&c.web.brave_api_key),
        "mcp.startup_wait_seconds" => c.mcp.startup_wait.as_secs().to_string(),
        "mcp.initialize_timeout_seconds" => c.mcp.initialize_timeout.as_secs().to_string(),
        "mcp.call_timeout_seconds" => c.mcp.call_timeout.as_secs().to_string(),
        "mcp.trust_project_servers" => c.mcp.trust_project_servers.to_string(),
        "mcp.browser" => c
            .env
            .get("PAICLI_BROWSER")
            .or_else(|| c.env.get("BROWSER"))
            .unwrap_or_default()
            .to_string(),
        "ui.language" => match c.ui_language {
            UiLanguage::Auto => "auto",
            UiLanguage::En => "en",
            UiLanguage::Zh => "zh",
        }
        .to_string(),
        "ui.no_color" => if c.no_color { "set" } else { "" }.to_string(),
        "lsp.enabled" => c.lsp.enabled.to_string(),
        "lsp.wait_ms" => c.lsp.wait.as_millis().to_string(),
        "lsp.max_diagnostics" => c.lsp.max_diagnostics.to_string(),
        "sessions.keep_days" => c.session_keep_days.to_string(),
        "snapshots.enabled" => c.snapshots.enabled.to_string(),
        "snapshots.keep" => c.snapshots.keep.to_string(),
        "snapshots.max_file_bytes" => c.snapshots.max_file_bytes.to_string(),
        "skills.disabled" => list(&c.skills_disabled),
        "index.enabled" => c.index.enabled.to_string(),
        "index.embeddings.url" => c.index.embeddings_url.clone().unwrap_or_default(),
        "index.embeddings.model" => c.index.embeddings_model.clone(),
        "index.embeddings.api_key" => secret(&c.index.embeddings_api_key),
        "home" => c.home.display().to_string(),
        "audit.dir" => c.audit_dir.display().to_string(),
        "log.level" => c.log_level.clone(),
        "sandbox.mode" => c.sandbox.mode.label().to_string(),
        "sandbox.writable_roots" => c
            .sandbox
            .writable_roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        "sandbox.network" => c.sandbox.network.to_string(),
        "sandbox.protect_git" => c.sandbox.protect_git.to_string(),
        "browser.mcp_command" => text(&c.browser.mcp_command),
        "browser.executable" => text(&c.browser.executable),
        "browser.headless" => c.browser.headless.to_string(),
        "browser.allow_local" => c.browser.allow_local.to_string(),
        "plan.max_parallel" => c.plan.max_parallel.to_string(),
        "plan.max_replans" => c.plan.max_replans.to_string(),
        _ => return None,
    };
    Some(value)
}

/// The mode's name as files, flags and `/config` spell it.
pub fn approval_name(mode: ApprovalMode) -> &'static str {
    match mode {
        ApprovalMode::Ask => "ask",
        ApprovalMode::Auto => "auto",
        ApprovalMode::Plan => "plan",
        ApprovalMode::Full => "full",
    }
}
