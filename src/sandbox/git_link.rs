//! The git directories a project's `.git` *file* points to (a linked worktree's, a submodule's), made writable
//! only when they provably belong to this project. The `.git` file is the project's own text: a command, a
//! cloned repository or an archive can write `gitdir: /` into it, so nothing it names is trusted by itself.
//!
//! Accepted, as git itself links them:
//! - a linked worktree: `<common>/worktrees/<name>/`, whose `gitdir` file points back at this `.git` file and
//!   whose `commondir` names a real git directory (`HEAD` and `objects/`);
//! - a submodule or `--separate-git-dir` checkout whose `config` sets `core.worktree` to this project.
//!
//! Refused, with the reason shown once: anything else, and any directory that is `/`, contains the user's home,
//! the project or `$PAICLI_HOME`, or lies inside `$PAICLI_HOME`.

use std::path::{Path, PathBuf};

use crate::config::safe_read::read_regular_capped as read_capped;

/// Bytes read from a `.git` file or a link file: they hold one path.
const LINK_FILE_CAP: u64 = 4096;
/// Bytes of a git `config` read to find `core.worktree`.
const CONFIG_CAP: u64 = 64 * 1024;

/// Why a linked git directory stays read-only.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GitLinkRefusal {
    #[error("the project's .git is a symbolic link")]
    Symlink,
    #[error("the .git file names {0}, which is not a git directory")]
    NotGitDir(PathBuf),
    #[error("the .git file names {0}, which does not link back to this project")]
    Foreign(PathBuf),
    #[error(
        "the .git file names {0}, a folder that holds the home folder, the project or paicli's own state"
    )]
    Protected(PathBuf),
}

/// What the project's `.git` adds to the writable roots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GitLink {
    /// Directories to make writable (canonical).
    pub dirs: Vec<PathBuf>,
    /// Why the `.git` file's target was not made writable.
    pub refused: Option<GitLinkRefusal>,
}

/// The places no linked git directory may be or hold.
pub struct Protected<'a> {
    pub root: &'a Path,
    pub home: Option<&'a Path>,
    pub paicli_home: Option<&'a Path>,
}

/// Reads `<root>/.git` and judges what it links to.
pub fn resolve(protected: &Protected<'_>) -> GitLink {
    let git = protected.root.join(".git");
    let Ok(meta) = std::fs::symlink_metadata(&git) else {
        return GitLink::default();
    };
    if meta.file_type().is_symlink() {
        return refused(GitLinkRefusal::Symlink);
    }
    if !meta.is_file() {
        return GitLink::default();
    }
    let Some(text) = read_capped(&git, LINK_FILE_CAP) else {
        return GitLink::default();
    };
    let Some(named) = text.lines().find_map(|l| l.strip_prefix("gitdir:")) else {
        return GitLink::default();
    };
    let named = protected.root.join(named.trim());
    let Ok(dir) = named.canonicalize() else {
        return refused(GitLinkRefusal::NotGitDir(named));
    };
    match judge(&dir, &git, protected) {
        Ok(dirs) => GitLink {
            dirs,
            refused: None,
        },
        Err(why) => refused(why),
    }
}

fn refused(why: GitLinkRefusal) -> GitLink {
    GitLink {
        dirs: Vec::new(),
        refused: Some(why),
    }
}

/// The directories `dir` (canonical) brings, when it belongs to the project whose `.git` file is `git_file`.
fn judge(
    dir: &Path,
    git_file: &Path,
    protected: &Protected<'_>,
) -> Result<Vec<PathBuf>, GitLinkRefusal> {
    if !is_git_dir(dir) && !dir.join("commondir").is_file() {
        return Err(GitLinkRefusal::NotGitDir(dir.to_path_buf()));
    }
    let dirs = if let Some(common) = linked_worktree_common(dir, git_file) {
        vec![dir.to_path_buf(), common]
    } else if worktree_in_config(dir).is_some_and(|w| same_path(&w, protected.root)) {
        vec![dir.to_path_buf()]
    } else {
        return Err(GitLinkRefusal::Foreign(dir.to_path_buf()));
    };
    if let Some(bad) = dirs.iter().find(|d| is_protected(d, protected)) {
        return Err(GitLinkRefusal::Protected(bad.clone()));
    }
    Ok(dirs)
}

/// `<common>/worktrees/<name>` with a `gitdir` pointing back at `git_file` and a real common directory: the
/// common directory (canonical).
fn linked_worktree_common(dir: &Path, git_file: &Path) -> Option<PathBuf> {
    let back = read_capped(&dir.join("gitdir"), LINK_FILE_CAP)?;
    if !same_path(&dir.join(back.trim()), git_file) {
        return None;
    }
    let common = read_capped(&dir.join("commondir"), LINK_FILE_CAP)?;
    let common = dir.join(common.trim()).canonicalize().ok()?;
    (is_git_dir(&common) && dir.parent() == Some(common.join("worktrees").as_path()))
        .then_some(common)
}

/// `core.worktree` of the git directory's `config`, resolved against it.
fn worktree_in_config(dir: &Path) -> Option<PathBuf> {
    let text = read_capped(&dir.join("config"), CONFIG_CAP)?;
    let mut in_core = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_core = line.trim_start_matches('[').trim_end_matches(']').trim() == "core";
            continue;
        }
        if in_core
            && let Some((key, value)) = line.split_once('=')
            && key.trim().eq_ignore_ascii_case("worktree")
        {
            return Some(dir.join(value.trim().trim_matches('"')));
        }
    }
    None
}

/// True when `dir` is `/`, holds the home folder, the project or `$PAICLI_HOME`, or lies inside `$PAICLI_HOME`.
fn is_protected(dir: &Path, p: &Protected<'_>) -> bool {
    let holds = |place: Option<&Path>| {
        place
            .map(|place| place.canonicalize().unwrap_or_else(|_| place.to_path_buf()))
            .is_some_and(|place| place.starts_with(dir))
    };
    let inside_state = p
        .paicli_home
        .and_then(|h| h.canonicalize().ok())
        .is_some_and(|h| dir.starts_with(h));
    dir.parent().is_none()
        || holds(p.home)
        || holds(Some(p.root))
        || holds(p.paicli_home)
        || inside_state
}

/// A git directory by git's own test: `HEAD` and `objects/`.
fn is_git_dir(dir: &Path) -> bool {
    dir.join("HEAD").is_file() && dir.join("objects").is_dir()
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A main repository with one linked worktree, as `git worktree add` lays it out.
    fn worktree() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let base = tempfile::tempdir().unwrap();
        let common = base.path().join("main/.git");
        std::fs::create_dir_all(common.join("objects")).unwrap();
        std::fs::write(common.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        let own = common.join("worktrees/wt");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(own.join("HEAD"), "ref: refs/heads/wt\n").unwrap();
        std::fs::write(own.join("commondir"), "../..\n").unwrap();
        let project = base.path().join("wt");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(
            own.join("gitdir"),
            format!("{}\n", project.join(".git").display()),
        )
        .unwrap();
        std::fs::write(project.join(".git"), format!("gitdir: {}\n", own.display())).unwrap();
        (base, project, own)
    }

    fn judge_root(root: &Path, home: Option<&Path>) -> GitLink {
        resolve(&Protected {
            root,
            home,
            paicli_home: None,
        })
    }

    #[test]
    fn a_real_linked_worktree_brings_its_own_and_the_common_git_dir() {
        let (_base, project, own) = worktree();
        let link = judge_root(&project, None);
        assert_eq!(link.refused, None);
        assert_eq!(
            link.dirs,
            [
                own.canonicalize().unwrap(),
                own.join("../..").canonicalize().unwrap()
            ]
        );
    }

    #[test]
    fn a_git_file_naming_root_home_or_a_stranger_repository_brings_nothing() {
        let (_base, project, own) = worktree();
        std::fs::write(project.join(".git"), "gitdir: /\n").unwrap();
        let link = judge_root(&project, None);
        assert!(link.dirs.is_empty());
        assert!(link.refused.is_some());

        // Another worktree's git dir: it points back at a different project.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(
            other.path().join(".git"),
            format!("gitdir: {}\n", own.display()),
        )
        .unwrap();
        let link = judge_root(other.path(), None);
        assert!(link.dirs.is_empty());
        assert!(matches!(link.refused, Some(GitLinkRefusal::Foreign(_))));
    }

    #[test]
    fn a_linked_dir_that_holds_the_home_folder_is_refused_even_when_it_links_back() {
        let (base, project, _own) = worktree();
        // The "home" lies inside the common git dir: a link that would open it is refused.
        let home = base.path().join("main/.git/home");
        std::fs::create_dir_all(&home).unwrap();
        let link = judge_root(&project, Some(&home));
        assert!(matches!(link.refused, Some(GitLinkRefusal::Protected(_))));
        assert!(link.dirs.is_empty());
    }

    #[test]
    fn a_submodule_git_dir_is_accepted_by_its_core_worktree_only() {
        let base = tempfile::tempdir().unwrap();
        let modules = base.path().join("super/.git/modules/sub");
        std::fs::create_dir_all(modules.join("objects")).unwrap();
        std::fs::write(modules.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        std::fs::write(
            modules.join("config"),
            "[core]\n\tbare = false\n\tworktree = ../../../sub\n",
        )
        .unwrap();
        let project = base.path().join("super/sub");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::write(project.join(".git"), "gitdir: ../.git/modules/sub\n").unwrap();
        let link = judge_root(&project, None);
        assert_eq!(link.dirs, [modules.canonicalize().unwrap()]);

        std::fs::write(modules.join("config"), "[core]\n\tbare = false\n").unwrap();
        let link = judge_root(&project, None);
        assert!(matches!(link.refused, Some(GitLinkRefusal::Foreign(_))));
    }

    #[test]
    fn a_symlinked_git_is_refused_and_a_plain_git_folder_adds_nothing() {
        let project = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/", project.path().join(".git")).unwrap();
        assert_eq!(
            judge_root(project.path(), None).refused,
            Some(GitLinkRefusal::Symlink)
        );
        let plain = tempfile::tempdir().unwrap();
        std::fs::create_dir(plain.path().join(".git")).unwrap();
        assert_eq!(judge_root(plain.path(), None), GitLink::default());
    }
}
