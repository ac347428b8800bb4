//! Finds the real MCP servers `.ci/run` installs. Paths come from `PAICLI_TEST_MCP_*` (exported by `.ci/run`),
//! defaulting to where `.ci/run` puts them. Missing servers fail loudly under CI, and skip with a message
//! elsewhere.

use std::path::PathBuf;

use crate::support::skip_missing_peer;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn find(var: &str, default: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var)
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join(default));
    if path.exists() {
        return Some(path);
    }
    skip_missing_peer(format_args!(
        "MCP test peer {} not found (run .ci/run or set {var})",
        path.display()
    ));
    None
}

/// `mcp-server-everything` from npm `@modelcontextprotocol/server-everything`.
pub fn everything() -> Option<PathBuf> {
    find(
        "PAICLI_TEST_MCP_EVERYTHING",
        ".ci/node/node_modules/.bin/mcp-server-everything",
    )
}

/// `mcp-server-time` from PyPI, in the CI venv.
pub fn time_server() -> Option<PathBuf> {
    find("PAICLI_TEST_MCP_TIME", ".ci/venv/bin/mcp-server-time")
}

/// The venv's Python, which runs `tests/fixtures/mcp/peer.py`.
pub fn python() -> Option<PathBuf> {
    find("PAICLI_TEST_PYTHON", ".ci/venv/bin/python")
}

/// The scripted stdio peer.
pub fn peer_script() -> PathBuf {
    crate_dir().join("tests/fixtures/mcp/peer.py")
}
