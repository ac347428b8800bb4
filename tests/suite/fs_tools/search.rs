//! glob_files and grep_code.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use paicli::tools::ToolOutcome;
use paicli::tools::search::{GlobFiles, GrepCode};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::Project;

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

#[tokio::test]
async fn grep_code_lists_files_in_walk_order_and_caps_across_them() {
    let p = Project::new();
    for name in ["b.txt", "a/z.txt", "a.txt", "a/b.txt", "c/d/e.txt"] {
        p.write(name, "needle\n");
    }
    p.write("d.txt", "nothing here\n");
    let out = p.ok(&GrepCode, json!({"pattern": "needle"})).await.text;
    let heads: Vec<&str> = out.lines().filter(|l| l.ends_with(":1")).collect();
    assert_eq!(
        heads,
        vec![
            "a/b.txt:1",
            "a/z.txt:1",
            "a.txt:1",
            "b.txt:1",
            "c/d/e.txt:1"
        ]
    );
    // The cap is reached at the last file with hits; a file searched after it still marks the output partial.
    let out = p
        .ok(&GrepCode, json!({"pattern": "needle", "max_results": 5}))
        .await
        .text;
    assert!(
        out.contains("partial: true (max_results=5 reached;"),
        "{out}"
    );
    let out = p
        .ok(&GrepCode, json!({"pattern": "needle", "max_results": 2}))
        .await
        .text;
    assert!(out.starts_with("2 matches in 2 files\n"), "{out}");
    assert!(
        out.contains("partial: true (max_results=2 reached;"),
        "{out}"
    );
}
