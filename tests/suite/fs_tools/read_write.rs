//! read_file, write_file and list_dir.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::PathBuf;

use paicli::tools::fs::{ListDir, ReadFile, WriteFile};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::{Project, dir_names, numbered};

// ---------- read_file ----------

#[tokio::test]
async fn read_file_numbers_lines_with_header() {
    let p = Project::new();
    p.write("Hello.java", "class Hello {\n}\n");
    let out = p.ok(&ReadFile, json!({"path": "Hello.java"})).await;
    assert_eq!(
        out.text,
        "File: Hello.java (lines 1-2 of 2)\n    1 | class Hello {\n    2 | }\n"
    );
}

#[tokio::test]
async fn read_file_without_range_stops_at_2000_lines_with_next_offset() {
    let p = Project::new();
    p.write("big.txt", numbered(1, 2500));
    let out = p.ok(&ReadFile, json!({"path": "big.txt"})).await.text;
    assert!(out.starts_with("File: big.txt (lines 1-2000 of 2500)\n"));
    assert!(out.contains(" 2000 | line 2000\n"));
    assert!(!out.contains("line 2001"));
    assert!(out.contains("500 more lines; continue with read_file offset=2001"));
}

#[tokio::test]
async fn read_file_window_uses_offset_and_default_limit() {
    let p = Project::new();
    p.write("big.txt", numbered(1, 500));
    let out = p
        .ok(&ReadFile, json!({"path": "big.txt", "offset": 101}))
        .await
        .text;
    assert!(out.starts_with("File: big.txt (lines 101-300 of 500)\n  101 | line 101\n"));
    assert!(out.contains("continue with read_file offset=301"));
    let tail = p
        .ok(
            &ReadFile,
            json!({"path": "big.txt", "offset": 499, "limit": 10}),
        )
        .await
        .text;
    assert_eq!(
        tail,
        "File: big.txt (lines 499-500 of 500)\n  499 | line 499\n  500 | line 500\n"
    );
}

#[tokio::test]
async fn read_file_describes_binary_files() {
    let p = Project::new();
    p.write("data.bin", b"abc\0\x01\x02rest");
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend([0u8; 100]);
    p.write("logo.png", &png);
    let out = p.ok(&ReadFile, json!({"path": "data.bin"})).await.text;
    assert_eq!(
        out,
        "File: data.bin\nBinary file (binary data, 10 bytes); its content is not shown."
    );
    let out = p.ok(&ReadFile, json!({"path": "logo.png"})).await.text;
    assert!(out.contains("Binary file (PNG image, 108 bytes)"), "{out}");
}

#[tokio::test]
async fn read_file_decodes_invalid_utf8_lossily_with_a_note() {
    let p = Project::new();
    p.write("latin1.txt", b"caf\xe9\nok\n");
    let out = p.ok(&ReadFile, json!({"path": "latin1.txt"})).await.text;
    assert_eq!(
        out,
        "File: latin1.txt (lines 1-2 of 2)\n\
         note: the file is not valid UTF-8; invalid bytes are shown as \u{FFFD}\n    \
         1 | caf\u{FFFD}\n    2 | ok\n"
    );
}

#[tokio::test]
async fn read_file_errors_guide_the_model() {
    let p = Project::new();
    fs::create_dir_all(p.root.join("src")).unwrap();
    let reason = p.failed(&ReadFile, json!({"path": "src"})).await;
    assert_eq!(
        reason,
        "src is a directory; use list_dir to see its entries"
    );
    let reason = p.failed(&ReadFile, json!({"path": "nope.txt"})).await;
    assert!(reason.starts_with("file not found: nope.txt"), "{reason}");
    let reason = p.failed(&ReadFile, json!({"path": "  "})).await;
    assert!(reason.starts_with("path is empty"), "{reason}");
}

#[tokio::test]
async fn read_file_refuses_every_escape() {
    let p = Project::new();
    fs::write(p.outside.join("secret.txt"), "secret").unwrap();
    symlink(p.outside.join("secret.txt"), p.root.join("link.txt")).unwrap();
    symlink(&p.outside, p.root.join("out")).unwrap();
    let absolute = p.outside.join("secret.txt").display().to_string();
    for path in [
        "../outside/secret.txt",
        absolute.as_str(),
        "link.txt",
        "out/secret.txt",
    ] {
        let (code, reason) = p.denied(&ReadFile, json!({ "path": path })).await;
        assert_eq!(code, "PATH_OUT_OF_BOUNDS", "{path}");
        assert!(
            reason.contains("outside the project root"),
            "{path}: {reason}"
        );
        assert!(!reason.contains("secret\n"));
    }
}

// ---------- write_file ----------

#[tokio::test]
async fn write_file_creates_parents_and_reports_diff() {
    let p = Project::new();
    let out = p
        .ok(
            &WriteFile,
            json!({"path": "src/new/a.txt", "content": "one\ntwo\n"}),
        )
        .await;
    assert_eq!(out.text, "Created src/new/a.txt (8 bytes, 2 lines)");
    assert_eq!(p.read("src/new/a.txt"), "one\ntwo\n");
    assert_eq!(out.changed_files, vec![PathBuf::from("src/new/a.txt")]);
    let diff = out.diff.unwrap();
    assert_eq!(diff.path, "src/new/a.txt");
    assert!(diff.unified.contains("+one\n+two\n"), "{}", diff.unified);
}

#[tokio::test]
async fn write_file_overwrite_keeps_permissions_and_leaves_no_temp_files() {
    let p = Project::new();
    let path = p.write("run.sh", "echo old\n");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    let out = p
        .ok(
            &WriteFile,
            json!({"path": "run.sh", "content": "echo new\n"}),
        )
        .await;
    assert_eq!(out.text, "Overwrote run.sh (9 bytes, 1 line)");
    assert_eq!(p.read("run.sh"), "echo new\n");
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o755
    );
    assert_eq!(dir_names(&p.root), vec!["run.sh"]);
    assert!(out.diff.unwrap().unified.contains("-echo old\n+echo new\n"));
}

#[tokio::test]
async fn write_file_caps_content_at_5_mb() {
    let p = Project::new();
    let content = "x".repeat(5 * 1024 * 1024 + 1);
    let (code, reason) = p
        .denied(&WriteFile, json!({"path": "big.txt", "content": content}))
        .await;
    assert_eq!(code, "FILE_TOO_LARGE");
    assert!(reason.contains("5.0 MB"), "{reason}");
    assert!(!p.root.join("big.txt").exists());
    let at_cap = "x".repeat(5 * 1024 * 1024);
    p.ok(&WriteFile, json!({"path": "big.txt", "content": at_cap}))
        .await;
}

#[tokio::test]
async fn write_file_refuses_new_file_under_symlinked_dir_pointing_out() {
    let p = Project::new();
    symlink(&p.outside, p.root.join("out")).unwrap();
    let (code, _) = p
        .denied(
            &WriteFile,
            json!({"path": "out/sub/evil.txt", "content": "x"}),
        )
        .await;
    assert_eq!(code, "PATH_OUT_OF_BOUNDS");
    let (code, _) = p
        .denied(
            &WriteFile,
            json!({"path": "../outside/evil.txt", "content": "x"}),
        )
        .await;
    assert_eq!(code, "PATH_OUT_OF_BOUNDS");
    assert!(dir_names(&p.outside).is_empty());
}

// ---------- list_dir ----------

#[tokio::test]
async fn list_dir_is_sorted_dirs_first() {
    let p = Project::new();
    p.write("zeta.txt", "");
    p.write("Alpha.md", "");
    p.write("src/main.rs", "");
    p.write("docs/x.md", "");
    let out = p.ok(&ListDir, json!({"path": "."})).await.text;
    assert_eq!(
        out,
        "Directory: . (4 entries)\n[D] docs/\n[D] src/\n[F] Alpha.md\n[F] zeta.txt\n"
    );
    let reason = p.failed(&ListDir, json!({"path": "zeta.txt"})).await;
    assert!(reason.contains("use read_file"), "{reason}");
    let (code, _) = p.denied(&ListDir, json!({"path": ".."})).await;
    assert_eq!(code, "PATH_OUT_OF_BOUNDS");
}

// ---------- symlinks inside the project, special files ----------

#[tokio::test]
async fn symlinks_that_stay_inside_the_project_are_read_and_written_through() {
    let p = Project::new();
    p.write("src/a.txt", "old\n");
    symlink(p.root.join("src"), p.root.join("alias")).unwrap();
    symlink(p.root.join("src/a.txt"), p.root.join("link.txt")).unwrap();
    let out = p.ok(&ReadFile, json!({"path": "alias/a.txt"})).await;
    assert!(out.text.ends_with("    1 | old\n"), "{}", out.text);
    let out = p
        .ok(&WriteFile, json!({"path": "link.txt", "content": "new\n"}))
        .await;
    assert_eq!(out.text, "Overwrote src/a.txt (4 bytes, 1 line)");
    assert_eq!(p.read("src/a.txt"), "new\n");
    assert!(p.root.join("link.txt").is_symlink());
    let listing = p.ok(&ListDir, json!({"path": "."})).await.text;
    assert!(listing.contains("[D] alias/ (symlink)\n"), "{listing}");
    assert!(listing.contains("[F] link.txt (symlink)\n"), "{listing}");
}

#[tokio::test]
async fn read_file_refuses_a_fifo_without_blocking_on_it() {
    let p = Project::new();
    let status = std::process::Command::new("mkfifo")
        .arg(p.root.join("pipe"))
        .status()
        .unwrap();
    assert!(status.success());
    let reason = p.failed(&ReadFile, json!({"path": "pipe"})).await;
    assert_eq!(
        reason,
        "pipe is not a regular file; read_file only reads files"
    );
    let reason = p
        .failed(&WriteFile, json!({"path": "pipe", "content": "x"}))
        .await;
    assert_eq!(
        reason,
        "pipe is not a regular file; write_file only writes files"
    );
}
