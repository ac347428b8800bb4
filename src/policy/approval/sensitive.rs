//! Calls that need the person whatever the rules say (issue 12): command lines the guard could not see through
//! (`Opaque`), and writes to control paths (files that run code later or steer a later session, see
//! [`crate::guard::control_files`]), by a file tool, `revert_turn` or a command. No `[approvals] allow` rule, no
//! rule saved with `a`, and no classifier runs them; `full` mode does, `plan` refuses them, and the other modes
//! ask a person, or refuse naming `--approval full` when nobody can be asked.

use std::path::PathBuf;

use crate::config::ApprovalMode;
use crate::guard::command_guard::CommandAssessment;
use crate::guard::control_files::{ControlFiles, ControlKind};
use crate::guard::sensitive_page::{PageKind, sensitive_page};
use crate::protocol::PageInfo;

/// Why a call needs the person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sensitive {
    /// The guard could not know what the command line runs or writes; `why` says what.
    Opaque { why: String },
    /// The call writes this control path, which does what `kind` says.
    ControlFile { path: String, kind: ControlKind },
    /// The call acts on a browser page that looks like a login, payment or account page.
    BrowserPage { kind: PageKind, url: String },
    /// The call saves a fact to global memory after the session read content it did not write (`read`: what).
    UntrustedMemory { read: String },
}

impl Sensitive {
    /// The note shown to the person and recorded in the audit log.
    pub fn note(&self) -> String {
        match self {
            Sensitive::Opaque { why } => {
                format!(
                    "what this command runs cannot be known before it runs: {why}; 无法预先确定此命令会执行什么"
                )
            }
            Sensitive::ControlFile { path, kind } => {
                let (en, zh) = kind.what();
                format!("this writes {path}, {en}; 此操作会修改 {path}：{zh}")
            }
            Sensitive::BrowserPage { kind, url } => format!(
                "this acts on {url}, which looks like a {} page; 此操作作用于疑似{}页面",
                kind.label(),
                match kind {
                    PageKind::Login => "登录",
                    PageKind::Payment => "支付",
                    PageKind::Account => "账户",
                }
            ),
            Sensitive::UntrustedMemory { read } => format!(
                "this saves a fact to global memory, which every later session in every project sees, after this \
                 session read content it did not write ({read}), which may have asked for it; \
                 此操作会保存全局记忆（之后所有项目的会话都会看到），而本会话此前读取了并非它写入的内容（{read}），该内容可能要求了保存它"
            ),
        }
    }
}

/// What makes a call sensitive, if anything: the guard's assessment of its command line, else the first control
/// file among its write targets.
pub fn sensitivity(
    assessment: Option<&CommandAssessment>,
    write_targets: &[PathBuf],
    control: Option<&ControlFiles>,
) -> Option<Sensitive> {
    match assessment {
        Some(CommandAssessment::Opaque { why }) => {
            return Some(Sensitive::Opaque { why: why.clone() });
        }
        Some(CommandAssessment::ControlFile { path, kind }) => {
            return Some(Sensitive::ControlFile {
                path: path.clone(),
                kind: *kind,
            });
        }
        Some(CommandAssessment::Known) | None => {}
    }
    let control = control?;
    write_targets
        .iter()
        .find_map(|path| control.find(path))
        .map(|hit| Sensitive::ControlFile {
            path: hit.path.display().to_string(),
            kind: hit.kind,
        })
}

/// Why a call that acts on the browser page `page` needs the person: the page looks like a login, payment or
/// account page.
pub fn page_sensitivity(page: &PageInfo) -> Option<Sensitive> {
    sensitive_page(&page.url, &page.title).map(|kind| Sensitive::BrowserPage {
        kind,
        url: page.url.clone(),
    })
}

/// What happens to a sensitive call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// `full` mode: it runs.
    Run,
    /// A person decides; the note says why they are asked. Their `a` is not remembered.
    Ask { note: String },
    /// Refused with this code and reason.
    Deny { code: &'static str, reason: String },
}

/// Denial code of a sensitive call nobody could approve.
pub const APPROVAL_REQUIRED: &str = "APPROVAL_REQUIRED";

/// Where a sensitive call of `tool` goes in `mode`, when a person can (`interactive`) or cannot be asked.
pub fn route(mode: ApprovalMode, interactive: bool, tool: &str, sensitive: &Sensitive) -> Route {
    let note = sensitive.note();
    match mode {
        ApprovalMode::Full => Route::Run,
        ApprovalMode::Plan => Route::Deny {
            code: "PLAN_MODE",
            reason: format!("plan mode is read-only: `{tool}` was not run ({note})"),
        },
        ApprovalMode::Ask | ApprovalMode::Auto if interactive => Route::Ask { note },
        ApprovalMode::Ask | ApprovalMode::Auto => Route::Deny {
            code: APPROVAL_REQUIRED,
            reason: format!(
                "`{tool}` needs a person's approval ({note}) and this run is non-interactive, so it was not run. \
                 No allow rule can approve it. Do not retry it unchanged; the user can rerun with \
                 `--approval full` if they want it to run."
            ),
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn opaque() -> Sensitive {
        Sensitive::Opaque {
            why: "`eval` runs text built at run time".to_string(),
        }
    }

    #[test]
    fn opaque_and_control_file_assessments_are_sensitive_known_is_not() {
        let why = "`eval` runs text built at run time".to_string();
        assert_eq!(
            sensitivity(
                Some(&CommandAssessment::Opaque { why: why.clone() }),
                &[],
                None
            ),
            Some(Sensitive::Opaque { why })
        );
        assert_eq!(
            sensitivity(
                Some(&CommandAssessment::ControlFile {
                    path: ".mcp.json".to_string(),
                    kind: ControlKind::Settings,
                }),
                &[],
                None
            ),
            Some(Sensitive::ControlFile {
                path: ".mcp.json".to_string(),
                kind: ControlKind::Settings,
            })
        );
        assert_eq!(
            sensitivity(Some(&CommandAssessment::Known), &[], None),
            None
        );
    }

    #[test]
    fn a_write_target_that_is_a_control_file_is_sensitive() {
        let (home, root) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let control = ControlFiles::new(home.path(), root.path());
        let target = root.path().join(".paicli/config.toml");
        let found = sensitivity(
            None,
            &[root.path().join("src/a.rs"), target],
            Some(&control),
        );
        assert!(
            matches!(&found, Some(Sensitive::ControlFile { path, kind: ControlKind::Settings }) if path.ends_with(".paicli/config.toml")),
            "{found:?}"
        );
        assert_eq!(
            sensitivity(None, &[root.path().join("src/a.rs")], Some(&control)),
            None
        );
    }

    #[test]
    fn the_note_says_what_the_control_file_does_in_both_languages() {
        let hook = Sensitive::ControlFile {
            path: ".git/hooks/pre-commit".to_string(),
            kind: ControlKind::RunsCode,
        };
        let note = hook.note();
        assert!(note.contains(".git/hooks/pre-commit"), "{note}");
        assert!(note.contains("makes code run later"), "{note}");
        assert!(note.contains("会让代码在之后运行"), "{note}");
        let agents = Sensitive::ControlFile {
            path: "AGENTS.md".to_string(),
            kind: ControlKind::Instructions,
        };
        assert!(
            agents.note().contains("reads as instructions"),
            "{}",
            agents.note()
        );
    }

    #[test]
    fn a_login_page_is_sensitive_an_ordinary_page_is_not() {
        let login = PageInfo {
            url: "https://example.com/login".to_string(),
            title: "Example".to_string(),
        };
        let found = page_sensitivity(&login).unwrap();
        assert_eq!(
            found,
            Sensitive::BrowserPage {
                kind: PageKind::Login,
                url: login.url
            }
        );
        assert!(found.note().contains("login page"), "{}", found.note());
        let plain = PageInfo {
            url: "http://127.0.0.1:8000/".to_string(),
            title: "Dynamic".to_string(),
        };
        assert_eq!(page_sensitivity(&plain), None);
    }

    #[test]
    fn an_untrusted_global_memory_note_names_what_was_read_in_both_languages() {
        let note = Sensitive::UntrustedMemory {
            read: "read_file README.md".to_string(),
        }
        .note();
        assert!(
            note.contains("global memory") && note.contains("read_file README.md"),
            "{note}"
        );
        assert!(note.contains("全局记忆"), "{note}");
    }

    #[test]
    fn only_full_runs_a_sensitive_call_and_nobody_to_ask_means_denied_naming_the_flag() {
        let s = opaque();
        assert_eq!(route(ApprovalMode::Full, false, "x", &s), Route::Run);
        assert_eq!(route(ApprovalMode::Full, true, "x", &s), Route::Run);
        for mode in [ApprovalMode::Ask, ApprovalMode::Auto] {
            assert_eq!(
                route(mode, true, "x", &s),
                Route::Ask { note: s.note() },
                "{mode:?}"
            );
            match route(mode, false, "x", &s) {
                Route::Deny { code, reason } => {
                    assert_eq!(code, APPROVAL_REQUIRED);
                    assert!(reason.contains("--approval full"), "{reason}");
                    assert!(reason.contains("eval"), "{reason}");
                }
                other => panic!("{mode:?}: {other:?}"),
            }
        }
        assert!(matches!(
            route(ApprovalMode::Plan, true, "x", &s),
            Route::Deny {
                code: "PLAN_MODE",
                ..
            }
        ));
    }
}
