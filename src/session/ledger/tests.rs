#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::*;
use crate::protocol::message::{Message, ToolCall};
use crate::session::{Conversation, is_paired};

fn header(id: &str, root: &Path) -> Header {
    Header {
        format: FORMAT_VERSION,
        id: id.to_string(),
        project_root: root.to_path_buf(),
        provider: "custom".into(),
        model: "m1".into(),
        version: "0.0.0".into(),
        git_branch: None,
        started: "2026-12-01T10:00:00+00:00".into(),
        system_prompt: "sys".into(),
        tools: Vec::new(),
        forked_from: None,
    }
}

fn no_redact() -> Redact {
    Arc::new(|s: &str| s.to_string())
}

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "read_file".into(),
        arguments: "{\"path\":\"a\"}".into(),
    }
}

/// A conversation recorded in a new ledger at `dir/s.jsonl`.
fn recorded(dir: &Path) -> (Conversation, PathBuf) {
    let path = dir.join("2026/12/01/20261201T100000-abc.jsonl");
    let ledger = Ledger::create(&path, header("abc", dir), no_redact()).unwrap();
    let mut c = Conversation::new("sys");
    c.attach_ledger(ledger);
    (c, path)
}

#[test]
fn replay_rebuilds_the_history_the_session_had() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, path) = recorded(dir.path());
    c.begin_turn(Some("[long-term memory] x".into()), "read a and b");
    c.announce_round("", Some("thinking".into()), &[call("c1"), call("c2")]);
    // Results reach the ledger in the order the tools finished, not call order.
    let ledger = c.ledger().unwrap().clone();
    ledger.record_result("c2", "B");
    ledger.record_result("c1", "A");
    c.push_tool_round(
        "",
        Some("thinking".into()),
        vec![(call("c1"), "A".into()), (call("c2"), "B".into())],
    );
    c.push_answer("done");
    c.begin_turn(None, "second");
    c.push_tool_round("", None, vec![(call("c3"), "C".into())]);
    c.push_answer("two");
    assert!(c.replace_tool_output(4, "[old tool result cleared]".into()));
    c.begin_turn(None, "third");
    c.push_answer("three");
    c.rewind_to_turn(2).unwrap();
    c.rewrite(
        1..7,
        vec![
            Message::user("[conversation summary] s"),
            Message::assistant("ok"),
        ],
    )
    .unwrap();
    c.push_user("diagnostics");

    let loaded = load(&path).unwrap();
    assert_eq!(loaded.conversation.messages(), c.messages());
    assert_eq!(loaded.conversation.turn_starts(), c.turn_starts());
    assert_eq!(loaded.first_input.as_deref(), Some("read a and b"));
    assert_eq!(loaded.notices, []);
}

#[test]
fn a_round_cut_short_by_a_crash_is_answered_as_aborted() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, path) = recorded(dir.path());
    c.begin_turn(None, "run it");
    c.announce_round("running", None, &[call("c1"), call("c2")]);
    c.ledger().unwrap().record_result("c1", "A");
    drop(c);

    let loaded = load(&path).unwrap();
    let messages = loaded.conversation.messages();
    assert!(is_paired(messages));
    assert_eq!(messages.len(), 5);
    assert_eq!(messages[3].text(), "A");
    assert_eq!(messages[4].tool_call_id.as_deref(), Some("c2"));
    assert_eq!(messages[4].text(), ABORTED_RESULT);
    assert_eq!(loaded.notices, [LoadNotice::AbortedCalls { count: 1 }]);
}

#[test]
fn torn_and_garbage_lines_are_skipped_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, path) = recorded(dir.path());
    c.begin_turn(None, "hello");
    c.push_answer("hi");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.insert_str(
        text.find('\n').unwrap() + 1,
        "not json\n{\"type\":\"what\"}\n",
    );
    text.push_str("{\"type\":\"message\",\"mess");
    std::fs::write(&path, &text).unwrap();

    let loaded = load(&path).unwrap();
    assert_eq!(loaded.conversation.messages(), c.messages());
    assert_eq!(
        loaded.notices,
        [
            LoadNotice::TornLastLine,
            LoadNotice::SkippedLines { count: 2, first: 2 }
        ]
    );

    // Appending after a torn line starts a line of its own (the first writer closed, as when paicli exited).
    // A clone records nothing; dropping the original closes its ledger.
    let mut c = {
        let unrecorded = c.clone();
        drop(c);
        unrecorded
    };
    let ledger = Ledger::append_to(&path, no_redact()).unwrap();
    c.attach_ledger(ledger);
    c.begin_turn(None, "again");
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.conversation.messages(), c.messages());
}

#[test]
fn a_newer_format_is_refused_and_a_headless_file_is_not_a_ledger() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.jsonl");
    let mut h = serde_json::to_value(Record::Session(header("abc", dir.path()))).unwrap();
    h["format"] = serde_json::json!(FORMAT_VERSION + 1);
    std::fs::write(&path, format!("{h}\n")).unwrap();
    assert!(matches!(load(&path), Err(LoadError::NewerFormat { found, .. }) if found == 2));
    std::fs::write(&path, "{\"type\":\"clear\"}\n").unwrap();
    assert!(matches!(load(&path), Err(LoadError::NoHeader { .. })));
}

#[cfg(unix)]
#[test]
fn folders_are_0700_and_files_0600() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (_c, path) = recorded(dir.path());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    for folder in ["2026", "2026/12", "2026/12/01"] {
        assert_eq!(mode(&dir.path().join(folder)), 0o700, "{folder}");
    }
}

#[test]
fn secrets_are_masked_but_ids_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let redact: Redact = Arc::new(|s: &str| s.replace("sk-secret-1234", "***"));
    let ledger = Ledger::create(&path, header("abc", dir.path()), redact).unwrap();
    let mut c = Conversation::new("sys");
    c.attach_ledger(ledger);
    c.begin_turn(None, "my key is sk-secret-1234");
    let mut odd = call("sk-secret-1234");
    odd.arguments = "{\"key\":\"sk-secret-1234\"}".into();
    c.push_tool_round("", None, vec![(odd, "printed sk-secret-1234".into())]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.matches("sk-secret-1234").count(),
        2,
        "only the ids: {text}"
    );
    let loaded = load(&path).unwrap();
    assert!(is_paired(loaded.conversation.messages()));
    assert_eq!(
        loaded.conversation.messages()[2].tool_calls[0].arguments,
        "{\"key\":\"***\"}"
    );
}

fn store_with(dir: &Path, sessions: &[(&str, &str, &Path)]) -> SessionStore {
    let store = SessionStore::new(dir);
    for (stamp, id, root) in sessions {
        let path = dir
            .join("sessions/2026/12/01")
            .join(format!("{stamp}-{id}.jsonl"));
        let mut c = Conversation::new("sys");
        c.attach_ledger(Ledger::create(&path, header(id, root), no_redact()).unwrap());
        c.begin_turn(None, format!("task of {id}"));
    }
    store
}

#[test]
fn sessions_are_found_by_prefix_and_by_project() {
    let home = tempfile::tempdir().unwrap();
    let (here, there) = (Path::new("/p/here"), Path::new("/p/there"));
    let store = store_with(
        home.path(),
        &[
            ("20261201T090000", "aaa111", here),
            ("20261201T100000", "aab222", here),
            ("20261201T110000", "bbb333", there),
        ],
    );
    let ids = |v: Vec<StoredSession>| v.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(ids(store.all()), ["bbb333", "aab222", "aaa111"]);
    assert_eq!(ids(store.for_project(here)), ["aab222", "aaa111"]);
    assert_eq!(store.find("aaa", here).unwrap().id, "aaa111");
    assert_eq!(store.find("bbb333", here).unwrap().id, "bbb333");
    assert_eq!(
        store.find("aa", here),
        Err(FindError::Ambiguous {
            prefix: "aa".into(),
            candidates: vec!["aab222".into(), "aaa111".into()]
        })
    );
    assert_eq!(
        store.find("zz", here),
        Err(FindError::Unknown {
            prefix: "zz".into(),
            candidates: vec!["aab222".into(), "aaa111".into()]
        })
    );
    let summaries = store.summaries(here, 10);
    assert_eq!(summaries.len(), 2);
    assert_eq!(summaries[0].first_input.as_deref(), Some("task of aab222"));
    assert_eq!(summaries[0].turns, 1);
    assert_eq!(summaries[0].model, "m1");
}

#[test]
fn old_and_project_ledgers_are_removed() {
    let home = tempfile::tempdir().unwrap();
    let (here, there) = (Path::new("/p/here"), Path::new("/p/there"));
    let store = store_with(
        home.path(),
        &[
            ("20261201T090000", "old", here),
            ("20261201T100000", "new", here),
            ("20261201T110000", "other", there),
        ],
    );
    let old = store.find("old", here).unwrap().path;
    let forty_days = std::time::Duration::from_secs(40 * 86_400);
    std::fs::File::options()
        .append(true)
        .open(&old)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - forty_days)
        .unwrap();
    assert_eq!(store.remove_older_than(0, None), 0, "0 keeps everything");
    assert_eq!(store.remove_older_than(30, None), 1);
    assert!(!old.exists());
    let keep = store.find("new", here).unwrap().path;
    store_with(home.path(), &[("20261201T120000", "more", here)]);
    assert_eq!(store.remove_project(here, Some(&keep)), 1);
    let left: Vec<String> = store.all().into_iter().map(|s| s.id).collect();
    assert_eq!(left, ["other", "new"]);
}

#[test]
fn git_branch_is_read_from_head() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".git")).unwrap();
    std::fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/feature/x\n").unwrap();
    std::fs::create_dir_all(dir.path().join("sub")).unwrap();
    assert_eq!(
        git_branch(&dir.path().join("sub")).as_deref(),
        Some("feature/x")
    );
}

#[test]
fn model_mode_and_prompt_changes_are_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, path) = recorded(dir.path());
    c.begin_turn(None, "hello");
    c.note_model("m2");
    c.note_mode("plan");
    c.set_system_prompt("new sys");
    c.clear();
    c.begin_turn(None, "after clear");
    // A clone records nothing: only the original writes to the ledger.
    let mut copy = c.clone();
    assert!(copy.ledger().is_none());
    copy.begin_turn(None, "only in the copy");
    let loaded = load(&path).unwrap();
    assert_eq!(loaded.model, "m2");
    assert_eq!(loaded.mode.as_deref(), Some("plan"));
    assert_eq!(loaded.conversation.messages(), c.messages());
    assert_eq!(loaded.conversation.system().text(), "new sys");
}

#[test]
fn a_fork_replays_like_its_original_which_stays_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, path) = recorded(dir.path());
    c.begin_turn(None, "hello");
    c.announce_round("", None, &[call("c1")]);
    drop(c);
    let before = std::fs::read(&path).unwrap();
    let fork_path = dir.path().join("fork.jsonl");
    let mut h = header("def", dir.path());
    h.forked_from = Some("abc".into());
    let fork = Ledger::fork(&path, &fork_path, h, no_redact()).unwrap();
    let original = load(&path).unwrap();
    let mut forked = load(&fork_path).unwrap();
    assert_eq!(
        forked.conversation.messages(),
        original.conversation.messages()
    );
    assert_eq!(forked.header.forked_from.as_deref(), Some("abc"));
    forked.conversation.attach_ledger(fork);
    forked.conversation.begin_turn(None, "only in the fork");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_ledger_held_by_another_writer_is_refused_until_it_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let first = Ledger::create(&path, header("abc", dir.path()), no_redact()).unwrap();
    // flock is per open file, so a second open in this process stands for a second paicli.
    let refused = Ledger::append_to(&path, no_redact());
    assert!(
        matches!(refused, Err(LedgerError::InUse { .. })),
        "a second writer must be refused"
    );
    drop(first);
    assert!(Ledger::append_to(&path, no_redact()).is_ok());
}

#[test]
fn a_sub_agents_ledger_lives_beside_its_session_is_not_a_session_and_goes_with_it() {
    let home = tempfile::tempdir().unwrap();
    let here = Path::new("/p/here");
    let store = store_with(home.path(), &[("20261201T090000", "lead", here)]);
    let lead_path = store.find("lead", here).unwrap().path;
    let lead = Ledger::append_to(&lead_path, no_redact()).unwrap();
    // A task id from the model cannot leave the folder.
    let sidechain = lead.sidechain("1-../../x y", "task sys").unwrap();
    let path = sidechain.path();
    assert_eq!(path.parent().unwrap(), sidechain_dir(&lead_path));
    assert_eq!(path.file_name().unwrap(), "1-______x_y.jsonl");
    let mut task = Conversation::new("task sys");
    task.attach_ledger(sidechain);
    task.begin_turn(None, "do task 1");
    task.push_answer("task 1 done");
    drop(task);

    let loaded = load(&path).unwrap();
    assert_eq!(loaded.header.id, "lead.1-______x_y");
    assert_eq!(loaded.header.forked_from.as_deref(), Some("lead"));
    assert_eq!(loaded.header.system_prompt, "task sys");
    assert_eq!(loaded.conversation.messages().len(), 3);
    assert_eq!(sidechains(&lead_path), [path]);
    // Not a session of its own: the list and lookups see only the lead.
    let ids: Vec<String> = store.all().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["lead"]);
    drop(lead);
    assert_eq!(store.remove_project(here, None), 1);
    assert!(!sidechain_dir(&lead_path).exists());
}
