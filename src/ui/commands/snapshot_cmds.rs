//! `/snapshot [status|clean]`, `/restore N` and `/rewind`: the project's file snapshots from the REPL. Restores
//! take a snapshot first (so they can be undone) and are written to the audit log.

use std::sync::Arc;
use std::time::Instant;

use serde_json::json;

use super::Flow;
use crate::guard::redact::Redactor;
use crate::policy::audit::{ApprovedBy, AuditLog, AuditOutcome, CallRecord};
use crate::protocol::Role;
use crate::snapshot::{RestoreReport, Snapshot, SnapshotStore, Target};
use crate::text::Msg;
use crate::ui::repl::Session;

pub use crate::ui::answer::{read_answer, read_choice};

/// The session's store, or a message saying snapshots are off.
fn store(session: &Session) -> Option<Arc<SnapshotStore>> {
    let store = session.services.snapshots.store().cloned();
    if store.is_none() {
        session.say_error(session.tr(Msg::SnapshotsOff));
    }
    store
}

/// `1.2 MB`, `340 KB`.
fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / f64::from(1u32 << 20)),
        b => format!("{} KB", b.div_ceil(1024)),
    }
}

/// One listed snapshot: `  N  time  kind  session#turn  label  (k file(s) changed)`.
pub fn snapshot_line(number: usize, s: &Snapshot, files: &str) -> String {
    let time = chrono::DateTime::from_timestamp(s.time, 0)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_default();
    format!(
        "  {number:>2}  {time}  {:<11}  {}#{}  {}  ({} {files})",
        s.kind.name(),
        s.label.session,
        s.label.turn,
        s.label.text,
        s.changed
    )
}

pub(super) fn snapshot(session: &mut Session, args: &str) -> Flow {
    let Some(store) = store(session) else {
        return Flow::Continue;
    };
    match args {
        "" | "status" | "list" => status(session, &store),
        "clean" => clean(session, &store),
        _ => session.say_error("usage: /snapshot [status|clean]"),
    }
    Flow::Continue
}

fn status(session: &Session, store: &SnapshotStore) {
    let snapshots = match store.list() {
        Ok(s) => s,
        Err(e) => return session.say_error(&e.to_string()),
    };
    let style = session.surface().style;
    let mut lines = Vec::new();
    if snapshots.is_empty() {
        lines.push(session.tr(Msg::SnapshotsEmpty).to_string());
    } else {
        lines.push(style.bold(session.tr(Msg::SnapshotsHeading)));
        let files = session.tr(Msg::SnapshotFiles);
        lines.extend(
            snapshots
                .iter()
                .rev()
                .enumerate()
                .map(|(i, s)| snapshot_line(i + 1, s, files)),
        );
    }
    lines.push(style.dim(&format!(
        "{}: {} ({})",
        session.tr(Msg::SnapshotsStore),
        human_bytes(store.disk_size()),
        store.dir().display()
    )));
    session.say(&lines.join("\n"));
}

fn clean(session: &Session, store: &SnapshotStore) {
    let answer = read_answer(session.tr(Msg::SnapshotCleanConfirm));
    if !answer.is_some_and(|a| matches!(a.to_ascii_lowercase().as_str(), "y" | "yes" | "是")) {
        return session.say(session.tr(Msg::Cancelled));
    }
    match store.clean() {
        Ok(()) => session.say(session.tr(Msg::SnapshotsCleaned)),
        Err(e) => session.say_error(&e.to_string()),
    }
}

pub(super) fn restore(session: &mut Session, args: &str) -> Flow {
    let Some(store) = store(session) else {
        return Flow::Continue;
    };
    let Some(number) = args.parse::<usize>().ok().filter(|n| *n >= 1) else {
        session.say_error(session.tr(Msg::RestoreUsage));
        return Flow::Continue;
    };
    let seq = match store.list() {
        Ok(all) => all.iter().rev().nth(number - 1).map(|s| s.seq),
        Err(e) => {
            session.say_error(&e.to_string());
            return Flow::Continue;
        }
    };
    let Some(seq) = seq else {
        session.say_error(session.tr(Msg::RestoreUsage));
        return Flow::Continue;
    };
    restore_and_report(
        session,
        &store,
        Target::Seq(seq),
        &format!("/restore {number}"),
    );
    Flow::Continue
}

/// Restores `target`, prints the diff summary and writes the audit line.
fn restore_and_report(session: &Session, store: &SnapshotStore, target: Target, action: &str) {
    let label = session.services.snapshots.user_label(action);
    let started = Instant::now();
    let result = store.restore(&target, &label);
    audit_restore(session, action, &result, started);
    match result {
        Ok(report) if report.changes.is_empty() => session.say(session.tr(Msg::RestoreNothing)),
        Ok(report) => {
            let undo = match listed_number(store, report.undo) {
                Some(n) => crate::text::trf(session.lang, Msg::Restored, &[("n", &n)]),
                None => session.tr(Msg::RestoredNoUndo).to_string(),
            };
            session.say(&format!("{}\n{undo}", report.summary()));
        }
        Err(e) => session.say_error(&e.to_string()),
    }
}

/// The number `/snapshot` lists snapshot `seq` under (1 = newest), which `/restore N` takes.
fn listed_number(store: &SnapshotStore, seq: Option<u64>) -> Option<usize> {
    let seq = seq?;
    let all = store.list().ok()?;
    all.iter().rev().position(|s| s.seq == seq).map(|i| i + 1)
}

fn audit_restore(
    session: &Session,
    action: &str,
    result: &Result<RestoreReport, crate::snapshot::SnapshotError>,
    started: Instant,
) {
    let log = AuditLog::new(session.config.audit_dir.clone(), Redactor::new(Vec::new()));
    let (outcome, reason, metadata) = match result {
        Ok(report) => (
            AuditOutcome::Allow,
            String::new(),
            json!({
                "snapshot": report.to.as_ref().map(|s| s.seq),
                "changedFiles": report.changes.iter().map(|c| format!("{} {}", c.status, c.path)).collect::<Vec<_>>(),
            }),
        ),
        Err(e) => (AuditOutcome::Error, e.to_string(), json!({})),
    };
    let args = json!({ "command": action });
    let entry = log.entry(CallRecord {
        tool: "snapshot_restore",
        args: &args,
        outcome,
        reason: &reason,
        approver: ApprovedBy::Hitl,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        metadata,
    });
    log.record(&entry);
}

/// The first line of each user turn's message, in turn order.
fn user_messages(session: &mut Session) -> Vec<String> {
    let conversation = session.agent_mut().conversation();
    let messages = conversation.messages();
    conversation
        .turn_starts()
        .iter()
        .map(|&start| {
            messages[start..]
                .iter()
                .filter(|m| m.role == Role::User)
                .map(|m| m.text())
                .find(|t| !t.starts_with(crate::memory::RECALL_MARKER))
                .unwrap_or_default()
        })
        .map(|text| {
            let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            first.chars().take(100).collect()
        })
        .collect()
}

pub(super) fn rewind(session: &mut Session, _args: &str) -> Flow {
    let messages = user_messages(session);
    if messages.is_empty() {
        session.say(session.tr(Msg::RewindNoTurns));
        return Flow::Continue;
    }
    let list: Vec<String> = messages
        .iter()
        .enumerate()
        .map(|(i, text)| format!("  {:>2}. {text}", i + 1))
        .collect();
    session.say(&list.join("\n"));
    let Some(answer) = read_answer(session.tr(Msg::RewindPick)).filter(|a| !a.is_empty()) else {
        session.say(session.tr(Msg::Cancelled));
        return Flow::Continue;
    };
    let Some(turn) = answer
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=messages.len()).contains(n))
        .map(|n| n - 1)
    else {
        session.say_error(session.tr(Msg::RewindInvalid));
        return Flow::Continue;
    };
    let (code, conversation) = match read_choice(session.tr(Msg::RewindHow), &['c', 'v', 'b']) {
        Some('c') => (true, false),
        Some('v') => (false, true),
        Some('b') => (true, true),
        _ => {
            session.say(session.tr(Msg::Cancelled));
            return Flow::Continue;
        }
    };
    if code {
        rewind_code(session, turn);
    }
    if conversation {
        match session.agent_mut().rewind_to_turn(turn) {
            Ok(_) => {
                session.services.snapshots.rewind_to_turn(turn);
                session.say_fitted(session.tr(Msg::RewindConversation), 0, str::to_string);
            }
            Err(e) => session.say_error(&e.to_string()),
        }
    }
    Flow::Continue
}

/// Puts the files back as they were before turn `turn` (0-based) of this session.
fn rewind_code(session: &Session, turn: usize) {
    let Some(store) = store(session) else {
        return;
    };
    match session.services.snapshots.before_turn(turn) {
        Some(seq) => restore_and_report(
            session,
            &store,
            Target::Seq(seq),
            &format!("/rewind {}", turn + 1),
        ),
        None => session.say_fitted(session.tr(Msg::RewindNoCode), 0, str::to_string),
    }
}
