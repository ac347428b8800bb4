//! `[approvals]` and `[shell]`: saved approval rules and the secrets commands may still see. A project must not
//! approve its own commands or keep secrets for them, so only the user's own files set these (deny rules aside).

use super::settings::{AddUp, List, Project, declare_settings, setting};

declare_settings! {
    /// `[approvals]`: saved rules, as written (see `policy::approval::RuleSet`).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ApprovalRules in config.approvals {
        /// Rules that run without asking.
        pub allow: Vec<String> = setting("approvals.allow", List)
            .project(Project::Never)
            .example("[\"cargo test\", \"git status\", \"git diff\"]"),
        /// Rules that never run, in any mode; every file's rules add up.
        pub deny: Vec<String> = setting("approvals.deny", AddUp).example("[\"git push\"]"),
        /// `[approvals.projects]` rules saved for this project's root (they allow, like `allow`).
        pub project_allow: Vec<String>,
    }
}

declare_settings! {
    /// `[shell]`
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ShellSettings in config.shell {
        /// Commands run without environment variables whose names contain KEY, SECRET, TOKEN, PASSWORD or
        /// CREDENTIAL, except the ones listed here.
        pub keep_env: Vec<String> = setting("shell.keep_env", List)
            .project(Project::Never)
            .example("[\"NPM_TOKEN\"]"),
    }
}
