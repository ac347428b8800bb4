//! `--settings` (Claude's settings shape, inline JSON or a file) and `--setting-sources`: the caller's own
//! settings for one run, trusted like the command line. The keys paicli honours fold into the flags they match
//! (`permissions.allow` into `--allowedTools`, `model` into `--model`, …), so every rule is mapped in one place;
//! the hooks and the sources go to the configuration (`ClaudeCaller`). Other keys are named once as ignored.

use serde_json::{Map, Value};

use super::flags::{HeadlessFlags, PermissionMode};
use crate::config::claude_settings::{ClaudeCaller, ClaudeSources};
use crate::text::{Lang, Msg, trf};

/// The most of a `--settings` file that is read.
const FILE_CAP: u64 = 1024 * 1024;

/// Why `--settings` or `--setting-sources` cannot be used.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("--settings {0}")]
    Settings(String),
    #[error("--setting-sources: unknown source `{0}` (user, project, local)")]
    UnknownSource(String),
}

impl SettingsError {
    /// The error for a person, in `lang`.
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            SettingsError::Settings(error) => {
                trf(lang, Msg::HeadlessBadSettings, &[("error", error)])
            }
            SettingsError::UnknownSource(source) => {
                trf(lang, Msg::HeadlessBadSettingSources, &[("source", source)])
            }
        }
    }
}

/// The stderr line naming the keys of `--settings` paicli does not use.
pub fn ignored_note(lang: Lang, keys: &[String]) -> String {
    trf(
        lang,
        Msg::HeadlessSettingsIgnored,
        &[("keys", &keys.join(", "))],
    )
}

/// The caller's settings, read from the flags.
#[derive(Debug, Default, PartialEq)]
pub struct CallerSettings {
    /// For the hooks: the sources to read and the `hooks` object.
    pub claude: ClaudeCaller,
    allow: Vec<String>,
    deny: Vec<String>,
    default_mode: Option<PermissionMode>,
    additional_dirs: Vec<String>,
    model: Option<String>,
    /// Top-level keys (and `permissions.*` keys) paicli does not honour, to be named once.
    pub ignored: Vec<String>,
}

impl CallerSettings {
    /// The settings of `flags` (none when neither flag is given).
    pub fn from_flags(flags: &HeadlessFlags) -> Result<CallerSettings, SettingsError> {
        let mut settings = match flags.settings.as_deref() {
            Some(arg) => from_json(&read_arg(arg).map_err(SettingsError::Settings)?)
                .map_err(SettingsError::Settings)?,
            None => CallerSettings::default(),
        };
        settings.claude.sources = match flags.setting_sources.as_deref() {
            Some(list) => ClaudeSources::parse(list).map_err(SettingsError::UnknownSource)?,
            None => ClaudeSources::ALL,
        };
        Ok(settings)
    }

    /// Folds what the flags themselves do not say into them: the rules add to `--allowedTools` and
    /// `--disallowedTools`, the folders to `--add-dir`; `defaultMode` and `model` only when `--permission-mode`
    /// and `--model` are not given. Returns the `ClaudeCaller` the configuration keeps.
    pub fn fold_into(self, flags: &mut HeadlessFlags, model: &mut Option<String>) -> ClaudeCaller {
        flags.allowed_tools.extend(self.allow);
        flags.disallowed_tools.extend(self.deny);
        flags.add_dir.extend(self.additional_dirs);
        if flags.permission_mode.is_none() && !flags.dangerously_skip_permissions {
            flags.permission_mode = self.default_mode;
        }
        if model.is_none() {
            *model = self.model;
        }
        self.claude
    }
}

/// `arg` as JSON text: inline when it starts with `{`, else the file it names.
fn read_arg(arg: &str) -> Result<String, String> {
    if arg.trim_start().starts_with('{') {
        return Ok(arg.to_string());
    }
    let path = std::path::Path::new(arg);
    let meta = std::fs::metadata(path).map_err(|e| format!("{arg}: {e}"))?;
    if !meta.is_file() || meta.len() > FILE_CAP {
        return Err(format!("{arg}: not a JSON file of at most 1 MiB"));
    }
    std::fs::read_to_string(path).map_err(|e| format!("{arg}: {e}"))
}

fn from_json(text: &str) -> Result<CallerSettings, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("is not JSON: {e}"))?;
    let Value::Object(top) = value else {
        return Err("is not a JSON object".to_string());
    };
    let mut settings = CallerSettings::default();
    for (key, value) in top {
        match key.as_str() {
            "hooks" if value.is_object() => settings.claude.hooks = Some(value),
            "permissions" if value.is_object() => permissions(&mut settings, value)?,
            "model" => settings.model = Some(string(&key, &value)?),
            "hooks" | "permissions" => return Err(format!("{key}: not an object")),
            _ => settings.ignored.push(key),
        }
    }
    settings.ignored.sort();
    Ok(settings)
}

fn permissions(settings: &mut CallerSettings, value: Value) -> Result<(), String> {
    let Value::Object(map) = value else {
        return Ok(());
    };
    for (key, value) in Map::into_iter(map) {
        let name = format!("permissions.{key}");
        match key.as_str() {
            "allow" => settings.allow = strings(&name, &value)?,
            "deny" => settings.deny = strings(&name, &value)?,
            "additionalDirectories" => settings.additional_dirs = strings(&name, &value)?,
            "defaultMode" => {
                let mode = string(&name, &value)?;
                settings.default_mode = Some(
                    PermissionMode::parse(&mode)
                        .ok_or_else(|| format!("{name}: unknown mode `{mode}`"))?,
                );
            }
            _ => settings.ignored.push(name),
        }
    }
    Ok(())
}

fn string(name: &str, value: &Value) -> Result<String, String> {
    value
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| format!("{name}: not a string"))
}

fn strings(name: &str, value: &Value) -> Result<Vec<String>, String> {
    let list = value
        .as_array()
        .ok_or_else(|| format!("{name}: not a list of strings"))?;
    list.iter().map(|v| string(name, v)).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn flags(settings: &str, sources: Option<&str>) -> HeadlessFlags {
        HeadlessFlags {
            settings: Some(settings.to_string()),
            setting_sources: sources.map(str::to_string),
            ..HeadlessFlags::default()
        }
    }

    #[test]
    fn honoured_keys_fold_into_the_flags_and_others_are_named() {
        let text = r#"{"model": "m2", "env": {"A": "1"}, "statusLine": {},
            "hooks": {"Stop": []},
            "permissions": {"allow": ["Bash(git diff:*)"], "deny": ["Edit(src/**)"], "ask": ["Read"],
                            "defaultMode": "acceptEdits", "additionalDirectories": ["/x"]}}"#;
        let settings = CallerSettings::from_flags(&flags(text, Some(""))).unwrap();
        assert_eq!(settings.ignored, ["env", "permissions.ask", "statusLine"]);
        let mut f = HeadlessFlags {
            permission_mode: None,
            ..HeadlessFlags::default()
        };
        let mut model = None;
        let claude = settings.fold_into(&mut f, &mut model);
        assert_eq!(f.allowed_tools, ["Bash(git diff:*)"]);
        assert_eq!(f.disallowed_tools, ["Edit(src/**)"]);
        assert_eq!(f.add_dir, ["/x"]);
        assert_eq!(f.permission_mode, Some(PermissionMode::AcceptEdits));
        assert_eq!(model.as_deref(), Some("m2"));
        assert_eq!(claude.hooks, Some(serde_json::json!({"Stop": []})));
        assert!(!claude.sources.user && !claude.sources.project && !claude.sources.local);
    }

    #[test]
    fn the_command_line_wins_over_the_settings() {
        let settings = CallerSettings::from_flags(&flags(
            r#"{"model": "m2", "permissions": {"defaultMode": "plan"}}"#,
            None,
        ))
        .unwrap();
        assert_eq!(settings.claude.sources, ClaudeSources::ALL);
        let mut f = HeadlessFlags {
            permission_mode: Some(PermissionMode::Default),
            ..HeadlessFlags::default()
        };
        let mut model = Some("m1".to_string());
        settings.fold_into(&mut f, &mut model);
        assert_eq!(f.permission_mode, Some(PermissionMode::Default));
        assert_eq!(model.as_deref(), Some("m1"));
    }

    #[test]
    fn bad_settings_are_refused() {
        for bad in [
            "{nope",
            "[1]",
            r#"{"permissions": {"allow": "Read"}}"#,
            r#"{"permissions": {"defaultMode": "yolo"}}"#,
            r#"{"hooks": []}"#,
            "no-such-settings-file.json",
        ] {
            assert!(
                matches!(
                    CallerSettings::from_flags(&flags(bad, None)),
                    Err(SettingsError::Settings(_))
                ),
                "{bad}"
            );
        }
        assert_eq!(
            CallerSettings::from_flags(&HeadlessFlags {
                setting_sources: Some("user,policy".into()),
                ..HeadlessFlags::default()
            }),
            Err(SettingsError::UnknownSource("policy".into()))
        );
    }

    #[test]
    fn a_settings_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        std::fs::write(&path, r#"{"model": "from-file"}"#).unwrap();
        let settings = CallerSettings::from_flags(&flags(path.to_str().unwrap(), None)).unwrap();
        assert_eq!(settings.model.as_deref(), Some("from-file"));
    }
}
