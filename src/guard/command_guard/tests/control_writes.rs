//! Writes to control paths by command: git's own config commands and plain writes into the table's paths.

use super::*;
use crate::guard::control_files::ControlKind;

fn kind_of(g: &CommandGuard, line: &str) -> Option<ControlKind> {
    match g.check(line) {
        Ok(CommandAssessment::ControlFile { kind, .. }) => Some(kind),
        Ok(_) => None,
        Err(denial) => panic!("{line}: refused: {denial:?}"),
    }
}

#[test]
fn writes_into_control_paths_are_control_writes() {
    let dir = tempfile::tempdir().unwrap();
    // A `cd` into a folder that does not exist leaves the place unknown (the line is then opaque), so the folder
    // the `cd` case moves into exists.
    std::fs::create_dir(dir.path().join(".claude")).unwrap();
    let g = guard(dir.path());
    let runs = Some(ControlKind::RunsCode);
    let read = Some(ControlKind::Instructions);
    for (line, expected) in [
        ("echo x > .git/hooks/pre-commit", runs),
        ("printf '#!/bin/sh\\n' >> .git/hooks/post-checkout", runs),
        ("cp evil .vscode/tasks.json", runs),
        // Into a folder that holds control files: the folder itself counts.
        ("cp evil.json .vscode/", runs),
        ("mv evil .github/workflows/ci.yml", runs),
        ("echo 'eval x' | tee .envrc", runs),
        ("install -m 755 x .husky/pre-push", runs),
        ("ln -sf ../../evil .git/hooks/pre-push", runs),
        ("sed -i 's/a/b/' AGENTS.md", read),
        ("cat x >> CLAUDE.md", read),
        (
            "mkdir -p .paicli/skills/x && cp s.md .paicli/skills/x/SKILL.md",
            read,
        ),
        ("cd .claude && echo x > commands/x.md", read),
        ("mv evil .vscode", runs),
        ("rm -rf .git", runs),
    ] {
        assert_eq!(kind_of(&g, line), expected, "{line}");
    }
}

#[test]
fn git_config_writes_are_control_writes_and_reads_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let g = guard(dir.path());
    let runs = Some(ControlKind::RunsCode);
    for line in [
        "git config core.fsmonitor 'sh evil.sh'",
        "git config --local core.pager 'sh -c x'",
        "git config --add alias.st '!sh x'",
        "git config --unset core.hooksPath",
        "git config set core.fsmonitor x",
        "git config --global core.fsmonitor x",
        "git config --system core.editor x",
        "git config --worktree core.fsmonitor x",
        "git -C . config core.fsmonitor x",
        "git --no-pager config user.name x",
        "git config --file .git/config core.fsmonitor x",
        "git config -e",
        "git remote add origin https://example.com/x.git",
        "git remote set-url origin ext::sh -c evil",
        "git submodule add https://example.com/x.git vendor/x",
        "git submodule init",
        "git submodule update --init",
        "git init --template=./tpl",
        "git lfs install",
        "git maintenance register",
        "cd src && git config core.fsmonitor x",
    ] {
        assert_eq!(kind_of(&g, line), runs, "{line}");
    }
    for line in [
        "git config --get core.fsmonitor",
        "git config core.fsmonitor",
        "git config -l",
        "git config --list --show-origin",
        "git config --get-regexp alias",
        "git config get user.name",
        "git config list",
        "git config --file other.ini a.b c",
        "git add -A",
        "git commit -m 'x y'",
        "git checkout -b feature",
        "git stash",
        "git switch main",
        "git branch -d old",
        "git log --oneline",
        "git status",
        "git remote -v",
        "git submodule status",
        "git -c core.pager=cat log",
    ] {
        assert_eq!(kind_of(&g, line), None, "{line}");
    }
}

#[test]
fn a_git_config_elsewhere_is_not_the_project_s() {
    let dir = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir_in("/tmp").unwrap();
    let g = guard(dir.path());
    let line = format!(
        "cd {} && git config core.fsmonitor x",
        other.path().display()
    );
    assert_eq!(kind_of(&g, &line), None, "{line}");
}
