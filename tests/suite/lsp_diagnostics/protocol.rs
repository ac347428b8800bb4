//! The protocol details against a scripted server (tests/fixtures/lsp/fake_server.js, run by node): the server's
//! requests get answers, several publishes per change settle on the last, pull is used when offered, and
//! closing the manager shuts the server down cleanly.

use std::time::Instant;

use super::*;

/// Never reached: each check ends at the settle window or the pull answer.
const WAIT: Duration = Duration::from_secs(10);

fn fake_server(project: &Project, mode: &str) -> (LspManager, PathBuf) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lsp/fake_server.js");
    let marker = project.root.join("marker.log");
    let args = [script.to_str().unwrap(), mode, marker.to_str().unwrap()];
    let lsp = project.manager(&[("fake", "node", &args, &["txt"])], WAIT);
    (lsp, marker)
}

async fn break_and_fix(project: &Project, lsp: &LspManager) {
    let files = project.write("notes.txt", "fine\nthis is BAD\n").await;
    let started = Instant::now();
    let text = check(lsp, &files).await.expect("diagnostics injected");
    // The settle window ends the wait long before WAIT.
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "took {:?}",
        started.elapsed()
    );
    assert!(
        text.contains("- error notes.txt:2:9: BAD is not allowed"),
        "{text}"
    );
    assert!(text.contains("[bad-word] (fake)"), "{text}");
    // Answers to the server's requests: one null per configuration item, null for registration and progress,
    // MethodNotFound for the unknown request.
    assert!(
        text.contains(r#""configuration":[null,null]"#)
            && text.contains(r#""register":"ok""#)
            && text.contains(r#""progress":"ok""#)
            && text.contains(r#""unknown":-32601"#),
        "{text}"
    );

    let files = project.replace("notes.txt", "BAD", "good").await;
    assert_eq!(check(lsp, &files).await, None);
}

#[tokio::test]
async fn pushed_diagnostics_settle_on_the_last_publish_and_the_server_shuts_down_cleanly() {
    if !require("node") {
        return;
    }
    let project = Project::new();
    let (lsp, marker) = fake_server(&project, "push");
    break_and_fix(&project, &lsp).await;
    assert!(
        lsp.status().to_string().contains("running"),
        "{}",
        lsp.status()
    );
    lsp.close().await;
    assert_eq!(std::fs::read_to_string(marker).unwrap(), "shutdown\nexit\n");
}

#[tokio::test]
async fn pull_diagnostics_are_used_when_the_server_offers_them() {
    if !require("node") {
        return;
    }
    let project = Project::new();
    let (lsp, marker) = fake_server(&project, "pull");
    break_and_fix(&project, &lsp).await;
    drop(lsp);
    // Dropping the manager shuts the server down on a background task.
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::fs::read_to_string(&marker).unwrap_or_default() != "shutdown\nexit\n" {
        assert!(Instant::now() < deadline, "no clean shutdown after drop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
