//! Per-model list prices from one data file (`prices.toml`, dated), for the cost estimate.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::providers::{Price, lookup};

/// The data file, compiled in.
const PRICES_TOML: &str = include_str!("prices.toml");

#[derive(Debug, Deserialize)]
struct PriceFile {
    as_of: String,
    #[serde(flatten)]
    providers: BTreeMap<String, ProviderPrices>,
}

#[derive(Debug, Deserialize)]
struct ProviderPrices {
    currency: String,
    models: Vec<ModelPrice>,
}

#[derive(Debug, Deserialize)]
struct ModelPrice {
    prefix: String,
    input: f64,
    #[serde(default)]
    cached_input: Option<f64>,
    output: f64,
}

/// Parsed once; read-only afterwards. A file that does not parse is a build mistake the unit test catches, and
/// costs nothing worse than "no prices known" at run time.
static PRICES: LazyLock<Option<PriceFile>> = LazyLock::new(|| toml::from_str(PRICES_TOML).ok());

/// The date the prices were taken (`YYYY-MM-DD`).
pub fn prices_as_of() -> &'static str {
    PRICES.as_ref().map(|p| p.as_of.as_str()).unwrap_or("")
}

/// The list price of `model` at provider `id` (or an alias), when the data file has it: the entry with the
/// longest matching prefix of the model name, case-insensitive.
pub fn price_of(id: &str, model: &str) -> Option<Price> {
    let info = lookup(id)?;
    let provider = PRICES.as_ref()?.providers.get(info.id)?;
    let model = model.to_ascii_lowercase();
    // `vendor/model` names (gateways) are priced by their last part.
    let name = model.rsplit('/').next().unwrap_or(&model);
    let entry = provider
        .models
        .iter()
        .filter(|m| name.starts_with(&m.prefix.to_ascii_lowercase()))
        .max_by_key(|m| m.prefix.len())?;
    Some(Price {
        currency: symbol(&provider.currency)?,
        input_per_mtok: entry.input,
        output_per_mtok: entry.output,
        cached_input_per_mtok: entry.cached_input,
    })
}

fn symbol(currency: &str) -> Option<&'static str> {
    match currency {
        "CNY" => Some("¥"),
        "USD" => Some("$"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(id: &str, model: &str) -> Option<f64> {
        price_of(id, model).map(|p| p.cost(1_000_000, 1_000_000, 500_000))
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-9)
    }

    #[test]
    fn the_data_file_parses_and_is_dated() {
        let file = PRICES
            .as_ref()
            .unwrap_or_else(|| panic!("prices.toml does not parse"));
        assert_eq!(file.as_of.len(), 10, "{}", file.as_of);
        for (id, provider) in &file.providers {
            assert!(lookup(id).is_some(), "{id} is not in the provider table");
            assert!(
                symbol(&provider.currency).is_some(),
                "{id}: {}",
                provider.currency
            );
        }
        assert_eq!(prices_as_of(), file.as_of);
    }

    #[test]
    fn deepseek_is_priced_in_yuan_and_unknown_models_are_not() {
        // 0.5M uncached at ¥2 + 0.5M cached at ¥0.2 + 1M output at ¥3.
        assert!(close(cost("deepseek", "deepseek-chat"), 1.0 + 0.1 + 3.0));
        assert_eq!(
            price_of("deepseek", "deepseek-reasoner").map(|p| p.currency),
            Some("¥")
        );
        assert_eq!(price_of("deepseek", "deepseek-flash"), None);
    }

    #[test]
    fn glm_takes_the_longest_prefix() {
        assert!(close(cost("glm", "glm-4.5-air"), 0.1 + 0.015 + 1.1));
        assert!(close(cost("zhipu", "GLM-4.6"), 0.3 + 0.055 + 2.2));
        assert_eq!(price_of("glm", "glm-5.1"), None);
    }

    #[test]
    fn kimi_qwen_hunyuan_and_step_have_their_models() {
        assert!(close(
            cost("kimi", "kimi-k2-0905-preview"),
            0.3 + 0.075 + 2.5
        ));
        assert_eq!(price_of("kimi", "kimi-k2.6"), None);
        // No cache price: cached tokens bill as input.
        assert!(close(cost("qwen", "qwen3-coder-plus"), 4.0 + 16.0));
        assert_eq!(price_of("qwen", "qwen3-coder-next"), None);
        assert!(close(cost("hunyuan", "hunyuan-t1-latest"), 1.0 + 4.0));
        assert_eq!(price_of("hunyuan", "hy4-preview"), None);
        assert!(close(cost("step", "step-2-mini"), 1.0 + 2.0));
        assert_eq!(price_of("step", "step-3.5-flash"), None);
    }

    #[test]
    fn openai_models_are_told_apart_and_others_have_no_table() {
        assert!(close(cost("openai", "gpt-4o"), 1.25 + 0.625 + 10.0));
        assert!(close(
            cost("openai", "gpt-4o-mini-2024-07-18"),
            0.075 + 0.0375 + 0.6
        ));
        assert!(close(cost("openai", "o3"), 1.0 + 0.25 + 8.0));
        assert_eq!(price_of("openai", "gpt-3.5-turbo"), None);
        assert_eq!(price_of("custom", "gpt-4o"), None);
        assert_eq!(price_of("openrouter", "openai/gpt-4o"), None);
    }
}
