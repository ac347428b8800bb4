//! The `tokio` crate's source, which the cargo registry holds because paicli depends on it: a real codebase
//! nobody here wrote, for the code index's quality test and its benchmark.
//!
//! Self-contained (only std and serde_json) so the benchmark can include it with
//! `#[path = "../tests/support/tokio_source.rs"] mod tokio_source;`.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

/// The source directory of the `tokio` package paicli builds against, found through `cargo metadata`.
pub fn tokio_source() -> PathBuf {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let manifest = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "tokio")
        .and_then(|p| p["manifest_path"].as_str())
        .expect("tokio is a dependency");
    Path::new(manifest).parent().unwrap().to_path_buf()
}

/// Copies the tree at `from` to `to` (the registry directory is shared: it is indexed in a copy, never in place).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
