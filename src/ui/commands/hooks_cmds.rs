//! `/hooks`: every hook the session found, with its event, matcher, command, file, and whether it runs.

use super::{Flow, say_wrapped};
use crate::hooks::{HookCommand, Hooks};
use crate::text::{Lang, Msg, tr, trf, visible};
use crate::ui::repl::Session;

/// One `/hooks` line. The command and matcher may come from a cloned project: shown made visible.
pub fn hook_line(hook: &HookCommand, hooks: &Hooks, lang: Lang) -> String {
    let state = match (hook.source.origin.is_project(), hooks.project_trusted()) {
        (false, _) => Msg::HookStateUser,
        (true, true) => Msg::HookStateTrusted,
        (true, false) => Msg::HookStateUntrusted,
    };
    let matcher = if hook.matcher_text.is_empty() {
        "*".to_string()
    } else {
        visible(&hook.matcher_text).into_owned()
    };
    format!(
        "  {} [{matcher}] `{}` — {} ({})",
        hook.event.name(),
        visible(&hook.command),
        visible(&hook.source.path.display().to_string()),
        tr(lang, state)
    )
}

pub(super) fn hooks(session: &mut Session, _args: &str) -> Flow {
    let hooks = session.services.hooks.clone();
    if hooks.all().is_empty() {
        say_wrapped(session, session.tr(Msg::HooksNone));
    } else {
        let lines: Vec<String> = hooks
            .all()
            .iter()
            .map(|h| hook_line(h, &hooks, session.lang))
            .collect();
        // One entry per hook, wrapped at word boundaries with its continuation indented.
        say_wrapped(session, &lines.join("\n"));
    }
    for problem in hooks.problems() {
        let text = trf(
            session.lang,
            Msg::HooksFileProblem,
            &[("problem", &visible(&problem.to_string()))],
        );
        session.say_notice(&text);
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::hooks::matcher::Matcher;
    use crate::hooks::{HookEvent, HookSource, Origin};
    use std::path::PathBuf;
    use std::sync::Arc;

    fn project_hook(trusted: bool) -> (HookCommand, Hooks) {
        let source = Arc::new(HookSource {
            origin: Origin::ClaudeProject,
            path: PathBuf::from(".claude/settings.json"),
        });
        let hook = HookCommand {
            event: HookEvent::PreToolUse,
            matcher: Matcher::parse(Some("Bash")).unwrap(),
            matcher_text: "Bash".into(),
            command: "echo \u{1b}[2Jhi".into(),
            timeout: std::time::Duration::from_secs(5),
            source,
        };
        let hooks =
            Hooks::from_commands(vec![hook.clone()], Vec::new(), PathBuf::from("."), trusted);
        (hook, hooks)
    }

    #[test]
    fn a_line_names_event_matcher_command_file_and_trust_with_control_characters_visible() {
        let (hook, hooks) = project_hook(false);
        let line = hook_line(&hook, &hooks, Lang::En);
        assert_eq!(
            line,
            "  PreToolUse [Bash] `echo <U+001B>[2Jhi` — .claude/settings.json (project, not trusted: /trust to \
             run it)"
        );
        let (hook, hooks) = project_hook(true);
        assert!(hook_line(&hook, &hooks, Lang::Zh).contains("项目，已信任"));
    }
}
