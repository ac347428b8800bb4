//! `[plan]` settings: how plan and team mode run their tasks (see `plan::PlanSettings`).

use super::{ConfigError, EnvVars};

/// The resolved `[plan]` settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlanLimits {
    /// Plan tasks (sub-agents) running at once, 1-8.
    pub max_parallel: usize,
    /// Re-plans after failures leave completion under 50%, 0-10.
    pub max_replans: u32,
}

impl Default for PlanLimits {
    fn default() -> Self {
        PlanLimits {
            max_parallel: 2,
            max_replans: 2,
        }
    }
}

/// `[plan]` in `config.toml`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanSection {
    pub max_parallel: Option<usize>,
    pub max_replans: Option<u32>,
}

impl PlanSection {
    /// Lays `top` over `self`.
    pub fn merge(&mut self, top: PlanSection) {
        if top.max_parallel.is_some() {
            self.max_parallel = top.max_parallel;
        }
        if top.max_replans.is_some() {
            self.max_replans = top.max_replans;
        }
    }
}

impl PlanLimits {
    /// Applies the file section.
    pub fn apply_file(&mut self, s: &PlanSection) {
        if let Some(n) = s.max_parallel {
            self.max_parallel = n.clamp(1, 8);
        }
        if let Some(n) = s.max_replans {
            self.max_replans = n.min(10);
        }
    }

    /// Applies `PAICLI_PLAN_MAX_PARALLEL` and `PAICLI_PLAN_MAX_REPLANS`.
    pub fn apply_env(&mut self, env: &EnvVars) -> Result<(), ConfigError> {
        if let Some(n) = env.parsed::<usize>("PAICLI_PLAN_MAX_PARALLEL")? {
            self.max_parallel = n.clamp(1, 8);
        }
        if let Some(n) = env.parsed::<u32>("PAICLI_PLAN_MAX_REPLANS")? {
            self.max_replans = n.min(10);
        }
        Ok(())
    }
}
