//! The SDK's hook callbacks on every event paicli has: `SessionStart`, `UserPromptSubmit`, `PostToolUse`,
//! `Stop` reach the client as `hook_callback` requests with Claude's hook input, and their answers steer the
//! session as a command hook's reply does; `--include-hook-events` reports each run as the SDK's `system`
//! messages.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;

use serde_json::{Value, json};

use crate::support::{CliSandbox, Reply, ScriptedServer};

/// A running paicli speaking the protocol: lines in, messages out.
struct Peer {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: mpsc::Receiver<Value>,
}

impl Peer {
    fn start(mut cmd: std::process::Command) -> Peer {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(serde_json::from_str(&line).unwrap());
            }
        });
        let stdin = child.stdin.take();
        Peer {
            child,
            stdin,
            messages,
        }
    }

    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.messages
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("a message from paicli")
    }
}

#[test]
fn sdk_callbacks_run_on_every_event_and_steer_as_hook_replies_do() {
    let sandbox = CliSandbox::new();
    sandbox.project_file("a.txt", "alpha\n");
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([("call_glob", "glob_files", json!({"pattern": "*.txt"}))]),
        Reply::text("Done."),
        Reply::text("Done, T-42."),
    ]);
    let mut cmd = sandbox.against(&server);
    cmd.args([
        "--input-format=stream-json",
        "--output-format=stream-json",
        "--verbose",
        "--include-hook-events",
    ]);
    let mut peer = Peer::start(cmd);
    let group = |ids: &[&str]| json!([{"matcher": null, "hookCallbackIds": ids}]);
    peer.send(
        json!({"type": "control_request", "request_id": "init", "request": {
            "subtype": "initialize",
            "hooks": {
                "SessionStart": group(&["h_start"]),
                "UserPromptSubmit": group(&["h_prompt"]),
                "PostToolUse": [{"matcher": "Glob", "hookCallbackIds": ["h_post"]},
                                {"matcher": "Bash", "hookCallbackIds": ["h_never"]}],
                "Stop": group(&["h_stop"]),
            },
        }}),
    );
    peer.send(
        json!({"type": "user", "session_id": "", "parent_tool_use_id": null,
                     "message": {"role": "user", "content": "find the text files"}}),
    );
    let mut called = Vec::new();
    let mut stops = 0;
    let mut hook_messages = Vec::new();
    let result = loop {
        let message = peer.next();
        match (message["type"].as_str(), message["subtype"].as_str()) {
            (Some("result"), _) => break message,
            (Some("system"), Some("hook_started" | "hook_response")) => hook_messages.push(message),
            (Some("control_request"), _) => {
                let request = &message["request"];
                assert_eq!(request["subtype"], "hook_callback", "{message}");
                let id = request["callback_id"].as_str().unwrap().to_string();
                let input = request["input"].clone();
                let answer = match id.as_str() {
                    "h_prompt" => {
                        json!({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit",
                                         "additionalContext": "The ticket is T-42."}})
                    }
                    "h_post" => json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                       "additionalContext": "Globbed via hook."}}),
                    "h_stop" if stops == 0 => {
                        stops += 1;
                        json!({"decision": "block", "reason": "Say the ticket number too."})
                    }
                    _ => json!({}),
                };
                called.push((id, input));
                peer.send(json!({"type": "control_response", "response": {
                    "subtype": "success", "request_id": message["request_id"], "response": answer}}));
            }
            _ => {}
        }
    };
    drop(peer.stdin.take());
    assert_eq!(peer.child.wait().unwrap().code(), Some(0));

    assert_eq!(result["subtype"], "success", "{result}");
    assert_eq!(result["result"], "Done, T-42.");
    let ids: Vec<&str> = called.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["h_start", "h_prompt", "h_post", "h_stop", "h_stop"]);
    let input = |id: &str| &called.iter().find(|(i, _)| i == id).unwrap().1;
    assert_eq!(input("h_start")["hook_event_name"], "SessionStart");
    assert_eq!(input("h_start")["source"], "startup");
    assert_eq!(input("h_prompt")["prompt"], "find the text files");
    assert_eq!(input("h_post")["tool_name"], "Glob");
    assert_eq!(input("h_post")["tool_input"], json!({"pattern": "*.txt"}));
    assert_eq!(input("h_post")["tool_use_id"], "call_glob");
    assert_eq!(input("h_stop")["hook_event_name"], "Stop");
    assert_eq!(input("h_start")["session_id"], result["session_id"]);

    // Each answer steered the model as a command hook's reply would.
    let requests = server.chat_requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[0].body.to_string().contains("The ticket is T-42."));
    assert!(requests[1].body.to_string().contains("Globbed via hook."));
    assert!(
        requests[2]
            .body
            .to_string()
            .contains("Say the ticket number too.")
    );

    // Each callback's run as the SDK's hook messages, paired by hook_id.
    let started: Vec<&Value> = hook_messages
        .iter()
        .filter(|m| m["subtype"] == "hook_started")
        .collect();
    assert_eq!(started.len(), 5, "{hook_messages:#?}");
    for start in started {
        let response = hook_messages
            .iter()
            .find(|m| m["subtype"] == "hook_response" && m["hook_id"] == start["hook_id"])
            .unwrap_or_else(|| panic!("no response for {start}"));
        assert_eq!(response["hook_event"], start["hook_event"]);
        assert!(response["outcome"] == "success", "{response}");
    }
    let blocked = hook_messages
        .iter()
        .find(|m| m["hook_event"] == "Stop" && m["decision"] == "block")
        .unwrap();
    assert_eq!(blocked["reason"], "Say the ticket number too.");
}
