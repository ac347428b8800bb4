//! `/lsp`'s report in the user's language: each language server's state, then the problems the last checks found.

use crate::lsp::{LspStatus, ServerState, Severity};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::render::visible_width;

/// The lines of `/lsp` for `status`.
pub fn lsp_lines(status: &LspStatus, lang: Lang) -> Vec<String> {
    let mut lines = vec![tr(lang, Msg::LspHeading).to_string()];
    for s in &status.servers {
        let state = match &s.state {
            ServerState::NotStarted => tr(lang, Msg::LspNotStarted).to_string(),
            ServerState::Starting => tr(lang, Msg::LspStarting).to_string(),
            ServerState::Running => tr(lang, Msg::LspRunning).to_string(),
            ServerState::Failed(reason) => trf(lang, Msg::LspFailed, &[("reason", reason)]),
            ServerState::NotInstalled => tr(lang, Msg::LspNotInstalled).to_string(),
        };
        let restarts = match s.starts {
            0 | 1 => String::new(),
            n => format!(" {}", trf(lang, Msg::LspStarts, &[("count", &n)])),
        };
        lines.push(format!(
            "  {} {} {state}{restarts}",
            pad(&s.name, 14),
            pad(&s.command, 28)
        ));
    }
    if status.diagnostics.is_empty() {
        lines.push(tr(lang, Msg::LspNoProblems).to_string());
        return lines;
    }
    lines.push(tr(lang, Msg::LspProblems).to_string());
    for d in &status.diagnostics {
        let severity = match d.severity {
            Severity::Error => Msg::SeverityError,
            Severity::Warning => Msg::SeverityWarning,
            Severity::Info => Msg::SeverityInfo,
        };
        let code = d
            .code
            .as_deref()
            .map(|c| format!(" [{c}]"))
            .unwrap_or_default();
        lines.push(format!(
            "  {} {}:{}:{}: {}{code} ({})",
            tr(lang, severity),
            d.path.display(),
            d.line,
            d.column,
            d.message,
            d.source
        ));
    }
    lines
}

/// `text` padded to `cells` terminal cells.
fn pad(text: &str, cells: usize) -> String {
    format!(
        "{text}{}",
        " ".repeat(cells.saturating_sub(visible_width(text)))
    )
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::lsp::{Diagnostic, ServerStatus};

    fn status() -> LspStatus {
        LspStatus {
            servers: vec![
                ServerStatus {
                    name: "rust".into(),
                    command: "rust-analyzer".into(),
                    state: ServerState::Running,
                    starts: 2,
                },
                ServerStatus {
                    name: "python".into(),
                    command: "pyright-langserver --stdio".into(),
                    state: ServerState::NotInstalled,
                    starts: 0,
                },
            ],
            diagnostics: vec![Diagnostic {
                path: PathBuf::from("src/main.rs"),
                line: 3,
                column: 5,
                severity: Severity::Error,
                message: "expected `;`".into(),
                code: Some("E0001".into()),
                source: "rustc".into(),
            }],
        }
    }

    #[test]
    fn the_english_report_is_the_status_as_the_lsp_module_words_it() {
        assert_eq!(
            lsp_lines(&status(), Lang::En).join("\n"),
            status().to_string()
        );
        let empty = LspStatus {
            diagnostics: Vec::new(),
            ..status()
        };
        assert_eq!(lsp_lines(&empty, Lang::En).join("\n"), empty.to_string());
    }

    #[test]
    fn the_chinese_report_translates_states_and_severities() {
        assert_eq!(
            lsp_lines(&status(), Lang::Zh),
            vec![
                "语言服务器：",
                "  rust           rust-analyzer                运行中 （已启动 2 次）",
                "  python         pyright-langserver --stdio   未安装",
                "已检查的文件中发现的问题：",
                "  错误 src/main.rs:3:5: expected `;` [E0001] (rustc)",
            ]
        );
    }
}
