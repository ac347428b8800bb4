//! Control paths: files and folders that run code later or steer a later session — paicli's settings, git config
//! and hooks, editor tasks, CI workflows, `.envrc`, devcontainers, agent hooks, and the instruction files, skills,
//! commands and agent definitions paicli (or another agent) reads. A tool or command that writes one changes what
//! runs after it, outside any sandbox, so such writes need the person in every approval mode but `full`; the
//! sandbox keeps them read-only to confined commands. The list is declared once, in [`table`].

pub mod table;

use std::path::{Path, PathBuf};

use super::path_guard::{normalize_lexically, resolve_existing};
use crate::config::instruction_files;
use crate::config::safe_read::{INSTRUCTIONS_CAP, read_beneath};
use table::{Base, ENTRIES, Entry};

/// What a control path does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ControlKind {
    /// paicli's own settings, MCP servers, trust and approval stores.
    Settings,
    /// Runs code later: git config and hooks, editor tasks, CI, `.envrc`, devcontainers, agent hooks.
    RunsCode,
    /// Read into a later session as instructions: AGENTS.md and the like, skills, commands, agent definitions.
    Instructions,
}

impl ControlKind {
    /// Every kind, in the order `/policy` lists them.
    pub const ALL: [ControlKind; 3] = [
        ControlKind::Settings,
        ControlKind::RunsCode,
        ControlKind::Instructions,
    ];

    /// What such a file does, in English and Chinese, for the note shown to the person.
    pub fn what(self) -> (&'static str, &'static str) {
        match self {
            ControlKind::Settings => (
                "a file that controls how paicli runs (settings, MCP servers, trust or approvals)",
                "控制 paicli 运行方式的文件（设置、MCP 服务器、信任或审批）",
            ),
            ControlKind::RunsCode => (
                "a file that makes code run later, outside this call (git config or hooks, editor tasks, CI, \
                 .envrc, devcontainer, agent hooks)",
                "会让代码在之后运行的文件（git 配置或钩子、编辑器任务、CI、.envrc、开发容器、代理钩子）",
            ),
            ControlKind::Instructions => (
                "a file a later session reads as instructions (AGENTS.md, CLAUDE.md, PAI.md, skills, commands, \
                 agent definitions)",
                "之后的会话会当作指令读取的文件（AGENTS.md、CLAUDE.md、PAI.md、技能、命令、代理定义）",
            ),
        }
    }

    /// A short heading for `/policy`, in English and Chinese.
    pub fn heading(self) -> (&'static str, &'static str) {
        match self {
            ControlKind::Settings => ("paicli settings", "paicli 设置"),
            ControlKind::RunsCode => ("runs code", "会运行代码"),
            ControlKind::Instructions => ("instructions", "指令"),
        }
    }
}

/// One control path of a session, absolute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlPath {
    /// The file, or the folder when `folder` (everything beneath it counts).
    pub path: PathBuf,
    pub folder: bool,
    pub kind: ControlKind,
    /// How the table names it (`.git/hooks/`, `$PAICLI_HOME/config.toml`), for `/policy`.
    pub label: String,
    /// The folder it hangs from: a write to a folder between `anchor` and `path` (`.vscode`, `.git`) replaces
    /// it too; `anchor` itself (the project root) does not count.
    anchor: PathBuf,
}

/// A write target that is a control path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlHit {
    /// The target, resolved through symlinks.
    pub path: PathBuf,
    pub kind: ControlKind,
}

/// The control paths of one session: `$PAICLI_HOME`'s, the project's, and its git directories'.
#[derive(Clone, Debug)]
pub struct ControlFiles {
    paths: Vec<ControlPath>,
}

impl ControlFiles {
    /// The control paths under `home` (`$PAICLI_HOME`), `root` (the project) and the project's `.git`. Both are
    /// canonicalized when they exist, and each path is kept both as spelled and resolved through existing
    /// symlinks, so a path given through a symlinked folder still matches.
    pub fn new(home: &Path, root: &Path) -> Self {
        let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| normalize_lexically(p));
        let (home, root) = (canon(home), canon(root));
        let mut control = ControlFiles { paths: Vec::new() };
        for entry in ENTRIES {
            match entry.base {
                Base::Project => control.add(entry, &root, &root, entry.path.to_string()),
                Base::Home => {
                    control.add(entry, &home, &home, format!("$PAICLI_HOME/{}", entry.path));
                }
                Base::GitDir => {
                    control.add(
                        entry,
                        &root.join(".git"),
                        &root,
                        format!(".git/{}", entry.path),
                    );
                }
            }
        }
        control.add_imports(&root);
        control
    }

    /// The files the project's instruction files import (`@docs/style.md`): a later session reads them into its
    /// prompt too. The instruction files are read as the prompt reads them (the one safe reader, capped).
    fn add_imports(&mut self, root: &Path) {
        for name in instruction_files::NAMES {
            let Ok(file) = read_beneath(root, Path::new(name), INSTRUCTIONS_CAP) else {
                continue;
            };
            let importer = root.join(name);
            let dir = importer.parent().unwrap_or(root);
            for rel in file.text.lines().filter_map(instruction_files::import_of) {
                let path = normalize_lexically(&dir.join(rel));
                // The prompt reads an import only beneath the importing file's folder.
                if !path.starts_with(dir) || path == importer {
                    continue;
                }
                let label = path
                    .strip_prefix(root)
                    .unwrap_or(&path)
                    .display()
                    .to_string();
                self.push(path, false, ControlKind::Instructions, root, &label);
            }
        }
    }

    /// Adds the git directories the project's `.git` file links to (a linked worktree's own and its common
    /// directory, found by the sandbox's link check).
    pub fn with_git_dirs(mut self, dirs: &[PathBuf]) -> Self {
        for dir in dirs {
            for entry in ENTRIES.iter().filter(|e| e.base == Base::GitDir) {
                self.add(entry, dir, dir, format!("{}/{}", dir.display(), entry.path));
            }
        }
        self
    }

    /// Adds the control paths of folders the person added for this run (`--add-dir`): each is written like the
    /// project root, so its `.git/hooks`, `.envrc` and instruction files steer later sessions the same way and
    /// need the same approval. (The git directories an added folder's `.git` file links to come through
    /// [`ControlFiles::with_git_dirs`], as the project's do.)
    pub fn with_added_roots(mut self, roots: &[PathBuf]) -> Self {
        for root in roots {
            let root = std::fs::canonicalize(root).unwrap_or_else(|_| normalize_lexically(root));
            let shown = root.display().to_string();
            for entry in ENTRIES {
                match entry.base {
                    Base::Project => {
                        self.add(entry, &root, &root, format!("{shown}/{}", entry.path));
                    }
                    Base::GitDir => {
                        let label = format!("{shown}/.git/{}", entry.path);
                        self.add(entry, &root.join(".git"), &root, label);
                    }
                    Base::Home => {}
                }
            }
            self.add_imports(&root);
        }
        self
    }

    fn add(&mut self, entry: &Entry, base: &Path, anchor: &Path, label: String) {
        let spelled = normalize_lexically(&base.join(entry.relative()));
        self.push(spelled, entry.is_folder(), entry.kind, anchor, &label);
    }

    /// Keeps `spelled` (absolute, folded) both as spelled and resolved through existing symlinks, once each.
    fn push(
        &mut self,
        spelled: PathBuf,
        folder: bool,
        kind: ControlKind,
        anchor: &Path,
        label: &str,
    ) {
        let resolved = resolve_existing(&spelled);
        for path in [spelled, resolved] {
            // Both spellings are folded (no `.`, `..` or doubled separators), so equal paths have equal bytes;
            // comparing bytes, not components, keeps building the table off the start-up's critical path.
            if !self
                .paths
                .iter()
                .any(|p| p.path.as_os_str() == path.as_os_str())
            {
                self.paths.push(ControlPath {
                    path,
                    folder,
                    kind,
                    label: label.to_string(),
                    anchor: anchor.to_path_buf(),
                });
            }
        }
    }

    /// The control path `path` (absolute) writes, if any: the path itself, a file beneath a control folder, or a
    /// folder holding a control path (below the project root). It is judged as spelled and resolved through
    /// existing symlinks (its parent, when it does not exist yet), so `link/config.toml` cannot slip past.
    pub fn find(&self, path: &Path) -> Option<ControlHit> {
        let resolved = resolve_existing(path);
        let spelled = normalize_lexically(path);
        [&resolved, &spelled].into_iter().find_map(|candidate| {
            self.paths
                .iter()
                .find(|c| {
                    *candidate == c.path
                        || (c.folder && candidate.starts_with(&c.path))
                        || (c.path.starts_with(candidate)
                            && candidate.starts_with(&c.anchor)
                            && *candidate != c.anchor)
                })
                .map(|c| ControlHit {
                    path: resolved.clone(),
                    kind: c.kind,
                })
        })
    }

    /// True when `path` (absolute) writes a control path (see [`ControlFiles::find`]).
    pub fn is_control(&self, path: &Path) -> bool {
        self.find(path).is_some()
    }

    /// Every control path, for the sandbox and `/policy`.
    pub fn paths(&self) -> &[ControlPath] {
        &self.paths
    }
}

#[cfg(test)]
mod tests;
