//! Search tools: `glob_files` (paths by glob), `grep_code` (lines by text or regex) and `search_code` (the
//! code index).

mod glob;
mod grep;
mod path_glob;
mod report;
mod scan;
mod search_code;

pub use glob::GlobFiles;
pub use grep::GrepCode;
pub use search_code::SearchCode;

/// Clamps an optional integer argument into `min..=max`, using `default` when absent.
fn clamp_arg(value: Option<i64>, default: usize, min: usize, max: usize) -> usize {
    value
        .map_or(default, |v| usize::try_from(v).unwrap_or(min))
        .clamp(min, max)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::sync::Arc;

    use serde_json::{Map, Value, json};
    use tokio_util::sync::CancellationToken;

    use crate::guard::path_guard::PathGuard;
    use crate::tools::{Args, SpillStore, ToolContext, ToolLimits, ToolOutcome};

    /// A context over `root` whose turn is already cancelled, so the walk loops must notice.
    fn cancelled_context(root: &std::path::Path) -> ToolContext {
        let guard = PathGuard::new(root).unwrap();
        let cancel = CancellationToken::new();
        cancel.cancel();
        ToolContext {
            root: guard.root().to_path_buf(),
            guard: Arc::new(guard),
            spill: Arc::new(SpillStore::new(root, true, 32000)),
            cancel,
            limits: ToolLimits::default(),
            gates: Vec::new(),
            progress: crate::tools::Progress::default(),
            files: None,
            delegation: None,
        }
    }

    fn args(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn walks_stop_when_the_turn_is_cancelled() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.rs"), "fn a() {}\n").unwrap();
        let ctx = cancelled_context(tmp.path());
        let glob = super::glob::glob_files(Args(&args(json!({"pattern": "*.rs"}))), &ctx);
        assert!(
            matches!(glob, Ok(ToolOutcome::Cancelled { .. })),
            "{glob:?}"
        );
        let grep = super::grep::grep_code(Args(&args(json!({"pattern": "fn"}))), &ctx);
        assert!(
            matches!(grep, Err(ToolOutcome::Cancelled { .. })),
            "{grep:?}"
        );
    }
}
