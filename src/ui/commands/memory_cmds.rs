//! `/memory` (`/mem`) and `/save`: the long-term memory store the agent recalls from.

use std::sync::Arc;

use super::Flow;
use crate::memory::{MemoryEntry, MemoryStore, SaveOptions, SaveOutcome, Scope};
use crate::ui::i18n::Msg;
use crate::ui::repl::Session;

const MEMORY_USAGE: &str = "usage: /memory [list | search <q> | delete <id> | verify <id> | replace <id> <fact> | clear --yes]";
const SAVE_USAGE: &str = "usage: /save [--global|--project] [--force] <fact>";

/// The agent's store, or a message saying there is none.
fn store(session: &Session) -> Option<Arc<MemoryStore>> {
    let store = session.agent.memory().cloned();
    if store.is_none() {
        session.say_error(session.tr(Msg::MemoryOff));
    }
    store
}

/// `id  [scope] fact`, marked when stale.
pub fn entry_line(entry: &MemoryEntry, now: i64) -> String {
    let stale = if entry.is_stale_at(now) {
        " (stale: /memory verify to keep it)"
    } else {
        ""
    };
    format!("  {}  [{}] {}{stale}", entry.id, entry.scope, entry.fact)
}

fn show_entries(session: &Session, entries: &[MemoryEntry]) {
    if entries.is_empty() {
        session.say(session.tr(Msg::MemoryEmpty));
        return;
    }
    let now = chrono::Utc::now().timestamp();
    let lines: Vec<String> = entries.iter().map(|e| entry_line(e, now)).collect();
    session.say(&lines.join("\n"));
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
            Err(e) => session.say_error(&e.to_string()),
        },
        ("search", q) if !q.is_empty() => match store.search(q) {
            Ok(entries) => show_entries(session, &entries),
            Err(e) => session.say_error(&e.to_string()),
        },
        ("delete", id) if !id.is_empty() => match store.delete(id) {
            Ok(e) => session.say(&format!(
                "{}:\n{}",
                session.tr(Msg::MemoryDeleted),
                entry_line(&e, now)
            )),
            Err(e) => session.say_error(&e.to_string()),
        },
        ("verify", id) if !id.is_empty() => match store.verify(id) {
            Ok(e) => session.say(&format!(
                "{}:\n{}",
                session.tr(Msg::MemoryVerified),
                entry_line(&e, now)
            )),
            Err(e) => session.say_error(&e.to_string()),
        },
        ("replace", rest) => match rest.split_once(char::is_whitespace) {
            Some((id, fact)) if !fact.trim().is_empty() => match store.replace(id, fact.trim()) {
                Ok((_, new)) => session.say(&format!(
                    "{}:\n{}",
                    session.tr(Msg::MemoryReplaced),
                    entry_line(&new, now)
                )),
                Err(e) => session.say_error(&e.to_string()),
            },
            _ => session.say_error(MEMORY_USAGE),
        },
        ("clear", "--yes") => match store.clear(None) {
            Ok(n) => session.say(&format!("{n} {}", session.tr(Msg::MemoryCleared))),
            Err(e) => session.say_error(&e.to_string()),
        },
        ("clear", "") => session.say(session.tr(Msg::MemoryClearConfirm)),
        _ => session.say_error(MEMORY_USAGE),
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
pub fn parse_save(args: &str) -> Result<SaveRequest<'_>, String> {
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
            other => return Err(format!("unknown option --{other} ({SAVE_USAGE})")),
        }
        rest = after;
    }
    request.fact = rest.trim_end();
    if request.fact.is_empty() {
        return Err(SAVE_USAGE.to_string());
    }
    Ok(request)
}

pub(super) fn save(session: &mut Session, args: &str) -> Flow {
    let request = match parse_save(args) {
        Ok(r) => r,
        Err(e) => {
            session.say_error(&e);
            return Flow::Continue;
        }
    };
    let Some(store) = store(session) else {
        return Flow::Continue;
    };
    let options = SaveOptions {
        replace_id: None,
        keep_both: request.force,
    };
    let now = chrono::Utc::now().timestamp();
    match store.save(request.fact, request.scope, &options) {
        Ok(SaveOutcome::Saved(e)) => session.say(&format!(
            "{}:\n{}",
            session.tr(Msg::MemorySaved),
            entry_line(&e, now)
        )),
        Ok(SaveOutcome::Duplicate(e)) => session.say(&format!(
            "{}:\n{}",
            session.tr(Msg::MemoryDuplicate),
            entry_line(&e, now)
        )),
        Ok(SaveOutcome::Replaced { new, .. }) => session.say(&format!(
            "{}:\n{}",
            session.tr(Msg::MemoryReplaced),
            entry_line(&new, now)
        )),
        Ok(SaveOutcome::Conflict { existing, .. }) => {
            let style = session.surface().style;
            let mut lines = vec![style.yellow(session.tr(Msg::MemoryConflict))];
            lines.extend(existing.iter().map(|e| entry_line(e, now)));
            lines.push(session.tr(Msg::MemoryConflictHint).to_string());
            session.say(&lines.join("\n"));
        }
        Err(e) => session.say_error(&e.to_string()),
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

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
        assert!(parse_save("--force").is_err());
        assert!(
            parse_save("--everywhere x")
                .unwrap_err()
                .contains("--everywhere")
        );
    }
}
