//! What the headless front-end keeps for the whole process: the stream to the client, the running turn, the
//! options of its output, the model named in messages, and the money spent against `--max-budget-usd`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use super::channel::{Channel, lock};
use super::running::RunningTurn;
use crate::llm::providers::{Price, cost_of, price_of};
use crate::protocol::Usage;
use crate::session::model_key::ModelKey;

/// What `usage` cost in US dollars at `price`; nothing when it has no dollar price.
fn dollars(usage: &Usage, price: Option<Price>) -> f64 {
    match cost_of(usage, price.filter(|p| p.currency == "$")) {
        Some(("$", amount, _)) => amount,
        _ => 0.0,
    }
}

/// Shared by the reader, the turn runner, the approver and every turn's sink.
pub struct Headless {
    pub channel: Arc<Channel>,
    pub running: Arc<RunningTurn>,
    pub session_id: String,
    /// `stream_event` partials (`--include-partial-messages`).
    pub partials: bool,
    /// `hook_started` / `hook_response` system messages (`--include-hook-events`).
    pub hook_events: bool,
    /// Only the result is written (`-p --output-format json`); notices go to stderr in `lang`.
    pub quiet: bool,
    pub lang: crate::text::Lang,
    /// The session's provider: a sub-agent's other model at it is priced from its list when the lead's is.
    pub provider_id: Option<String>,
    /// The model requests name now (`set_model` changes it).
    model: Mutex<String>,
    spend: Mutex<Spend>,
    /// What models other than the lead's (sub-agents') spent: tokens of the running turn, dollars of the process.
    others: Mutex<BTreeMap<String, OtherModel>>,
}

/// One sub-agent model's line of the result's `modelUsage`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OtherModel {
    /// Tokens of the running turn (the result's `usage` is the turn's too).
    pub turn: Usage,
    /// Dollars spent by the process.
    pub cost_usd: f64,
}

/// Money spent, in US dollars, and the cap.
#[derive(Default)]
struct Spend {
    total_usd: f64,
    /// The list price of the model, when it is in dollars.
    price: Option<Price>,
    cap_usd: Option<f64>,
    /// The cap was reached during the running turn.
    capped: bool,
}

impl Headless {
    pub fn new(
        channel: Arc<Channel>,
        running: Arc<RunningTurn>,
        session_id: String,
        model: String,
    ) -> Self {
        Headless {
            channel,
            running,
            session_id,
            partials: false,
            hook_events: false,
            quiet: false,
            lang: crate::text::Lang::En,
            provider_id: None,
            model: Mutex::new(model),
            spend: Mutex::default(),
            others: Mutex::default(),
        }
    }

    pub fn model(&self) -> String {
        lock(&self.model).clone()
    }

    pub fn set_model(&self, model: &str) {
        *lock(&self.model) = model.to_string();
    }

    /// Prices responses at `price` (dollars only) and stops at `cap_usd`.
    pub fn set_budget(&self, price: Option<Price>, cap_usd: Option<f64>) {
        let mut spend = lock(&self.spend);
        spend.price = price.filter(|p| p.currency == "$");
        spend.cap_usd = cap_usd;
    }

    /// Counts one response's cost; interrupts the turn when the cap is reached. Returns the response's cost.
    pub fn spent(&self, usage: &Usage) -> f64 {
        let price = lock(&self.spend).price;
        let cost = dollars(usage, price);
        self.charge(cost);
        cost
    }

    /// Counts one response of `model` (empty or the lead's: [`Headless::spent`]); another model's tokens and
    /// cost are kept apart for `modelUsage`, and its cost counts toward the cap. A model of the session's
    /// provider is priced as the lead's is: from the list when the lead's model is, else only what the provider
    /// reported. A model of another `provider` (a sub-agent's own) is priced from that provider's list, under
    /// `provider/model`.
    pub fn spent_by(&self, model: &str, provider: &str, usage: &Usage) -> f64 {
        let own_provider = provider.is_empty() || self.provider_id.as_deref() == Some(provider);
        if own_provider && (model.is_empty() || model == self.model()) {
            return self.spent(usage);
        }
        let (price, key) = if own_provider {
            let listed = lock(&self.spend).price.is_some();
            let price = match (&self.provider_id, listed) {
                (Some(id), true) => price_of(id, model),
                _ => None,
            };
            (price, ModelKey::of_session(model))
        } else {
            let key = ModelKey {
                provider: provider.to_string(),
                model: model.to_string(),
            };
            (price_of(provider, model), key)
        };
        let cost = dollars(usage, price);
        {
            let mut others = lock(&self.others);
            let line = others.entry(key.label()).or_default();
            line.turn.add(usage);
            line.cost_usd += cost;
        }
        self.charge(cost);
        cost
    }

    /// Adds `cost` to what the process spent; interrupts the turn the first time the cap is reached.
    fn charge(&self, cost: f64) {
        let mut spend = lock(&self.spend);
        spend.total_usd += cost;
        if spend.cap_usd.is_some_and(|cap| spend.total_usd >= cap) && !spend.capped {
            spend.capped = true;
            drop(spend);
            self.running.interrupt();
        }
    }

    /// The other models' lines for the result, and a fresh turn for their tokens.
    pub fn take_other_models(&self) -> Vec<(String, OtherModel)> {
        let mut others = lock(&self.others);
        let lines = others.iter().map(|(m, l)| (m.clone(), *l)).collect();
        for line in others.values_mut() {
            line.turn = Usage::default();
        }
        lines
    }

    /// Dollars spent by the process so far.
    pub fn total_cost_usd(&self) -> f64 {
        lock(&self.spend).total_usd
    }

    /// Whether the cap stopped the turn that just ended (and clears it for the next; a later turn stops again
    /// at its first response).
    pub fn take_capped(&self) -> bool {
        let mut spend = lock(&self.spend);
        let capped = spend.capped;
        if capped {
            // Spent is spent: the next turn may run one response before it stops again.
            spend.capped = false;
        }
        capped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_model_of_the_provider_is_priced_from_the_list_and_kept_apart() {
        let channel = Arc::new(Channel::new(Box::new(std::io::sink())));
        let mut headless = Headless::new(
            channel,
            Arc::new(RunningTurn::default()),
            "S".into(),
            "kimi-k2.6".into(),
        );
        headless.provider_id = Some("kimi".into());
        headless.set_budget(price_of("kimi", "kimi-k2.6"), None);
        let million = Usage::tokens(1_000_000, 0, 0, 0);
        let lead = headless.spent_by("kimi-k2.6", "", &million);
        let other = headless.spent_by("kimi-k2.5", "", &million);
        assert!((lead - 0.95).abs() < 1e-9, "{lead}");
        assert!((other - 0.6).abs() < 1e-9, "{other}");
        assert!((headless.total_cost_usd() - 1.55).abs() < 1e-9);
        let others = headless.take_other_models();
        assert_eq!(others.len(), 1);
        assert_eq!(others[0].0, "kimi-k2.5");
        assert_eq!(others[0].1.turn, million);
        // An unknown model costs only what its provider reported.
        assert_eq!(headless.spent_by("local-model", "", &million), 0.0);
    }

    #[test]
    fn a_sub_agent_on_another_provider_is_priced_from_that_providers_list() {
        let channel = Arc::new(Channel::new(Box::new(std::io::sink())));
        let mut headless = Headless::new(
            channel,
            Arc::new(RunningTurn::default()),
            "S".into(),
            "llama3".into(),
        );
        // The lead runs on a local engine with no prices at all.
        headless.provider_id = Some("ollama".into());
        let million = Usage::tokens(1_000_000, 0, 0, 0);
        let other = headless.spent_by("kimi-k2.5", "kimi", &million);
        assert!((other - 0.6).abs() < 1e-9, "{other}");
        let others = headless.take_other_models();
        assert_eq!(others[0].0, "kimi/kimi-k2.5");
        assert!((others[0].1.cost_usd - 0.6).abs() < 1e-9);
    }
}
