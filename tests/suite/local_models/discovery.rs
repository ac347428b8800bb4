//! The served model and its window: asked of local engines and custom endpoints at start, never of hosted
//! providers; no request names a made-up model.

use serde_json::json;

use paicli::agent::Thresholds;
use paicli::config::{Config, Overrides, WindowSource};

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

#[test]
fn a_base_url_alone_uses_the_only_model_the_server_lists() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("hi")]);
    server.set_models(["qwen2.5-coder-1.5b-q4"]);
    let output = sandbox
        .paicli()
        .args(["--base-url", &server.url(), "-p", "hello"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(
        server.chat_requests()[0].body["model"],
        "qwen2.5-coder-1.5b-q4"
    );
    assert_eq!(server.requests_to("/v1/models").len(), 1, "asked once");
}

#[test]
fn several_served_models_are_listed_in_the_error() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("never")]);
    server.set_models(["alpha-7b", "beta-14b"]);
    let output = sandbox
        .paicli()
        .args(["--base-url", &server.url(), "-p", "hello"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("serves several models") && stderr.contains("alpha-7b, beta-14b"),
        "{stderr}"
    );
    assert!(server.chat_requests().is_empty());
}

#[test]
fn vllm_sends_the_served_model_never_default() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("hi")]);
    server.set_model_entries(vec![
        json!({"id": "Qwen/Qwen2.5-Coder-7B", "object": "model", "max_model_len": 16384}),
    ]);
    let output = sandbox
        .paicli()
        .env("VLLM_BASE_URL", server.url())
        .args(["--provider", "vllm", "-p", "hello"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(
        server.chat_requests()[0].body["model"],
        "Qwen/Qwen2.5-Coder-7B"
    );
}

#[test]
fn an_unreachable_server_without_a_model_is_a_clear_error() {
    let sandbox = CliSandbox::new();
    let url = {
        let server = ScriptedServer::start();
        server.url()
    };
    let output = sandbox
        .paicli()
        .args(["--base-url", &url, "-p", "hello"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(
        stderr.contains("no model set for provider custom")
            && stderr.contains("/v1/models")
            && stderr.contains("--model"),
        "{stderr}"
    );
}

#[test]
fn hosted_providers_are_not_asked() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("hi")]);
    let output = sandbox
        .paicli()
        .env("DEEPSEEK_API_KEY", "k")
        .env("DEEPSEEK_BASE_URL", server.url())
        .args(["--provider", "deepseek", "-p", "hello"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let paths: Vec<String> = server.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/v1/chat/completions"]);
}

/// The configuration `paicli` would load in `sandbox` with these variables, after asking the server.
fn discovered(sandbox: &CliSandbox, env: &[(&str, String)]) -> Config {
    let mut vars: Vec<(String, String)> = vec![(
        "PAICLI_HOME".into(),
        sandbox.paicli_home().display().to_string(),
    )];
    vars.extend(env.iter().map(|(k, v)| (k.to_string(), v.clone())));
    let mut config =
        Config::load_with_env(sandbox.project.path(), vars, &Overrides::default()).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime
        .block_on(paicli::app::discover_served(&mut config))
        .unwrap();
    config
}

#[test]
fn llamacpp_props_n_ctx_sets_the_window_and_the_thresholds() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::start();
    server.set_models(["tiny.gguf"]);
    server.set_route(
        "/props",
        Reply::json(json!({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1})),
    );
    let config = discovered(&sandbox, &[("PAICLI_BASE_URL", server.url())]);
    let provider = config.provider().unwrap();
    assert_eq!(provider.model, "tiny.gguf");
    assert_eq!(config.context_window(&provider), 8192);
    assert_eq!(
        config.window_source(&provider),
        WindowSource::Server("llama.cpp /props n_ctx")
    );
    let agent = paicli::app::build_agent(&config).unwrap();
    assert_eq!(agent.thresholds(), Thresholds::for_window(8192));

    // A configured window wins over the server's.
    let config = discovered(
        &sandbox,
        &[
            ("PAICLI_BASE_URL", server.url()),
            ("PAICLI_CONTEXT_WINDOW", "4000".into()),
        ],
    );
    let provider = config.provider().unwrap();
    assert_eq!(config.context_window(&provider), 4000);
    assert_eq!(config.window_source(&provider), WindowSource::Configured);
}

#[test]
fn ollama_and_lm_studio_report_their_windows_through_their_own_endpoints() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::start();
    server.set_models(["qwen3:4b"]);
    server.set_route(
        "/api/show",
        Reply::json(
            json!({"parameters": "num_ctx 12288", "model_info": {"qwen3.context_length": 40960}}),
        ),
    );
    let config = discovered(
        &sandbox,
        &[
            ("PAICLI_PROVIDER", "ollama".into()),
            ("OLLAMA_BASE_URL", server.url()),
        ],
    );
    let provider = config.provider().unwrap();
    assert_eq!(provider.model, "qwen3:4b");
    assert_eq!(config.context_window(&provider), 12288);
    let show = server.requests_to("/api/show");
    assert_eq!(show[0].body, json!({"model": "qwen3:4b"}));

    let server = ScriptedServer::start();
    server.set_models(["google/gemma-3-4b"]);
    server.set_route(
        "/api/v0/models",
        Reply::json(json!({"data": [{"id": "google/gemma-3-4b", "max_context_length": 131072, "loaded_context_length": 8192}]})),
    );
    let config = discovered(
        &sandbox,
        &[
            ("PAICLI_PROVIDER", "lmstudio".into()),
            ("LMSTUDIO_BASE_URL", server.url()),
        ],
    );
    let provider = config.provider().unwrap();
    assert_eq!(config.context_window(&provider), 8192);
    assert_eq!(
        config.window_source(&provider),
        WindowSource::Server("LM Studio /api/v0/models")
    );
}

#[test]
fn a_named_model_sends_its_first_request_before_the_window_is_known() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("hi")]);
    server.set_models(["tiny.gguf"]);
    // The window comes only once the first chat request is in: a client that waited for it first would give up
    // on it (after the discovery timeout) before asking anything else.
    server.set_route(
        "/props",
        Reply::json(json!({"default_generation_settings": {"n_ctx": 8192}})).after_chat_requests(1),
    );
    let started = std::time::Instant::now();
    let output = sandbox
        .paicli()
        .env("LLAMACPP_BASE_URL", server.url())
        .args([
            "--provider",
            "llamacpp",
            "--model",
            "tiny.gguf",
            "-p",
            "hello",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        started.elapsed() < paicli::llm::served::DISCOVERY_TIMEOUT,
        "the first request waited for the window"
    );
    // The model was named: nobody asked which models the server lists.
    assert!(server.requests_to("/v1/models").is_empty());
    assert_eq!(server.chat_requests()[0].body["model"], "tiny.gguf");
}
