//! Runs the `git` program on the snapshot store only: its own `GIT_DIR` and index, the project as the work tree,
//! and nothing from the user's or the project's git configuration (no system or global config, no hooks, no
//! attributes from the work tree, no fsmonitor), so the project's `.git` is never read or written. The store's own
//! files are checked before each run (`store_files`): git would obey a filter or hook planted there.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::SnapshotError;

/// Git's empty tree: attributes are read from it instead of the work tree's `.gitattributes`, so no filter or
/// end-of-line conversion changes what is stored.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// The store's git directory, the project it snapshots and the index kept beside the objects.
#[derive(Debug, Clone)]
pub struct Git {
    git_dir: PathBuf,
    work_tree: PathBuf,
}

impl Git {
    /// Git on the store at `git_dir` for the project at `work_tree`.
    pub fn new(git_dir: PathBuf, work_tree: PathBuf) -> Self {
        Git { git_dir, work_tree }
    }

    /// The store's git directory.
    pub fn git_dir(&self) -> &Path {
        &self.git_dir
    }

    /// Whether a `git` program is on PATH: looked up, not run, so start-up pays no process for it (a `git` that
    /// is found but fails shows up as a failed snapshot in the log).
    pub fn available() -> bool {
        use std::os::unix::fs::PermissionsExt;
        std::env::var_os("PATH").is_some_and(|path| {
            std::env::split_paths(&path).any(|dir| {
                std::fs::metadata(dir.join("git"))
                    .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            })
        })
    }

    /// A `git` command isolated from every configuration but the store's own.
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("GIT_") {
                cmd.env_remove(name);
            }
        }
        cmd.env("GIT_DIR", &self.git_dir)
            .env("GIT_WORK_TREE", &self.work_tree)
            .env("GIT_INDEX_FILE", self.git_dir.join("index"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_ATTR_SOURCE", EMPTY_TREE)
            .env("GIT_AUTHOR_NAME", "paicli")
            .env("GIT_AUTHOR_EMAIL", "paicli@localhost")
            .env("GIT_COMMITTER_NAME", "paicli")
            .env("GIT_COMMITTER_EMAIL", "paicli@localhost")
            .current_dir(&self.git_dir);
        for setting in [
            "core.hooksPath=/dev/null",
            "core.fsmonitor=false",
            "core.untrackedCache=false",
            "core.splitIndex=false",
            "core.autocrlf=false",
            "core.safecrlf=false",
            "core.symlinks=true",
            "core.filemode=true",
            "core.excludesFile=/dev/null",
            "core.attributesFile=/dev/null",
            "core.quotePath=false",
            "commit.gpgSign=false",
            "gc.auto=0",
            "maintenance.auto=false",
        ] {
            cmd.arg("-c").arg(setting);
        }
        cmd.args(args);
        cmd
    }

    /// Runs `args` and returns its standard output.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, SnapshotError> {
        self.run_with_input(args, &[])
    }

    /// Runs `args` with `input` on its standard input and returns its standard output.
    pub fn run_with_input(&self, args: &[&str], input: &[u8]) -> Result<Vec<u8>, SnapshotError> {
        if args.first() != Some(&"init") {
            super::store_files::check(&self.git_dir)?;
        }
        let mut cmd = self.command(args);
        let what = args.first().copied().unwrap_or("git").to_string();
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(SnapshotError::Spawn)?;
        let stdin = child.stdin.take();
        // Written on its own thread: a large input and a large output would otherwise fill both pipes.
        let input = input.to_vec();
        let writer = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                let _ = stdin.write_all(&input);
            }
        });
        let output = child.wait_with_output().map_err(SnapshotError::Spawn)?;
        let _ = writer.join();
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(SnapshotError::Git {
                command: what,
                stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
            })
        }
    }

    /// Runs `args` and returns its standard output as trimmed text.
    pub fn text(&self, args: &[&str]) -> Result<String, SnapshotError> {
        let out = self.run(args)?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }
}
