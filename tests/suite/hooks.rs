//! Hooks with Claude Code's contract, end to end through `paicli -p` with real bash and python hook scripts:
//! PreToolUse blocking, denying, rewriting; PostToolUse formatting and adding context; UserPromptSubmit adding
//! context and blocking; Stop keeping the agent working (and its bound); SessionStart context; Claude's names in
//! `~/.claude/settings.json`; project hooks only once trusted; a hanging hook killed; garbage output tolerated.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

use crate::support::{Reply, ScriptedServer};

struct Fixture {
    home: tempfile::TempDir,
    project: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let f = Fixture {
            home: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(f.paicli_home()).unwrap();
        f
    }

    fn paicli_home(&self) -> PathBuf {
        self.home.path().join(".paicli")
    }

    fn project(&self) -> PathBuf {
        self.project.path().to_path_buf()
    }

    /// Writes an executable script under the home and returns its path.
    fn script(&self, name: &str, body: &str) -> String {
        use std::os::unix::fs::PermissionsExt;
        let path = self.home.path().join(name);
        std::fs::write(&path, body).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// `{"hooks": {event: [{"matcher": m, "hooks": [{"type": "command", "command": c, "timeout": t}]}]}}`.
    fn claude_settings(at: PathBuf, hooks: &[(&str, &str, &str, u64)]) {
        let mut map = serde_json::Map::new();
        for (event, matcher, command, timeout) in hooks {
            let group = json!({"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": timeout}]});
            map.entry(event.to_string())
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .unwrap()
                .push(group);
        }
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, json!({"hooks": map}).to_string()).unwrap();
    }

    fn user_claude(&self, hooks: &[(&str, &str, &str, u64)]) {
        Self::claude_settings(self.home.path().join(".claude/settings.json"), hooks);
    }

    fn project_claude(&self, hooks: &[(&str, &str, &str, u64)]) {
        Self::claude_settings(self.project().join(".claude/settings.json"), hooks);
    }

    /// `[[hooks.<event>]]` in `$PAICLI_HOME/config.toml`.
    fn paicli_toml(&self, event: &str, matcher: &str, command: &str, timeout: u64) {
        let text = format!(
            "[[hooks.{event}]]\nmatcher = {matcher:?}\n[[hooks.{event}.hooks]]\ntype = \"command\"\n\
             command = {command:?}\ntimeout = {timeout}\n"
        );
        std::fs::write(self.paicli_home().join("config.toml"), text).unwrap();
    }

    fn run(&self, server: &ScriptedServer, extra: &[&str]) -> Output {
        self.run_in("full", server, extra)
    }

    /// A run in approval mode `mode`.
    fn run_in(&self, mode: &str, server: &ScriptedServer, extra: &[&str]) -> Output {
        let mut cmd = Command::cargo_bin("paicli").unwrap();
        cmd.env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("PAICLI_HOME", self.paicli_home())
            .env("OPENAI_API_KEY", "sk-test")
            .arg("-C")
            .arg(self.project())
            .args(["--base-url", &server.url(), "--model", "scripted-model"])
            .args(["--approval", mode])
            .args(extra)
            .stdin(Stdio::null());
        cmd.output().unwrap()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The content of the tool result for `id` in the last request.
fn tool_result(server: &ScriptedServer, id: &str) -> String {
    let requests = server.chat_requests();
    let last = requests.last().unwrap();
    last.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
        .and_then(|m| m["content"].as_str())
        .unwrap_or_else(|| panic!("no result for {id}"))
        .to_string()
}

/// The user messages of request `n`.
fn user_texts(server: &ScriptedServer, n: usize) -> Vec<String> {
    server.chat_requests()[n].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "user")
        .map(|m| match &m["content"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

const BLOCK_GREP_BASH: &str = "#!/bin/bash\ninput=$(cat)\nif echo \"$input\" | grep -q '\"command\":\"grep'; then\n  \
    echo 'use rg instead of grep' >&2\n  exit 2\nfi\nexit 0\n";

#[test]
fn a_pre_tool_use_hook_blocks_grep_with_exit_2_and_the_command_never_runs() {
    let f = Fixture::new();
    let hook = f.script("block-grep.sh", BLOCK_GREP_BASH);
    f.paicli_toml("PreToolUse", "execute_command", &hook, 10);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "c1",
            "execute_command",
            json!({"command": "grep -r x . > ran.txt"}),
        )]),
        Reply::text("ok, I will use rg"),
    ]);
    let out = f.run(&server, &["-p", "search"]);
    let result = tool_result(&server, "c1");
    assert!(
        result.contains("HOOK_DENIED") && result.contains("use rg instead of grep"),
        "{result}\n{}",
        stderr(&out)
    );
    assert!(!f.project().join("ran.txt").exists());
}

#[test]
fn claude_hooks_see_claude_names_and_fields_deny_in_json_and_rewrite_with_updated_input() {
    let f = Fixture::new();
    let deny = f.script(
        "deny.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n\
         assert d['hook_event_name'] == 'PreToolUse' and d['tool_name'] == 'Bash'\n\
         if d['tool_input']['command'].startswith('grep'):\n    \
         print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'deny', \
         'permissionDecisionReason': 'prefer rg'}}))\n",
    );
    let rewrite = f.script(
        "rewrite.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\nti = d['tool_input']\n\
         print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse', 'permissionDecision': 'allow', \
         'updatedInput': {'file_path': ti['file_path'], 'content': ti['content'].upper()}}}))\n",
    );
    f.user_claude(&[
        ("PreToolUse", "Bash", &deny, 10),
        ("PreToolUse", "Write", &rewrite, 10),
    ]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("c1", "execute_command", json!({"command": "grep -r x ."})),
            (
                "c2",
                "write_file",
                json!({"path": "out.txt", "content": "quiet words"}),
            ),
        ]),
        Reply::text("done"),
    ]);
    let out = f.run(&server, &["-p", "go"]);
    let denied = tool_result(&server, "c1");
    assert!(denied.contains("prefer rg"), "{denied}\n{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(f.project().join("out.txt")).unwrap(),
        "QUIET WORDS"
    );
}

#[test]
fn a_post_tool_use_formatter_edits_the_file_after_edit_file_and_adds_context() {
    let f = Fixture::new();
    std::fs::write(f.project().join("a.txt"), "hello world\n").unwrap();
    let format = f.script(
        "format.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\np = d['tool_input']['file_path']\n\
         import os\npath = os.path.join(d['cwd'], p)\nopen(path, 'a').write('# formatted\\n')\n\
         print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PostToolUse', \
         'additionalContext': 'formatter ran on ' + p}}))\n",
    );
    f.user_claude(&[("PostToolUse", "Edit|Write", &format, 10)]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "e1",
            "edit_file",
            json!({"path": "a.txt", "old_text": "world", "new_text": "there"}),
        )]),
        Reply::text("edited"),
    ]);
    let out = f.run(&server, &["-p", "edit"]);
    assert_eq!(
        std::fs::read_to_string(f.project().join("a.txt")).unwrap(),
        "hello there\n# formatted\n",
        "{}",
        stderr(&out)
    );
    let result = tool_result(&server, "e1");
    assert!(result.contains("formatter ran on a.txt"), "{result}");
}

#[test]
fn user_prompt_submit_adds_context_or_blocks_a_prompt_with_a_secret() {
    let f = Fixture::new();
    let hook = f.script(
        "prompt.sh",
        "#!/bin/bash\ninput=$(cat)\nif echo \"$input\" | grep -q 'sk-live-'; then\n  \
         echo 'the prompt holds a secret' >&2; exit 2\nfi\necho 'the build runs with make'\n",
    );
    f.user_claude(&[("UserPromptSubmit", "", &hook, 10)]);
    let server = ScriptedServer::with_replies([Reply::text("noted")]);
    let out = f.run(&server, &["-p", "how do I build?"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let texts = user_texts(&server, 0);
    assert!(
        texts.last().unwrap().contains("the build runs with make"),
        "{texts:?}"
    );

    let server = ScriptedServer::with_replies([Reply::text("never")]);
    let out = f.run(&server, &["-p", "use key sk-live-123"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("the prompt holds a secret"),
        "{}",
        stderr(&out)
    );
    assert!(
        server.chat_requests().is_empty(),
        "nothing is sent to the model"
    );
}

#[test]
fn a_stop_hook_keeps_the_agent_working_until_a_file_exists() {
    let f = Fixture::new();
    let hook = f.script(
        "stop.sh",
        "#!/bin/bash\ncat > \"$CLAUDE_PROJECT_DIR/stop-input.json\"\n\
         if [ ! -f \"$PAICLI_PROJECT_DIR/done.txt\" ]; then echo 'create done.txt first' >&2; exit 2; fi\n",
    );
    f.user_claude(&[("Stop", "", &hook, 10)]);
    let server = ScriptedServer::with_replies([
        Reply::text("all done"),
        Reply::tool_calls([(
            "w1",
            "write_file",
            json!({"path": "done.txt", "content": "x"}),
        )]),
        Reply::text("now really done"),
    ]);
    let out = f.run(&server, &["-p", "work"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(server.chat_requests().len(), 3);
    assert!(
        user_texts(&server, 1)
            .last()
            .unwrap()
            .contains("create done.txt first")
    );
    let last: Value = serde_json::from_str(
        &std::fs::read_to_string(f.project().join("stop-input.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(last["hook_event_name"], "Stop");
    assert_eq!(last["stop_hook_active"], true);
}

#[test]
fn stop_hooks_keep_a_turn_going_at_most_five_times() {
    let f = Fixture::new();
    let hook = f.script("never.sh", "#!/bin/bash\necho 'keep going' >&2\nexit 2\n");
    f.user_claude(&[("Stop", "", &hook, 10)]);
    let server = ScriptedServer::with_replies((0..8).map(|i| Reply::text(format!("answer {i}"))));
    let out = f.run(&server, &["-p", "work"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        server.chat_requests().len(),
        6,
        "the turn and five continuations"
    );
}

#[test]
fn session_start_context_reaches_the_first_request() {
    let f = Fixture::new();
    let hook = f.script(
        "start.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n\
         print(json.dumps({'hookSpecificOutput': {'hookEventName': 'SessionStart', \
         'additionalContext': 'session source ' + d['source']}}))\n",
    );
    f.user_claude(&[("SessionStart", "", &hook, 10)]);
    let server = ScriptedServer::with_replies([Reply::text("hi")]);
    let out = f.run(&server, &["-p", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        user_texts(&server, 0)
            .last()
            .unwrap()
            .contains("session source startup")
    );
}

#[test]
fn project_hooks_run_only_once_the_project_is_trusted() {
    let f = Fixture::new();
    let marker = f.project().join("hook-ran");
    let command = format!("touch {}", marker.display());
    f.project_claude(&[("UserPromptSubmit", "", &command, 10)]);
    let server = ScriptedServer::with_replies([Reply::text("a"), Reply::text("b")]);
    let out = f.run(&server, &["-p", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!marker.exists(), "an untrusted project hook ran");
    // The person is told which hook waits and how to trust it.
    let told = stderr(&out);
    assert!(
        told.contains("UserPromptSubmit")
            && told.contains(&command)
            && told.contains("--trust-project"),
        "{told}"
    );
    let out = f.run(&server, &["--trust-project", "-p", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(marker.exists(), "a trusted project hook did not run");
}

#[test]
fn a_hanging_hook_is_killed_at_its_timeout_and_garbage_output_does_not_block() {
    let f = Fixture::new();
    f.user_claude(&[
        ("PreToolUse", "Write", "sleep 60", 1),
        ("PreToolUse", "*", "echo '{this is not json'", 10),
    ]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "w1",
            "write_file",
            json!({"path": "b.txt", "content": "kept"}),
        )]),
        Reply::text("written"),
    ]);
    let started = Instant::now();
    let out = f.run(&server, &["-p", "write"]);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(f.project().join("b.txt")).unwrap(),
        "kept"
    );
}

#[test]
fn pre_tool_use_hooks_see_read_only_calls_too_and_block_reading_env() {
    let f = Fixture::new();
    std::fs::write(f.project().join(".env"), "TOKEN=hunter2\n").unwrap();
    std::fs::write(f.project().join("notes.txt"), "plain notes\n").unwrap();
    // Claude's name and field in ~/.claude/settings.json, paicli's in config.toml.
    let claude = f.script(
        "no-env.py",
        "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n\
         if d['tool_input']['file_path'].endswith('.env'):\n    \
         print('claude hook: .env is private', file=sys.stderr)\n    sys.exit(2)\n",
    );
    f.user_claude(&[("PreToolUse", "Read", &claude, 10)]);
    let paicli = f.script(
        "no-env.sh",
        "#!/bin/bash\nif cat | grep -q '\"path\":\".env\"'; then\n  \
         echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\
         \"permissionDecisionReason\":\"paicli hook: .env is private\"}}'\nfi\n",
    );
    f.paicli_toml("PreToolUse", "read_file", &paicli, 10);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            ("r1", "read_file", json!({"path": ".env"})),
            ("r2", "read_file", json!({"path": "notes.txt"})),
        ]),
        Reply::text("done"),
    ]);
    let out = f.run(&server, &["-p", "read"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Both hooks ran (both files are named); the exit-2 block is the reason given.
    let denied = tool_result(&server, "r1");
    assert!(
        denied.contains("HOOK_DENIED")
            && denied.contains("config.toml")
            && denied.contains("settings.json")
            && denied.contains("claude hook: .env is private")
            && !denied.contains("hunter2"),
        "{denied}"
    );
    assert!(tool_result(&server, "r2").contains("plain notes"));
}

#[test]
fn a_pre_tool_use_ask_on_a_read_only_call_is_refused_with_nobody_to_ask() {
    let f = Fixture::new();
    std::fs::write(f.project().join("notes.txt"), "plain notes\n").unwrap();
    let ask = f.script(
        "ask.sh",
        "#!/bin/bash\ncat >/dev/null\necho '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\
         \"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"check reads first\"}}'\n",
    );
    f.user_claude(&[("PreToolUse", "Read", &ask, 10)]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("r1", "read_file", json!({"path": "notes.txt"}))]),
        Reply::text("done"),
    ]);
    let out = f.run(&server, &["-p", "read"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let result = tool_result(&server, "r1");
    assert!(
        !result.contains("plain notes") && result.contains("denied"),
        "{result}"
    );
}

const SOURCE_CONTEXT_PY: &str = "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n\
    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'SessionStart', \
    'additionalContext': 'session source ' + d['source']}}))\n";

#[test]
fn session_start_fires_with_source_resume_when_a_session_is_continued() {
    let f = Fixture::new();
    let hook = f.script("start.py", SOURCE_CONTEXT_PY);
    f.user_claude(&[("SessionStart", "", &hook, 10)]);
    let server = ScriptedServer::with_replies([Reply::text("hi"), Reply::text("again")]);
    let out = f.run(&server, &["-p", "hello"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = f.run(&server, &["--continue", "-p", "and again"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let texts = user_texts(&server, 1);
    assert!(texts[0].contains("session source startup"), "{texts:?}");
    assert!(
        texts.last().unwrap().contains("session source resume"),
        "{texts:?}"
    );
}

#[test]
fn automatic_compaction_fires_pre_compact_auto_and_session_start_compact() {
    use paicli::agent::context::compaction::REQUIRED_HEADINGS;
    let f = Fixture::new();
    let big: String = (0..120)
        .map(|l| format!("line {l} of a long source file\n"))
        .collect();
    std::fs::write(f.project().join("big.txt"), big).unwrap();
    std::fs::write(f.project().join("small.txt"), "small\n").unwrap();
    let pre = f.script(
        "pre-compact.sh",
        "#!/bin/bash\ncat > \"$CLAUDE_PROJECT_DIR/pre-compact.json\"\n",
    );
    let start = f.script("start.py", SOURCE_CONTEXT_PY);
    f.user_claude(&[
        ("PreCompact", "auto", &pre, 10),
        ("SessionStart", "compact", &start, 10),
    ]);
    let summary = REQUIRED_HEADINGS
        .iter()
        .map(|h| format!("{h}\n- read big.txt"))
        .collect::<Vec<_>>()
        .join("\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("c1", "read_file", json!({"path": "big.txt"}))]),
        Reply::tool_calls([("c2", "read_file", json!({"path": "small.txt"}))]),
        Reply::status(
            400,
            r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","type":"invalid_request_error","code":"context_length_exceeded"}}"#,
        ),
        Reply::text(summary),
        Reply::text("finished after compaction"),
    ]);
    let out = f.run(&server, &["-p", "summarize the files"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let input: Value = serde_json::from_str(
        &std::fs::read_to_string(f.project().join("pre-compact.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(input["hook_event_name"], "PreCompact");
    assert_eq!(input["trigger"], "auto");
    let last = server.chat_requests().len() - 1;
    let texts = user_texts(&server, last);
    assert!(
        texts.iter().any(|t| t.contains("session source compact")),
        "{texts:?}"
    );
    // The startup source did not match the `compact` matcher.
    assert!(!texts.iter().any(|t| t.contains("session source startup")));
}

const PERMISSION_PY: &str = "#!/usr/bin/env python3\nimport json, sys\nd = json.load(sys.stdin)\n\
    assert d['hook_event_name'] == 'PermissionRequest' and d['tool_name'] == 'Write'\n\
    ok = d['tool_input']['file_path'] == 'allowed.txt'\n\
    decision = {'behavior': 'allow'} if ok else {'behavior': 'deny', 'message': 'not that file'}\n\
    print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PermissionRequest', 'decision': decision}}))\n";

#[test]
fn permission_request_hooks_answer_in_the_persons_place_but_a_project_allow_does_not() {
    let f = Fixture::new();
    let hook = f.script("permission.py", PERMISSION_PY);
    f.user_claude(&[("PermissionRequest", "Write", &hook, 10)]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([
            (
                "w1",
                "write_file",
                json!({"path": "allowed.txt", "content": "a"}),
            ),
            (
                "w2",
                "write_file",
                json!({"path": "denied.txt", "content": "d"}),
            ),
        ]),
        Reply::text("done"),
    ]);
    let out = f.run_in("ask", &server, &["-p", "write"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(f.project().join("allowed.txt").exists(), "{}", stderr(&out));
    assert!(!f.project().join("denied.txt").exists());
    let denied = tool_result(&server, "w2");
    assert!(
        denied.contains("HOOK_DENIED") && denied.contains("not that file"),
        "{denied}"
    );

    // The same allow from a trusted project hook does not skip the approval `ask` mode requires.
    let f = Fixture::new();
    let hook = f.script("permission.py", PERMISSION_PY);
    f.project_claude(&[("PermissionRequest", "Write", &hook, 10)]);
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "w1",
            "write_file",
            json!({"path": "allowed.txt", "content": "a"}),
        )]),
        Reply::text("done"),
    ]);
    let out = f.run_in("ask", &server, &["--trust-project", "-p", "write"]);
    // 4: nothing done, every action was denied.
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    assert!(!f.project().join("allowed.txt").exists());
    assert!(tool_result(&server, "w1").contains("APPROVAL_REQUIRED"));
}

#[test]
fn a_subagent_stop_hook_fires_for_each_plan_task_and_its_block_keeps_the_task_working() {
    use crate::suite::plan::{PLANNER, plan_reply, task};
    let f = Fixture::new();
    let hook = f.script(
        "subagent-stop.sh",
        "#!/bin/bash\ncat >/dev/null\nlog=\"$CLAUDE_PROJECT_DIR/sub.log\"\n\
         if [ ! -f \"$log\" ]; then echo first > \"$log\"; echo 'check your work again' >&2; exit 2; fi\n\
         echo more >> \"$log\"\n",
    );
    f.user_claude(&[("SubagentStop", "", &hook, 10)]);
    let server = ScriptedServer::start();
    server.route_task(PLANNER, [plan_reply(&[("A", &[]), ("B", &["A"])])]);
    server.route_task(
        task("A"),
        [Reply::text("A finished"), Reply::text("A checked")],
    );
    server.route_task(task("B"), [Reply::text("B finished")]);
    let out = f.run(&server, &["-p", "Write A, then B", "--plan"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(f.project().join("sub.log")).unwrap(),
        "first\nmore\nmore\n"
    );
    assert_eq!(server.remaining_task_replies(&task("A")), 0);
    let continued = server
        .chat_requests()
        .iter()
        .any(|r| r.body.to_string().contains("check your work again"));
    assert!(continued);
}

#[test]
fn stream_json_emits_hook_events_only_with_include_hook_events() {
    let f = Fixture::new();
    let hook = f.script("block-grep.sh", BLOCK_GREP_BASH);
    f.paicli_toml("PreToolUse", "execute_command", &hook, 10);
    let replies = || {
        ScriptedServer::with_replies([
            Reply::tool_calls([("c1", "execute_command", json!({"command": "grep -r x ."}))]),
            Reply::text("ok"),
        ])
    };
    let lines = |out: &Output| -> Vec<Value> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let server = replies();
    let out = f.run(
        &server,
        &[
            "-p",
            "search",
            "--output-format",
            "stream-json",
            "--include-hook-events",
        ],
    );
    let events = lines(&out);
    let started = events
        .iter()
        .position(|e| e["type"] == "system" && e["subtype"] == "hook_started")
        .unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!(events[started]["hook_event"], "PreToolUse");
    assert_eq!(events[started]["command"], hook.as_str());
    assert_eq!(events[started]["hook_name"], hook.as_str());
    let response = events
        .iter()
        .find(|e| e["subtype"] == "hook_response")
        .unwrap();
    // The SDK's outcome (the hook ran and answered) with its decision.
    assert_eq!(response["outcome"], "success");
    assert_eq!(response["decision"], "block");
    assert_eq!(response["hook_id"], events[started]["hook_id"]);
    assert_eq!(response["reason"], "use rg instead of grep");
    assert!(response["duration_ms"].is_u64());

    let server = replies();
    let out = f.run(&server, &["-p", "search", "--output-format", "stream-json"]);
    assert!(
        !lines(&out)
            .iter()
            .any(|e| e["subtype"] == "hook_started" || e["subtype"] == "hook_response")
    );
}
