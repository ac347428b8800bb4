//! `[plan]` settings: how plan and team mode run their tasks (see `plan::PlanSettings`).

use super::settings::{Clamped, Maybe, Project, declare_settings, setting};

declare_settings! {
    /// The resolved `[plan]` settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct PlanLimits in config.plan {
        /// /plan, /team and `paicli -p --plan`: plan tasks run as sub-agents, this many at once (1-8).
        pub max_parallel: usize = setting("plan.max_parallel", Clamped::new(2, 1, 8))
            .env(&["PAICLI_PLAN_MAX_PARALLEL"]),
        /// When failures leave a plan under 50% done it is made again with what failed, at most this many times
        /// (0-10); otherwise the failed task's dependants are skipped.
        pub max_replans: u32 = setting("plan.max_replans", Clamped::new(2, 0, 10))
            .env(&["PAICLI_PLAN_MAX_REPLANS"]),
        /// The planner's model, `<provider>/<model>` of a provider you configured (or a model of the session's
        /// provider); unset = the session's.
        pub planner_model: Option<String> = setting("plan.planner_model", Maybe::UNSET)
            .example("\"deepseek/deepseek-reasoner\"")
            .project(Project::Never),
        /// The model plan tasks and team workers run on; unset = the session's.
        pub worker_model: Option<String> = setting("plan.worker_model", Maybe::UNSET)
            .example("\"deepseek/deepseek-chat\"")
            .project(Project::Never),
        /// The team reviewer's model; unset = the session's.
        pub reviewer_model: Option<String> = setting("plan.reviewer_model", Maybe::UNSET)
            .example("\"kimi/kimi-k2.6\"")
            .project(Project::Never),
    }
}
