//! Reads a `usage` object, whatever the provider calls its cache and reasoning counters.

use serde_json::Value;

use crate::llm::Usage;

/// Where providers put the count of prompt tokens served from cache. When several are present the
/// later entry wins (the `*_details` forms are the most specific).
const CACHED_TOKEN_PATHS: &[&[&str]] = &[
    &["cached_tokens"],                          // Kimi / Moonshot
    &["prompt_cache_hit_tokens"],                // DeepSeek
    &["input_cache_hit_tokens"],                 // some DeepSeek-compatible gateways
    &["prompt_tokens_details", "cached_tokens"], // OpenAI, Qwen, GLM, xAI
    &["input_tokens_details", "cached_tokens"],  // Responses-style naming
];

/// Where providers put the count of completion tokens spent on reasoning; the first one present wins.
const REASONING_TOKEN_PATHS: &[&[&str]] = &[
    &["completion_tokens_details", "reasoning_tokens"],
    &["output_tokens_details", "reasoning_tokens"],
];

/// Parses a `usage` value; `None` unless `prompt_tokens` and `completion_tokens` are non-negative integers.
pub(super) fn parse_usage(value: &Value) -> Option<Usage> {
    let prompt_tokens = count_at(value, &["prompt_tokens"])?;
    let completion_tokens = count_at(value, &["completion_tokens"])?;
    let cached_tokens = CACHED_TOKEN_PATHS
        .iter()
        .rev()
        .find_map(|path| count_at(value, path))
        .unwrap_or(0);
    let reasoning_tokens = REASONING_TOKEN_PATHS
        .iter()
        .find_map(|path| count_at(value, path))
        .unwrap_or(0);
    Some(Usage {
        reported_cost_nano_usd: reported_cost(value),
        ..Usage::tokens(
            prompt_tokens,
            completion_tokens,
            cached_tokens,
            reasoning_tokens,
        )
    })
}

/// OpenRouter's `usage.cost` (US dollars, a fraction), as billionths of a dollar; `None` when absent, negative
/// or not a finite number.
fn reported_cost(value: &Value) -> Option<u64> {
    let usd = value.get("cost")?.as_f64()?;
    (usd.is_finite() && usd >= 0.0).then(|| (usd * 1e9).round() as u64)
}

/// A non-negative integer at `path`, or `None` if absent, null, negative or fractional.
fn count_at(value: &Value, path: &[&str]) -> Option<u64> {
    path.iter()
        .try_fold(value, |v, key| v.get(key))
        .and_then(Value::as_u64)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn usage(prompt: u64, completion: u64, cached: u64, reasoning: u64) -> Option<Usage> {
        Some(Usage::tokens(prompt, completion, cached, reasoning))
    }

    #[test]
    fn a_reported_cost_is_kept_in_nano_dollars() {
        let value = json!({"prompt_tokens":9,"completion_tokens":1,"cost":0.0000125});
        let parsed = parse_usage(&value).unwrap();
        assert_eq!(parsed.reported_cost_nano_usd, Some(12_500));
        assert!((parsed.reported_cost_usd().unwrap() - 0.0000125).abs() < 1e-12);
        for bad in [json!(-1.0), json!("0.1"), json!(null)] {
            let value = json!({"prompt_tokens":9,"completion_tokens":1,"cost":bad});
            assert_eq!(parse_usage(&value), usage(9, 1, 0, 0), "{value}");
        }
    }

    #[test]
    fn plain_counts() {
        let value = json!({"prompt_tokens":17,"completion_tokens":1,"total_tokens":18});
        assert_eq!(parse_usage(&value), usage(17, 1, 0, 0));
    }

    #[test]
    fn rejects_missing_negative_fractional_or_null_counts() {
        for value in [
            json!(null),
            json!({"completion_tokens": 1}),
            json!({"prompt_tokens": -1, "completion_tokens": 1}),
            json!({"prompt_tokens": 1.5, "completion_tokens": 1}),
            json!({"prompt_tokens": "3", "completion_tokens": 1}),
            json!({"prompt_tokens": 3, "completion_tokens": null}),
        ] {
            assert_eq!(parse_usage(&value), None, "{value}");
        }
    }

    #[test]
    fn each_cached_field_name_is_read() {
        for value in [
            json!({"prompt_tokens":9,"completion_tokens":1,"cached_tokens":4}),
            json!({"prompt_tokens":9,"completion_tokens":1,"prompt_cache_hit_tokens":4}),
            json!({"prompt_tokens":9,"completion_tokens":1,"input_cache_hit_tokens":4}),
            json!({"prompt_tokens":9,"completion_tokens":1,"prompt_tokens_details":{"cached_tokens":4}}),
            json!({"prompt_tokens":9,"completion_tokens":1,"input_tokens_details":{"cached_tokens":4}}),
        ] {
            assert_eq!(parse_usage(&value), usage(9, 1, 4, 0), "{value}");
        }
    }

    #[test]
    fn later_cached_field_in_the_list_wins() {
        let value = json!({
            "prompt_tokens":9,"completion_tokens":1,
            "cached_tokens":1,"prompt_cache_hit_tokens":2,"prompt_tokens_details":{"cached_tokens":3}
        });
        assert_eq!(parse_usage(&value), usage(9, 1, 3, 0));
        let value = json!({
            "prompt_tokens":9,"completion_tokens":1,
            "cached_tokens":1,"prompt_tokens_details":{"cached_tokens":null}
        });
        assert_eq!(parse_usage(&value), usage(9, 1, 1, 0));
    }

    #[test]
    fn reasoning_tokens_from_either_details_object() {
        let value = json!({"prompt_tokens":9,"completion_tokens":5,
            "completion_tokens_details":{"reasoning_tokens":3}});
        assert_eq!(parse_usage(&value), usage(9, 5, 0, 3));
        let value = json!({"prompt_tokens":9,"completion_tokens":5,
            "output_tokens_details":{"reasoning_tokens":2}});
        assert_eq!(parse_usage(&value), usage(9, 5, 0, 2));
    }
}
