//! Diffs as a person reads them: after a write or edit, and before the approval question. Hunks coloured, file
//! headers dropped, every line made visible (no control character reaches the terminal), long diffs folded.

use similar::TextDiff;

use super::Style;
use crate::text::{Lang, Msg, tr};

/// Most diff lines shown inline; the rest are counted.
pub const MAX_LINES: usize = 40;

/// A unified diff of `old` → `new` with three lines of context (no file headers).
pub fn unified_diff(old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .to_string()
}

/// Renders a unified diff as indented, coloured lines.
pub fn render_diff(unified: &str, style: Style) -> Vec<String> {
    render_diff_in(unified, style, Lang::En)
}

/// [`render_diff`] with the fold notice in `lang`.
pub fn render_diff_in(unified: &str, style: Style, lang: Lang) -> Vec<String> {
    let body: Vec<&str> = unified
        .lines()
        .filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ "))
        .collect();
    let mut out: Vec<String> = body
        .iter()
        .take(MAX_LINES)
        .map(|line| diff_line(line, style))
        .collect();
    if body.len() > MAX_LINES {
        let notice = more_lines_notice(lang, body.len() - MAX_LINES);
        out.push(format!("    {}", style.dim(&notice)));
    }
    out
}

/// "… n more lines" under a folded diff or file, in the singular for one.
pub fn more_lines_notice(lang: Lang, more: usize) -> String {
    if more == 1 {
        tr(lang, Msg::DiffOneMoreLine).to_string()
    } else {
        tr(lang, Msg::DiffMoreLines).replace("{n}", &more.to_string())
    }
}

/// Every line of a unified diff, rendered as [`render_diff`] renders the first ones (the approval prompt's
/// whole view).
pub fn render_diff_all(unified: &str, style: Style) -> Vec<String> {
    unified
        .lines()
        .filter(|l| !l.starts_with("--- ") && !l.starts_with("+++ "))
        .map(|line| diff_line(line, style))
        .collect()
}

fn diff_line(line: &str, style: Style) -> String {
    let line = &crate::text::visible(line);
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_diff_folds_with_a_count_in_either_language() {
        let old: String = (1..=100).map(|i| format!("a{i}\n")).collect();
        let new: String = (1..=100).map(|i| format!("b{i}\n")).collect();
        let unified = unified_diff(&old, &new);
        let plain = Style::new(false);
        let en = render_diff_in(&unified, plain, Lang::En);
        assert_eq!(en.len(), MAX_LINES + 1);
        assert_eq!(en[0], "    @@ -1,100 +1,100 @@");
        // 1 hunk header + 100 removed + 100 added lines; 40 shown.
        assert_eq!(en[MAX_LINES], "    … 161 more lines");
        let zh = render_diff_in(&unified, plain, Lang::Zh);
        assert_eq!(zh[MAX_LINES], "    … 还有 161 行");
    }

    #[test]
    fn context_is_three_lines_and_control_characters_are_shown_safely() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\n";
        let new = "a\nb\nc\nd\nE\u{1b}[2J\nf\ng\nh\n";
        let lines = render_diff(&unified_diff(old, new), Style::new(false));
        assert_eq!(
            lines,
            [
                "    @@ -2,7 +2,7 @@",
                "     b",
                "     c",
                "     d",
                "    -e",
                "    +E<U+001B>[2J",
                "     f",
                "     g",
                "     h",
            ]
        );
    }

    #[test]
    fn one_more_line_is_singular() {
        assert_eq!(more_lines_notice(Lang::En, 1), "… 1 more line");
        assert_eq!(more_lines_notice(Lang::En, 2), "… 2 more lines");
        assert_eq!(more_lines_notice(Lang::Zh, 1), "… 还有 1 行");
    }
}
