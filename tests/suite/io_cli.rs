//! What goes in and what comes out of `paicli -p`: piped input, honest results, errors, images.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Output;

use serde_json::Value;

use crate::support::{CliSandbox, Reply, ScriptedServer, run_with_stdin, stderr_of};

fn user_text(server: &ScriptedServer) -> String {
    let requests = server.chat_requests();
    requests[0].body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn piped_text_reaches_the_request_after_the_task() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("It adds.")]);
    let mut cmd = sandbox.against(&server);
    cmd.args(["-p", "explain this code"]);
    let output = run_with_stdin(cmd, b"def add(a, b):\n    return a + b\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(
        user_text(&server),
        "explain this code\n\n<stdin>\ndef add(a, b):\n    return a + b\n</stdin>"
    );
}

#[test]
fn piped_binary_is_refused_with_a_message_and_the_task_still_runs() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let mut cmd = sandbox.against(&server);
    cmd.args(["-p", "what is this"]).env("LANG", "en_US.UTF-8");
    let output = run_with_stdin(cmd, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("piped input not attached: it is binary (16 bytes)"),
        "{}",
        stderr_of(&output)
    );
    assert_eq!(user_text(&server), "what is this");
}

#[test]
fn dash_still_reads_the_task_from_stdin() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([Reply::text("ok")]);
    let mut cmd = sandbox.against(&server);
    cmd.args(["-p", "-"]);
    let output = run_with_stdin(cmd, b"say ok\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert_eq!(user_text(&server), "say ok\n");
}

fn json_of(output: &Output) -> Value {
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(stdout.lines().last().unwrap()).unwrap()
}

#[test]
fn a_run_whose_every_write_was_denied_exits_4_and_lists_the_denials() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            serde_json::json!({"path": "a.txt", "content": "hi"}),
        )]),
        Reply::text("I could not write a.txt."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "--approval",
            "plan",
            "--output-format",
            "json",
            "-p",
            "write a.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(4), "{}", stderr_of(&output));
    let result = json_of(&output);
    assert_eq!(result["all_denied"], true);
    assert_eq!(result["changed_files"], serde_json::json!([]));
    let denials = result["denials"].as_array().unwrap();
    assert_eq!(denials.len(), 1, "{result}");
    assert_eq!(denials[0]["tool"], "write_file");
    assert!(!denials[0]["code"].as_str().unwrap().is_empty(), "{result}");
    assert!(
        !denials[0]["reason"].as_str().unwrap().is_empty(),
        "{result}"
    );
    assert!(!sandbox.project.path().join("a.txt").exists());
}

#[test]
fn written_files_are_listed_in_the_stream_json_result() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            serde_json::json!({"path": "a.txt", "content": "hi"}),
        )]),
        Reply::text("Wrote a.txt."),
    ]);
    let output = sandbox
        .against(&server)
        .args([
            "--approval",
            "full",
            "--output-format",
            "stream-json",
            "-p",
            "write a.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let result = json_of(&output);
    assert_eq!(result["type"], "result");
    assert_eq!(result["changed_files"], serde_json::json!(["a.txt"]));
    assert_eq!(result["denials"], serde_json::json!([]));
    assert_eq!(result["all_denied"], false);
}

#[test]
fn text_mode_says_nothing_was_done_when_all_was_denied() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::tool_calls([(
            "call_w",
            "write_file",
            serde_json::json!({"path": "a.txt", "content": "hi"}),
        )]),
        Reply::text("Refused."),
    ]);
    let output = sandbox
        .against(&server)
        .env("LANG", "zh_CN.UTF-8")
        .args(["--approval", "plan", "-p", "write a.txt"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(4), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("什么也没做：所有操作都被拒绝（退出码 4）"),
        "{}",
        stderr_of(&output)
    );
}

const NGINX_502: &str = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n\
<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

#[test]
fn a_429_retry_is_shown_on_stderr_and_the_task_goes_on() {
    let sandbox = CliSandbox::new();
    let server = ScriptedServer::with_replies([
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("Retry-After", "0"),
        Reply::text("done"),
    ]);
    let output = sandbox
        .against(&server)
        .env("LANG", "en_US.UTF-8")
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output).contains("HTTP 429, retrying in 0 s (2/3)"),
        "{}",
        stderr_of(&output)
    );
}

#[test]
fn an_html_502_page_is_summarized_and_printed_once() {
    let sandbox = CliSandbox::new();
    let page = || {
        Reply::status(502, NGINX_502)
            .content_type("text/html")
            .header("Retry-After", "0")
    };
    let server = ScriptedServer::with_replies([page(), page(), page()]);
    let output = sandbox
        .against(&server)
        .env("LANG", "zh_CN.UTF-8")
        .args(["-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let stderr = stderr_of(&output);
    assert!(stderr.contains("HTTP 502，0 秒后重试（2/3）"), "{stderr}");
    assert!(
        stderr.contains("provider error (HTTP 502): 502 Bad Gateway: nginx (HTML page)"),
        "{stderr}"
    );
    assert!(!stderr.contains("<center>"), "{stderr}");
    assert_eq!(
        stderr.matches("502 Bad Gateway: nginx").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn json_mode_keeps_the_hint_and_it_names_the_key_variable_used() {
    let sandbox = CliSandbox::new();
    let server =
        ScriptedServer::with_replies([Reply::status(401, r#"{"error":{"message":"bad key"}}"#)]);
    let output = sandbox
        .against(&server)
        .env("PAICLI_API_KEY", "sk-wrong")
        .env("DEEPSEEK_API_KEY", "sk-other")
        .args(["--output-format", "json", "-p", "hi"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr_of(&output));
    let result = json_of(&output);
    assert_eq!(
        result["hint"],
        "check PAICLI_API_KEY: the provider refused the key paicli sent from it"
    );
    assert_eq!(result["subtype"], "error_during_execution");
    assert!(
        result["errors"][0].as_str().unwrap().contains("bad key"),
        "{result}"
    );
}

#[test]
fn a_bad_project_directory_is_reported_once() {
    let sandbox = CliSandbox::new();
    let missing = sandbox.project.path().join("nope");
    for args in [vec!["-p", "hi"], vec![]] {
        let output = sandbox
            .bare()
            .env("DEEPSEEK_API_KEY", "sk-test")
            .arg("-C")
            .arg(&missing)
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
        let stderr = stderr_of(&output);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains("is not usable"), "{stderr}");
    }
}

/// Writes a 4×3 PNG at `rel` in the project.
fn write_png(sandbox: &CliSandbox, rel: &str) {
    image::RgbImage::from_pixel(4, 3, image::Rgb([0, 128, 255]))
        .save(sandbox.project.path().join(rel))
        .unwrap();
}

fn is_png_part(part: &Value) -> bool {
    part["type"] == "image_url"
        && part["image_url"]["url"]
            .as_str()
            .is_some_and(|u| u.starts_with("data:image/png;base64,"))
}

#[test]
fn a_png_mention_becomes_an_image_part_for_a_vision_model() {
    for mention in ["@shot.png", "@image:shot.png"] {
        let sandbox = CliSandbox::new();
        write_png(&sandbox, "shot.png");
        let server = ScriptedServer::with_replies([Reply::text("A blue square.")]);
        let task = format!("what is in {mention}?");
        let output = sandbox
            .against(&server)
            .env("PAICLI_VISION", "true")
            .args(["-p", &task])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let body = &server.chat_requests()[0].body;
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages[1]["content"], task.as_str());
        assert_eq!(messages[2]["role"], "user");
        let parts = messages[2]["content"].as_array().unwrap();
        assert_eq!(parts.len(), 1, "{mention}: {parts:?}");
        assert!(is_png_part(&parts[0]), "{mention}: {parts:?}");
    }
}

#[test]
fn a_text_only_model_gets_a_notice_instead_of_the_image() {
    let sandbox = CliSandbox::new();
    write_png(&sandbox, "shot.png");
    let server = ScriptedServer::with_replies([Reply::text("I cannot see it.")]);
    let output = sandbox
        .against(&server)
        .env("LANG", "en_US.UTF-8")
        .args(["-p", "what is in @shot.png?"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    assert!(
        stderr_of(&output)
            .contains("scripted-model does not take images, so shot.png was not attached"),
        "{}",
        stderr_of(&output)
    );
    let body = &server.chat_requests()[0].body;
    assert_eq!(body["messages"].as_array().unwrap().len(), 2, "{body}");
}

#[test]
fn read_file_on_a_png_sends_the_image_or_a_note() {
    for vision in [true, false] {
        let sandbox = CliSandbox::new();
        write_png(&sandbox, "shot.png");
        let server = ScriptedServer::with_replies([
            Reply::tool_calls([(
                "call_r",
                "read_file",
                serde_json::json!({"path": "shot.png"}),
            )]),
            Reply::text("A blue square."),
        ]);
        let output = sandbox
            .against(&server)
            .env("PAICLI_VISION", vision.to_string())
            .args(["-p", "look at shot.png"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
        let body = &server.chat_requests()[1].body;
        let messages = body["messages"].as_array().unwrap();
        let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
        assert!(
            tool["content"].as_str().unwrap().contains("Image (4x3 px)"),
            "{tool}"
        );
        let last = messages.last().unwrap();
        assert_eq!(last["role"], "user");
        let parts = last["content"].as_array().unwrap();
        if vision {
            assert!(parts.iter().any(is_png_part), "{parts:?}");
        } else {
            assert!(!parts.iter().any(is_png_part), "{parts:?}");
            assert!(
                parts
                    .iter()
                    .any(|p| p["text"] == "[image not sent: this model does not take images]"),
                "{parts:?}"
            );
        }
    }
}

#[test]
fn an_image_over_the_providers_byte_limit_is_sent_as_a_smaller_jpeg() {
    use base64::Engine;
    let sandbox = CliSandbox::new();
    // Noise compresses badly: about 4.6 MB of PNG, over the 4 MB default limit though within 2048 px.
    let mut seed: u32 = 7;
    image::RgbImage::from_fn(1400, 1100, |_, _| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        let b = seed.to_le_bytes();
        image::Rgb([b[1], b[2], b[3]])
    })
    .save(sandbox.project.path().join("noise.png"))
    .unwrap();
    let png_len = std::fs::metadata(sandbox.project.path().join("noise.png"))
        .unwrap()
        .len();
    assert!(png_len > 4 * 1024 * 1024, "{png_len}");
    let server = ScriptedServer::with_replies([Reply::text("Noise.")]);
    let output = sandbox
        .against(&server)
        .env("PAICLI_VISION", "true")
        .args(["-p", "what is in @noise.png?"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr_of(&output));
    let body = &server.chat_requests()[0].body;
    let url = body["messages"][2]["content"][0]["image_url"]["url"]
        .as_str()
        .unwrap()
        .to_string();
    let data = url.strip_prefix("data:image/jpeg;base64,").unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    assert!(bytes.len() <= 4 * 1024 * 1024, "{}", bytes.len());
    assert!(bytes.starts_with(&[0xff, 0xd8]), "a JPEG");
}
