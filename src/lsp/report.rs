//! The text injected for the model, and the `/lsp` status text for the user.

use super::diagnostic::Diagnostic;

/// The first line of every injected message.
pub const HEADER: &str = "[LSP diagnostics]";

/// The message listing `problems`: errors first, then by file and position, at most `max`; `None` when empty.
pub fn render_problems(problems: &[Diagnostic], max: usize) -> Option<String> {
    if problems.is_empty() || max == 0 {
        return None;
    }
    let mut sorted: Vec<&Diagnostic> = problems.iter().collect();
    sorted.sort_by(|a, b| {
        (a.severity, &a.path, a.line, a.column).cmp(&(b.severity, &b.path, b.line, b.column))
    });
    let mut text = format!(
        "{HEADER} New problems in the files you just changed (errors first). Fix the errors before going on.\n"
    );
    for d in sorted.iter().take(max) {
        let code = d
            .code
            .as_deref()
            .map(|c| format!(" [{c}]"))
            .unwrap_or_default();
        text.push_str(&format!(
            "- {} {}:{}:{}: {}{code} ({})\n",
            d.severity.as_str(),
            d.path.display(),
            d.line,
            d.column,
            one_line(&d.message),
            d.source,
        ));
    }
    if sorted.len() > max {
        text.push_str(&format!("... and {} more\n", sorted.len() - max));
    }
    Some(text.trim_end().to_string())
}

/// Servers put multi-line notes in messages; one line per problem keeps the list readable.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::lsp::Severity;

    fn diag(path: &str, line: u32, severity: Severity, code: Option<&str>) -> Diagnostic {
        Diagnostic {
            path: path.into(),
            line,
            column: 2,
            severity,
            message: format!("problem\n  at {line}"),
            code: code.map(str::to_string),
            source: "clangd".into(),
        }
    }

    #[test]
    fn errors_come_first_and_the_list_is_capped() {
        let problems = [
            diag("b.c", 1, Severity::Warning, None),
            diag("b.c", 7, Severity::Error, Some("expected_semi")),
            diag("a.c", 9, Severity::Error, None),
        ];
        let text = render_problems(&problems, 2).unwrap();
        assert_eq!(
            text,
            "[LSP diagnostics] New problems in the files you just changed (errors first). Fix the errors before going on.\n\
             - error a.c:9:2: problem at 9 (clangd)\n\
             - error b.c:7:2: problem at 7 [expected_semi] (clangd)\n\
             ... and 1 more"
        );
        assert_eq!(render_problems(&[], 20), None);
    }
}
