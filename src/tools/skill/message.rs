//! The user message a loaded skill becomes: marked as skill instructions, the body (cut at 5 KB) and the
//! absolute paths of the skill's bundled files.

use std::path::{Path, PathBuf};

use crate::skills::Skill;

/// Most bytes of a skill's body put into the conversation; the rest stays in the file.
pub const MAX_BODY_BYTES: usize = 5 * 1024;
/// Most bundled files listed, and how deep the listing looks.
const MAX_FILES: usize = 100;
const MAX_DEPTH: usize = 4;

/// The message for `skill`: a header naming it, its bundled files and its body.
pub fn skill_message(skill: &Skill) -> String {
    let mut out = format!(
        "[skill instructions: {}]\nThe user's skill `{}` ({}), loaded at your request. Follow these \
         instructions for the current task; the user's own messages take precedence over them.\n",
        skill.name,
        skill.name,
        skill.source()
    );
    if let Some(dir) = &skill.dir {
        let files = bundled_files(dir);
        if !files.is_empty() {
            out.push_str(&format!(
                "\nBundled files (absolute paths; read them with read_file when the instructions need them; \
                 relative paths in the instructions are relative to {}):\n",
                dir.display()
            ));
            for file in &files {
                out.push_str(&format!("- {}\n", file.display()));
            }
            if files.len() == MAX_FILES {
                out.push_str("- ... (more files not listed; use list_dir on the folder)\n");
            }
        }
    }
    out.push('\n');
    let body = &skill.body;
    if body.len() <= MAX_BODY_BYTES {
        out.push_str(body);
    } else {
        let mut cut = MAX_BODY_BYTES;
        while !body.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push_str(&body[..cut]);
        let whole = skill
            .dir
            .as_ref()
            .map(|d| {
                format!(
                    "; read the rest with read_file from {}",
                    d.join("SKILL.md").display()
                )
            })
            .unwrap_or_default();
        out.push_str(&format!("\n[... skill instructions cut at 5 KB{whole}]"));
    }
    out.push('\n');
    out
}

/// The files in a skill's folder besides its SKILL.md, sorted, without hidden entries or symlinks.
fn bundled_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect(dir, 0, &mut files);
    files.retain(|f| f != &dir.join("SKILL.md"));
    files.sort();
    files.truncate(MAX_FILES);
    files
}

fn collect(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    if depth > MAX_DEPTH || out.len() > MAX_FILES {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(&entry.path(), depth + 1, out);
        } else if kind.is_file() {
            out.push(entry.path());
        }
        if out.len() > MAX_FILES {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::skills::Layer;

    #[test]
    fn lists_bundled_files_and_cuts_a_long_body() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("references")).unwrap();
        std::fs::write(dir.path().join("SKILL.md"), "x").unwrap();
        std::fs::write(dir.path().join("references/x.md"), "x").unwrap();
        std::fs::write(dir.path().join(".hidden"), "x").unwrap();
        let skill = Skill {
            name: "demo".into(),
            description: "d".into(),
            layer: Layer::ProjectPaicli,
            dir: Some(dir.path().to_path_buf()),
            body: "é".repeat(3000),
            enabled: true,
        };
        let text = skill_message(&skill);
        assert!(text.starts_with("[skill instructions: demo]\n"));
        assert!(text.contains(&format!(
            "- {}\n",
            dir.path().join("references/x.md").display()
        )));
        assert!(!text.contains(".hidden"));
        assert!(!text.contains(&format!("- {}\n", dir.path().join("SKILL.md").display())));
        assert!(text.contains("[... skill instructions cut at 5 KB; read the rest"));
        assert!(text.len() < MAX_BODY_BYTES + 1024);
    }
}
