//! Property tests: framing is independent of how bytes are split, and no input panics.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use paicli::llm::sse::SseDecoder;
use paicli::llm::stream::{StreamAccumulator, decode_sse_bytes};
use paicli::llm::{ChatResponse, LlmError, StreamDelta};
use proptest::prelude::*;

use super::sse_fixtures::{STREAM_FIXTURES, fixture_stream};

/// Feeds `bytes` cut at `cuts` (sorted, deduplicated offsets) through decoder and accumulator.
fn decode_in_pieces(
    bytes: &[u8],
    cuts: &[usize],
) -> Result<(ChatResponse, Vec<StreamDelta>), LlmError> {
    let mut decoder = SseDecoder::new();
    let mut accumulator = StreamAccumulator::new();
    let mut live = Vec::new();
    let mut start = 0;
    let ends = cuts.iter().copied().chain(std::iter::once(bytes.len()));
    for end in ends {
        for event in decoder.feed(&bytes[start..end]) {
            live.extend(accumulator.push_event(&event)?);
        }
        start = end;
    }
    for event in decoder.finish() {
        live.extend(accumulator.push_event(&event)?);
    }
    Ok((accumulator.finish()?, live))
}

/// Live deltas merged per kind: splitting must not change the text, only (possibly) nothing else.
fn joined(live: &[StreamDelta]) -> (String, String) {
    let mut reasoning = String::new();
    let mut content = String::new();
    for delta in live {
        match delta {
            StreamDelta::Reasoning(t) => reasoning.push_str(t),
            StreamDelta::Content(t) => content.push_str(t),
            StreamDelta::ToolCall(_) => {}
        }
    }
    (reasoning, content)
}

#[derive(Clone, Copy, Debug)]
enum LineEnd {
    Lf,
    CrLf,
    Cr,
}

/// Rewrites every LF line end; JSON payloads never contain a raw newline, so only framing changes.
fn with_line_end(bytes: &[u8], end: LineEnd) -> Vec<u8> {
    let replacement: &[u8] = match end {
        LineEnd::Lf => return bytes.to_vec(),
        LineEnd::CrLf => b"\r\n",
        LineEnd::Cr => b"\r",
    };
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    for &b in bytes {
        if b == b'\n' {
            out.extend_from_slice(replacement);
        } else {
            out.push(b);
        }
    }
    out
}

fn cut_points(len: usize, raw: Vec<prop::sample::Index>) -> Vec<usize> {
    let mut cuts: Vec<usize> = raw.into_iter().map(|i| i.index(len + 1)).collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts
}

fn line_end() -> impl Strategy<Value = LineEnd> {
    prop_oneof![Just(LineEnd::Lf), Just(LineEnd::CrLf), Just(LineEnd::Cr)]
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Each fixture, cut anywhere (inside UTF-8 characters, inside `data:`, between CR and LF),
    /// with any line-end style and an optional BOM, decodes to the same reply and the same text.
    #[test]
    fn fixtures_decode_identically_under_any_split(
        fixture in prop::sample::select(STREAM_FIXTURES),
        end in line_end(),
        bom in any::<bool>(),
        raw_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..48),
    ) {
        let original = fixture_stream(fixture);
        let (expected, expected_live) = decode_sse_bytes(&original).unwrap();

        let mut bytes = if bom { b"\xEF\xBB\xBF".to_vec() } else { Vec::new() };
        bytes.extend(with_line_end(&original, end));
        let cuts = cut_points(bytes.len(), raw_cuts);
        let (response, live) = decode_in_pieces(&bytes, &cuts).unwrap();

        prop_assert_eq!(response, expected);
        // Events are whole by construction, so even the piece boundaries of the live text match.
        prop_assert_eq!(&live, &expected_live);
        prop_assert_eq!(joined(&live), joined(&expected_live));
    }

    /// Arbitrary bytes in arbitrary splits never panic the decoder or the accumulator.
    #[test]
    fn arbitrary_bytes_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..2048),
        raw_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let cuts = cut_points(bytes.len(), raw_cuts);
        let _ = decode_in_pieces(&bytes, &cuts);
    }

    /// SSE-shaped noise (random field lines, JSON-ish payloads) reaches deeper accumulator paths.
    #[test]
    fn sse_shaped_noise_never_panics(
        lines in prop::collection::vec(sse_line(), 0..40),
        raw_cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..16),
    ) {
        let bytes = lines.concat().into_bytes();
        let cuts = cut_points(bytes.len(), raw_cuts);
        let _ = decode_in_pieces(&bytes, &cuts);
    }

    /// Fixtures with a few bytes flipped: near-valid chunks must fail cleanly, never panic.
    #[test]
    fn corrupted_fixtures_never_panic(
        fixture in prop::sample::select(STREAM_FIXTURES),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
    ) {
        let mut bytes = fixture_stream(fixture);
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        let _ = decode_sse_bytes(&bytes);
    }

    /// Arbitrary JSON in every position of a chunk is tolerated.
    #[test]
    fn arbitrary_chunk_shapes_never_panic(delta in json_value(), top in json_value(), choice in json_value()) {
        let mut accumulator = StreamAccumulator::new();
        for chunk in [
            serde_json::json!({"choices":[{"delta":delta,"finish_reason":top}]}),
            serde_json::json!({"choices":[{"delta":{"tool_calls":[delta, choice]}}]}),
            serde_json::json!({"choices":[choice],"usage":top,"model":delta}),
            serde_json::json!({"choices":top,"error":choice}),
            serde_json::json!({"choices":[{"message":delta,"usage":choice}]}),
            top,
        ] {
            let _ = accumulator.push_data(&chunk.to_string());
        }
        let _ = accumulator.finish();
    }
}

/// Cutting one byte at a time is the extreme split: every fixture, every line-end style.
#[test]
fn byte_by_byte_feeding_matches() {
    for fixture in STREAM_FIXTURES {
        let original = fixture_stream(fixture);
        let expected = decode_sse_bytes(&original).unwrap();
        for end in [LineEnd::Lf, LineEnd::CrLf, LineEnd::Cr] {
            let bytes = with_line_end(&original, end);
            let cuts: Vec<usize> = (1..bytes.len()).collect();
            let decoded = decode_in_pieces(&bytes, &cuts).unwrap();
            assert_eq!(decoded, expected, "{fixture} with {end:?}");
        }
    }
}

fn sse_line() -> impl Strategy<Value = String> {
    let payload = prop_oneof![
        Just("[DONE]".to_owned()),
        json_value().prop_map(|v| v.to_string()),
        json_value().prop_map(|v| serde_json::json!({"choices":[{"delta":v}]}).to_string()),
        json_value().prop_map(|v| {
            serde_json::json!({"choices":[{"delta":{"tool_calls":[v]}}]}).to_string()
        }),
        "\\PC{0,40}",
    ];
    let field = prop_oneof![
        Just("data: "),
        Just("data:"),
        Just("event: "),
        Just(": "),
        Just("id: "),
        Just("retry: "),
        Just(""),
    ];
    let end = prop_oneof![Just("\n"), Just("\r\n"), Just("\r"), Just("\n\n"), Just("")];
    (field, payload, end).prop_map(|(f, p, e)| format!("{f}{p}{e}"))
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![
            Just("index"),
            Just("id"),
            Just("function"),
            Just("name"),
            Just("arguments"),
            Just("content"),
            Just(""),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
        "\\PC{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        let key = prop_oneof![
            Just("index".to_owned()),
            Just("id".to_owned()),
            Just("function".to_owned()),
            Just("name".to_owned()),
            Just("arguments".to_owned()),
            Just("content".to_owned()),
            Just("reasoning_content".to_owned()),
            Just("reasoning_details".to_owned()),
            Just("tool_calls".to_owned()),
            Just("prompt_tokens".to_owned()),
            Just("completion_tokens".to_owned()),
            Just("message".to_owned()),
            Just("code".to_owned()),
            "[a-z_]{1,8}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            prop::collection::btree_map(key, inner, 0..5)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}
