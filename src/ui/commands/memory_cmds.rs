//! `/memory` (`/mem`) and `/save`: the long-term memory store the agent recalls from.

use std::sync::Arc;

use super::{Flow, say_error, say_wrapped};
use crate::memory::{MemoryEntry, MemorySource, MemoryStore, SaveOptions, SaveOutcome, Scope};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::repl::Session;

/// Why `/save`'s arguments were not understood.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveArgsError {
    /// An option `/save` does not know (the name without `--`).
    #[error("unknown option --{0}")]
    UnknownOption(String),
    /// No fact after the options.
    #[error("no fact to save")]
    NoFact,
}

impl SaveArgsError {
    /// The error and the usage, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        let usage = tr(lang, Msg::SaveUsage);
        match self {
            SaveArgsError::UnknownOption(option) => trf(
                lang,
                Msg::SaveUnknownOption,
                &[("option", option), ("usage", &usage)],
            ),
            SaveArgsError::NoFact => usage.to_string(),
        }
    }
}

/// Says that the memory store failed, with its (English, typed) error.
fn store_failed(session: &Session, error: &dyn std::fmt::Display) {
    say_error(
        session,
        &trf(session.lang, Msg::MemoryFailed, &[("error", error)]),
    );
}

/// The agent's store, or a message saying there is none.
fn store(session: &mut Session) -> Option<Arc<MemoryStore>> {
    let store = session.agent_mut().memory().cloned();
    if store.is_none() {
        say_error(session, session.tr(Msg::MemoryOff));
    }
    store
}

/// `id  [scope] fact`, marked when stale, then where it came from on its own line when that is known.
pub fn entry_line(entry: &MemoryEntry, now: i64, lang: Lang) -> String {
    let stale = if entry.is_stale_at(now) {
        format!(" {}", tr(lang, Msg::MemoryStale))
    } else {
        String::new()
    };
    let source = entry
        .source
        .as_ref()
        .map(|source| format!("\n      {}", source_line(source, lang)))
        .unwrap_or_default();
    // A fact may have come from a page or a file: one line, its control characters (colours too) visible.
    format!(
        "  {}  [{}] {}{stale}{source}",
        entry.id,
        entry.scope,
        crate::text::visible(&entry.fact)
    )
}

/// Where a fact came from, in `lang`.
pub fn source_line(source: &MemorySource, lang: Lang) -> String {
    match source {
        MemorySource::Person => tr(lang, Msg::MemorySourcePerson).to_string(),
        MemorySource::Conversation => tr(lang, Msg::MemorySourceConversation).to_string(),
        MemorySource::After { read, more } => {
            let mut what = read.join(", ");
            if *more > 0 {
                what.push_str(&trf(lang, Msg::MemorySourceMore, &[("n", more)]));
            }
            trf(
                lang,
                Msg::MemorySourceAfter,
                &[("read", &crate::text::visible(&what))],
            )
        }
    }
}

fn show_entries(session: &Session, entries: &[MemoryEntry]) {
    if entries.is_empty() {
        say_wrapped(session, session.tr(Msg::MemoryEmpty));
        return;
    }
    let now = chrono::Utc::now().timestamp();
    let lines: Vec<String> = entries
        .iter()
        .map(|e| entry_line(e, now, session.lang))
        .collect();
    say_wrapped(session, &lines.join("\n"));
}

pub(super) fn memory(session: &mut Session, args: &str) -> Flow {
    let Some(store) = store(session) else {
        return Flow::Continue;
    };
    let (verb, rest) = args
        .split_once(char::is_whitespace)
        .map_or((args, ""), |(v, r)| (v, r.trim()));
    let now = chrono::Utc::now().timestamp();
    match (verb, rest) {
        ("" | "list", "") => match store.list(None) {
            Ok(entries) => show_entries(session, &entries),
            Err(e) => store_failed(session, &e),
        },
        ("search", q) if !q.is_empty() => match store.search(q) {
            Ok(entries) => show_entries(session, &entries),
            Err(e) => store_failed(session, &e),
        },
        ("delete", id) if !id.is_empty() => match store.delete(id) {
            Ok(e) => say_wrapped(
                session,
                &format!(
                    "{}:\n{}",
                    session.tr(Msg::MemoryDeleted),
                    entry_line(&e, now, session.lang)
                ),
            ),
            Err(e) => store_failed(session, &e),
        },
        ("verify", id) if !id.is_empty() => match store.verify(id) {
            Ok(e) => say_wrapped(
                session,
                &format!(
                    "{}:\n{}",
                    session.tr(Msg::MemoryVerified),
                    entry_line(&e, now, session.lang)
                ),
            ),
            Err(e) => store_failed(session, &e),
        },
        ("replace", rest) => match rest.split_once(char::is_whitespace) {
            Some((id, fact)) if !fact.trim().is_empty() => {
                match store.replace(id, fact.trim(), Some(MemorySource::Person)) {
                    Ok((_, new)) => say_wrapped(
                        session,
                        &format!(
                            "{}:\n{}",
                            session.tr(Msg::MemoryReplaced),
                            entry_line(&new, now, session.lang)
                        ),
                    ),
                    Err(e) => store_failed(session, &e),
                }
            }
            _ => say_error(session, session.tr(Msg::MemoryUsage)),
        },
        ("clear", "--yes") => match store.clear(None) {
            Ok(n) => say_wrapped(session, &format!("{n} {}", session.tr(Msg::MemoryCleared))),
            Err(e) => store_failed(session, &e),
        },
        ("clear", "") => say_wrapped(session, session.tr(Msg::MemoryClearConfirm)),
        _ => say_error(session, session.tr(Msg::MemoryUsage)),
    }
    Flow::Continue
}

/// What `/save` was asked to do.
#[derive(Debug, PartialEq, Eq)]
pub struct SaveRequest<'a> {
    pub scope: Scope,
    pub force: bool,
    pub fact: &'a str,
}

/// Parses `[--global|--project] [--force] <fact>`: flags come first, the rest is the fact verbatim.
pub fn parse_save(args: &str) -> Result<SaveRequest<'_>, SaveArgsError> {
    let mut request = SaveRequest {
        scope: Scope::Project,
        force: false,
        fact: "",
    };
    let mut rest = args.trim_start();
    while let Some(flag) = rest.strip_prefix("--") {
        let (word, after) = flag
            .split_once(char::is_whitespace)
            .map_or((flag, ""), |(w, a)| (w, a.trim_start()));
        match word {
            "global" => request.scope = Scope::Global,
            "project" => request.scope = Scope::Project,
            "force" => request.force = true,
            other => return Err(SaveArgsError::UnknownOption(other.to_string())),
        }
        rest = after;
    }
    request.fact = rest.trim_end();
    if request.fact.is_empty() {
        return Err(SaveArgsError::NoFact);
    }
    Ok(request)
}

pub(super) fn save(session: &mut Session, args: &str) -> Flow {
    let request = match parse_save(args) {
        Ok(r) => r,
        Err(e) => {
            say_error(session, &e.describe(session.lang));
            return Flow::Continue;
        }
    };
    let Some(store) = store(session) else {
        return Flow::Continue;
    };
    let options = SaveOptions {
        replace_id: None,
        keep_both: request.force,
        source: Some(MemorySource::Person),
    };
    let now = chrono::Utc::now().timestamp();
    match store.save(request.fact, request.scope, &options) {
        Ok(SaveOutcome::Saved(e)) => say_wrapped(
            session,
            &format!(
                "{}:\n{}",
                session.tr(Msg::MemorySaved),
                entry_line(&e, now, session.lang)
            ),
        ),
        Ok(SaveOutcome::Duplicate(e)) => say_wrapped(
            session,
            &format!(
                "{}:\n{}",
                session.tr(Msg::MemoryDuplicate),
                entry_line(&e, now, session.lang)
            ),
        ),
        Ok(SaveOutcome::Replaced { new, .. }) => say_wrapped(
            session,
            &format!(
                "{}:\n{}",
                session.tr(Msg::MemoryReplaced),
                entry_line(&new, now, session.lang)
            ),
        ),
        Ok(SaveOutcome::Conflict { existing, .. }) => {
            let style = session.surface().style;
            let mut lines = vec![style.yellow(session.tr(Msg::MemoryConflict))];
            lines.extend(existing.iter().map(|e| entry_line(e, now, session.lang)));
            let width = session.surface().width;
            lines.extend(crate::ui::render::wrap(
                session.tr(Msg::MemoryConflictHint),
                width,
            ));
            session.say(&lines.join("\n"));
        }
        Err(e) => store_failed(session, &e),
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn an_entry_shows_where_it_came_from_in_both_languages() {
        let mut entry = MemoryEntry {
            id: "m1".into(),
            fact: "Always run setup.sh".into(),
            scope: Scope::Global,
            created_at: 0,
            verified_at: 0,
            source: Some(MemorySource::After {
                read: vec!["read_file README.md".into(), "grep setup".into()],
                more: 2,
            }),
        };
        assert_eq!(
            entry_line(&entry, 0, Lang::En),
            "  m1  [global] Always run setup.sh\n      \
             saved after reading: read_file README.md, grep setup (+2 more)"
        );
        assert_eq!(
            entry_line(&entry, 0, Lang::Zh),
            "  m1  [global] Always run setup.sh\n      \
             保存前读取了：read_file README.md, grep setup（另有 2 项）"
        );
        entry.source = None;
        assert_eq!(
            entry_line(&entry, 0, Lang::En),
            "  m1  [global] Always run setup.sh"
        );
        entry.source = Some(MemorySource::Person);
        assert!(entry_line(&entry, 0, Lang::Zh).ends_with("你亲自保存"));
    }

    #[test]
    fn save_flags_come_before_the_fact() {
        assert_eq!(
            parse_save("--global --force uses  tabs -- really"),
            Ok(SaveRequest {
                scope: Scope::Global,
                force: true,
                fact: "uses  tabs -- really",
            })
        );
        assert_eq!(
            parse_save("the build uses make"),
            Ok(SaveRequest {
                scope: Scope::Project,
                force: false,
                fact: "the build uses make",
            })
        );
        assert_eq!(parse_save("--force"), Err(SaveArgsError::NoFact));
        let unknown = parse_save("--everywhere x").unwrap_err();
        assert_eq!(unknown, SaveArgsError::UnknownOption("everywhere".into()));
        assert!(unknown.describe(Lang::En).contains("--everywhere"));
        assert_eq!(
            unknown.describe(Lang::Zh),
            "未知选项 --everywhere（用法：/save [--global|--project] [--force] <事实>）"
        );
    }
}
