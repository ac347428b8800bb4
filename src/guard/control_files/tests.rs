#![allow(clippy::unwrap_used)]

use super::*;

fn dirs() -> (tempfile::TempDir, tempfile::TempDir) {
    (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap())
}

fn kind(c: &ControlFiles, path: &Path) -> Option<ControlKind> {
    c.find(path).map(|hit| hit.kind)
}

#[test]
fn names_home_and_project_settings_and_nothing_else() {
    let (home, root) = dirs();
    let c = ControlFiles::new(home.path(), root.path());
    let settings = Some(ControlKind::Settings);
    assert_eq!(kind(&c, &home.path().join("config.toml")), settings);
    assert_eq!(kind(&c, &home.path().join("mcp-trust.json")), settings);
    assert_eq!(kind(&c, &root.path().join(".paicli/config.toml")), settings);
    assert_eq!(kind(&c, &root.path().join(".mcp.json")), settings);
    assert_eq!(kind(&c, &root.path().join("src/../.env")), settings);
    assert!(!c.is_control(&root.path().join("src/config.toml")));
    assert!(!c.is_control(&home.path().join("logs/config.toml")));
    assert!(!c.is_control(&root.path().join("README.md")));
    assert!(!c.is_control(&root.path().join("docs/AGENTS.md")));
    assert!(!c.is_control(&root.path().join(".gitattributes")));
}

#[test]
fn git_config_hooks_editor_tasks_and_ci_run_code() {
    let (home, root) = dirs();
    let c = ControlFiles::new(home.path(), root.path());
    let runs = Some(ControlKind::RunsCode);
    for rel in [
        ".git/config",
        ".git/config.worktree",
        ".git/hooks/pre-commit",
        ".git/info/attributes",
        ".gitmodules",
        ".vscode/tasks.json",
        ".vscode/launch.json",
        ".vscode/settings.json",
        ".idea/runConfigurations/App.xml",
        ".envrc",
        ".devcontainer/devcontainer.json",
        ".github/workflows/ci.yml",
        ".gitlab-ci.yml",
        ".husky/pre-push",
        ".paicli/hooks.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    ] {
        assert_eq!(kind(&c, &root.path().join(rel)), runs, "{rel}");
    }
    assert_eq!(kind(&c, &home.path().join("hooks.json")), runs);
    // What git writes in ordinary work is not on the list.
    for rel in [
        ".git/index",
        ".git/HEAD",
        ".git/objects/ab/cdef",
        ".git/refs/heads/main",
        ".vscode/extensions.json",
        ".github/CODEOWNERS",
    ] {
        assert!(!c.is_control(&root.path().join(rel)), "{rel}");
    }
}

#[test]
fn instruction_files_skills_commands_and_agents_are_instructions() {
    let (home, root) = dirs();
    let c = ControlFiles::new(home.path(), root.path());
    let read = Some(ControlKind::Instructions);
    for rel in [
        "AGENTS.md",
        "CLAUDE.md",
        "PAI.md",
        ".paicli/PAI.md",
        "PAI.local.md",
        "CLAUDE.local.md",
        ".paicli/PAI.local.md",
        ".paicli/skills/x/SKILL.md",
        ".claude/skills/x/SKILL.md",
        ".agents/skills/x/SKILL.md",
        ".paicli/commands/x.md",
        ".claude/commands/x.md",
        ".paicli/agents/x.md",
        ".claude/agents/x.md",
        ".codex/agents/x.toml",
    ] {
        assert_eq!(kind(&c, &root.path().join(rel)), read, "{rel}");
    }
    for rel in [
        "PAI.md",
        "skills/x/SKILL.md",
        "commands/x.md",
        "agents/x.md",
    ] {
        assert_eq!(kind(&c, &home.path().join(rel)), read, "{rel}");
    }
}

#[test]
fn folders_match_by_prefix_and_a_folder_holding_one_counts() {
    let (home, root) = dirs();
    let c = ControlFiles::new(home.path(), root.path());
    // The folder itself and anything at any depth beneath it.
    assert!(c.is_control(&root.path().join(".git/hooks")));
    assert!(c.is_control(&root.path().join(".github/workflows/deep/er/x.yml")));
    // A folder between the root and a control path: writing it (mv, cp -r, rm -r) replaces what is inside.
    assert!(c.is_control(&root.path().join(".vscode")));
    assert!(c.is_control(&root.path().join(".git")));
    assert!(c.is_control(&root.path().join(".github")));
    // A name that merely starts the same is not beneath the folder.
    assert!(!c.is_control(&root.path().join(".git/hooks-old")));
    assert!(!c.is_control(&root.path().join(".githubx/workflows/x.yml")));
    // The project root and $PAICLI_HOME hold every control path but are not themselves one.
    assert!(!c.is_control(root.path()));
    assert!(!c.is_control(home.path()));
}

#[cfg(unix)]
#[test]
fn a_symlinked_folder_does_not_hide_a_control_path() {
    let (home, root) = dirs();
    std::fs::create_dir_all(root.path().join(".paicli")).unwrap();
    std::fs::create_dir_all(root.path().join(".git/hooks")).unwrap();
    std::os::unix::fs::symlink(root.path().join(".paicli"), root.path().join("innocent")).unwrap();
    std::os::unix::fs::symlink(root.path().join(".git/hooks"), root.path().join("tools")).unwrap();
    let c = ControlFiles::new(home.path(), root.path());
    assert!(c.is_control(&root.path().join("innocent/config.toml")));
    assert!(c.is_control(&root.path().join("innocent/skills/x/SKILL.md")));
    assert_eq!(
        kind(&c, &root.path().join("tools/post-checkout")),
        Some(ControlKind::RunsCode)
    );
}

#[cfg(unix)]
#[test]
fn a_control_folder_that_is_a_symlink_is_matched_where_it_leads() {
    let (home, root) = dirs();
    let elsewhere = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), root.path().join(".vscode")).unwrap();
    let c = ControlFiles::new(home.path(), root.path());
    assert!(c.is_control(&root.path().join(".vscode/tasks.json")));
    assert!(c.is_control(&elsewhere.path().join("tasks.json")));
}

#[test]
fn a_linked_worktree_git_dir_counts_too() {
    let (home, root) = dirs();
    let common = tempfile::tempdir().unwrap();
    let own = common.path().join("worktrees/feature");
    std::fs::create_dir_all(&own).unwrap();
    let c = ControlFiles::new(home.path(), root.path())
        .with_git_dirs(&[own.clone(), common.path().to_path_buf()]);
    assert!(c.is_control(&common.path().join("config")));
    assert!(c.is_control(&common.path().join("hooks/pre-commit")));
    assert!(c.is_control(&own.join("config.worktree")));
    assert!(!c.is_control(&common.path().join("objects/ab/cd")));
    // The linked directory itself is not a control path (only what it holds).
    assert!(!c.is_control(common.path()));
    assert!(
        c.paths()
            .iter()
            .any(|p| p.label.ends_with("/hooks/") && p.folder)
    );
}

#[test]
fn every_instruction_file_the_prompt_reads_is_in_the_table() {
    let (home, root) = dirs();
    let c = ControlFiles::new(home.path(), root.path());
    for name in crate::config::instruction_files::NAMES {
        assert_eq!(
            kind(&c, &root.path().join(name)),
            Some(ControlKind::Instructions),
            "{name}"
        );
    }
}

#[test]
fn files_an_instruction_file_imports_are_instructions_too() {
    let (home, root) = dirs();
    std::fs::write(
        root.path().join("AGENTS.md"),
        "Rules.\n@docs/style.md\n@../outside.md\nsee @not/an/import.md\n",
    )
    .unwrap();
    std::fs::create_dir(root.path().join(".paicli")).unwrap();
    std::fs::write(root.path().join(".paicli/PAI.md"), "@local/notes.md\n").unwrap();
    let c = ControlFiles::new(home.path(), root.path());
    let read = Some(ControlKind::Instructions);
    assert_eq!(kind(&c, &root.path().join("docs/style.md")), read);
    assert_eq!(kind(&c, &root.path().join(".paicli/local/notes.md")), read);
    // Not imports the prompt would read: text, or a path out of the importing file's folder.
    assert_eq!(kind(&c, &root.path().join("not/an/import.md")), None);
    assert_eq!(kind(&c, &root.path().join("docs/other.md")), None);
    assert!(
        c.paths.iter().all(|p| !p.path.ends_with("outside.md")),
        "an import out of the folder is not read, so not listed"
    );
}

#[test]
fn an_added_folder_has_the_project_s_control_paths() {
    let (home, root) = dirs();
    let added = tempfile::tempdir().unwrap();
    let c =
        ControlFiles::new(home.path(), root.path()).with_added_roots(&[added.path().to_path_buf()]);
    assert!(c.is_control(&added.path().join(".git/hooks/pre-commit")));
    assert!(c.is_control(&added.path().join(".envrc")));
    assert!(c.is_control(&added.path().join("AGENTS.md")));
    assert!(!c.is_control(&added.path().join("src/main.rs")));
    // The added folder itself is an anchor, as the project root is: writing inside it is not replacing it.
    assert!(!c.is_control(added.path()));
}
