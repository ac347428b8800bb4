//! `max_tokens` is in the request body exactly when configured or defaulted, in the provider's field.

use serde_json::Value;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

/// The first chat request's body of `paicli -p hi` run with `args` and `env`.
fn first_body(args: &[&str], env: &[(&str, &str)], config: Option<&str>) -> Value {
    let sandbox = CliSandbox::new();
    if let Some(text) = config {
        sandbox.user_config(text);
    }
    let server = ScriptedServer::with_replies([Reply::text("hello")]);
    let url = server.url();
    let mut cmd = sandbox.paicli();
    for (name, value) in env {
        cmd.env(name, value.replace("{url}", &url));
    }
    let args: Vec<String> = args.iter().map(|a| a.replace("{url}", &url)).collect();
    let output = cmd.args(&args).args(["-p", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    server.chat_requests()[0].body.clone()
}

/// The output-limit fields of a body: (`max_tokens`, `max_completion_tokens`).
fn limits(body: &Value) -> (Option<u64>, Option<u64>) {
    (
        body.get("max_tokens").map(|v| v.as_u64().unwrap()),
        body.get("max_completion_tokens")
            .map(|v| v.as_u64().unwrap()),
    )
}

const CUSTOM: &[&str] = &["--base-url", "{url}", "--model", "m"];

#[test]
fn local_engines_and_custom_endpoints_default_to_4096() {
    assert_eq!(limits(&first_body(CUSTOM, &[], None)), (Some(4096), None));
    let vllm = first_body(
        &["--provider", "vllm", "--model", "m"],
        &[("VLLM_BASE_URL", "{url}")],
        None,
    );
    assert_eq!(limits(&vllm), (Some(4096), None));
}

#[test]
fn hosted_providers_send_no_limit_unless_configured() {
    let env = [("DEEPSEEK_API_KEY", "k"), ("DEEPSEEK_BASE_URL", "{url}")];
    let deepseek = ["--provider", "deepseek"];
    assert_eq!(limits(&first_body(&deepseek, &env, None)), (None, None));
    let flag = [&deepseek[..], &["--max-output-tokens", "700"]].concat();
    assert_eq!(limits(&first_body(&flag, &env, None)), (Some(700), None));
}

#[test]
fn openai_gets_the_limit_as_max_completion_tokens() {
    let env = [("OPENAI_API_KEY", "k"), ("OPENAI_BASE_URL", "{url}")];
    let args = ["--provider", "openai", "--max-output-tokens", "900"];
    assert_eq!(limits(&first_body(&args, &env, None)), (None, Some(900)));
}

#[test]
fn the_setting_comes_from_flag_env_or_file_and_zero_sends_none() {
    let file = Some("[llm]\nmax_output_tokens = 2048\n");
    assert_eq!(limits(&first_body(CUSTOM, &[], file)), (Some(2048), None));
    let env = [("PAICLI_MAX_OUTPUT_TOKENS", "1024")];
    assert_eq!(
        limits(&first_body(CUSTOM, &env, file)),
        (Some(1024), None),
        "env beats file"
    );
    let flag = [CUSTOM, &["--max-output-tokens", "512"]].concat();
    assert_eq!(
        limits(&first_body(&flag, &env, file)),
        (Some(512), None),
        "flag beats env"
    );
    let zero = [("PAICLI_MAX_OUTPUT_TOKENS", "0")];
    assert_eq!(limits(&first_body(CUSTOM, &zero, None)), (None, None));
}
