//! What `/lsp` shows: each server's state and the problems the last checks found.

use std::fmt;

use super::diagnostic::Diagnostic;

/// Where a language server stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerState {
    /// Installed, not needed yet.
    NotStarted,
    Starting,
    Running,
    /// It failed to start, crashed or hung; the next check that needs it starts it again.
    Failed(String),
    /// Its command is not on PATH; the syntax check covers its files.
    NotInstalled,
}

/// One server's line in `/lsp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerStatus {
    pub name: String,
    pub command: String,
    pub state: ServerState,
    /// How many times paicli has started it in this session (restarts after failures included).
    pub starts: u32,
}

/// The `/lsp` report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LspStatus {
    pub servers: Vec<ServerStatus>,
    /// Every checked file's problems as of its last check, errors first.
    pub diagnostics: Vec<Diagnostic>,
}

impl fmt::Display for LspStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Language servers:")?;
        for s in &self.servers {
            let state = match &s.state {
                ServerState::NotStarted => "installed, not started".to_string(),
                ServerState::Starting => "starting".to_string(),
                ServerState::Running => "running".to_string(),
                ServerState::Failed(reason) => format!("failed: {reason}"),
                ServerState::NotInstalled => "not installed".to_string(),
            };
            let restarts = match s.starts {
                0 | 1 => String::new(),
                n => format!(" (started {n} times)"),
            };
            writeln!(f, "  {:<14} {:<28} {state}{restarts}", s.name, s.command)?;
        }
        if self.diagnostics.is_empty() {
            return write!(f, "No problems in the files checked so far.");
        }
        write!(f, "Problems in the files checked so far:")?;
        for d in &self.diagnostics {
            let code = d
                .code
                .as_deref()
                .map(|c| format!(" [{c}]"))
                .unwrap_or_default();
            write!(
                f,
                "\n  {} {}:{}:{}: {}{code} ({})",
                d.severity.as_str(),
                d.path.display(),
                d.line,
                d.column,
                d.message,
                d.source
            )?;
        }
        Ok(())
    }
}
