//! The sandbox lines `/policy` and `/config` show: mode, what the kernel supports, network and `.git`, and the
//! folders a command may write to right now (none in plan mode).

use crate::config::ApprovalMode;
use crate::protocol::Confinement;
use crate::sandbox::{Places, Sandbox};
use crate::ui::i18n::{Lang, Msg, trf};
use crate::ui::repl::Session;

/// Two lines: the sandbox's state and its writable folders.
pub(super) fn sandbox_lines(session: &Session) -> Vec<String> {
    let sandbox = crate::app::build_sandbox(&session.config);
    let confinement = if session.approval_mode() == ApprovalMode::Plan {
        Confinement::ReadOnly
    } else {
        Confinement::Sandboxed
    };
    let places = Places {
        root: &session.config.project_root,
        paicli_home: Some(&session.config.home),
        tool_caches: &[],
    };
    describe(&sandbox, places, confinement, session.lang)
}

fn describe(
    sandbox: &Sandbox,
    places: Places<'_>,
    confinement: Confinement,
    lang: Lang,
) -> Vec<String> {
    let settings = sandbox.settings();
    let state = if sandbox.is_active() {
        Msg::SandboxActive
    } else {
        Msg::SandboxInactive
    };
    let state = crate::ui::i18n::tr(lang, state);
    let mut lines = vec![format!(
        "  {}",
        trf(
            lang,
            Msg::PolicySandbox,
            &[
                ("state", &state),
                ("mode", &settings.mode.label()),
                ("support", &sandbox.support().describe()),
                ("network", &settings.network),
                ("git", &settings.protect_git),
            ],
        )
    )];
    if sandbox.is_active() {
        let mut writable = sandbox.policy(places, confinement).describe_writable();
        if writable.is_empty() {
            writable = crate::ui::i18n::tr(lang, Msg::SandboxReadOnly).to_string();
        }
        lines.push(format!(
            "    {}",
            trf(lang, Msg::PolicySandboxWritable, &[("roots", &writable)])
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::config::{SandboxMode, SandboxSettings};
    use crate::sandbox::Support;

    #[test]
    fn shows_mode_support_and_writable_folders_and_nothing_writable_in_plan_mode() {
        let project = tempfile::tempdir().unwrap();
        let root = project.path().canonicalize().unwrap();
        let sandbox = Sandbox::with_support(
            SandboxSettings::default(),
            Vec::new(),
            Support::Landlock { abi: 7 },
        );
        let places = Places {
            root: &root,
            paicli_home: None,
            tool_caches: &[],
        };
        let lines = describe(&sandbox, places, Confinement::Sandboxed, Lang::En);
        assert_eq!(
            lines[0],
            "  sandbox: on (mode = auto, Landlock ABI 7; network = true, protect_git = false)"
        );
        assert!(
            lines[1].starts_with(&format!("    commands may write to: {}, ", root.display())),
            "{}",
            lines[1]
        );
        let plan = describe(&sandbox, places, Confinement::ReadOnly, Lang::Zh);
        assert_eq!(plan[1], "    命令可写入：无（只读，计划模式）");

        let off = Sandbox::with_support(
            SandboxSettings {
                mode: SandboxMode::Off,
                ..SandboxSettings::default()
            },
            Vec::new(),
            Support::Unavailable { reason: "pretend" },
        );
        assert_eq!(
            describe(&off, places, Confinement::Sandboxed, Lang::En),
            [
                "  sandbox: off (mode = off, unavailable: pretend; network = true, protect_git = false)"
            ]
        );
    }

    #[test]
    fn the_start_up_notice_names_the_reason_in_both_languages() {
        use crate::sandbox::Shortfall;
        use crate::ui::i18n::sandbox_shortfall;
        let none = Shortfall::NoSandbox("unavailable: no Landlock".to_string());
        let en = sandbox_shortfall(Lang::En, &none);
        assert!(
            en.starts_with("the command sandbox is not available here (unavailable: no Landlock); commands run unconfined"),
            "{en}"
        );
        assert!(sandbox_shortfall(Lang::Zh, &none).contains("（unavailable: no Landlock）"));
        assert!(
            sandbox_shortfall(Lang::En, &Shortfall::NetworkOpen)
                .contains("network = false cannot be enforced")
        );
    }
}
