//! `/skill [list|show <name>|on <name>|off <name>|reload]`: the session's skills, where each came from, why a
//! skipped one was skipped; on/off saved in the user's config.toml. Every change rebuilds the catalog in the
//! system prompt once, deliberately (the prefix stays byte-identical between such changes).

use std::path::Path;

use super::{Flow, say_error, say_wrapped};
use crate::agent::context::prompt;
use crate::config::saved_rules::{SaveRuleError, edit_config_file};
use crate::skills::Discovery;
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::repl::Session;

pub(super) fn skill(session: &mut Session, args: &str) -> Flow {
    let words: Vec<&str> = args.split_whitespace().collect();
    match words.as_slice() {
        [] | ["list"] => {
            let found = session.services.skills.snapshot();
            let left_out = session.services.skills.catalog().left_out;
            say_wrapped(session, &list_text(&found, left_out, session.lang));
        }
        ["show", name] => show(session, name),
        ["on", name] => switch(session, name, true),
        ["off", name] => switch(session, name, false),
        ["reload"] => {
            session
                .services
                .skills
                .reload(&session.config.skills_disabled);
            refresh_prompt(session);
            let found = session.services.skills.snapshot();
            let on = found.enabled().count();
            let skipped = found.skipped.len();
            say_wrapped(
                session,
                &trf(
                    session.lang,
                    Msg::SkillsReloaded,
                    &[("on", &on), ("skipped", &skipped)],
                ),
            );
        }
        _ => say_error(session, tr(session.lang, Msg::SkillUsage)),
    }
    Flow::Continue
}

/// The `/skill list` text: each skill with its state, layer and source, then the skipped files and why.
pub fn list_text(found: &Discovery, left_out: usize, lang: Lang) -> String {
    if found.skills.is_empty() && found.skipped.is_empty() {
        return tr(lang, Msg::SkillsNone).to_string();
    }
    let mut lines = vec![tr(lang, Msg::SkillsHeading).to_string()];
    for skill in &found.skills {
        let state = tr(
            lang,
            if skill.enabled {
                Msg::SkillOn
            } else {
                Msg::SkillOff
            },
        );
        let mut line = format!("  {} [{state}] {}", skill.name, skill.layer.label());
        if skill.dir.is_some() {
            line.push_str(&format!(" — {}", skill.source()));
        }
        lines.push(line);
    }
    if left_out > 0 {
        let listed = found.enabled().count() - left_out;
        lines.push(trf(
            lang,
            Msg::SkillsCatalogLeftOut,
            &[("listed", &listed), ("count", &left_out)],
        ));
    }
    if !found.skipped.is_empty() {
        lines.push(tr(lang, Msg::SkillsSkippedHeading).to_string());
        for skip in &found.skipped {
            lines.push(format!("  {}: {}", skip.path.display(), skip.problem));
        }
    }
    lines.join("\n")
}

fn show(session: &Session, name: &str) {
    let found = session.services.skills.snapshot();
    let Some(skill) = found.get(name) else {
        say_error(
            session,
            &trf(session.lang, Msg::SkillUnknown, &[("name", &name)]),
        );
        return;
    };
    let state = session.tr(if skill.enabled {
        Msg::SkillOn
    } else {
        Msg::SkillOff
    });
    let mut text = format!(
        "{} [{state}] {} — {}\n{}\n\n{}",
        skill.name,
        skill.layer.label(),
        skill.source(),
        skill.description,
        skill.body
    );
    if let Some(dir) = &skill.dir {
        text.push_str(&format!(
            "\n\n{} {}",
            session.tr(Msg::SkillShowFiles),
            dir.display()
        ));
    }
    // A skill's text is someone else's (a project's file): no colour of its own reaches the screen either.
    session.say(&crate::text::visible_lines(&text));
}

fn switch(session: &mut Session, name: &str, on: bool) {
    if session.services.skills.snapshot().get(name).is_none() {
        say_error(
            session,
            &trf(session.lang, Msg::SkillUnknown, &[("name", &name)]),
        );
        return;
    }
    let path = session.config.home.join("config.toml");
    let mut disabled = session.config.skills_disabled.clone();
    disabled.retain(|n| n != name);
    if !on {
        disabled.push(name.to_string());
    }
    if let Err(e) = write_disabled(&path, &disabled) {
        let error = match e {
            SaveRuleError::Invalid { message, .. } => message,
            SaveRuleError::Io { source, .. } => source.to_string(),
        };
        say_error(
            session,
            &trf(session.lang, Msg::SkillNotSaved, &[("error", &error)]),
        );
        return;
    }
    session.services.skills.apply_disabled(&disabled);
    session.config.skills_disabled = disabled;
    refresh_prompt(session);
    let msg = if on {
        Msg::SkillSwitchedOn
    } else {
        Msg::SkillSwitchedOff
    };
    say_wrapped(
        session,
        &trf(
            session.lang,
            msg,
            &[("name", &name), ("path", &path.display())],
        ),
    );
}

/// Sets `[skills] disabled` in the user's config file, through the one checked editor of that file.
pub fn write_disabled(path: &Path, disabled: &[String]) -> Result<(), SaveRuleError> {
    edit_config_file(path, |doc| {
        let skills = doc
            .entry("skills")
            .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()))
            .as_table_like_mut()
            .ok_or_else(|| "its skills key is not a table".to_string())?;
        let list: toml_edit::Array = disabled.iter().map(String::as_str).collect();
        skills.insert("disabled", toml_edit::value(list));
        Ok(())
    })
}

/// Puts the current catalog into the system prompt (the one deliberate change of the prefix).
fn refresh_prompt(session: &mut Session) {
    let current = session
        .agent_mut()
        .system_message()
        .map(|m| m.text())
        .unwrap_or_default();
    let catalog = session.services.skills.catalog();
    session
        .agent_mut()
        .set_system_prompt(prompt::with_skill_catalog(current, &catalog));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn disabled_skills_are_saved_and_other_keys_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, "# mine\n[llm]\nmodel = \"m\"\n").unwrap();
        write_disabled(&path, &["web-access".to_string()]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n[llm]\nmodel = \"m\"\n"), "{text}");
        assert!(
            text.contains("[skills]\ndisabled = [\"web-access\"]"),
            "{text}"
        );
    }
}
