//! `git` subcommands that write git's config or hooks, which run code at the next `git status` or commit:
//! `git config` in any form that sets or removes (not `--get`, `--list`, `get`, `list`), `git remote add/set-url/…`,
//! `git submodule add/init/…`, `git init`/`clone --template`, `git lfs install`, `git maintenance register`.
//! They are control writes; `git add`, `commit`, `checkout`, `stash`, `switch`, `branch`, `log`, `status` write
//! objects, refs and the index, and stay ordinary commands.

use super::GuardDenial;
use super::parse::{Cwd, Word};
use super::rules::Checker;
use crate::guard::control_files::ControlKind;

/// Options before the subcommand that take a value.
const GLOBAL_WITH_VALUE: [&str; 8] = [
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
    "--super-prefix",
];

/// Which git config file a write lands in.
enum Scope {
    /// The repository's `.git/config`.
    Local,
    /// `.git/config.worktree`.
    Worktree,
    /// The user's `~/.gitconfig`: every repository they touch.
    Global,
    /// `/etc/gitconfig`.
    System,
}

/// Notes the control write `git args…` (run from `cwd`) makes, if any.
pub fn check(checker: &mut Checker<'_>, args: &[Word], cwd: &Cwd) -> Result<(), GuardDenial> {
    let mut at = 0;
    let mut elsewhere = false;
    while let Some(word) = args.get(at) {
        let t = word.text.as_str();
        if !t.starts_with('-') {
            break;
        }
        elsewhere |= matches!(t, "-C" | "--git-dir" | "--work-tree")
            || t.starts_with("--git-dir=")
            || t.starts_with("--work-tree=");
        at += if GLOBAL_WITH_VALUE.contains(&t) { 2 } else { 1 };
    }
    let Some(sub) = args.get(at) else {
        return Ok(());
    };
    if sub.dynamic {
        checker.opaque(format!(
            "the git subcommand `{}` is only known when the line runs",
            sub.text
        ));
        return Ok(());
    }
    let rest = &args[at + 1..];
    let first = rest
        .iter()
        .find(|w| !w.text.starts_with('-'))
        .map(|w| w.text.as_str());
    let scope = match sub.text.as_str() {
        "config" => return config(checker, rest, cwd, elsewhere),
        "remote" => matches!(
            first,
            Some("add" | "set-url" | "rename" | "remove" | "rm" | "set-branches" | "set-head")
        )
        .then_some(Scope::Local),
        "submodule" => {
            let init = rest.iter().any(|w| w.text == "--init");
            matches!(
                first,
                Some(
                    "add" | "init" | "sync" | "set-url" | "set-branch" | "deinit" | "absorbgitdirs"
                )
            )
            .then_some(Scope::Local)
            .or((first == Some("update") && init).then_some(Scope::Local))
        }
        "init" | "clone"
            if rest
                .iter()
                .any(|w| w.text == "--template" || w.text.starts_with("--template=")) =>
        {
            return hooks(checker, cwd, elsewhere);
        }
        "lfs" if matches!(first, Some("install" | "update")) => {
            return hooks(checker, cwd, elsewhere);
        }
        "maintenance" if matches!(first, Some("register" | "unregister" | "start" | "stop")) => {
            Some(Scope::Global)
        }
        _ => None,
    };
    if let Some(scope) = scope {
        note(checker, scope, cwd, elsewhere);
    }
    Ok(())
}

/// `git config …`: a write unless it only reads.
fn config(
    checker: &mut Checker<'_>,
    args: &[Word],
    cwd: &Cwd,
    elsewhere: bool,
) -> Result<(), GuardDenial> {
    let mut scope = Scope::Local;
    let mut file: Option<Word> = None;
    let (mut writes, mut reads) = (false, false);
    let mut positionals: Vec<&str> = Vec::new();
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let t = word.text.as_str();
        match t {
            "--global" => scope = Scope::Global,
            "--system" => scope = Scope::System,
            "--worktree" => scope = Scope::Worktree,
            "--local" => scope = Scope::Local,
            "-f" | "--file" => file = words.next().cloned(),
            "--blob" => {
                reads = true;
                words.next();
            }
            "--type" | "--default" | "--comment" | "--value" | "--url" => {
                words.next();
            }
            "-l" | "--list" => reads = true,
            "--add" | "--replace-all" | "--unset" | "--unset-all" | "--rename-section"
            | "--remove-section" | "-e" | "--edit" => writes = true,
            _ if t.starts_with("--get") || t.starts_with("--blob=") => reads = true,
            _ if t.starts_with("--file=") => {
                let mut named = word.clone();
                named.text = t["--file=".len()..].to_string();
                file = Some(named);
            }
            _ if t.starts_with('-') => {}
            _ => positionals.push(t),
        }
    }
    // `git config set|unset|edit|…` (git 2.46) or the older `git config name value`.
    let writes = match positionals.first().copied() {
        Some("set" | "unset" | "edit" | "rename-section" | "remove-section") => true,
        Some("get" | "list") => false,
        _ => writes || (!reads && positionals.len() >= 2),
    };
    if !writes {
        return Ok(());
    }
    match file {
        // Another file: the write fence judges it like any write target.
        Some(file) => checker.write(&file, cwd, "git config --file"),
        None => {
            note(checker, scope, cwd, elsewhere);
            Ok(())
        }
    }
}

/// Hooks copied into the repository (`--template`, `git lfs install`).
fn hooks(checker: &mut Checker<'_>, cwd: &Cwd, elsewhere: bool) -> Result<(), GuardDenial> {
    if elsewhere || in_project(checker, cwd) {
        let path = checker.fence.root().join(".git/hooks");
        checker.control_write(path.display().to_string(), ControlKind::RunsCode);
    }
    Ok(())
}

fn note(checker: &mut Checker<'_>, scope: Scope, cwd: &Cwd, elsewhere: bool) {
    let path = match scope {
        Scope::Global => "~/.gitconfig (git's global config)".to_string(),
        Scope::System => "/etc/gitconfig".to_string(),
        Scope::Local | Scope::Worktree if !elsewhere && !in_project(checker, cwd) => return,
        Scope::Local => checker
            .fence
            .root()
            .join(".git/config")
            .display()
            .to_string(),
        Scope::Worktree => checker
            .fence
            .root()
            .join(".git/config.worktree")
            .display()
            .to_string(),
    };
    checker.control_write(path, ControlKind::RunsCode);
}

/// True unless `cwd` is known to be outside the project (a repository elsewhere, e.g. under /tmp).
fn in_project(checker: &Checker<'_>, cwd: &Cwd) -> bool {
    checker
        .fence
        .locate(&Word::literal("."), cwd)
        .is_none_or(|dir| dir.starts_with(checker.fence.root()))
}
