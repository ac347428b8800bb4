//! Plain-text layout for command output: prose wrapped at word boundaries (CJK may break between characters)
//! and two-column tables (a name and its description) whose continuation lines stay under the description.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The widest first column a two-column table pads to; longer names put their description on the next line.
pub const MAX_NAME_COLUMN: usize = 28;

/// Display width of `text` in terminal cells.
pub fn width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// Wide (CJK) characters are words of their own: a line may break before or after any of them.
fn is_wide(c: char) -> bool {
    UnicodeWidthChar::width(c).unwrap_or(0) >= 2
}

/// Punctuation a line may not start with (Chinese line-breaking rules), such as `，`, `。` and `）`.
fn is_closing(c: char) -> bool {
    "，。、；：？！）》」』】,.;:?!)".contains(c)
}

/// Punctuation a line may not end with, such as `（` and `「`.
fn is_opening(c: char) -> bool {
    "（《「『【(".contains(c)
}

/// Splits a paragraph into pieces a line may break between: runs of non-space narrow characters, single wide
/// characters (kept together with closing punctuation after them and opening punctuation before them), and the
/// spaces between them (kept, so the caller decides whether a break eats them).
fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        if let Some(p) = prev {
            let space_change = p.is_whitespace() != c.is_whitespace();
            let wide = (is_wide(p) || is_wide(c)) && !is_closing(c) && !is_opening(p);
            let boundary = space_change || (wide && !p.is_whitespace() && !c.is_whitespace());
            if boundary {
                out.push(&text[start..i]);
                start = i;
            }
        }
        prev = Some(c);
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// Wraps `text` to lines of at most `max` cells, breaking at spaces (and around wide characters); a word longer
/// than a line is cut. Each input line is wrapped on its own; an empty input line stays an empty line.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    text.split('\n')
        .flat_map(|paragraph| wrap_paragraph(paragraph, max, max))
        .collect()
}

/// Wraps `text` to `total` cells with every line after the first indented by `indent` spaces (list items, notes).
pub fn wrap_hanging(text: &str, total: usize, indent: usize) -> Vec<String> {
    let margin = " ".repeat(indent);
    text.split('\n')
        .flat_map(|paragraph| {
            let mut lines = wrap_paragraph(paragraph, total, total.saturating_sub(indent));
            for line in lines.iter_mut().skip(1) {
                line.insert_str(0, &margin);
            }
            lines
        })
        .collect()
}

/// One paragraph: the first line at most `first` cells, the others at most `rest`.
fn wrap_paragraph(paragraph: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut line_width = 0;
    let max_of = |lines: &Vec<String>| if lines.is_empty() { first } else { rest }.max(1);
    for piece in pieces(paragraph) {
        let max = max_of(&lines);
        let piece_width = width(piece);
        if piece.starts_with(char::is_whitespace) {
            // Spaces at a break vanish; the paragraph's own indentation and spaces inside a line are kept.
            let indentation = lines.is_empty() && line.is_empty();
            if indentation || (line_width > 0 && line_width + piece_width < max) {
                line.push_str(piece);
                line_width += piece_width;
            }
            continue;
        }
        if line_width + piece_width > max && !line.trim().is_empty() {
            lines.push(std::mem::take(&mut line).trim_end().to_string());
            line_width = 0;
        }
        if piece_width > max_of(&lines) {
            for c in piece.chars() {
                let w = UnicodeWidthChar::width(c).unwrap_or(0);
                if line_width + w > max_of(&lines) && line_width > 0 {
                    lines.push(std::mem::take(&mut line));
                    line_width = 0;
                }
                line.push(c);
                line_width += w;
            }
        } else {
            line.push_str(piece);
            line_width += piece_width;
        }
    }
    lines.push(line.trim_end().to_string());
    lines
}

/// One row of a two-column table.
pub struct Row<'a> {
    pub name: &'a str,
    pub description: &'a str,
}

/// Lays out `rows` in two columns within `total` cells: `indent` spaces, the name padded to the widest name
/// (capped at [`MAX_NAME_COLUMN`] and a third of the screen), two spaces, the description wrapped at word boundaries with continuation lines
/// under the description column. A name wider than the cap gets its description on the next line (and wraps
/// itself when wider than the screen). `dim` styles
/// each description line (colour codes are added after wrapping, so they never count as width).
pub fn two_columns(
    rows: &[Row<'_>],
    total: usize,
    indent: usize,
    dim: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let widest = rows.iter().map(|r| width(r.name)).max().unwrap_or(0);
    // On a narrow screen the name column takes at most a third of it.
    let name_column = widest.min(MAX_NAME_COLUMN).min(total / 3);
    let gap = 2;
    let desc_at = indent + name_column + gap;
    // A screen too narrow for two columns gets descriptions under their names.
    let desc_width = total.saturating_sub(desc_at).max(20);
    let margin = " ".repeat(indent);
    let mut out = Vec::new();
    for row in rows {
        let desc = wrap(row.description, desc_width);
        let name_width = width(row.name);
        let mut desc_lines = desc.iter();
        if name_width <= name_column {
            let pad = " ".repeat(name_column - name_width + gap);
            let first = desc_lines.next().map(|d| dim(d)).unwrap_or_default();
            out.push(
                format!("{margin}{}{pad}{first}", row.name)
                    .trim_end()
                    .to_string(),
            );
        } else {
            // A name too wide for the screen wraps too, its own continuation indented a little.
            for line in wrap_hanging(row.name, total.saturating_sub(indent), 2) {
                out.push(format!("{margin}{line}"));
            }
        }
        for line in desc_lines {
            out.push(format!("{}{}", " ".repeat(desc_at), dim(line)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(t: &str) -> String {
        t.to_string()
    }

    #[test]
    fn prose_breaks_at_spaces_and_never_inside_a_word() {
        let lines = wrap(
            "show the effective configuration and where each value came from",
            20,
        );
        assert_eq!(
            lines,
            vec![
                "show the effective",
                "configuration and",
                "where each value",
                "came from"
            ]
        );
        assert!(lines.iter().all(|l| width(l) <= 20));
    }

    #[test]
    fn chinese_breaks_between_characters_and_counts_double_width() {
        let lines = wrap("显示生效配置及来源；带过滤词时显示各项说明", 10);
        assert_eq!(
            lines,
            vec!["显示生效配", "置及来源；", "带过滤词时", "显示各项说", "明"]
        );
        let mixed = wrap("切换 model 后 /cost 仍然准确", 12);
        assert!(mixed.iter().all(|l| width(l) <= 12), "{mixed:?}");
        assert!(mixed.iter().any(|l| l.contains("model")), "{mixed:?}");
    }

    #[test]
    fn chinese_punctuation_stays_with_its_character() {
        // A closing mark never starts a line, an opening one never ends it.
        assert_eq!(wrap("来源；带过滤", 4), vec!["来", "源；", "带过", "滤"]);
        assert_eq!(wrap("新对话（清空）", 6), vec!["新对话", "（清", "空）"]);
    }

    #[test]
    fn a_word_longer_than_the_line_is_cut() {
        assert_eq!(wrap("abcdefghij xy", 4), vec!["abcd", "efgh", "ij", "xy"]);
    }

    #[test]
    fn indentation_is_kept() {
        assert_eq!(wrap("  * other-model", 40), vec!["  * other-model"]);
        // An indented word too long for the line is cut, not pushed below an empty line.
        assert_eq!(wrap("  abcdefgh", 6), vec!["  abcd", "efgh"]);
        assert_eq!(
            wrap_hanging("  id  one two three", 12, 4),
            vec!["  id  one", "    two", "    three"]
        );
    }

    #[test]
    fn line_breaks_in_the_input_are_kept() {
        assert_eq!(wrap("one\n\ntwo", 10), vec!["one", "", "two"]);
    }

    #[test]
    fn hanging_lines_are_indented() {
        let lines = wrap_hanging("- one two three four five", 12, 2);
        assert_eq!(lines, vec!["- one two", "  three four", "  five"]);
    }

    #[test]
    fn continuation_lines_sit_under_the_description_and_long_names_are_capped() {
        let long = "/memory [list|search <q>|delete <id>]";
        let rows = [
            Row {
                name: "/help",
                description: "show commands and keys",
            },
            Row {
                name: long,
                description: "show and manage long-term memory across sessions",
            },
        ];
        let lines = two_columns(&rows, 60, 2, &plain);
        // 60 columns: the name column is capped at a third of the screen.
        let col = 2 + 60 / 3 + 2;
        assert_eq!(
            lines[0],
            format!("  /help{}show commands and keys", " ".repeat(col - 7))
        );
        assert_eq!(lines[1], format!("  {long}"));
        assert!(
            lines[2..].iter().all(|l| l.starts_with(&" ".repeat(col))),
            "{lines:#?}"
        );
        assert!(lines.iter().all(|l| width(l) <= 60), "{lines:#?}");
    }
}
