//! pyright and clangd, started on demand, report the problems an edit introduced; fixing them injects nothing.

use std::time::{Duration, Instant};

use super::*;

/// Real servers are cold on first use (pyright loads node and its typeshed): give them room.
const WAIT: Duration = Duration::from_secs(20);

#[tokio::test]
async fn pyright_reports_an_undefined_name_and_the_fix_injects_nothing() {
    if !require("pyright-langserver") {
        return;
    }
    let project = Project::new();
    let lsp = project.manager(&[], WAIT);

    let files = project
        .write(
            "app/main.py",
            "def greet(name):\n    return \"hi \" + name\n",
        )
        .await;
    let started = Instant::now();
    assert_eq!(check(&lsp, &files).await, None);
    eprintln!("pyright clean: {:?}", started.elapsed());

    let files = project.replace("app/main.py", "+ name", "+ nme").await;
    let started = Instant::now();
    let text = check(&lsp, &files).await.expect("diagnostics injected");
    eprintln!("pyright broken: {:?}\n{text}", started.elapsed());
    assert!(text.starts_with("[LSP diagnostics]"), "{text}");
    assert!(text.contains("app/main.py:2:"), "{text}");
    assert!(text.contains("\"nme\" is not defined"), "{text}");
    assert!(text.contains("(pyright)"), "{text}");

    let files = project.replace("app/main.py", "+ nme", "+ name").await;
    assert_eq!(check(&lsp, &files).await, None);
    lsp.close().await;
}

#[tokio::test]
async fn clangd_reports_a_missing_semicolon_and_the_fix_injects_nothing() {
    if !require("clangd") {
        return;
    }
    let project = Project::new();
    let lsp = project.manager(&[], WAIT);

    let files = project
        .write(
            "src/main.c",
            "int main(void) {\n    int x = 1;\n    return x;\n}\n",
        )
        .await;
    assert_eq!(check(&lsp, &files).await, None);

    let files = project
        .replace("src/main.c", "int x = 1;", "int x = 1")
        .await;
    let started = Instant::now();
    let text = check(&lsp, &files).await.expect("diagnostics injected");
    eprintln!("clangd broken: {:?}\n{text}", started.elapsed());
    // clangd puts the error where the next token starts (line 3) and capitalizes it: "Expected ';' at end ...".
    assert!(text.contains("error src/main.c:"), "{text}");
    assert!(text.to_lowercase().contains("expected ';'"), "{text}");
    assert!(text.contains("(clangd)"), "{text}");

    let files = project
        .replace("src/main.c", "int x = 1", "int x = 1;")
        .await;
    assert_eq!(check(&lsp, &files).await, None);
    lsp.close().await;
}
