#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::json;

use super::*;

fn log(dir: &Path) -> AuditLog {
    AuditLog::new(
        dir.join("audit"),
        Redactor::new(["sk-configured-key-123".to_string()]),
    )
}

fn write(log: &AuditLog, tool: &str, args: Value) -> AuditEntry {
    let entry = log.entry(CallRecord {
        tool,
        args: &args,
        outcome: AuditOutcome::Allow,
        reason: "",
        approver: ApprovedBy::AutoClassifier,
        duration_ms: 12,
        metadata: json!({"mode": "auto"}),
    });
    log.record(&entry);
    entry
}

#[test]
fn writes_one_jsonl_line_per_entry_with_every_field() {
    let dir = tempfile::tempdir().unwrap();
    let log = log(dir.path());
    write(&log, "execute_command", json!({"command": "cargo test"}));
    let path = log.dir().join(file_name(chrono::Local::now().date_naive()));
    let text = fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 1);
    let line: Value = serde_json::from_str(text.trim_end()).unwrap();
    let keys: Vec<&str> = line
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    for key in [
        "timestamp",
        "tool",
        "args",
        "outcome",
        "reason",
        "approver",
        "durationMs",
        "metadata",
    ] {
        assert!(keys.contains(&key), "missing {key} in {line}");
    }
    assert_eq!(line["tool"], "execute_command");
    assert_eq!(line["args"], "{\"command\":\"cargo test\"}");
    assert_eq!(line["outcome"], "allow");
    assert_eq!(line["approver"], "auto-classifier");
    assert_eq!(line["durationMs"], 12);
    assert!(chrono::DateTime::parse_from_rfc3339(line["timestamp"].as_str().unwrap()).is_ok());
}

#[test]
fn the_file_is_private_even_if_it_existed_with_looser_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let log = log(dir.path());
    fs::create_dir_all(log.dir()).unwrap();
    let path = log.dir().join(file_name(chrono::Local::now().date_naive()));
    fs::write(&path, "").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
    write(&log, "write_file", json!({"path": "a"}));
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn secrets_are_redacted_before_the_cut() {
    let dir = tempfile::tempdir().unwrap();
    let log = log(dir.path());
    // The key sits right at the cut: cutting first would leave a prefix of it in the file.
    let padding = "x".repeat(MAX_ARGS_CHARS - 30);
    let command =
        format!("echo {padding} OPENAI_API_KEY=sk-configured-key-123 Authorization: Bearer tok");
    let entry = write(&log, "execute_command", json!({"command": command}));
    assert!(!entry.args.contains("sk-conf"), "{}", entry.args);
    assert!(entry.args.chars().count() <= MAX_ARGS_CHARS + 1);
    let short = write(
        &log,
        "execute_command",
        json!({"command": "curl -H 'Authorization: Bearer abc123' x; echo sk-configured-key-123"}),
    );
    assert!(
        !short.args.contains("abc123") && !short.args.contains("sk-configured"),
        "{}",
        short.args
    );
    let text =
        fs::read_to_string(log.dir().join(file_name(chrono::Local::now().date_naive()))).unwrap();
    assert!(!text.contains("sk-configured-key-123"));
}

#[test]
fn read_recent_returns_the_latest_entries_oldest_first_across_days() {
    let dir = tempfile::tempdir().unwrap();
    let log = log(dir.path());
    assert!(log.read_recent(10).unwrap().is_empty());
    let old = log.entry(CallRecord {
        tool: "edit_file",
        args: &json!({"n": 0}),
        outcome: AuditOutcome::Deny,
        reason: "no",
        approver: ApprovedBy::Hitl,
        duration_ms: 1,
        metadata: Value::Null,
    });
    fs::create_dir_all(log.dir()).unwrap();
    fs::write(
        log.dir().join("audit-2000-01-01.jsonl"),
        format!("{}\nnot json\n", serde_json::to_string(&old).unwrap()),
    )
    .unwrap();
    for n in 1..=3 {
        write(&log, "write_file", json!({"n": n}));
    }
    let recent = log.read_recent(2).unwrap();
    assert_eq!(
        recent.iter().map(|e| e.args.as_str()).collect::<Vec<_>>(),
        ["{\"n\":2}", "{\"n\":3}"]
    );
    let all = log.read_recent(10).unwrap();
    assert_eq!(all.len(), 4);
    assert_eq!(all[0].tool, "edit_file");
    assert_eq!(all[0].outcome, AuditOutcome::Deny);
}

#[test]
fn a_write_failure_does_not_panic_or_fail() {
    let dir = tempfile::tempdir().unwrap();
    // The audit "directory" is a file, so every write fails.
    fs::write(dir.path().join("audit"), "").unwrap();
    let log = log(dir.path());
    write(&log, "write_file", json!({}));
}
