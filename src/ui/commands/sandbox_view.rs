//! The sandbox lines `/policy` and `/config` show: mode, what the kernel supports, network and `.git`, and the
//! folders a command may write to right now (none in plan mode).

use crate::config::ApprovalMode;
use crate::protocol::Confinement;
use crate::sandbox::{Lifetime, Origin, Places, SOCKET_VARS, Sandbox, Support};
use crate::text::{Lang, Msg, fill, git_link_refusal, tr, trf};
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
    describe(
        &sandbox,
        places,
        confinement,
        &session.config.shell.keep_env,
        session.lang,
    )
}

/// Where a writable root comes from, in `lang`.
fn origin_label(lang: Lang, origin: &Origin) -> String {
    match origin {
        Origin::Project => tr(lang, Msg::PolicyRootProject).to_string(),
        Origin::Temp => tr(lang, Msg::PolicyRootTemp).to_string(),
        Origin::ToolCache(tool) => trf(lang, Msg::PolicyRootToolCache, &[("tool", tool)]),
        Origin::UserSetting => tr(lang, Msg::PolicyRootUserSetting).to_string(),
        Origin::LinkedGitDir => tr(lang, Msg::PolicyRootLinkedGit).to_string(),
    }
}

fn describe(
    sandbox: &Sandbox,
    places: Places<'_>,
    confinement: Confinement,
    keep_env: &[String],
    lang: Lang,
) -> Vec<String> {
    let settings = sandbox.settings();
    let state = if sandbox.is_active() {
        Msg::SandboxActive
    } else {
        Msg::SandboxInactive
    };
    let state = tr(lang, state);
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
        let policy = sandbox.policy(places, confinement);
        if policy.writable.is_empty() {
            let none = tr(lang, Msg::SandboxReadOnly);
            lines.push(format!(
                "    {}",
                trf(lang, Msg::PolicySandboxWritable, &[("roots", &none)])
            ));
        } else {
            lines.push(format!(
                "    {}",
                trf(lang, Msg::PolicySandboxWritable, &[("roots", &"")]).trim_end()
            ));
            for root in &policy.writable {
                lines.push(format!(
                    "      {}  ({})",
                    root.path.display(),
                    origin_label(lang, &root.origin)
                ));
            }
        }
        for path in &policy.read_only {
            lines.push(format!(
                "    {}",
                trf(lang, Msg::PolicyStateReadOnly, &[("path", &path.display())])
            ));
        }
        if let Some(why) = &policy.git_link_refused {
            lines.push(format!(
                "    {}",
                fill(
                    tr(lang, Msg::NoticeGitLinkRefused),
                    &[("why", &git_link_refusal(lang, why))]
                )
            ));
        }
        lines.push(format!(
            "    {}",
            trf(
                lang,
                Msg::PolicyDaemonSockets,
                &[("count", &policy.masked_sockets.len())]
            )
        ));
        if let Support::Landlock { abi } = sandbox.support() {
            let scoped = if abi >= 6 {
                Msg::PolicyAbstractScoped
            } else {
                Msg::PolicyAbstractOpen
            };
            lines.push(format!("    {}", tr(lang, scoped)));
        }
        let dropped: Vec<&str> = SOCKET_VARS
            .iter()
            .copied()
            .filter(|v| !keep_env.iter().any(|k| k == v))
            .collect();
        lines.push(format!(
            "    {}",
            trf(lang, Msg::PolicySocketVars, &[("vars", &dropped.join(" "))])
        ));
        if let Some(lifetime) = sandbox.lifetime() {
            let msg = match lifetime {
                Lifetime::Namespace => Msg::PolicyProcessesNamespace,
                Lifetime::GroupOnly => Msg::PolicyProcessesGroup,
            };
            lines.push(format!("    {}", tr(lang, msg)));
        }
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
        let lines = describe(&sandbox, places, Confinement::Sandboxed, &[], Lang::En);
        assert_eq!(
            lines[0],
            "  sandbox: on (mode = auto, Landlock ABI 7; network = true, protect_git = false)"
        );
        assert_eq!(lines[1], "    commands may write to:");
        assert_eq!(lines[2], format!("      {}  (the project)", root.display()));
        assert!(
            lines.contains(&"      /tmp  (temp dir)".to_string()),
            "{lines:?}"
        );
        let zh = describe(&sandbox, places, Confinement::Sandboxed, &[], Lang::Zh);
        assert_eq!(zh[2], format!("      {}  (项目)", root.display()));

        // A `.git` file naming `/` is refused, and `/policy` says why.
        std::fs::write(root.join(".git"), "gitdir: /\n").unwrap();
        let refused = describe(&sandbox, places, Confinement::Sandboxed, &[], Lang::En);
        assert!(
            refused.iter().any(|l| l
                .contains("the project's .git file does not make its target writable: it names /")),
            "{refused:?}"
        );
        let plan = describe(&sandbox, places, Confinement::ReadOnly, &[], Lang::Zh);
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
            describe(&off, places, Confinement::Sandboxed, &[], Lang::En),
            [
                "  sandbox: off (mode = off, unavailable: pretend; network = true, protect_git = false)"
            ]
        );
    }

    #[test]
    fn the_start_up_notice_names_the_reason_in_both_languages() {
        use crate::sandbox::Shortfall;
        use crate::text::sandbox_shortfall;
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
