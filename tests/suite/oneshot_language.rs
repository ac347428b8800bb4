//! `paicli -p` with `ui.language = "zh"`: every error and progress line on stderr is Chinese, stdout and JSON
//! stay as they are.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

/// A sandbox whose user config sets the UI language to Chinese; `LANG` is a neutral UTF-8 locale.
fn chinese() -> CliSandbox {
    let sandbox = CliSandbox::new().with_env("LANG", "C.UTF-8");
    sandbox.user_config("[ui]\nlanguage = \"zh\"\n");
    sandbox
}

#[test]
fn a_provider_error_and_its_hint_are_chinese() {
    let sandbox = chinese();
    let server = ScriptedServer::with_replies([Reply::status(
        401,
        r#"{"error":{"message":"invalid api key"}}"#,
    )]);
    let output = sandbox
        .against(&server)
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = stderr_of(&output);
    assert!(stderr.contains("错误：模型请求失败："), "{stderr}");
    assert!(
        stderr.contains("invalid api key"),
        "the provider's own words stay: {stderr}"
    );
    assert!(
        stderr.contains("提示：检查所用提供商的 API 密钥变量"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("error:") && !stderr.contains("hint:"),
        "{stderr}"
    );
}

#[test]
fn a_setup_error_is_chinese() {
    let sandbox = chinese();
    // No --base-url: the default provider needs a key nobody set.
    let output = sandbox.paicli().args(["-p", "hi"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(stderr.starts_with("错误：无法启动："), "{stderr}");
    assert!(stderr.contains("DEEPSEEK_API_KEY"), "{stderr}");
}

#[test]
fn an_empty_task_and_a_bad_flag_are_chinese() {
    let sandbox = chinese();
    let output = sandbox.paicli().args(["-p", "  "]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr_of(&output).starts_with("错误：任务为空"),
        "{}",
        stderr_of(&output)
    );

    // Flags are parsed before any configuration is read, so the locale decides.
    let output = sandbox
        .paicli()
        .env("LANG", "zh_CN.UTF-8")
        .args(["--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = stderr_of(&output);
    assert!(stderr.starts_with("错误：命令行参数有误"), "{stderr}");
    assert!(stderr.contains("--no-such-flag"), "{stderr}");
}

#[test]
fn a_skipped_mention_tool_progress_and_a_budget_stop_are_chinese() {
    let sandbox = chinese();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "list_dir", json!({"path": "."}))]).usage(900, 200),
        Reply::text("Done: looked. Verified: nothing. Not done: all. Next steps: continue."),
    ]);
    let output = sandbox
        .against(&server)
        .args(["--token-budget", "1000", "-p", "big task, see @missing.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr_of(&output));
    let stderr = stderr_of(&output);
    assert!(stderr.contains("✓ list_dir（"), "{stderr}");
    assert!(
        stderr.contains("! @missing.txt 未附加：无法读取："),
        "{stderr}"
    );
    assert!(
        stderr.contains("paicli: 提前停止（TOKEN_BUDGET_EXCEEDED）：任务用完了 token 预算"),
        "{stderr}"
    );
}
