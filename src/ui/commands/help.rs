//! `/help`: the command table in two columns (command, description) and the keys, wrapped to the terminal.

use super::{COMMANDS, Command};
use crate::text::{Lang, Msg, tr};
use crate::ui::render::Style;
use crate::ui::render::wrap_hanging;
use crate::ui::wrap::{Row, two_columns};

/// Spaces before each command.
const INDENT: usize = 2;

/// The keys `/help` explains, in order.
const KEYS: &[Msg] = &[
    Msg::KeyStop,
    Msg::KeyExit,
    Msg::KeyNewline,
    Msg::KeyComplete,
    Msg::KeyMode,
    Msg::KeyExpand,
    Msg::KeyRewind,
    Msg::KeyPasteImage,
    Msg::KeyShell,
];

/// What `/help` prints at `width` columns.
pub fn help_lines(lang: Lang, width: usize, style: Style) -> Vec<String> {
    let labels: Vec<String> = COMMANDS.iter().map(label).collect();
    let rows: Vec<Row<'_>> = COMMANDS
        .iter()
        .zip(&labels)
        .map(|(c, label)| Row {
            name: label,
            description: c.help(lang),
        })
        .collect();
    let mut lines = vec![style.bold(tr(lang, Msg::CommandsHeading))];
    lines.extend(two_columns(&rows, width, INDENT, &|d| style.dim(d)));
    lines.push(String::new());
    lines.push(style.bold(tr(lang, Msg::KeysHeading)));
    let margin = " ".repeat(INDENT);
    for &key in KEYS {
        let text = tr(lang, key);
        for line in wrap_hanging(text, width.saturating_sub(INDENT), INDENT) {
            lines.push(format!("{margin}{}", style.dim(&line)));
        }
    }
    lines
}

/// The custom commands' part of `/help`: a heading and `/name [args]` with each help line, in two columns.
pub fn custom_help_lines(
    commands: &[(String, String)],
    lang: Lang,
    width: usize,
    style: Style,
) -> Vec<String> {
    let labels: Vec<String> = commands
        .iter()
        .map(|(name, _)| format!("/{name} [args]"))
        .collect();
    let rows: Vec<Row<'_>> = commands
        .iter()
        .zip(&labels)
        .map(|((_, help), label)| Row {
            name: label,
            description: help,
        })
        .collect();
    let mut lines = vec![
        String::new(),
        style.bold(tr(lang, Msg::CustomCommandsHeading)),
    ];
    lines.extend(two_columns(&rows, width, INDENT, &|d| style.dim(d)));
    lines
}

/// `/name /alias usage`.
fn label(command: &Command) -> String {
    let mut s = format!("/{}", command.name);
    for a in command.aliases {
        s.push_str(&format!(" /{a}"));
    }
    if !command.usage.is_empty() {
        s.push(' ');
        s.push_str(command.usage);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::render::visible_width;

    fn help(lang: Lang, columns: usize) -> String {
        let lines = help_lines(lang, columns, Style::new(false));
        for line in &lines {
            assert!(
                visible_width(line) <= columns,
                "wider than {columns}: {line:?}"
            );
        }
        lines.join("\n")
    }

    #[test]
    fn help_at_80_columns_in_english() {
        insta::assert_snapshot!(help(Lang::En, 80));
    }

    #[test]
    fn help_at_120_columns_in_english() {
        insta::assert_snapshot!(help(Lang::En, 120));
    }

    #[test]
    fn help_at_80_columns_in_chinese() {
        insta::assert_snapshot!(help(Lang::Zh, 80));
    }

    #[test]
    fn help_at_120_columns_in_chinese() {
        insta::assert_snapshot!(help(Lang::Zh, 120));
    }

    #[test]
    fn every_command_has_help_in_both_languages() {
        for c in COMMANDS {
            assert!(
                !c.help[0].trim().is_empty(),
                "/{} has no English help",
                c.name
            );
            let zh = c.help[1];
            assert!(
                zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
                "/{} has no Chinese help: {zh:?}",
                c.name
            );
        }
    }
}
