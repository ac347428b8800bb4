//! `session/list`: the ledger's sessions, newest first (of the project `cwd` names, or of every project), each
//! titled by its first message, so an editor can offer them to `session/load`.

use std::path::Path;

use agent_client_protocol::Error;
use agent_client_protocol::v1::schema::{ListSessionsResponse, SessionInfo};

use crate::config::{Config, Overrides};
use crate::session::ledger::SessionStore;

/// Sessions listed at most (the newest); the ledger keeps more, `paicli --resume` finds them by id.
const LISTED: usize = 100;
/// A title longer than this is cut, with an ellipsis.
const TITLE_CHARS: usize = 80;

/// The sessions of the project at `cwd`, or of every project without one.
pub fn list(overrides: &Overrides, cwd: Option<&Path>) -> Result<ListSessionsResponse, Error> {
    let dir = match cwd {
        Some(dir) => dir.to_path_buf(),
        None => std::env::current_dir().map_err(super::session::invalid)?,
    };
    let config = Config::load(&dir, overrides).map_err(super::session::invalid)?;
    let store = SessionStore::new(&config.home);
    let summaries = match cwd {
        Some(_) => store.summaries(&config.project_root, LISTED),
        None => store.summaries_everywhere(LISTED),
    };
    let sessions = summaries
        .into_iter()
        .map(|s| {
            let updated = std::fs::metadata(&s.path)
                .and_then(|m| m.modified())
                .ok()
                .map(|t| {
                    chrono::DateTime::<chrono::Utc>::from(t)
                        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
                });
            SessionInfo::new(s.id, s.project)
                .title(s.first_input.as_deref().and_then(title))
                .updated_at(updated)
        })
        .collect();
    Ok(ListSessionsResponse::new(sessions))
}

/// The first non-blank line of `input`, cut to [`TITLE_CHARS`].
fn title(input: &str) -> Option<String> {
    let line = input.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.chars().count() <= TITLE_CHARS {
        return Some(line.to_string());
    }
    let cut: String = line.chars().take(TITLE_CHARS - 1).collect();
    Some(format!("{}…", cut.trim_end()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_title_is_the_first_line_cut_at_a_readable_length() {
        assert_eq!(
            title("\n  fix the greeting \nand more"),
            Some("fix the greeting".into())
        );
        assert_eq!(title(" \n "), None);
        let long = "word ".repeat(40);
        let cut = title(&long).unwrap();
        assert_eq!(cut.chars().count(), TITLE_CHARS);
        assert!(cut.ends_with("word…"), "{cut}");
    }
}
