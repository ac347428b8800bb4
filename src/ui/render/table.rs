//! Tables fitted to the terminal width by display width (CJK characters take two columns); long cells wrap.

use pulldown_cmark::Alignment;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::Style;

/// Narrowest a column is squeezed to before the table is allowed to overflow.
const MIN_COLUMN: usize = 4;

/// Draws `rows` (the first `header_rows` are the header) in a box no wider than `width` when possible.
pub(super) fn render_table(
    rows: &[Vec<String>],
    aligns: &[Alignment],
    header_rows: usize,
    width: usize,
    style: Style,
) -> Vec<String> {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    if columns == 0 {
        return Vec::new();
    }
    let mut widths = vec![1usize; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.width());
        }
    }
    fit(&mut widths, width);

    let border = |left: &str, mid: &str, right: &str| {
        let parts: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
        style.dim(&format!("{left}{}{right}", parts.join(mid)))
    };
    let bar = style.dim("│");
    let mut out = vec![border("┌", "┬", "┐")];
    for (r, row) in rows.iter().enumerate() {
        let wrapped: Vec<Vec<String>> = (0..columns)
            .map(|c| wrap(row.get(c).map_or("", String::as_str), widths[c]))
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1);
        for l in 0..height {
            let mut line = bar.clone();
            for (c, cell_lines) in wrapped.iter().enumerate() {
                let text = cell_lines.get(l).map_or("", String::as_str);
                let align = aligns.get(c).copied().unwrap_or(Alignment::None);
                let padded = pad(text, widths[c], align);
                let padded = if r < header_rows {
                    style.bold(&padded)
                } else {
                    padded
                };
                line.push(' ');
                line.push_str(&padded);
                line.push(' ');
                line.push_str(&bar);
            }
            out.push(line);
        }
        if r + 1 == header_rows && rows.len() > header_rows {
            out.push(border("├", "┼", "┤"));
        }
    }
    out.push(border("└", "┴", "┘"));
    out
}

/// Shrinks the widest columns one cell at a time until the table fits (or every column is at the minimum).
fn fit(widths: &mut [usize], width: usize) {
    // "│ " before each column, " " after it, and the closing "│".
    let overhead = widths.len() * 3 + 1;
    let budget = width.saturating_sub(overhead);
    while widths.iter().sum::<usize>() > budget {
        let Some((i, w)) = widths.iter().copied().enumerate().max_by_key(|(_, w)| *w) else {
            return;
        };
        if w <= MIN_COLUMN {
            return;
        }
        widths[i] = w - 1;
    }
}

fn pad(text: &str, width: usize, align: Alignment) -> String {
    let room = width.saturating_sub(text.width());
    let (left, right) = match align {
        Alignment::Right => (room, 0),
        Alignment::Center => (room / 2, room - room / 2),
        Alignment::Left | Alignment::None => (0, room),
    };
    format!("{}{text}{}", " ".repeat(left), " ".repeat(right))
}

/// Word-wraps `text` to `width` display columns; a word wider than a line is broken between characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut line_width = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let w = word.width();
        let gap = usize::from(line_width > 0);
        if line_width + gap + w <= width {
            if gap == 1 {
                line.push(' ');
            }
            line.push_str(word);
            line_width += gap + w;
            continue;
        }
        if line_width > 0 {
            lines.push(std::mem::take(&mut line));
            line_width = 0;
        }
        for ch in word.chars() {
            let cw = ch.width().unwrap_or(0);
            if line_width + cw > width && line_width > 0 {
                lines.push(std::mem::take(&mut line));
                line_width = 0;
            }
            line.push(ch);
            line_width += cw;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_cells_are_padded_by_display_width() {
        let rows = vec![
            vec!["名字".to_string(), "x".to_string()],
            vec!["ab".to_string(), "值".to_string()],
        ];
        let out = render_table(&rows, &[], 1, 80, Style::new(false));
        for line in &out {
            assert_eq!(line.width(), out[0].width(), "{line}");
        }
    }

    #[test]
    fn wide_tables_shrink_to_the_width() {
        let long = "word ".repeat(30);
        let rows = vec![vec!["a".to_string(), long.trim().to_string()]];
        let out = render_table(&rows, &[], 0, 40, Style::new(false));
        assert!(out.iter().all(|l| l.width() <= 40), "{out:#?}");
        assert!(out.len() > 3);
    }

    #[test]
    fn long_words_break_between_characters() {
        assert_eq!(wrap("中文中文中文", 4), vec!["中文", "中文", "中文"]);
        assert_eq!(wrap("abcdef", 4), vec!["abcd", "ef"]);
    }
}
