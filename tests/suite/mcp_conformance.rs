//! The official MCP client conformance suite (`@modelcontextprotocol/conformance`, installed into
//! `.ci/conformance` by `scripts/test` with Node 22 from npm) against the built binary. The client under test is
//! `tests/fixtures/mcp/conformance/client.py`: it writes an `mcp.json` for the scenario's URL, logs in for
//! `auth/*`, and runs `paicli -p` against a scripted model that calls the server's tool. Scenarios paicli does not
//! pass yet are listed in `baseline.yml` beside it; the suite fails on any other failure and on a listed scenario
//! that starts passing.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::skip_missing_peer;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Node 22 and the suite's entry point, or `None` (with a message; a failure under CI) when not installed.
fn suite() -> Option<(PathBuf, PathBuf)> {
    let root = std::env::var_os("PAICLI_TEST_CONFORMANCE")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join(".ci/conformance"));
    let node = root.join("node_modules/.bin/node");
    let entry = root.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    if node.exists() && entry.exists() {
        return Some((node, entry));
    }
    skip_missing_peer(format_args!(
        "the MCP conformance suite is not installed under {} (run scripts/test)",
        root.display()
    ));
    None
}

fn python() -> String {
    std::env::var("PAICLI_TEST_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// Runs `conformance client` with `args`; returns whether it exited 0 and its output.
fn run(node: &Path, entry: &Path, args: &[&str]) -> (bool, String) {
    let fixture = crate_dir().join("tests/fixtures/mcp/conformance");
    let client = format!("{} {}", python(), fixture.join("client.py").display());
    let out_dir = tempfile::tempdir().unwrap();
    let output = Command::new(node)
        .arg(entry)
        .args(["client", "--command", &client])
        .args(args)
        .arg("-o")
        .arg(out_dir.path())
        .env("PAICLI_BIN", env!("CARGO_BIN_EXE_paicli"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(40)..].join("\n")
}

/// A 2025-03-26 server (no protected-resource metadata, root metadata whose issuer has a path) stays usable after
/// `paicli mcp login`: the later connection discovers the way the login did, and the tool call succeeds. A scope
/// step-up ends in a successful call too; a scope never granted fails the call with a plain sentence.
#[test]
fn oauth_servers_stay_usable_after_login() {
    let Some((node, entry)) = suite() else { return };
    for scenario in [
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/scope-step-up",
        "auth/scope-retry-limit",
    ] {
        let (ok, text) = run(&node, &entry, &["--scenario", scenario]);
        assert!(
            ok,
            "conformance scenario {scenario} failed:\n{}",
            tail(&text)
        );
    }
}

#[test]
fn the_client_scenarios_pass() {
    let Some((node, entry)) = suite() else { return };
    // One at a time: `sse-retry` measures the reconnect delay, which a loaded machine stretches.
    for scenario in [
        "initialize",
        "tools_call",
        "elicitation-sep1034-client-defaults",
        "sse-retry",
    ] {
        let (ok, text) = run(&node, &entry, &["--scenario", scenario]);
        assert!(
            ok,
            "conformance scenario {scenario} failed:\n{}",
            tail(&text)
        );
    }
    let baseline = crate_dir().join("tests/fixtures/mcp/conformance/baseline.yml");
    // Every `auth/*` scenario (22): the core OAuth suite, the 2025-03-26 back-compat pair, the extensions
    // (client credentials with a secret or private_key_jwt, enterprise-managed cross-app access) and the draft
    // ones (resource mismatch, offline_access).
    for suite in ["auth", "backcompat", "extensions", "draft"] {
        let (ok, text) = run(
            &node,
            &entry,
            &[
                "--suite",
                suite,
                "--expected-failures",
                baseline.to_str().unwrap(),
            ],
        );
        assert!(ok, "conformance {suite} suite:\n{}", tail(&text));
    }
}
