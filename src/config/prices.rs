//! Per-model list prices from one data file (`prices.toml`, dated), for the cost estimate.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

use super::providers::{Price, lookup};
use crate::protocol::Usage;

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
/// longest matching prefix of the model name, case-insensitive. A prefix matches the whole name or a name that
/// goes on with `-` (a dated or tier suffix), so `glm-5` prices `glm-5-turbo` but not a different model such as
/// `glm-5.3` or `glm-5v`.
pub fn price_of(id: &str, model: &str) -> Option<Price> {
    let info = lookup(id)?;
    let provider = PRICES.as_ref()?.providers.get(info.id)?;
    let model = model.to_ascii_lowercase();
    // `vendor/model` names (gateways) are priced by their last part.
    let name = model.rsplit('/').next().unwrap_or(&model);
    let entry = provider
        .models
        .iter()
        .filter(|m| prefix_matches(name, &m.prefix.to_ascii_lowercase()))
        .max_by_key(|m| m.prefix.len())?;
    Some(Price {
        currency: symbol(&provider.currency)?,
        input_per_mtok: entry.input,
        output_per_mtok: entry.output,
        cached_input_per_mtok: entry.cached_input,
    })
}

/// Where a cost figure comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostSource {
    /// The provider reported it with the usage (OpenRouter's `usage.cost`, USD).
    Reported,
    /// Estimated from the list prices in the data file.
    ListPrice,
}

/// The cost of `usage`: the provider's own figure when it reported one, otherwise the estimate from `price`;
/// `None` when neither is known. Returns the currency symbol, the amount and where it came from.
pub fn cost_of(usage: &Usage, price: Option<Price>) -> Option<(&'static str, f64, CostSource)> {
    if let Some(usd) = usage.reported_cost_usd() {
        return Some(("$", usd, CostSource::Reported));
    }
    let price = price?;
    let amount = price.cost(
        usage.prompt_tokens,
        usage.completion_tokens,
        usage.cached_tokens,
    );
    Some((price.currency, amount, CostSource::ListPrice))
}

fn prefix_matches(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
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
    fn a_reported_cost_wins_over_the_table() {
        let mut usage = Usage::tokens(1_000_000, 1_000_000, 0, 0);
        let table = price_of("openai", "gpt-4o");
        assert_eq!(
            cost_of(&usage, table).map(|(c, _, s)| (c, s)),
            Some(("$", CostSource::ListPrice))
        );
        usage.reported_cost_nano_usd = Some(1_500_000);
        assert_eq!(
            cost_of(&usage, table),
            Some(("$", 0.0015, CostSource::Reported))
        );
        assert_eq!(
            cost_of(&Usage::default(), None),
            None,
            "no table and no report"
        );
    }

    #[test]
    fn deepseek_default_and_v4_models_are_priced_in_yuan() {
        // 0.5M uncached at ¥1 + 0.5M cached at ¥0.02 + 1M output at ¥2.
        assert!(close(cost("deepseek", "deepseek-flash"), 0.5 + 0.01 + 2.0));
        assert!(close(
            cost("deepseek", "deepseek-v4-flash"),
            0.5 + 0.01 + 2.0
        ));
        assert!(close(
            cost("deepseek", "deepseek-v4-pro"),
            1.5 + 0.0125 + 6.0
        ));
        assert!(close(cost("deepseek", "deepseek-chat"), 0.5 + 0.01 + 2.0));
        assert_eq!(
            price_of("deepseek", "deepseek-reasoner").map(|p| p.currency),
            Some("¥")
        );
        assert_eq!(price_of("deepseek", "deepseek-v3"), None);
    }

    #[test]
    fn glm_default_is_priced_and_other_families_are_not_borrowed() {
        assert!(close(cost("glm", "glm-5.1"), 3.0 + 0.6 + 24.0));
        assert!(close(cost("zhipu", "GLM-5"), 4.0 + 18.0));
        assert_eq!(price_of("glm", "glm-5.1").map(|p| p.currency), Some("¥"));
        // `glm-5` must not price a different model that merely starts with its name.
        assert_eq!(price_of("glm", "glm-5.3-flash"), None);
        assert_eq!(price_of("glm", "glm-5v-turbo"), None);
    }

    #[test]
    fn kimi_qwen_hunyuan_and_step_have_their_models() {
        assert!(close(cost("kimi", "kimi-k2.6"), 0.475 + 0.08 + 4.0));
        assert_eq!(
            price_of("moonshot", "kimi-k2.6").map(|p| p.currency),
            Some("$")
        );
        assert!(close(
            cost("kimi", "kimi-k2-0905-preview"),
            0.3 + 0.075 + 2.5
        ));
        assert_eq!(price_of("kimi", "kimi-k3"), None);
        // No cache price: cached tokens bill as input.
        assert!(close(cost("qwen", "qwen3-coder-plus"), 4.0 + 16.0));
        assert_eq!(price_of("qwen", "qwen3-coder-next"), None);
        assert!(close(cost("hunyuan", "hunyuan-t1-latest"), 1.0 + 4.0));
        // No published price found for these defaults: they say so rather than guess.
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
        assert!(close(cost("openai", "gpt-5.5"), 2.5 + 0.25 + 30.0));
        assert!(close(cost("openai", "gpt-5.4-mini"), 0.375 + 0.0375 + 4.5));
        assert!(close(cost("openai", "o3"), 1.0 + 0.25 + 8.0));
        // `gpt-5` does not price the later 5.x models it has no row for.
        assert_eq!(price_of("openai", "gpt-5.2"), None);
        assert_eq!(price_of("openai", "gpt-3.5-turbo"), None);
        assert_eq!(price_of("custom", "gpt-4o"), None);
        assert_eq!(price_of("openrouter", "openai/gpt-4o"), None);
    }
}
