//! Without a usable server the syntax check stands in, and a bad server never delays a batch past the wait.

use std::time::{Duration, Instant};

use paicli::lsp::ServerState;

use super::*;

const WAIT: Duration = Duration::from_millis(1000);
/// Generous: the check must come back around WAIT, never after a hung server's own time.
const BOUND: Duration = Duration::from_secs(4);

const BROKEN_PY: &str = "def f(x):\n    return (x\n";

fn state(lsp: &LspManager, name: &str) -> ServerState {
    let status = lsp.status();
    status
        .servers
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} not in {status}"))
        .state
        .clone()
}

#[tokio::test]
async fn a_hanging_server_falls_back_within_the_wait() {
    let project = Project::new();
    let lsp = project.manager(&[("hang", "sleep", &["1000"], &["py"])], WAIT);
    let files = project.write("a.py", BROKEN_PY).await;
    let started = Instant::now();
    let text = check(&lsp, &files).await.expect("syntax diagnostics");
    assert!(started.elapsed() < BOUND, "took {:?}", started.elapsed());
    assert!(text.contains("error a.py:2:"), "{text}");
    assert!(text.contains("(syntax)"), "{text}");

    // The next batch waits for the same start-up (not a new one) and finds nothing new: the problem only moved.
    let files = project.replace("a.py", "def f", "\ndef f").await;
    let started = Instant::now();
    assert_eq!(check(&lsp, &files).await, None);
    assert!(started.elapsed() < BOUND, "took {:?}", started.elapsed());
    let status = lsp.status();
    assert_eq!(state(&lsp, "hang"), ServerState::Starting);
    assert_eq!(
        status
            .servers
            .iter()
            .find(|s| s.name == "hang")
            .unwrap()
            .starts,
        1
    );
    lsp.close().await;
}

#[tokio::test]
async fn a_server_that_exits_at_once_falls_back_and_is_restarted_next_time() {
    let project = Project::new();
    let lsp = project.manager(&[("gone", "true", &[], &["py"])], WAIT);
    let files = project.write("a.py", BROKEN_PY).await;
    let started = Instant::now();
    let text = check(&lsp, &files).await.expect("syntax diagnostics");
    assert!(started.elapsed() < BOUND, "took {:?}", started.elapsed());
    assert!(text.contains("(syntax)"), "{text}");
    assert!(
        matches!(state(&lsp, "gone"), ServerState::Failed(_)),
        "{}",
        lsp.status()
    );

    let files = project.write("a.py", "def g(:\n").await;
    let text = check(&lsp, &files).await.expect("syntax diagnostics");
    assert!(text.contains("error a.py:1:"), "{text}");
    assert!(matches!(state(&lsp, "gone"), ServerState::Failed(_)));
    let status = lsp.status();
    assert_eq!(
        status
            .servers
            .iter()
            .find(|s| s.name == "gone")
            .unwrap()
            .starts,
        2
    );
    assert!(status.to_string().contains("started 2 times"), "{status}");
}

#[tokio::test]
async fn without_servers_every_listed_language_gets_the_syntax_check() {
    let project = Project::new();
    let missing: Vec<(&str, &str, &[&str], &[&str])> = [
        "pyright",
        "typescript",
        "rust-analyzer",
        "clangd",
        "gopls",
        "jdtls",
    ]
    .iter()
    .map(|name| (*name, "paicli-no-such-server", &[][..], &[][..]))
    .collect();
    let lsp = project.manager(&missing, WAIT);
    let broken = [
        ("src/lib.rs", "fn main() {\n    let x = ;\n}\n"),
        ("a.py", BROKEN_PY),
        ("A.java", "class A {\n  void f() { int x = 1 }\n}\n"),
        ("a.js", "function f() {\n  return [1, 2;\n}\n"),
        ("a.ts", "const x: number = 1;\nexport { x ;\n"),
        ("main.go", "package main\n\nfunc main() {\n\tx := \n}\n"),
        ("a.c", "int main(void) {\n  return 0\n}\n"),
        ("a.cpp", "int main() { int v{1; return v; }\n"),
    ];
    let mut files = Vec::new();
    for (path, text) in broken {
        files.extend(project.write(path, text).await);
    }
    files.extend(project.write("notes.md", "# ((( not code\n").await);
    let text = check(&lsp, &files).await.expect("syntax diagnostics");
    for (path, _) in broken {
        assert!(
            text.contains(&format!(" {path}:")),
            "{path} missing in\n{text}"
        );
    }
    assert!(!text.contains("notes.md"), "{text}");
    assert_eq!(state(&lsp, "clangd"), ServerState::NotInstalled);
    let status = lsp.status().to_string();
    assert!(status.contains("not installed"), "{status}");
    assert!(status.contains("a.c:2:"), "{status}");

    // Fixing every file injects nothing, and `/lsp` then shows no problems.
    let mut files = Vec::new();
    for (path, text) in [
        ("src/lib.rs", "fn main() {}\n"),
        ("a.py", "x = 1\n"),
        ("A.java", "class A {}\n"),
        ("a.js", "let a = 1;\n"),
        ("a.ts", "let a: number = 1;\n"),
        ("main.go", "package main\n"),
        ("a.c", "int x;\n"),
        ("a.cpp", "int x;\n"),
    ] {
        files.extend(project.write(path, text).await);
    }
    assert_eq!(check(&lsp, &files).await, None);
    assert!(lsp.status().diagnostics.is_empty());
}

#[tokio::test]
async fn a_deleted_file_or_an_empty_batch_injects_nothing() {
    let project = Project::new();
    let lsp = project.manager(&[("pyright", "paicli-no-such-server", &[], &[])], WAIT);
    assert_eq!(check(&lsp, &[]).await, None);
    assert_eq!(check(&lsp, &[PathBuf::from("gone.py")]).await, None);
}
