//! Search tools: `glob_files` (paths by glob) and `grep_code` (lines by text or regex).

mod glob;
mod grep;
mod report;
mod walk;

pub use glob::GlobFiles;
pub use grep::GrepCode;

/// Clamps an optional integer argument into `min..=max`, using `default` when absent.
fn clamp_arg(value: Option<i64>, default: usize, min: usize, max: usize) -> usize {
    value
        .map_or(default, |v| usize::try_from(v).unwrap_or(min))
        .clamp(min, max)
}
