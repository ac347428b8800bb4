//! `--settings` (the caller's Claude settings for one run) and `--setting-sources` (which of Claude's own
//! settings files are read): hooks, permission rules and the default mode honoured; a project's
//! `.claude/settings.json` left out by `--setting-sources=` while paicli's own `.paicli/` files stay; bad input
//! refused before any request.

use serde_json::json;

use crate::support::{CliSandbox, Reply, ScriptedServer, stderr_of};

fn run(sandbox: &CliSandbox, server: &ScriptedServer, extra: &[&str]) -> std::process::Output {
    sandbox
        .against(server)
        .args(["-p", "go", "--output-format=json"])
        .args(extra)
        .output()
        .unwrap()
}

/// `{"hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}}`.
fn hooks(event: &str, matcher: &str, command: &str) -> serde_json::Value {
    json!({"hooks": {event: [{"matcher": matcher, "hooks": [{"type": "command", "command": command}]}]}})
}

#[test]
fn a_settings_hook_runs_with_claude_names_and_unused_keys_are_named() {
    let sandbox = CliSandbox::new();
    let seen = sandbox.project.path().join("hook-saw.json");
    let mut settings = hooks("PreToolUse", "Bash", &format!("cat > '{}'", seen.display()));
    settings["env"] = json!({"A": "1"});
    settings["statusLine"] = json!({});
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "execute_command", json!({"command": "echo hi"}))]),
        Reply::text("done"),
    ]);
    let output = run(
        &sandbox,
        &server,
        &[
            "--permission-mode=bypassPermissions",
            "--settings",
            &settings.to_string(),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let saw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(saw["tool_name"], "Bash");
    assert_eq!(saw["tool_input"]["command"], "echo hi");
    let stderr = stderr_of(&output);
    assert_eq!(stderr.matches("env, statusLine").count(), 1, "{stderr}");
}

#[test]
fn a_settings_deny_rule_blocks_a_call_and_its_default_mode_applies() {
    let sandbox = CliSandbox::new();
    let settings =
        json!({"permissions": {"deny": ["Bash(touch:*)"], "defaultMode": "bypassPermissions"}});
    let file = sandbox.home.path().join("settings.json");
    std::fs::write(&file, settings.to_string()).unwrap();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "call_no",
                "execute_command",
                json!({"command": "touch denied.txt"}),
            ),
            (
                "call_ok",
                "execute_command",
                json!({"command": "mkdir allowed"}),
            ),
        ]),
        Reply::text("done"),
    ]);
    // No --permission-mode: the settings' bypassPermissions runs the second command without asking anyone.
    let output = run(
        &sandbox,
        &server,
        &["--settings", &file.display().to_string()],
    );
    let project = sandbox.project.path();
    assert!(!project.join("denied.txt").exists(), "a denied call ran");
    assert!(project.join("allowed").is_dir(), "{}", stderr_of(&output));
    let result: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let denials = result["permission_denials"].to_string();
    assert!(
        denials.contains("touch denied.txt") && !denials.contains("allowed"),
        "{result}"
    );
}

#[test]
fn empty_setting_sources_keep_a_projects_claude_hooks_out_but_not_paicli_s_own() {
    let sandbox = CliSandbox::new();
    let project = sandbox.project.path().to_path_buf();
    let touch = |name: &str| format!("touch '{}'", project.join(name).display());
    sandbox.project_file(
        ".claude/settings.json",
        &hooks("UserPromptSubmit", "", &touch("claude-ran")).to_string(),
    );
    sandbox.project_file(
        ".paicli/hooks.json",
        &hooks("UserPromptSubmit", "", &touch("paicli-ran")).to_string(),
    );
    let server = ScriptedServer::with_replies([Reply::text("a"), Reply::text("b")]);

    let output = run(
        &sandbox,
        &server,
        &["--trust-project", "--setting-sources="],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        !project.join("claude-ran").exists(),
        "a left-out source ran"
    );
    assert!(
        project.join("paicli-ran").exists(),
        "{}",
        stderr_of(&output)
    );

    let output = run(&sandbox, &server, &["--trust-project"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        project.join("claude-ran").exists(),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn bad_settings_are_refused_clearly_before_any_request() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("unused")]);
    for (args, told) in [
        (vec!["--settings", "{nope"], "--settings is not JSON"),
        (
            vec!["--settings", "/no/such/settings.json"],
            "--settings /no/such/settings.json",
        ),
        (
            vec!["--settings", r#"{"permissions": {"defaultMode": "yolo"}}"#],
            "unknown mode `yolo`",
        ),
        (
            vec!["--setting-sources=user,policy"],
            "unknown source `policy`",
        ),
    ] {
        let output = run(&sandbox, &server, &args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = stderr_of(&output);
        assert!(stderr.contains(told), "{args:?}: {stderr}");
    }
    assert!(server.chat_requests().is_empty());
}
