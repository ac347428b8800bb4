//! edit_file end to end.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use paicli::tools::edit::EditFile;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::{Project, dir_names};

// ---------- edit_file ----------

#[tokio::test]
async fn edit_file_replaces_once_and_reports_diff() {
    let p = Project::new();
    p.write(
        "Hello.java",
        "public class Hello {\n    System.out.println(\"Hello World\");\n}\n",
    );
    let out = p
        .ok(
            &EditFile,
            json!({"path": "Hello.java", "old_text": "Hello World", "new_text": "Hello PaiCLI"}),
        )
        .await;
    assert_eq!(out.text, "Edited Hello.java: 1 replacement");
    assert_eq!(
        p.read("Hello.java"),
        "public class Hello {\n    System.out.println(\"Hello PaiCLI\");\n}\n"
    );
    assert_eq!(out.changed_files, vec![PathBuf::from("Hello.java")]);
    let diff = out.diff.unwrap().unified;
    assert!(diff.contains(
        "-    System.out.println(\"Hello World\");\n+    System.out.println(\"Hello PaiCLI\");"
    ));
}

#[tokio::test]
async fn edit_file_keeps_crlf_and_permissions() {
    let p = Project::new();
    let path = p.write("win.bat", "@echo off\r\necho one\r\necho two\r\n");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    let out = p
        .ok(
            &EditFile,
            json!({"path": "win.bat", "old_text": "echo one\necho two\n", "new_text": "echo 1\necho 2\n"}),
        )
        .await;
    assert_eq!(
        out.text,
        "Edited win.bat: 1 replacement (CRLF line endings kept)"
    );
    assert_eq!(p.read("win.bat"), "@echo off\r\necho 1\r\necho 2\r\n");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(dir_names(&p.root), vec!["win.bat"]);
}

#[tokio::test]
async fn edit_file_ambiguous_names_count_and_lines() {
    let p = Project::new();
    p.write("a.txt", "x = 1;\ny = 2;\nx = 1;\n");
    let reason = p
        .failed(
            &EditFile,
            json!({"path": "a.txt", "old_text": "x = 1;", "new_text": "x = 3;"}),
        )
        .await;
    assert!(
        reason.starts_with("old_text matches 2 places in a.txt (starting at lines 1, 3)"),
        "{reason}"
    );
    let out = p
        .ok(
            &EditFile,
            json!({"path": "a.txt", "old_text": "x = 1;", "new_text": "x = 3;", "replace_all": true}),
        )
        .await;
    assert_eq!(out.text, "Edited a.txt: 2 replacements");
    assert_eq!(p.read("a.txt"), "x = 3;\ny = 2;\nx = 3;\n");
}

#[tokio::test]
async fn edit_file_strips_pasted_line_numbers() {
    let p = Project::new();
    p.write("a.py", "def f():\n    return 1\n");
    let out = p
        .ok(
            &EditFile,
            json!({"path": "a.py", "old_text": "    2 |     return 1", "new_text": "    return 2"}),
        )
        .await;
    assert!(out.text.contains("after stripping line-number prefixes"));
    assert_eq!(p.read("a.py"), "def f():\n    return 2\n");
}

#[tokio::test]
async fn edit_file_failures_explain_the_next_step() {
    let p = Project::new();
    p.write("a.txt", "alpha beta\ngamma\n");
    let reason = p
        .failed(
            &EditFile,
            json!({"path": "a.txt", "old_text": "alpha betta", "new_text": "x"}),
        )
        .await;
    assert_eq!(
        reason,
        "old_text not found in a.txt; re-read the file with read_file and copy the text exactly\n\
         closest line 1: alpha beta"
    );
    let reason = p
        .failed(
            &EditFile,
            json!({"path": "a.txt", "old_text": "gamma", "new_text": "gamma"}),
        )
        .await;
    assert!(reason.starts_with("the edit changes nothing"), "{reason}");
    let reason = p
        .failed(
            &EditFile,
            json!({"path": "a.txt", "old_text": "", "new_text": "x"}),
        )
        .await;
    assert!(reason.starts_with("old_text must not be empty"), "{reason}");
    let reason = p
        .failed(
            &EditFile,
            json!({"path": "missing.txt", "old_text": "a", "new_text": "b"}),
        )
        .await;
    assert!(reason.contains("use write_file to create one"), "{reason}");
    assert_eq!(p.read("a.txt"), "alpha beta\ngamma\n");
}

#[tokio::test]
async fn edit_file_deletes_with_empty_new_text() {
    let p = Project::new();
    p.write("a.txt", "keep\ndrop me\nkeep\n");
    p.ok(
        &EditFile,
        json!({"path": "a.txt", "old_text": "drop me\n", "new_text": ""}),
    )
    .await;
    assert_eq!(p.read("a.txt"), "keep\nkeep\n");
}

#[tokio::test]
async fn edit_file_respects_the_size_cap() {
    let mut p = Project::new();
    p.ctx.limits.max_write_bytes = 16;
    p.write("a.txt", "short\n");
    let (code, _) = p
        .denied(
            &EditFile,
            json!({"path": "a.txt", "old_text": "short", "new_text": "much much longer text"}),
        )
        .await;
    assert_eq!(code, "FILE_TOO_LARGE");
    assert_eq!(p.read("a.txt"), "short\n");
}
