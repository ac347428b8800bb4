//! One problem in one file, whoever found it (a language server or the syntax check), and the rule for what is
//! "new" since the last check of that file.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::Serialize;

/// How bad a problem is; ordered so errors sort first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    /// The word shown to the model.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// A problem at a position; `line` and `column` count from 1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Relative to the project root.
    pub path: PathBuf,
    pub line: u32,
    pub column: u32,
    pub severity: Severity,
    pub message: String,
    /// The rule or error code, when the checker gives one.
    pub code: Option<String>,
    /// Who reported it: a server name, or `syntax` for the tree-sitter check.
    pub source: String,
}

impl Diagnostic {
    /// Converts a server's diagnostic; hints are dropped (they are editor decorations such as "unused").
    pub fn from_lsp(path: PathBuf, source: &str, d: &lsp_types::Diagnostic) -> Option<Diagnostic> {
        use lsp_types::DiagnosticSeverity as S;
        let severity = match d.severity {
            // LSP leaves a missing severity to the client; a checker's silence is more likely an error.
            None | Some(S::ERROR) => Severity::Error,
            Some(S::WARNING) => Severity::Warning,
            Some(S::INFORMATION) => Severity::Info,
            Some(_) => return None,
        };
        let code = d.code.as_ref().map(|c| match c {
            lsp_types::NumberOrString::Number(n) => n.to_string(),
            lsp_types::NumberOrString::String(s) => s.clone(),
        });
        Some(Diagnostic {
            path,
            line: d.range.start.line.saturating_add(1),
            column: d.range.start.character.saturating_add(1),
            severity,
            message: d.message.trim().to_string(),
            code,
            source: source.to_string(),
        })
    }

    /// What identifies "the same problem" across edits: not the position, which moves when lines are added above.
    fn identity(&self) -> (Severity, &str, Option<&str>) {
        (self.severity, &self.message, self.code.as_deref())
    }
}

/// The problems in `current` that were not in `previous`, counted as a multiset of (severity, message, code), so
/// a second identical error is new while an old one that only moved is not.
pub fn new_problems(previous: &[Diagnostic], current: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut seen: HashMap<(Severity, &str, Option<&str>), usize> = HashMap::new();
    for d in previous {
        *seen.entry(d.identity()).or_default() += 1;
    }
    current
        .iter()
        .filter(|d| match seen.get_mut(&d.identity()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn diag(line: u32, message: &str) -> Diagnostic {
        Diagnostic {
            path: "a.py".into(),
            line,
            column: 1,
            severity: Severity::Error,
            message: message.into(),
            code: None,
            source: "syntax".into(),
        }
    }

    #[test]
    fn moved_problems_are_old_and_duplicates_are_new() {
        let before = [diag(3, "x is not defined")];
        let after = [diag(5, "x is not defined"), diag(9, "x is not defined")];
        assert_eq!(
            new_problems(&before, &after),
            vec![diag(9, "x is not defined")]
        );
        assert!(new_problems(&after, &[]).is_empty());
        assert_eq!(new_problems(&[], &before), before.to_vec());
    }

    #[test]
    fn hints_are_dropped_and_positions_count_from_one() {
        let mut d = lsp_types::Diagnostic {
            range: lsp_types::Range::new(
                lsp_types::Position::new(2, 4),
                lsp_types::Position::new(2, 5),
            ),
            message: " \"y\" is not defined ".into(),
            code: Some(lsp_types::NumberOrString::String(
                "reportUndefinedVariable".into(),
            )),
            ..Default::default()
        };
        let got = Diagnostic::from_lsp("a.py".into(), "pyright", &d).unwrap();
        assert_eq!(
            (got.line, got.column, got.severity),
            (3, 5, Severity::Error)
        );
        assert_eq!(got.message, "\"y\" is not defined");
        assert_eq!(got.code.as_deref(), Some("reportUndefinedVariable"));
        d.severity = Some(lsp_types::DiagnosticSeverity::HINT);
        assert!(Diagnostic::from_lsp("a.py".into(), "pyright", &d).is_none());
    }
}
