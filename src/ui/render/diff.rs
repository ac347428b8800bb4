//! The inline diff shown after a write or edit: hunks coloured, file headers dropped, long diffs folded.

use super::Style;

/// Most diff lines shown inline; the rest are counted.
const MAX_LINES: usize = 40;

/// Renders a unified diff as indented, coloured lines.
pub fn render_diff(unified: &str, style: Style) -> Vec<String> {
    let body: Vec<&str> = unified
        .lines()
        .filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ "))
        .collect();
    let mut out: Vec<String> = body
        .iter()
        .take(MAX_LINES)
        .map(|line| {
            let styled = if line.starts_with("@@") {
                style.cyan(line)
            } else if line.starts_with('+') {
                style.green(line)
            } else if line.starts_with('-') {
                style.red(line)
            } else {
                style.dim(line)
            };
            format!("    {styled}")
        })
        .collect();
    if body.len() > MAX_LINES {
        let more = body.len() - MAX_LINES;
        out.push(format!(
            "    {}",
            style.dim(&format!("… {more} more lines"))
        ));
    }
    out
}
