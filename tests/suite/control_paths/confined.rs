//! A confined command the guard cannot see through (a script in the project) cannot change the control paths:
//! those that exist are read-only to it, and what it creates where none existed is undone after it ends. A
//! command the person approved as a control-file write runs without these carve-outs.

use std::path::Path;

use paicli::config::SandboxSettings;
use paicli::guard::path_guard::PathGuard;
use paicli::protocol::Confinement;
use paicli::sandbox::Sandbox;
use paicli::tools::{SpillStore, ToolContext, ToolLimits, ToolOutcome};

use crate::support::{kernel_confines, run_command};

const SCRIPT: &str = "printf '[core]\\n\\tfsmonitor = touch pwned\\n' >> .git/config\n\
printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/post-checkout\n\
mkdir -p .vscode && echo '{}' > .vscode/tasks.json\n\
echo '. ./evil' > .envrc\n\
echo ran\n";

fn ctx(root: &Path, confinement: Confinement) -> ToolContext {
    ToolContext::new(
        PathGuard::new(root).unwrap(),
        SpillStore::new(root, true, 32_000),
        ToolLimits {
            sandbox: Sandbox::new(SandboxSettings::default(), Vec::new()),
            confinement,
            ..ToolLimits::default()
        },
    )
}

fn text(outcome: &ToolOutcome) -> String {
    match outcome {
        ToolOutcome::Ok(out) => out.text.clone(),
        ToolOutcome::Failed { reason } => reason.clone(),
        other => panic!("{other:?}"),
    }
}

fn project() -> (tempfile::TempDir, std::path::PathBuf, String) {
    let project = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    super::git_init(&root);
    std::fs::write(root.join("tool.sh"), SCRIPT).unwrap();
    let config = std::fs::read_to_string(root.join(".git/config")).unwrap();
    (project, root, config)
}

#[tokio::test]
async fn a_script_cannot_plant_git_config_hooks_editor_tasks_or_envrc() {
    if !kernel_confines() {
        return;
    }
    let (_project, root, config) = project();
    let outcome = run_command(&ctx(&root, Confinement::Sandboxed), "sh tool.sh").await;
    let said = text(&outcome);
    assert!(said.contains("ran"), "{said}");
    assert_eq!(
        std::fs::read_to_string(root.join(".git/config")).unwrap(),
        config
    );
    for planted in [".git/hooks/post-checkout", ".vscode/tasks.json", ".envrc"] {
        assert!(!root.join(planted).exists(), "{planted}: {said}");
    }
    // The model is told what was undone.
    assert!(said.contains("[sandbox]"), "{said}");
    assert!(said.contains("removed: .envrc"), "{said}");
    // Ordinary files stay writable.
    let outcome = run_command(&ctx(&root, Confinement::Sandboxed), "echo ok > notes.txt").await;
    assert!(outcome.is_ok(), "{outcome:?}");
    assert!(root.join("notes.txt").exists());
}

#[tokio::test]
async fn a_command_approved_as_a_control_write_may_write_them() {
    if !kernel_confines() {
        return;
    }
    let (_project, root, config) = project();
    let outcome = run_command(&ctx(&root, Confinement::ControlWritable), "sh tool.sh").await;
    let said = text(&outcome);
    assert!(!said.contains("[sandbox]"), "{said}");
    let now = std::fs::read_to_string(root.join(".git/config")).unwrap();
    assert_ne!(now, config);
    assert!(now.contains("fsmonitor"), "{now}");
    assert!(root.join(".git/hooks/post-checkout").exists());
    assert!(root.join(".envrc").exists());
}
