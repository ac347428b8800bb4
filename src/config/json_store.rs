//! Writing the small JSON stores under `$PAICLI_HOME` (project trust, MCP approvals).

use std::path::Path;

use serde::Serialize;

/// Writes `value` as pretty JSON to `path`, creating its folder. Written to a temp file first and renamed, so a
/// crash never leaves a half-written store.
pub fn write_json_store(path: &Path, value: &impl Serialize) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
