//! The per-turn exposure end to end: `paicli -p` against the scripted model and a local web page.

use std::process::{Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

use super::stub::{Stub, StubResponse};
use crate::support::{Reply, ScriptedServer};

const PAGE: &str = "<html><head><title>Release notes</title></head><body><nav>menu</nav>\
<main><h2>Version 2</h2><p>Now with <strong>web tools</strong>.</p></main></body></html>";

struct Sandbox {
    project: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Sandbox {
    /// A project, and a user whose own config lets `web_fetch` reach the local test page (a project's config
    /// cannot).
    fn new() -> Self {
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join("Hello.java"), "class Hello {}\n").unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".paicli")).unwrap();
        std::fs::write(
            home.path().join(".paicli/config.toml"),
            "[web]\nallow_private_hosts = true\n",
        )
        .unwrap();
        Sandbox { project, home }
    }

    /// The built-in tools a run in this sandbox is offered before the exposure filter.
    fn builtins(&self) -> Vec<std::sync::Arc<dyn paicli::tools::Tool>> {
        let home = self.home.path().display().to_string();
        let paicli_home = self.home.path().join(".paicli").display().to_string();
        let path = std::env::var("PATH").unwrap_or_default();
        crate::support::builtins::session_builtins(
            self.project.path(),
            &[
                ("PATH", &path),
                ("HOME", &home),
                ("PAICLI_HOME", &paicli_home),
                ("SEARXNG_URL", "http://127.0.0.1:9"),
            ],
        )
    }

    fn run(&self, server: &ScriptedServer, prompt: &str) -> std::process::Output {
        self.run_with(server, prompt, &[], &[])
    }

    /// `run` with extra environment variables and arguments.
    fn run_with(
        &self,
        server: &ScriptedServer,
        prompt: &str,
        env: &[(&str, &str)],
        args: &[&str],
    ) -> std::process::Output {
        Command::cargo_bin("paicli")
            .unwrap()
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.home.path().join(".paicli"))
            // web_search is offered only with a search provider; nothing here reaches it.
            .env("SEARXNG_URL", "http://127.0.0.1:9")
            .envs(env.iter().copied())
            .args(args)
            .arg("-C")
            .arg(self.project.path())
            .args([
                "--base-url",
                &server.url(),
                "--model",
                "scripted-model",
                "-p",
                prompt,
            ])
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The content of the tool result answering `call_id` in a request body.
fn tool_result(body: &Value, call_id: &str) -> String {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == call_id)
        .and_then(|m| m["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {call_id}"))
        .to_string()
}

fn assert_success(output: &std::process::Output) {
    assert_eq!(
        output.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn web_search_is_not_offered_without_a_search_provider() {
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let sandbox = Sandbox::new();
    // An empty value is no provider.
    let output = sandbox.run_with(&server, "explain Hello.java", &[("SEARXNG_URL", "")], &[]);
    assert_success(&output);
    let names = tool_names(&server.chat_requests()[0].body);
    assert!(names.contains(&"read_file".to_string()), "{names:?}");
    assert!(!names.contains(&"web_search".to_string()), "{names:?}");
}

#[test]
fn web_fetch_reads_the_given_url_and_refuses_one_nobody_gave() {
    let site = Stub::start(|req| match req.path() {
        "/notes" => StubResponse::new(200, "text/html; charset=utf-8", PAGE),
        _ => StubResponse::new(200, "text/plain", "secret"),
    });
    let given = format!("{}/notes", site.url());
    let invented = format!("{}/admin", site.url());
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_1", "web_fetch", json!({"url": given}))]),
        Reply::tool_calls([("call_2", "web_fetch", json!({"url": invented}))]),
        Reply::text("Version 2 adds web tools."),
    ]);
    let sandbox = Sandbox::new();
    let output = sandbox.run(&server, &format!("总结一下 {given} 的更新内容"));
    assert_success(&output);
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "Version 2 adds web tools.\n"
    );

    let requests = server.chat_requests();
    assert_eq!(requests.len(), 3);
    let offered = tool_names(&requests[0].body);
    assert!(
        offered.contains(&"web_fetch".to_string()) && offered.contains(&"web_search".to_string()),
        "{offered:?}"
    );
    let fetched = tool_result(&requests[1].body, "call_1");
    assert!(
        fetched.contains(&format!(
            "Title: Release notes\nURL: {given}\nLength: 37 chars\n\n## Version 2\n\nNow with **web tools**."
        )),
        "{fetched}"
    );
    let refused = tool_result(&requests[2].body, "call_2");
    assert!(refused.contains("[denied: UNGROUNDED_URL]"), "{refused}");
    // Only the given page was requested.
    let paths: Vec<String> = site.requests().iter().map(|r| r.target.clone()).collect();
    assert_eq!(paths, vec!["/notes"]);
}

#[test]
fn a_no_web_prompt_sends_no_web_tools_and_refuses_web_calls() {
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("call_1", "web_search", json!({"query": "java hello"})),
            (
                "call_2",
                "execute_command",
                json!({"command": "curl -s https://example.com"}),
            ),
        ]),
        Reply::text("Hello.java declares an empty class."),
    ]);
    let sandbox = Sandbox::new();
    let output = sandbox.run(&server, "不要联网，解释一下 Hello.java");
    // Its only call with side effects (the command) was refused: nothing done, exit code 4.
    assert_eq!(
        output.status.code(),
        Some(4),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        let names = tool_names(&request.body);
        assert!(names.contains(&"read_file".to_string()), "{names:?}");
        assert!(names.iter().all(|n| !n.starts_with("web_")), "{names:?}");
    }
    // Same exposure, byte-identical tools.
    assert_eq!(requests[0].body["tools"], requests[1].body["tools"]);
    for call in ["call_1", "call_2"] {
        let result = tool_result(&requests[1].body, call);
        assert!(result.contains("[denied: WEB_FORBIDDEN]"), "{result}");
    }
}

#[test]
fn the_headline_notice_is_chinese_in_a_chinese_locale_and_english_in_stream_json() {
    let server = ScriptedServer::with_replies([Reply::text("ok"), Reply::text("ok")]);
    let sandbox = Sandbox::new();
    let zh = [("LANG", "zh_CN.UTF-8")];
    let output = sandbox.run_with(&server, "《深入理解 Java 虚拟机》", &zh, &[]);
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("! 这看起来只是一个标题"), "{stderr}");
    assert!(!stderr.contains("headline only"), "{stderr}");
    let output = sandbox.run_with(
        &server,
        "《深入理解 Java 虚拟机》",
        &zh,
        &["--output-format", "stream-json"],
    );
    assert_success(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let notice: Value = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["type"] == "system" && e["subtype"] == "notice")
        .unwrap_or_else(|| panic!("no notice event in {stdout}"));
    assert_eq!(notice["kind"], "headline_only");
    assert!(
        notice["message"]
            .as_str()
            .unwrap()
            .starts_with("This looks like a headline only"),
        "{notice}"
    );
}

#[test]
fn a_bare_headline_gets_a_notice_and_no_web_tools() {
    let server =
        ScriptedServer::with_replies([Reply::text("What would you like me to do with it?")]);
    let sandbox = Sandbox::new();
    let output = sandbox.run(&server, "《深入理解 Java 虚拟机》");
    assert_success(&output);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("headline only"), "{stderr}");
    let names = tool_names(&server.chat_requests()[0].body);
    // Every built-in tool but the two web tools, as the catalogue makes them for this session.
    let mut local: Vec<String> = sandbox
        .builtins()
        .iter()
        .filter(|t| !t.traits().network)
        .map(|t| t.name().to_string())
        .collect();
    // The session adds the delegation tools beside the catalogue's (`app`).
    local.extend(["agent".to_string(), "update_plan".to_string()]);
    local.sort();
    assert!(local.len() > 10, "{local:?}");
    assert_eq!(names, local);
}
