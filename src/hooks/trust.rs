//! Project hooks run only once the person trusts them: remembered in the project trust file per project root
//! and per content hash of the project's hooks (their files, events, matchers, commands and timeouts), so a
//! changed hook asks again while other changes to `.claude/settings.json` do not.

use sha2::{Digest, Sha256};

use super::config::{HookCommand, HookPaths, load_hooks};
use crate::config::ProjectTrust;

/// The hash of the project's hooks among `hooks`.
pub fn project_hooks_hash(hooks: &[HookCommand]) -> String {
    let mut hasher = Sha256::new();
    for hook in hooks.iter().filter(|h| h.source.origin.is_project()) {
        for part in [
            hook.source.path.to_string_lossy().as_ref(),
            hook.event.name(),
            &hook.matcher_text,
            &hook.command,
            &hook.timeout.as_millis().to_string(),
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether the project's hooks as they are now were trusted.
pub fn project_hooks_trusted(paths: &HookPaths) -> bool {
    let (hooks, _) = load_hooks(&paths.all_files());
    if !hooks.iter().any(|h| h.source.origin.is_project()) {
        return true;
    }
    ProjectTrust::load(&paths.paicli_home)
        .hooks_trusted(&paths.project_root, &project_hooks_hash(&hooks))
}

/// Trusts the project's hooks as they are now (`--trust-project`, `/trust`).
pub fn trust_project_hooks(paths: &HookPaths) -> std::io::Result<()> {
    let (hooks, _) = load_hooks(&paths.all_files());
    ProjectTrust::load(&paths.paicli_home)
        .trust_hooks(&paths.project_root, &project_hooks_hash(&hooks))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn project_hooks_are_trusted_per_content_and_a_change_asks_again() {
        let dir = tempfile::tempdir().unwrap();
        let paths = HookPaths {
            paicli_home: dir.path().join("home"),
            user_home: None,
            project_root: dir.path().join("p"),
            caller: crate::config::claude_settings::ClaudeCaller::default(),
        };
        std::fs::create_dir_all(paths.project_root.join(".claude")).unwrap();
        std::fs::create_dir_all(&paths.paicli_home).unwrap();
        assert!(
            project_hooks_trusted(&paths),
            "no project hooks: nothing to trust"
        );
        let file = paths.project_root.join(".claude/settings.json");
        let hook = |cmd: &str| {
            format!(
                r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{cmd}"}}]}}]}}}}"#
            )
        };
        std::fs::write(&file, hook("./a")).unwrap();
        assert!(!project_hooks_trusted(&paths));
        trust_project_hooks(&paths).unwrap();
        assert!(project_hooks_trusted(&paths));
        std::fs::write(&file, format!("{}\n", hook("./a"))).unwrap();
        assert!(
            project_hooks_trusted(&paths),
            "whitespace is not a change of the hooks"
        );
        std::fs::write(&file, hook("./b")).unwrap();
        assert!(!project_hooks_trusted(&paths));
    }
}
