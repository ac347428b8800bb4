//! The system prompt: fixed rules, the environment, and project instructions (`AGENTS.md`, `CLAUDE.md`,
//! `PAI.md`).
//!
//! Built once per session so the request prefix stays byte-identical and provider prompt caches hit.

use std::path::{Path, PathBuf};

use crate::config::instruction_files;
use crate::config::safe_read::{FileNotice, INSTRUCTIONS_CAP, read_noticed};
use crate::mcp::RemoteResource;

mod rules;

pub use rules::PromptFacts;

/// Builds the system prompt for a session in `project_root`, with `home` = `$PAICLI_HOME`; its rules state the
/// limits in `facts`. Instruction files refused or cut add a notice to `notices`.
pub fn build_system_prompt(
    project_root: &Path,
    home: &Path,
    facts: &PromptFacts,
    notices: &mut Vec<FileNotice>,
) -> String {
    let mut prompt = rules::base_rules(facts);
    prompt.push_str("\n\n# Environment\n");
    prompt.push_str(&format!(
        "- Project root (working directory): {}\n",
        project_root.display()
    ));
    prompt.push_str(&format!(
        "- Platform: {} {}\n",
        std::env::consts::OS,
        std::env::consts::ARCH
    ));
    prompt.push_str(&format!(
        "- Date: {}\n",
        chrono::Local::now().format("%Y-%m-%d")
    ));

    let instructions = project_instructions(project_root, home, notices);
    if !instructions.is_empty() {
        prompt.push_str(
            "\n# Project instructions\nFollow these instructions from the user's files.\n",
        );
        for (label, text) in instructions {
            prompt.push_str(&format!("\n## {label}\n{}\n", text.trim_end()));
        }
    }
    prompt
}

/// `prompt` with the skills catalog at its end, replacing a catalog already there (`/skill reload`). Built once
/// per session, so the prefix stays byte-identical; an empty catalog adds nothing.
/// An MCP resource index after the catalog stays where it is.
pub fn with_skill_catalog(mut prompt: String, catalog: &crate::skills::Catalog) -> String {
    let index = prompt
        .find(RESOURCE_INDEX_HEADING)
        .map(|at| prompt.split_off(at))
        .unwrap_or_default();
    if let Some(start) = prompt.rfind(crate::skills::catalog::HEADING) {
        prompt.truncate(start);
    }
    prompt.push_str(&catalog.text);
    prompt.push_str(&index);
    prompt
}

/// Where the MCP resource index starts in the system prompt; everything before it is the session's own prompt.
pub const RESOURCE_INDEX_HEADING: &str = "\n\n# MCP resources\n";
/// Most resource URIs listed in the prompt (spec §7).
pub const MAX_INDEXED_RESOURCES: usize = 200;
/// Longest description kept per resource.
const MAX_RESOURCE_DESCRIPTION: usize = 160;

/// `prompt` (without any earlier index) followed by an index of up to 200 MCP resources, by server; `prompt`
/// unchanged when there are none. Listed in server and server order, so the same resources give the same bytes.
pub fn with_resource_index(prompt: &str, resources: &[(String, Vec<RemoteResource>)]) -> String {
    let base = prompt
        .split_once(RESOURCE_INDEX_HEADING)
        .map_or(prompt, |(base, _)| base);
    let mut lines = Vec::new();
    for (server, list) in resources {
        for resource in list {
            if lines.len() == MAX_INDEXED_RESOURCES {
                break;
            }
            let about = resource
                .description
                .as_deref()
                .filter(|d| !d.trim().is_empty())
                .unwrap_or(&resource.name);
            let about: String = about
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .chars()
                .take(MAX_RESOURCE_DESCRIPTION)
                .collect();
            lines.push(format!("- @{server}:{} — {about}", resource.uri));
        }
    }
    if lines.is_empty() {
        return base.to_string();
    }
    format!(
        "{base}{RESOURCE_INDEX_HEADING}Resources MCP servers offer. Read one with mcp__SERVER__read_resource when \
         the task needs it; the user may attach one by writing @SERVER:URI.\n{}",
        lines.join("\n")
    )
}

/// The instruction files that exist: the user's global `PAI.md`, then each directory from the git root down to
/// the project root. Each is read by the one safe reader (beneath its base, a regular file, at most
/// [`INSTRUCTIONS_CAP`] bytes); a refused or cut file adds a notice to `notices`.
pub fn project_instructions(
    project_root: &Path,
    home: &Path,
    notices: &mut Vec<FileNotice>,
) -> Vec<(String, String)> {
    let mut found = Vec::new();
    if let Some(text) = read_instructions(
        Path::new(crate::config::safe_read::USER_FILES_BASE),
        &home.join("PAI.md"),
        notices,
    ) {
        found.push(("~/.paicli/PAI.md".to_string(), text));
    }
    let dirs = dirs_from_git_root(project_root);
    // The enclosing repository is the project's boundary: no instruction file is read through a link out of it.
    let base = dirs
        .first()
        .cloned()
        .unwrap_or_else(|| project_root.to_path_buf());
    for dir in &dirs {
        for name in instruction_files::NAMES {
            let path = dir.join(name);
            if let Some(text) = read_instructions(&base, &path, notices) {
                let label = path
                    .strip_prefix(project_root)
                    .map(Path::to_path_buf)
                    .unwrap_or_else(|_| path.clone());
                found.push((label.display().to_string(), text));
            }
        }
    }
    found
}

/// Directories from the enclosing git root (or the project root when there is none) down to `project_root`.
fn dirs_from_git_root(project_root: &Path) -> Vec<PathBuf> {
    let mut chain: Vec<PathBuf> = Vec::new();
    for dir in project_root.ancestors() {
        chain.push(dir.to_path_buf());
        if dir.join(".git").exists() {
            chain.reverse();
            return chain;
        }
    }
    vec![project_root.to_path_buf()]
}

/// Reads one instruction file beneath `base`, expanding lines that consist only of `@relative/file.md` (one
/// level deep, beneath the file's own directory; any other import stays as text).
fn read_instructions(base: &Path, path: &Path, notices: &mut Vec<FileNotice>) -> Option<String> {
    let text = read_one(base, path, notices)?;
    let dir = base.join(path);
    let dir = dir.parent().unwrap_or(base);
    let mut out = String::new();
    for line in text.lines() {
        match instruction_files::import_of(line).and_then(|rel| read_one(dir, rel, notices)) {
            Some(imported) => out.push_str(imported.trim_end()),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    (!out.trim().is_empty()).then_some(out)
}

/// One instruction file or import, with a line telling the model where a long one was cut.
fn read_one(base: &Path, path: &Path, notices: &mut Vec<FileNotice>) -> Option<String> {
    let before = notices.len();
    let mut text = read_noticed(base, path, INSTRUCTIONS_CAP, notices)?;
    // A file read with a notice is a file cut at the cap.
    if notices.len() > before {
        text.push_str(&format!("\n[... file cut at {INSTRUCTIONS_CAP} bytes]\n"));
    }
    Some(text)
}

/// True when two system prompts differ at most in their date line: a prompt stored by a session started on
/// another day is still valid, and sending it unchanged keeps the provider's prompt cache.
pub fn same_apart_from_date(stored: &str, fresh: &str) -> bool {
    let without_date = |p: &str| {
        p.lines()
            .filter(|l| !l.starts_with("- Date: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    stored == fresh || without_date(stored) == without_date(fresh)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn reads_agents_and_pai_files_with_imports() {
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "Use tabs.\n@docs/style.md\n").unwrap();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        std::fs::write(dir.path().join("docs/style.md"), "Max 80 columns.").unwrap();
        std::fs::write(home.path().join("PAI.md"), "Global rule.").unwrap();
        let found = project_instructions(dir.path(), home.path(), &mut Vec::new());
        let labels: Vec<&str> = found.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, ["~/.paicli/PAI.md", "AGENTS.md"]);
        assert_eq!(found[1].1, "Use tabs.\nMax 80 columns.\n");
        let prompt = build_system_prompt(
            dir.path(),
            home.path(),
            &rules::tests::facts(),
            &mut Vec::new(),
        );
        assert!(prompt.contains("# Project instructions"));
        assert!(prompt.contains("Max 80 columns."));
    }

    #[test]
    fn claude_files_are_read_like_agents_files() {
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("CLAUDE.md"), "Run make check.").unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "Agents first.").unwrap();
        std::fs::write(dir.path().join("sub/CLAUDE.local.md"), "My local note.").unwrap();
        std::fs::write(dir.path().join("sub/PAI.md"), "Sub rule.").unwrap();
        let root = dir.path().join("sub");
        let found = project_instructions(&root, home.path(), &mut Vec::new());
        let labels: Vec<String> = found.iter().map(|(l, _)| l.clone()).collect();
        let top = |name: &str| dir.path().join(name).display().to_string();
        assert_eq!(
            labels,
            [
                top("AGENTS.md"),
                top("CLAUDE.md"),
                "PAI.md".into(),
                "CLAUDE.local.md".into()
            ]
        );
        let prompt =
            build_system_prompt(&root, home.path(), &rules::tests::facts(), &mut Vec::new());
        assert!(prompt.contains("Run make check."), "{prompt}");
        assert!(prompt.contains("My local note."), "{prompt}");
    }

    #[test]
    fn imports_outside_the_directory_are_left_as_text() {
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("PAI.md"), "@../secret.md\n").unwrap();
        let found = project_instructions(dir.path(), home.path(), &mut Vec::new());
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, "@../secret.md\n");
    }

    #[test]
    fn a_link_out_of_the_project_is_not_read_and_a_long_file_is_cut_each_with_a_notice() {
        use crate::config::safe_read::{FileIssue, ReadRefused};
        let dir = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("id_rsa"), "PRIVATE KEY").unwrap();
        std::os::unix::fs::symlink(outside.path().join("id_rsa"), dir.path().join("CLAUDE.md"))
            .unwrap();
        std::fs::write(dir.path().join("AGENTS.md"), "x".repeat(100_000)).unwrap();
        // A link that stays inside the project is followed.
        std::os::unix::fs::symlink(dir.path().join("AGENTS.md"), dir.path().join("PAI.md"))
            .unwrap();
        let mut notices = Vec::new();
        let prompt = build_system_prompt(
            dir.path(),
            home.path(),
            &rules::tests::facts(),
            &mut notices,
        );
        assert!(!prompt.contains("PRIVATE KEY"));
        assert!(prompt.contains("[... file cut at 40000 bytes]"));
        assert!(prompt.len() < 100_000, "{}", prompt.len());
        let issues: Vec<(&std::ffi::OsStr, &FileIssue)> = notices
            .iter()
            .map(|n| (n.path.file_name().unwrap(), &n.issue))
            .collect();
        assert_eq!(
            issues,
            [
                ("AGENTS.md".as_ref(), &FileIssue::Cut { cap: 40_000 }),
                (
                    "CLAUDE.md".as_ref(),
                    &FileIssue::Refused(ReadRefused::LinkOut {
                        base: dir.path().to_path_buf()
                    })
                ),
                ("PAI.md".as_ref(), &FileIssue::Cut { cap: 40_000 }),
            ]
        );
    }

    #[test]
    fn the_skill_catalog_is_appended_once_and_replaced_on_reload() {
        let mut found = crate::skills::Discovery::default();
        found.skills.push(crate::skills::Skill {
            name: "demo".into(),
            description: "Demo.".into(),
            layer: crate::skills::Layer::UserPaicli,
            dir: None,
            body: String::new(),
            enabled: true,
        });
        let first = with_skill_catalog("rules".into(), &crate::skills::Catalog::build(&found));
        assert!(first.starts_with("rules\n# Skills\n") && first.ends_with("- demo: Demo.\n"));
        assert_eq!(
            with_skill_catalog(first.clone(), &crate::skills::Catalog::build(&found)),
            first
        );
        let indexed = format!("{first}{RESOURCE_INDEX_HEADING}- @srv:file:///a — a");
        found.skills[0].enabled = false;
        assert_eq!(
            with_skill_catalog(first, &crate::skills::Catalog::build(&found)),
            "rules"
        );
        // `/skill reload` keeps the MCP resource index that followed the catalog.
        assert_eq!(
            with_skill_catalog(indexed, &crate::skills::Catalog::build(&found)),
            format!("rules{RESOURCE_INDEX_HEADING}- @srv:file:///a — a")
        );
    }

    #[test]
    fn prompt_is_stable_within_a_session() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            build_system_prompt(
                dir.path(),
                dir.path(),
                &rules::tests::facts(),
                &mut Vec::new()
            ),
            build_system_prompt(
                dir.path(),
                dir.path(),
                &rules::tests::facts(),
                &mut Vec::new()
            )
        );
    }

    #[test]
    fn a_stored_prompt_from_another_day_is_still_valid() {
        let today = "rules\n- Date: 2026-12-01\n# Project instructions\nA";
        assert!(same_apart_from_date(
            today,
            "rules\n- Date: 2026-11-02\n# Project instructions\nA"
        ));
        assert!(!same_apart_from_date(
            today,
            "rules\n- Date: 2026-12-01\n# Project instructions\nB"
        ));
    }
}
