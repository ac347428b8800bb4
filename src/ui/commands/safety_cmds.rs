//! `/mode`, `/hitl`, `/audit`, `/policy`: the approval mode, the audit log, and what is allowed.

use super::Flow;
use crate::config::ApprovalMode;
use crate::guard::redact::Redactor;
use crate::policy::audit::{ApprovedBy, AuditEntry, AuditLog, AuditOutcome};
use crate::text::{Lang, Msg, mode_help, tr};
use crate::ui::render::{wrap, wrap_hanging};
use crate::ui::repl::Session;

/// Entries `/audit` shows without an argument.
const DEFAULT_AUDIT_ENTRIES: usize = 10;
/// Most entries `/audit N` shows.
const MAX_AUDIT_ENTRIES: usize = 1000;

/// The modes in Shift+Tab order. `full` is left out: one key must not lead from the safest mode to the least
/// safe; `/mode full` switches to it, with a warning.
const CYCLE: [ApprovalMode; 3] = [ApprovalMode::Auto, ApprovalMode::Plan, ApprovalMode::Ask];

/// The mode Shift+Tab switches to from `mode`: auto → plan → ask → auto; from `full` back to auto.
pub fn next_mode(mode: ApprovalMode) -> ApprovalMode {
    match CYCLE.iter().position(|m| *m == mode) {
        Some(i) => CYCLE[(i + 1) % CYCLE.len()],
        None => ApprovalMode::Auto,
    }
}

/// The lowercase name of `mode`, as `/mode` and the config spell it.
pub fn mode_name(mode: ApprovalMode) -> &'static str {
    mode.name()
}

/// `approval mode: plan — read-only tools until you approve a plan`.
pub fn mode_line(mode: ApprovalMode, lang: Lang) -> String {
    format!(
        "{}{} — {}",
        tr(lang, Msg::ApprovalModeIs),
        mode_name(mode),
        tr(lang, mode_help(mode))
    )
}

/// Switches to the next mode (Shift+Tab) and shows it.
pub fn cycle_mode(session: &mut Session) {
    let mode = next_mode(session.approval_mode());
    switch_to(session, mode);
}

fn switch_to(session: &mut Session, mode: ApprovalMode) {
    session.set_approval_mode(mode);
    let style = session.surface().style;
    session.say_fitted(&mode_line(mode, session.lang), 2, |l| style.cyan(l));
    if mode == ApprovalMode::Full {
        session.say_notice(session.tr(Msg::ModeFullWarning));
    }
}

pub(super) fn mode(session: &mut Session, args: &str) -> Flow {
    match args {
        "" => {
            let current = session.approval_mode();
            let style = session.surface().style;
            let mut lines = vec![style.bold(&format!(
                "{}{}",
                session.tr(Msg::ApprovalModeIs),
                mode_name(current)
            ))];
            for m in ApprovalMode::ALL {
                let mark = if m == current { "*" } else { " " };
                lines.push(format!(
                    "{mark} {:<5} {}",
                    mode_name(m),
                    style.dim(session.tr(mode_help(m)))
                ));
            }
            lines.push(style.dim(session.tr(Msg::ShiftTabCycles)));
            session.say(&lines.join("\n"));
        }
        "next" => cycle_mode(session),
        other => match other.parse::<ApprovalMode>() {
            Ok(m) => switch_to(session, m),
            Err(e) => session.say_error(&format!("{e} (usage: /mode [ask|auto|plan|full])")),
        },
    }
    Flow::Continue
}

pub(super) fn hitl(session: &mut Session, args: &str) -> Flow {
    match args {
        "" => session.say_fitted(
            &mode_line(session.approval_mode(), session.lang),
            2,
            str::to_string,
        ),
        "on" => switch_to(session, ApprovalMode::Ask),
        "default" => switch_to(session, ApprovalMode::Auto),
        other => session.say_error(&format!(
            "unknown /hitl argument {other:?}: on (= ask mode) or default (= auto mode)"
        )),
    }
    Flow::Continue
}

pub(super) fn audit(session: &mut Session, args: &str) -> Flow {
    let n = match args {
        "" => DEFAULT_AUDIT_ENTRIES,
        text => match text.parse::<usize>() {
            Ok(n) if n > 0 => n.min(MAX_AUDIT_ENTRIES),
            _ => {
                session.say_error(&format!(
                    "expected a positive number of entries, got {text:?} (usage: /audit [N])"
                ));
                return Flow::Continue;
            }
        },
    };
    let dir = crate::app::audit_dir(&session.config);
    // Entries are redacted when written; reading needs no secrets.
    let log = AuditLog::new(dir.clone(), Redactor::new(Vec::new()));
    match log.read_recent(n) {
        Ok(entries) if entries.is_empty() => {
            session.say(&format!(
                "{} {}",
                session.tr(Msg::AuditEmpty),
                dir.display()
            ));
        }
        Ok(entries) => {
            let width = session.surface().width;
            let lines: Vec<String> = entries.iter().map(|e| audit_line(e, width)).collect();
            session.say(&lines.join("\n"));
        }
        Err(e) => session.say_error(&format!(
            "cannot read the audit log in {}: {e}",
            dir.display()
        )),
    }
    Flow::Continue
}

/// One entry on one line: time, tool, outcome, approver, duration, then the arguments cut to `width` columns.
pub fn audit_line(entry: &AuditEntry, width: usize) -> String {
    let time = chrono::DateTime::parse_from_rfc3339(&entry.timestamp).map_or_else(
        |_| entry.timestamp.clone(),
        |t| t.format("%m-%d %H:%M:%S").to_string(),
    );
    let outcome = match entry.outcome {
        AuditOutcome::Allow => "allow",
        AuditOutcome::Deny => "deny",
        AuditOutcome::Error => "error",
    };
    let approver = match entry.approver {
        ApprovedBy::Hitl => "hitl",
        ApprovedBy::Policy => "policy",
        ApprovedBy::AutoClassifier => "auto-classifier",
        ApprovedBy::Config => "config",
        ApprovedBy::None => "none",
        ApprovedBy::Mention => "mention",
        ApprovedBy::Hook => "hook",
    };
    let head = format!(
        "{time}  {:<16} {outcome:<5} {approver:<15} {:>6}ms  ",
        entry.tool, entry.duration_ms
    );
    let args: String = entry.args.split_whitespace().collect::<Vec<_>>().join(" ");
    let room = width.saturating_sub(head.chars().count()).max(20);
    format!("{head}{}", cut_chars(&args, room))
}

fn cut_chars(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{kept}…")
}

pub(super) fn policy(session: &mut Session, _args: &str) -> Flow {
    let style = session.surface().style;
    let none = session.tr(Msg::PolicyNoRules).to_string();
    let list = |rules: &[String]| {
        if rules.is_empty() {
            vec![format!("    {none}")]
        } else {
            rules.iter().map(|r| format!("    {r}")).collect()
        }
    };
    let heading = |msg: Msg| format!("  {}", session.tr(msg));
    let mut lines = vec![mode_line(session.approval_mode(), session.lang)];
    lines.push(heading(Msg::PolicyAllowRules));
    lines.extend(list(&session.config.approvals.allow));
    lines.push(heading(Msg::PolicyDenyRules));
    lines.extend(list(&session.config.approvals.deny));
    lines.push(heading(Msg::PolicyProjectRules));
    lines.extend(list(&session.config.approvals.project_allow));
    lines.push(format!("  {}", session.tr(Msg::PolicySessionRules)));
    let learned: Vec<String> = session
        .approval_rules()
        .rules()
        .iter()
        .map(|r| r.describe())
        .collect();
    lines.extend(list(&learned));
    lines.extend(super::sandbox_view::sandbox_lines(session));
    lines.extend(super::control_view::control_lines(session.lang));
    session.say(&fitted(&lines, session.surface().width).join("\n"));
    let guards: Vec<String> = wrap(session.tr(Msg::PolicyGuards), session.surface().width)
        .iter()
        .map(|l| style.dim(l))
        .collect();
    session.say(&guards.join("\n"));
    Flow::Continue
}

/// `lines` wrapped at word boundaries (a path too long for a line breaks after a `/`), each continuation two
/// columns under its line's own indentation.
fn fitted(lines: &[String], width: usize) -> Vec<String> {
    lines
        .iter()
        .flat_map(|line| {
            let lead = line.len() - line.trim_start_matches(' ').len();
            wrap_hanging(line, width, lead + 2)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_tab_cycles_auto_plan_ask_and_never_reaches_full() {
        let mut mode = ApprovalMode::Auto;
        let mut seen = Vec::new();
        for _ in 0..6 {
            mode = next_mode(mode);
            seen.push(mode_name(mode));
        }
        assert_eq!(seen, ["plan", "ask", "auto", "plan", "ask", "auto"]);
        assert_eq!(next_mode(ApprovalMode::Full), ApprovalMode::Auto);
    }

    #[test]
    fn an_audit_line_fits_the_terminal() {
        let entry = AuditEntry {
            timestamp: "2026-03-04T05:06:07+00:00".to_string(),
            tool: "write_file".to_string(),
            args: format!(
                "{{\"path\":\"a.txt\",\n\"content\":\"{}\"}}",
                "x".repeat(300)
            ),
            outcome: AuditOutcome::Allow,
            reason: String::new(),
            approver: ApprovedBy::Policy,
            duration_ms: 12,
            metadata: serde_json::Value::Null,
        };
        let line = audit_line(&entry, 100);
        assert!(
            line.starts_with(
                "03-04 05:06:07  write_file       allow policy              12ms  {\"path\":\"a.txt\", \"content\""
            ),
            "{line}"
        );
        assert_eq!(line.chars().count(), 100, "{line}");
        assert!(line.ends_with('…'));
    }
}
