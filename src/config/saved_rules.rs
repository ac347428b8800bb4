//! Saving an allow rule for one project in the user's `config.toml` (`[approvals.projects]`, keyed by the
//! project root), as `p` at the approval prompt does. Other keys and comments of the file are kept.

use std::path::{Path, PathBuf};

use super::ConfigFile;

/// Why a change to the user's `config.toml` could not be saved.
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
    edit_config_file(&path, |doc| {
        let approvals = table_at(doc.as_table_mut(), "approvals")?;
        let projects = table_at(approvals, "projects")
            .map_err(|_| "`approvals.projects` is not a table".to_string())?;
        let key = root.display().to_string();
        let rules = projects
            .entry(&key)
            .or_insert_with(|| toml_edit::value(toml_edit::Array::new()))
            .as_array_mut()
            .ok_or_else(|| format!("`approvals.projects.\"{key}\"` is not a list"))?;
        if !rules.iter().any(|r| r.as_str() == Some(rule)) {
            rules.push(rule);
        }
        Ok(())
    })?;
    Ok(path)
}

/// The table under `key` in `parent`, created when missing.
fn table_at<'a>(
    parent: &'a mut dyn toml_edit::TableLike,
    key: &str,
) -> Result<&'a mut dyn toml_edit::TableLike, String> {
    parent
        .entry(key)
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()))
        .as_table_like_mut()
        .ok_or_else(|| format!("`{key}` is not a table"))
}

/// Changes the user's config file at `path` through `edit`, keeping its other keys and comments (a missing file
/// starts empty). The result must still load, and it replaces the file atomically with the old file's
/// permissions, so a refused edit or a crash never leaves a file the next start-up would refuse.
pub fn edit_config_file(
    path: &Path,
    edit: impl FnOnce(&mut toml_edit::DocumentMut) -> Result<(), String>,
) -> Result<(), SaveRuleError> {
    let io = |source| SaveRuleError::Io {
        path: path.to_path_buf(),
        source,
    };
    let invalid = |message: String| SaveRuleError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io(e)),
    };
    let mut doc = text
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| invalid(e.to_string().trim_end().to_string()))?;
    edit(&mut doc).map_err(invalid)?;
    let text = doc.to_string();
    ConfigFile::parse(&text).map_err(invalid)?;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let tmp = dir.join(".config.toml.paicli-save.tmp");
    std::fs::write(&tmp, text).map_err(io)?;
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(&tmp, meta.permissions());
    }
    std::fs::rename(&tmp, path).map_err(io)?;
    Ok(())
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
        let list = |items: &[&str]| {
            toml::Value::Array(items.iter().map(|s| toml::Value::from(*s)).collect())
        };
        assert_eq!(file.get("approvals.allow"), Some(&list(&["git status"])));
        assert_eq!(
            file.get("approvals.projects./src/my.app"),
            Some(&list(&["cargo test", "tool:edit_file"]))
        );
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
