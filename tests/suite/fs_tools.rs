//! The file-system, edit and search tools driven through the `Tool` trait in a temp project.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use paicli::policy::path_guard::PathGuard;
use paicli::tools::edit::EditFile;
use paicli::tools::fs::{ListDir, ReadFile, WriteFile};
use paicli::tools::search::{GlobFiles, GrepCode};
use paicli::tools::{SpillStore, Tool, ToolContext, ToolLimits, ToolOutcome, ToolOutput};
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

/// A temp dir holding `project/` (the root) and `outside/` beside it.
struct Project {
    _tmp: TempDir,
    root: PathBuf,
    outside: PathBuf,
    ctx: ToolContext,
}

impl Project {
    fn new() -> Self {
        let tmp = TempDir::new().unwrap();
        let root = tmp.path().join("project");
        let outside = tmp.path().join("outside");
        fs::create_dir_all(&root).unwrap();
        fs::create_dir_all(&outside).unwrap();
        let guard = PathGuard::new(&root).unwrap();
        let root = guard.root().to_path_buf();
        let ctx = ToolContext {
            root: root.clone(),
            guard: Arc::new(guard),
            spill: Arc::new(SpillStore::new(&root, true, 32000)),
            cancel: CancellationToken::new(),
            limits: ToolLimits::default(),
        };
        Project {
            _tmp: tmp,
            root,
            outside: outside.canonicalize().unwrap(),
            ctx,
        }
    }

    fn write(&self, rel: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        path
    }

    fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.root.join(rel)).unwrap()
    }

    async fn call(&self, tool: &dyn Tool, args: Value) -> ToolOutcome {
        tool.execute(args.as_object().unwrap(), &self.ctx).await
    }

    async fn ok(&self, tool: &dyn Tool, args: Value) -> ToolOutput {
        match self.call(tool, args).await {
            ToolOutcome::Ok(out) => out,
            other => panic!("expected Ok, got {other:?}"),
        }
    }

    async fn failed(&self, tool: &dyn Tool, args: Value) -> String {
        match self.call(tool, args).await {
            ToolOutcome::Failed { reason } => reason,
            other => panic!("expected Failed, got {other:?}"),
        }
    }

    async fn denied(&self, tool: &dyn Tool, args: Value) -> (String, String) {
        match self.call(tool, args).await {
            ToolOutcome::Denied { code, reason } => (code, reason),
            other => panic!("expected Denied, got {other:?}"),
        }
    }
}

fn numbered(from: usize, to: usize) -> String {
    (from..=to).map(|i| format!("line {i}\n")).collect()
}

fn dir_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

// ---------- schemas ----------

#[test]
fn schemas_have_the_spec_shape_and_stay_small() {
    let tools: Vec<Box<dyn Tool>> = vec![
        Box::new(ReadFile),
        Box::new(WriteFile),
        Box::new(EditFile),
        Box::new(ListDir),
        Box::new(GlobFiles),
        Box::new(GrepCode),
    ];
    let mut bytes = 0;
    for tool in &tools {
        let schema = tool.parameters();
        assert_eq!(schema["type"], "object", "{}", tool.name());
        for (name, prop) in schema["properties"].as_object().unwrap() {
            assert!(prop["type"].is_string(), "{}.{name}", tool.name());
            assert!(prop["description"].is_string(), "{}.{name}", tool.name());
        }
        for required in schema["required"].as_array().unwrap() {
            assert!(
                schema["properties"]
                    .get(required.as_str().unwrap())
                    .is_some()
            );
        }
        bytes += schema.to_string().len() + tool.description().len() + tool.name().len();
    }
    assert!(
        bytes < 6000,
        "fs/edit/search tool definitions take {bytes} bytes"
    );
    let parallel: Vec<&str> = tools
        .iter()
        .filter(|t| t.parallel_safe())
        .map(|t| t.name())
        .collect();
    assert_eq!(
        parallel,
        vec!["read_file", "list_dir", "glob_files", "grep_code"]
    );
    assert_eq!(
        EditFile.parameters()["required"],
        json!(["path", "old_text", "new_text"])
    );
}

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

// ---------- glob_files ----------

fn search_project() -> Project {
    let p = Project::new();
    p.write("Hello.java", "class Hello {\n  // TODO greet\n}\n");
    p.write("src/main/App.java", "class App {\n  void run() {}\n}\n");
    p.write("src/util/Strings.java", "class Strings {}\n");
    p.write("src/lib.rs", "fn main() {\n    println!(\"hello\");\n}\n");
    p.write("target/Gen.java", "class Gen {} // TODO\n");
    p.write("node_modules/m/index.js", "// TODO\n");
    p.write("generated/Out.java", "class Out {} // TODO\n");
    p.write("logo.png", b"\x89PNG\r\n\x1a\n\0TODO");
    p.write(".gitignore", "generated/\n");
    p
}

#[tokio::test]
async fn glob_files_matches_names_at_any_depth_sorted_and_skips_ignored() {
    let p = search_project();
    let out = p.ok(&GlobFiles, json!({"pattern": "*.java"})).await.text;
    assert_eq!(
        out,
        "3 files match `*.java` under .:\nHello.java\nsrc/main/App.java\nsrc/util/Strings.java\n"
    );
}

#[tokio::test]
async fn glob_files_anchors_patterns_with_slash_and_honours_path() {
    let p = search_project();
    let out = p
        .ok(&GlobFiles, json!({"pattern": "main/*.java", "path": "src"}))
        .await
        .text;
    assert_eq!(
        out,
        "1 files match `main/*.java` under src:\nsrc/main/App.java\n"
    );
    let out = p
        .ok(&GlobFiles, json!({"pattern": "src/*.java"}))
        .await
        .text;
    assert_eq!(out, "No files match `src/*.java` under ..");
    let out = p
        .ok(
            &GlobFiles,
            json!({"pattern": "**/*.java", "max_results": 1}),
        )
        .await
        .text;
    assert!(
        out.contains("Hello.java\n(showing the first 1 of 3;"),
        "{out}"
    );
    let reason = p.failed(&GlobFiles, json!({"pattern": "a[b"})).await;
    assert!(reason.starts_with("invalid glob pattern `a[b`"), "{reason}");
}

// ---------- grep_code ----------

#[tokio::test]
async fn grep_code_reports_hits_with_context_and_suggested_reads() {
    let p = search_project();
    let out = p
        .ok(
            &GrepCode,
            json!({"pattern": "println!(", "context_lines": 1}),
        )
        .await
        .text;
    assert_eq!(
        out,
        "1 match in 1 file\n\n\
         src/lib.rs:2\n      1 | fn main() {\n>     2 |     println!(\"hello\");\n      3 | }\n\n\
         suggested_reads:\n- read_file {\"path\":\"src/lib.rs\",\"offset\":1,\"limit\":80}\n"
    );
}

#[tokio::test]
async fn grep_code_skips_ignored_build_and_binary_files() {
    let p = search_project();
    let out = p.ok(&GrepCode, json!({"pattern": "TODO"})).await.text;
    assert_eq!(
        out,
        "1 match in 1 file\n\nHello.java:2\n>     2 |   // TODO greet\n\n\
         suggested_reads:\n- read_file {\"path\":\"Hello.java\",\"offset\":1,\"limit\":80}\n"
    );
}

#[tokio::test]
async fn grep_code_regex_case_and_glob_options() {
    let p = search_project();
    let out = p
        .ok(
            &GrepCode,
            json!({"pattern": "^class \\w+ \\{$", "regex": true, "glob": "*.java", "path": "src"}),
        )
        .await
        .text;
    assert!(
        out.starts_with("1 match in 1 file\n\nsrc/main/App.java:1\n"),
        "{out}"
    );
    let out = p
        .ok(
            &GrepCode,
            json!({"pattern": "HELLO", "case_sensitive": false, "glob": "*.rs"}),
        )
        .await
        .text;
    assert!(out.contains("src/lib.rs:2"), "{out}");
    let reason = p
        .failed(&GrepCode, json!({"pattern": "(unclosed", "regex": true}))
        .await;
    assert!(reason.starts_with("invalid regex `(unclosed`"), "{reason}");
}

#[tokio::test]
async fn grep_code_marks_partial_when_head_limit_cuts() {
    let p = Project::new();
    let text: String = (1..=30).map(|i| format!("hit {i}\n")).collect();
    p.write("many.txt", &text);
    p.write("more.txt", "hit\n");
    let out = p
        .ok(
            &GrepCode,
            json!({"pattern": "hit", "head_limit": 2, "max_results": 3}),
        )
        .await
        .text;
    assert!(out.starts_with("3 matches in 2 files\n"), "{out}");
    assert!(
        out.contains("partial: true (head_limit=2 per file reached;"),
        "{out}"
    );
    assert!(out.contains("- read_file {\"path\":\"more.txt\",\"offset\":1,\"limit\":80}"));
}

#[tokio::test]
async fn grep_code_stops_when_cancelled() {
    let p = search_project();
    p.ctx.cancel.cancel();
    let outcome = p.call(&GrepCode, json!({"pattern": "TODO"})).await;
    assert!(
        matches!(outcome, ToolOutcome::Cancelled { .. }),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn glob_files_stops_when_cancelled() {
    let p = search_project();
    p.ctx.cancel.cancel();
    let outcome = p.call(&GlobFiles, json!({"pattern": "*.java"})).await;
    assert!(
        matches!(outcome, ToolOutcome::Cancelled { .. }),
        "{outcome:?}"
    );
}

#[tokio::test]
async fn search_tools_refuse_paths_outside() {
    let p = search_project();
    let (code, _) = p
        .denied(&GrepCode, json!({"pattern": "x", "path": "../outside"}))
        .await;
    assert_eq!(code, "PATH_OUT_OF_BOUNDS");
    let (code, _) = p
        .denied(&GlobFiles, json!({"pattern": "*", "path": "/"}))
        .await;
    assert_eq!(code, "PATH_OUT_OF_BOUNDS");
}
