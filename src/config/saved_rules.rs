//! Saving an allow rule for one project in the user's `config.toml` (`[approvals.projects]`, keyed by the
//! project root), as `p` at the approval prompt does. Other keys and comments of the file are kept.

use std::path::{Path, PathBuf};

use super::ConfigFile;

/// Why a rule could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveRuleError {
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} cannot take the rule ({message}); it was left unchanged")]
    Invalid { path: PathBuf, message: String },
}

/// Adds `rule` (config syntax: `cargo test`, `tool:edit_file`) to the rules of `root` in `home/config.toml`;
/// returns the file's path. A rule already saved is not added twice.
pub fn save_project_rule(home: &Path, root: &Path, rule: &str) -> Result<PathBuf, SaveRuleError> {
    let path = home.join("config.toml");
    let io = |source| SaveRuleError::Io {
        path: path.clone(),
        source,
    };
    let invalid = |message: String| SaveRuleError::Invalid {
        path: path.clone(),
        message,
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let mut doc = text
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| invalid(e.to_string().trim_end().to_string()))?;
    let approvals = doc
        .entry("approvals")
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let approvals = approvals
        .as_table_like_mut()
        .ok_or_else(|| invalid("`approvals` is not a table".to_string()))?;
    let projects = approvals
        .entry("projects")
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let projects = projects
        .as_table_like_mut()
        .ok_or_else(|| invalid("`approvals.projects` is not a table".to_string()))?;
    let key = root.display().to_string();
    let rules = projects
        .entry(&key)
        .or_insert_with(|| toml_edit::value(toml_edit::Array::new()));
    let rules = rules
        .as_array_mut()
        .ok_or_else(|| invalid(format!("`approvals.projects.\"{key}\"` is not a list")))?;
    if !rules.iter().any(|r| r.as_str() == Some(rule)) {
        rules.push(rule);
    }
    let text = doc.to_string();
    // Never leave a file that the next start-up would refuse.
    ConfigFile::parse(&text).map_err(invalid)?;
    std::fs::create_dir_all(home).map_err(io)?;
    let tmp = home.join(".config.toml.paicli-save.tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    if let Ok(meta) = std::fs::metadata(&path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, &path).map_err(io)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_rule_is_added_once_under_the_project_root_and_other_keys_stay() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("config.toml");
        std::fs::write(&path, "# mine\n[approvals]\nallow = [\"git status\"]\n").unwrap();
        let root = Path::new("/src/my.app");
        save_project_rule(home.path(), root, "cargo test").unwrap();
        save_project_rule(home.path(), root, "cargo test").unwrap();
        save_project_rule(home.path(), root, "tool:edit_file").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("# mine\n"), "{text}");
        let file = ConfigFile::parse(&text).unwrap();
        assert_eq!(file.approvals.allow.unwrap(), ["git status"]);
        let projects = file.approvals.projects;
        assert_eq!(projects["/src/my.app"], ["cargo test", "tool:edit_file"]);
    }

    #[test]
    fn a_broken_file_is_left_alone() {
        let home = tempfile::tempdir().unwrap();
        let path = home.path().join("config.toml");
        std::fs::write(&path, "approvals = 3\n").unwrap();
        let err = save_project_rule(home.path(), Path::new("/p"), "ls").unwrap_err();
        assert!(matches!(err, SaveRuleError::Invalid { .. }), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "approvals = 3\n");
    }
}
