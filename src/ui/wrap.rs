//! Two-column tables for command output (a name and its description), built on the wrapping core in
//! [`crate::ui::render`]; continuation lines stay under the description.

use crate::ui::render::{visible_width, wrap, wrap_hanging};

/// The widest first column a two-column table pads to; longer names put their description on the next line.
pub const MAX_NAME_COLUMN: usize = 28;

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
    let widest = rows
        .iter()
        .map(|r| visible_width(r.name))
        .max()
        .unwrap_or(0);
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
        let name_width = visible_width(row.name);
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
        assert!(lines.iter().all(|l| visible_width(l) <= 60), "{lines:#?}");
    }
}
