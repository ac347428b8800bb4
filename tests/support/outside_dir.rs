//! A folder outside every root a confined command may write to, for the sandbox tests. The target dir is not
//! enough: a clone inside `/tmp` puts it under the temp dir, which commands may write to.

use std::path::PathBuf;

/// The temp dirs the sandbox leaves writable (as `sandbox::policy` lists them).
fn temp_roots() -> Vec<PathBuf> {
    [
        std::env::temp_dir(),
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
        PathBuf::from("/dev/shm"),
    ]
    .into_iter()
    .filter_map(|p| p.canonicalize().ok())
    .collect()
}

/// A fresh folder beneath the target dir or the home folder, whichever lies outside the temp dirs; `None` (with
/// the reason on stderr) when both are inside them.
pub fn outside_dir() -> Option<tempfile::TempDir> {
    let temps = temp_roots();
    let candidates = [
        Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR"))),
        std::env::var_os("HOME").map(PathBuf::from),
    ];
    for base in candidates.into_iter().flatten() {
        let Ok(real) = base.canonicalize() else {
            continue;
        };
        if temps.iter().any(|t| real.starts_with(t)) {
            continue;
        }
        if let Ok(dir) = tempfile::Builder::new()
            .prefix(".paicli-outside-")
            .tempdir_in(&real)
        {
            return Some(dir);
        }
    }
    eprintln!(
        "skipped: no folder outside the temp dirs to write to (the target dir and HOME are both inside them)"
    );
    None
}
