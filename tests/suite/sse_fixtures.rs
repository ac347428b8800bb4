//! Every recorded stream in `tests/fixtures/sse/` decodes to exactly what it carries.
//!
//! Expected values were read off the fixtures by eye and cross-checked with a throwaway python
//! script (concatenating the fragments); they are written out literally, never produced by our decoder.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use paicli::llm::stream::decode_sse_bytes;
use paicli::llm::{ChatResponse, StreamDelta, ToolCall, Usage};
use pretty_assertions::assert_eq;

/// Every replayable stream fixture (the request JSON and aimock config are not streams).
pub(crate) const STREAM_FIXTURES: &[&str] = &[
    "aimock-openai-toolcalls-2parallel.sse",
    "aimock-reasoning-content.sse",
    "deepseek-v4-reasoning-text.chunks.jsonl",
    "deepseek-v4-reasoning-then-toolcall.chunks.jsonl",
    "glm-5-2-toolcall-empty-name.chunks.jsonl",
    "grok-3-mini-reasoning-toolcall-single-chunk.chunks.jsonl",
    "kimi-k3-usage-inside-choice.chunks.jsonl",
    "kimi-style-indexless-parallel-toolcalls.SYNTHETIC.chunks.jsonl",
    "llamacpp-server-gemma270m-toolcall-single.sse",
    "openai-gpt4o-finish-length.sse",
    "openai-gpt4o-parallel-toolcalls.sse",
    "openai-gpt4o-toolcall-role-in-same-chunk.sse",
    "qwen3-coder-toolcall-inside-reasoning.chunks.jsonl",
    "qwen3-max-toolcall.chunks.jsonl",
];

fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sse")
        .join(name)
}

/// The SSE body of a fixture, as the server would send it.
///
/// `*.chunks.jsonl` hold one chunk per line: replayed as `data: <line>\n\n` plus `data: [DONE]\n\n`.
/// `llamacpp-server-*` start with HTTP response headers, stripped up to the first blank line.
pub(crate) fn fixture_stream(name: &str) -> Vec<u8> {
    let raw = std::fs::read(fixture_path(name)).unwrap();
    if name.ends_with(".chunks.jsonl") {
        let text = String::from_utf8(raw).unwrap();
        let mut body = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            body.push_str("data: ");
            body.push_str(line);
            body.push_str("\n\n");
        }
        body.push_str("data: [DONE]\n\n");
        return body.into_bytes();
    }
    if name.starts_with("llamacpp-server-") {
        let end = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("header block");
        return raw[end + 4..].to_vec();
    }
    raw
}

/// Decodes a fixture and checks the live deltas add up to the collected text.
fn decode_fixture(name: &str) -> (ChatResponse, usize, usize) {
    let (response, live) = decode_sse_bytes(&fixture_stream(name))
        .unwrap_or_else(|e| panic!("{name} failed to decode: {e:?}"));
    let mut reasoning = String::new();
    let mut content = String::new();
    let (mut reasoning_pieces, mut content_pieces) = (0, 0);
    let mut call_pieces = std::collections::BTreeMap::<String, (String, String)>::new();
    for delta in live {
        match delta {
            StreamDelta::Reasoning(text) => {
                assert!(!text.is_empty(), "{name}: empty reasoning delta forwarded");
                reasoning.push_str(&text);
                reasoning_pieces += 1;
            }
            StreamDelta::Content(text) => {
                assert!(!text.is_empty(), "{name}: empty content delta forwarded");
                content.push_str(&text);
                content_pieces += 1;
            }
            StreamDelta::ToolCall(call) => {
                assert!(
                    !call.arguments.is_empty(),
                    "{name}: empty call delta forwarded"
                );
                let entry = call_pieces.entry(call.id).or_default();
                entry.0 = call.name;
                entry.1.push_str(&call.arguments);
            }
        }
    }
    // A real provider's call pieces add up to the calls the reply ends with.
    let streamed: Vec<(String, String, String)> = call_pieces
        .into_iter()
        .map(|(id, (name, arguments))| (id, name, arguments))
        .collect();
    let mut finished: Vec<(String, String, String)> = response
        .tool_calls
        .iter()
        .filter(|c| !c.arguments.is_empty())
        .map(|c| (c.id.clone(), c.name.clone(), c.arguments.clone()))
        .collect();
    finished.sort();
    assert_eq!(streamed, finished, "{name}: live tool calls");
    assert_eq!(reasoning, response.reasoning, "{name}: live reasoning");
    assert_eq!(content, response.content, "{name}: live content");
    (response, reasoning_pieces, content_pieces)
}

fn call(id: &str, name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: id.to_owned(),
        name: name.to_owned(),
        arguments: arguments.to_owned(),
    }
}

fn usage(prompt: u64, completion: u64, cached: u64, reasoning: u64) -> Option<Usage> {
    Some(Usage::tokens(prompt, completion, cached, reasoning))
}

fn reply(
    content: &str,
    reasoning: &str,
    tool_calls: Vec<ToolCall>,
    finish_reason: &str,
    usage: Option<Usage>,
    model: &str,
) -> ChatResponse {
    ChatResponse {
        content: content.to_owned(),
        reasoning: reasoning.to_owned(),
        tool_calls,
        finish_reason: Some(finish_reason.to_owned()),
        usage,
        model: Some(model.to_owned()),
    }
}

/// Asserts the whole reply and how many non-empty (reasoning, content) deltas were forwarded.
fn check(name: &str, expected: ChatResponse, pieces: (usize, usize)) {
    let (response, reasoning_pieces, content_pieces) = decode_fixture(name);
    assert_eq!(response, expected, "{name}");
    assert_eq!(
        (reasoning_pieces, content_pieces),
        pieces,
        "{name}: live delta counts"
    );
}

#[test]
fn aimock_two_parallel_tool_calls() {
    check(
        "aimock-openai-toolcalls-2parallel.sse",
        reply(
            "",
            "",
            vec![
                call(
                    "call_Wt4YOCfv-HcFFjyi",
                    "get_weather",
                    r#"{"location":"San Francisco","unit":"fahrenheit"}"#,
                ),
                call(
                    "call_BbVraIJP_D5g56W9",
                    "read_file",
                    r#"{"path":"src/main.rs"}"#,
                ),
            ],
            "tool_calls",
            usage(7, 23, 0, 0),
            "gpt-4o",
        ),
        (0, 0),
    );
}

#[test]
fn aimock_reasoning_content_without_usage() {
    check(
        "aimock-reasoning-content.sse",
        reply(
            "The answer is 42.",
            "Let me think step by step about this.",
            vec![],
            "stop",
            None,
            "deepseek-reasoner",
        ),
        (5, 3),
    );
}

#[test]
fn deepseek_long_reasoning_then_text() {
    let reasoning = "We need to count the number of the letter \"r\" in the word \"strawberry\". The word is spelled: s-t-r-a-w-b-e-r-r-y. Let's list the letters and count the \"r\"s:\n\nPosition 1: s\n2: t\n3: r (first r)\n4: a\n5: w\n6: b\n7: e\n8: r (second r)\n9: r (third r)\n10: y\n\nSo there are three \"r\"s. But wait, let's double-check: \"strawberry\" indeed has three \"r\"s: one after \"t\", and then two consecutive \"r\"s before \"y\". So the answer is 3.\n\nThe question is straightforward. However, sometimes people might miscount. Let's ensure: The word has 10 letters. The \"r\"s are at positions 3, 8, and 9. So yes, 3.\n\nThus, the answer is 3.";
    // Independently computed with python: 606 characters, 17 newlines.
    assert_eq!(reasoning.chars().count(), 606);
    assert_eq!(reasoning.matches('\n').count(), 17);
    check(
        "deepseek-v4-reasoning-text.chunks.jsonl",
        reply(
            "The word \"strawberry\" contains three \"r\"s.",
            reasoning,
            vec![],
            "stop",
            usage(18, 219, 0, 205),
            "deepseek-reasoner",
        ),
        (205, 13),
    );
}

#[test]
fn deepseek_reasoning_then_tool_call_with_usage_on_finish_chunk() {
    check(
        "deepseek-v4-reasoning-then-toolcall.chunks.jsonl",
        reply(
            "",
            "The user is asking for the weather in San Francisco. I need to use the weather tool to get this information. Let me invoke the weather tool with the location parameter set to \"San Francisco\".",
            vec![call(
                "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
                "weather",
                r#"{"location": "San Francisco"}"#,
            )],
            "tool_calls",
            // prompt_cache_hit_tokens and prompt_tokens_details.cached_tokens agree: 320.
            usage(339, 83, 320, 39),
            "deepseek-reasoner",
        ),
        (39, 0),
    );
}

#[test]
fn glm_empty_name_in_second_chunk_keeps_the_name() {
    check(
        "glm-5-2-toolcall-empty-name.chunks.jsonl",
        reply(
            "",
            "",
            vec![call(
                "chatcmpl-tool-9f149c74c42f265b",
                "webSearchTool",
                r#"{"query": "current Berlin weather"}"#,
            )],
            "tool_calls",
            usage(171, 14, 128, 0),
            "zai-glm-5-2",
        ),
        (0, 0),
    );
}

#[test]
fn grok_whole_tool_call_in_one_chunk() {
    check(
        "grok-3-mini-reasoning-toolcall-single-chunk.chunks.jsonl",
        reply(
            "",
            "First, the user is",
            vec![call(
                "call_55117580",
                "weather",
                r#"{"location":"San Francisco"}"#,
            )],
            "tool_calls",
            usage(291, 26, 290, 196),
            "grok-3-mini",
        ),
        (5, 0),
    );
}

#[test]
fn kimi_usage_inside_choice_and_top_level() {
    check(
        "kimi-k3-usage-inside-choice.chunks.jsonl",
        reply(
            "OK",
            "The user is asking me to reply with exactly \"OK\". This is a simple request with no ambiguity. I should just respond with \"OK\" and nothing else.",
            vec![],
            "stop",
            usage(90, 50, 90, 33),
            "kimi-k3",
        ),
        (14, 1),
    );
}

#[test]
fn kimi_style_indexless_parallel_calls_land_in_order() {
    // Two index-less headers take slots 0 and 1; the later fragments address them by index (1 first).
    check(
        "kimi-style-indexless-parallel-toolcalls.SYNTHETIC.chunks.jsonl",
        reply(
            "",
            "",
            vec![
                call("call-weather", "get_weather", r#"{"city":"Paris"}"#),
                call("call-time", "get_time", r#"{"zone":"UTC"}"#),
            ],
            "tool_calls",
            usage(11, 6, 0, 0),
            "kimi-k3",
        ),
        (0, 0),
    );
}

#[test]
fn llamacpp_tool_call_with_argument_fragments() {
    check(
        "llamacpp-server-gemma270m-toolcall-single.sse",
        reply(
            "",
            "",
            vec![call(
                "FJwWi2okDErgdAo4ncY2783wZxrhYo7T",
                "run_shell",
                r#"{"command":"src/main.rs"}"#,
            )],
            "tool_calls",
            usage(620, 41, 619, 0),
            // llama-server reports the model file path it was started with (recorded value).
            "/tmp/peers/gemma/gemma-3-270m-q4_k_m.gguf",
        ),
        (0, 0),
    );
}

#[test]
fn openai_finish_length_after_one_token() {
    check(
        "openai-gpt4o-finish-length.sse",
        reply(
            "{\"",
            "",
            vec![],
            "length",
            usage(17, 1, 0, 0),
            "gpt-4o-2024-08-06",
        ),
        (0, 1),
    );
}

#[test]
fn openai_parallel_tool_calls() {
    check(
        "openai-gpt4o-parallel-toolcalls.sse",
        reply(
            "",
            "",
            vec![
                call(
                    "call_lQnnsesjFMWMQ5IeWPHzR4th",
                    "GetWeatherArgs",
                    r#"{"city": "Edinburgh", "country": "UK", "units": "c"}"#,
                ),
                call(
                    "call_2xjOUgaCdiwAcl9ZBL9LyMUU",
                    "get_stock_price",
                    r#"{"ticker": "AAPL", "exchange": "NASDAQ"}"#,
                ),
            ],
            "tool_calls",
            usage(149, 60, 0, 0),
            "gpt-4o-2024-08-06",
        ),
        (0, 0),
    );
}

#[test]
fn openai_role_and_tool_call_header_in_the_same_chunk() {
    check(
        "openai-gpt4o-toolcall-role-in-same-chunk.sse",
        reply(
            "",
            "",
            vec![call(
                "call_7PhhveOvvpPK53s1fV8TWhoV",
                "GetWeatherArgs",
                r#"{"city":"Edinburgh","country":"GB","units":"c"}"#,
            )],
            "tool_calls",
            usage(76, 24, 0, 0),
            "gpt-4o-2024-08-06",
        ),
        (0, 0),
    );
}

#[test]
fn qwen3_coder_tool_call_text_inside_reasoning_stays_reasoning() {
    // The fixture escapes the backslash, so the reasoning holds a literal `\n`, not a newline.
    check(
        "qwen3-coder-toolcall-inside-reasoning.chunks.jsonl",
        reply(
            "",
            r#"Need weather for planning.\n<tool_call><function=get_weather>{"city":"Lisbon"}</function></tool_call>"#,
            vec![],
            "stop",
            usage(10, 20, 0, 12),
            "qwen3-coder-plus",
        ),
        (2, 0),
    );
}

#[test]
fn qwen3_max_empty_ids_never_overwrite() {
    check(
        "qwen3-max-toolcall.chunks.jsonl",
        reply(
            "",
            "",
            vec![call(
                "call_eee11723464a4b9eb8cee71d",
                "weather",
                r#"{"location": "San Francisco"}"#,
            )],
            "tool_calls",
            usage(295, 22, 0, 0),
            "qwen3-max",
        ),
        (0, 0),
    );
}

#[test]
fn every_stream_fixture_in_the_directory_is_covered() {
    let dir = fixture_path("");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sse") || n.ends_with(".chunks.jsonl"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = STREAM_FIXTURES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk);
}

#[test]
fn stream_cut_before_the_end_is_interrupted_not_garbage() {
    // Drop `[DONE]` and the finish chunk: the reply must be reported as interrupted.
    let stream = fixture_stream("openai-gpt4o-parallel-toolcalls.sse");
    let text = String::from_utf8(stream).unwrap();
    let cut = text.find("\"finish_reason\":\"tool_calls\"").unwrap();
    let cut = text[..cut].rfind("data: ").unwrap();
    let result = decode_sse_bytes(&text.as_bytes()[..cut]);
    assert!(
        matches!(result, Err(paicli::llm::LlmError::StreamInterrupted(_))),
        "{result:?}"
    );
    // Cut in the middle of a chunk's JSON: still interrupted (retryable), not an invalid response.
    let result = decode_sse_bytes(&text.as_bytes()[..cut + 40]);
    assert!(
        matches!(result, Err(paicli::llm::LlmError::StreamInterrupted(_))),
        "{result:?}"
    );
}
