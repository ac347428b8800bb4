//! One config file (`config.toml`) read against the declarations: every key must name a setting (or an old
//! spelling of one) and hold a value of its type, so a typo is an error naming the line and key, never ignored.

use std::path::Path;

use super::safe_read::{FileNotice, SETTINGS_CAP, read_whole_noticed};
use super::settings::{self, Row};
use super::{Config, ConfigError};

/// The settings one config file sets, checked.
pub struct ConfigFile {
    entries: Vec<Entry>,
}

/// One setting a file sets.
pub struct Entry {
    pub row: &'static dyn Row,
    /// The key as written, dotted (`mcp.startup_wait_seconds`, `lsp.servers.pyright`).
    pub key: String,
    /// The parts of the key that stand for `<name>` (a language server's name, a project root).
    pub names: Vec<String>,
    pub value: toml::Value,
}

/// What is wrong with a file, and at which key (its parts).
struct Problem {
    path: Vec<String>,
    message: String,
}

impl ConfigFile {
    /// Reads (beneath `base`, through the safe reader) and checks `path`; `Ok(None)` when it does not exist or
    /// was refused, which adds a notice to `notices`.
    pub fn read(
        base: &Path,
        path: &Path,
        notices: &mut Vec<FileNotice>,
    ) -> Result<Option<ConfigFile>, ConfigError> {
        let Some(text) = read_whole_noticed(base, path, SETTINGS_CAP, notices) else {
            return Ok(None);
        };
        Self::parse(&text)
            .map(Some)
            .map_err(|message| ConfigError::Parse {
                path: path.to_path_buf(),
                message,
            })
    }

    /// Parses and checks TOML text; the error names the line, column and key.
    pub fn parse(text: &str) -> Result<ConfigFile, String> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| e.to_string().trim_end().to_string())?;
        let mut entries = Vec::new();
        collect(&table, &mut Vec::new(), &mut entries)
            .and_then(|()| no_setting_twice(&entries))
            .map_err(|p| locate(text, p))?;
        Ok(ConfigFile { entries })
    }

    /// The settings the file sets, in key order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The value of the dotted key as written.
    pub fn get(&self, key: &str) -> Option<&toml::Value> {
        self.entries.iter().find(|e| e.key == key).map(|e| &e.value)
    }

    /// Keeps only the settings `keep` accepts (the project filter).
    pub fn retain(&mut self, keep: impl FnMut(&Entry) -> bool) {
        self.entries.retain(keep);
    }

    /// Lays the file's values over `config`.
    pub fn apply(&self, config: &mut Config, path: &Path) -> Result<(), ConfigError> {
        for e in &self.entries {
            e.row
                .apply_file(config, &e.names, &e.value)
                .map_err(|reason| ConfigError::Parse {
                    path: path.to_path_buf(),
                    message: format!("`{}`: {reason}", e.key),
                })?;
        }
        Ok(())
    }
}

/// Walks `table` (at `path`): a key that names a setting is checked and kept; one that names a table of settings
/// is walked; anything else is an error.
fn collect(
    table: &toml::Table,
    path: &mut Vec<String>,
    out: &mut Vec<Entry>,
) -> Result<(), Problem> {
    for (name, value) in table {
        // `[hooks]` (Claude Code's shape) is read by `hooks::config`, not as settings.
        if path.is_empty() && name == "hooks" {
            continue;
        }
        path.push(name.clone());
        let parts: Vec<&str> = path.iter().map(String::as_str).collect();
        let key = path.join(".");
        if let Some(row) = settings::for_file_path(&parts) {
            row.check(value).map_err(|reason| Problem {
                path: path.clone(),
                message: format!("invalid value for `{key}`: {reason}"),
            })?;
            out.push(Entry {
                row,
                names: row.info().names_in(&parts),
                key,
                value: value.clone(),
            });
        } else if settings::is_table(&parts) {
            let inner = value.as_table().ok_or_else(|| Problem {
                path: path.clone(),
                message: format!("`{key}` must be a table"),
            })?;
            collect(inner, path, out)?;
        } else {
            let known = settings::keys_in(&parts[..parts.len() - 1]);
            return Err(Problem {
                path: path.clone(),
                message: format!("unknown key `{key}`; expected one of {}", known.join(", ")),
            });
        }
        path.pop();
    }
    Ok(())
}

/// A setting written under its key and an old spelling in one file is an error, not a coin toss.
fn no_setting_twice(entries: &[Entry]) -> Result<(), Problem> {
    for (i, a) in entries.iter().enumerate() {
        let same = |b: &&Entry| b.row.info().key == a.row.info().key && b.names == a.names;
        if let Some(b) = entries[i + 1..].iter().find(same) {
            return Err(Problem {
                path: b.key.split('.').map(str::to_string).collect(),
                message: format!("`{}` and `{}` are the same setting", a.key, b.key),
            });
        }
    }
    Ok(())
}

/// The problem's message, led by the line and column of its key when the text shows where it is.
fn locate(text: &str, problem: Problem) -> String {
    let Ok(doc) = toml::de::DeTable::parse(text) else {
        return problem.message;
    };
    let mut table = doc.get_ref();
    let mut span = None;
    for (i, part) in problem.path.iter().enumerate() {
        let Some((key, value)) = table.iter().find(|(k, _)| k.get_ref() == part) else {
            break;
        };
        span = Some(key.span());
        match value.get_ref() {
            toml::de::DeValue::Table(inner) if i + 1 < problem.path.len() => table = inner,
            _ => break,
        }
    }
    match span {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
            format!("line {line}, column {column}: {}", problem.message)
        }
        None => problem.message,
    }
}
