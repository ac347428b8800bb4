//! `[agents]` settings: the `agent` tool and the live task list (`update_plan`).

use super::settings::{Plain, Project, Text, declare_settings, setting};

/// A project may switch a tool off, never back on.
fn only_off(value: &toml::Value) -> bool {
    value.as_bool() == Some(false)
}

declare_settings! {
    /// The resolved `[agents]` settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct AgentsSettings in config.agents {
        /// The `agent` tool: the model runs sub-agents from `.claude/agents`, `.codex/agents`, `.paicli/agents`
        /// and the built-in `general`, `explore` and `reviewer`.
        pub enabled: bool = setting("agents.enabled", Plain(true))
            .env(&["PAICLI_AGENTS"])
            .project(Project::TightenOnly(only_off)),
        /// The `update_plan` tool: the model keeps a visible task list (off for models that do better without).
        pub task_list: bool = setting("agents.task_list", Plain(true))
            .env(&["PAICLI_TASK_LIST"])
            .project(Project::TightenOnly(only_off)),
        /// `paicli review` exits 1 when a finding is this bad or worse: blocking | major | minor | nit | never.
        pub review_fail_on: String = setting("agents.review_fail_on", Text("blocking"))
            .env(&["PAICLI_REVIEW_FAIL_ON"])
            .project(Project::Never),
    }
}
