//! The session's skills, shared by `load_skill`, `/skill` and the path guard's read roots.

use std::sync::{PoisonError, RwLock};

use crate::guard::path_guard::ReadRoots;
use crate::skills::{Catalog, Discovery, SkillRoots, discover};

/// The skills of a session: what discovery found, which are on, and the readable folders kept in step with them.
pub struct SkillLibrary {
    roots: SkillRoots,
    found: RwLock<Discovery>,
    read_roots: ReadRoots,
}

impl SkillLibrary {
    /// Discovers the skills under `roots` (`disabled` switched off) and lets the read-only tools read the
    /// enabled skills' folders through `read_roots` (the tools' path guard's list).
    pub fn load(roots: SkillRoots, disabled: &[String], read_roots: ReadRoots) -> SkillLibrary {
        let library = SkillLibrary {
            found: RwLock::new(discover(&roots, disabled)),
            roots,
            read_roots,
        };
        library.sync_read_roots();
        library
    }

    /// What discovery found, as it is now.
    pub fn snapshot(&self) -> Discovery {
        self.found
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The catalog of the enabled skills, for the system prompt.
    pub fn catalog(&self) -> Catalog {
        Catalog::build(&self.found.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Discovers again (`/skill reload`), with `disabled` switched off.
    pub fn reload(&self, disabled: &[String]) {
        let fresh = discover(&self.roots, disabled);
        *self.found.write().unwrap_or_else(PoisonError::into_inner) = fresh;
        self.sync_read_roots();
    }

    /// Switches the skills `disabled` names off and the others on (after `/skill on|off`).
    pub fn apply_disabled(&self, disabled: &[String]) {
        self.found
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .apply_disabled(disabled);
        self.sync_read_roots();
    }

    /// The folders read-only tools may read: the enabled skills' folders, and no others.
    fn sync_read_roots(&self) {
        let dirs = self
            .found
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .enabled_dirs();
        self.read_roots.set(&dirs);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reload_and_switches_keep_the_readable_folders_in_step() {
        let user = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let roots = SkillRoots {
            user_home: Some(user.path().to_path_buf()),
            paicli_home: user.path().join(".paicli"),
            project_root: project.path().to_path_buf(),
        };
        let read_roots = ReadRoots::default();
        let library = SkillLibrary::load(roots, &[], read_roots.clone());
        assert!(read_roots.paths().is_empty(), "built-ins have no folder");
        let folder = user.path().join(".claude/skills/demo");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join("SKILL.md"),
            "---\nname: demo\ndescription: Demo.\n---\nBody\n",
        )
        .unwrap();
        assert!(
            library.snapshot().get("demo").is_none(),
            "found only on reload"
        );
        library.reload(&[]);
        assert!(library.catalog().text.contains("- demo: Demo.\n"));
        assert_eq!(read_roots.paths(), [folder.canonicalize().unwrap()]);
        library.apply_disabled(&["demo".to_string()]);
        assert!(read_roots.paths().is_empty());
        assert!(!library.catalog().text.contains("demo"));
    }
}
