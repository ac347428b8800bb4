//! Finds the skills of every layer and checks each SKILL.md as the format requires. A broken skill is skipped
//! with its reason; it never stops start-up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::frontmatter;
use super::{Discovery, Layer, Skill, Skipped, builtin};
use crate::config::safe_read::{FileNotice, SKILL_CAP, read_whole_noticed};

/// Longest name the format allows.
const MAX_NAME_CHARS: usize = 64;
/// Longest description the format allows.
const MAX_DESCRIPTION_CHARS: usize = 1024;

/// The directories the layers live under.
#[derive(Clone, Debug)]
pub struct SkillRoots {
    /// The user's home (`~`), for `~/.agents/skills` and `~/.claude/skills`; `None` when unknown.
    pub user_home: Option<PathBuf>,
    /// `$PAICLI_HOME` (`~/.paicli`).
    pub paicli_home: PathBuf,
    /// The project root.
    pub project_root: PathBuf,
}

impl SkillRoots {
    /// The folder of `layer`; `None` for built-in skills and when the home is unknown.
    pub fn dir(&self, layer: Layer) -> Option<PathBuf> {
        let home = self.user_home.as_deref();
        match layer {
            Layer::BuiltIn => None,
            Layer::UserPaicli => Some(self.paicli_home.join("skills")),
            Layer::UserAgents => home.map(|h| h.join(".agents/skills")),
            Layer::UserClaude => home.map(|h| h.join(".claude/skills")),
            Layer::ProjectAgents => Some(self.project_root.join(".agents/skills")),
            Layer::ProjectClaude => Some(self.project_root.join(".claude/skills")),
            Layer::ProjectPaicli => Some(self.project_root.join(".paicli/skills")),
        }
    }
}

/// Every layer's skills, later layers replacing earlier ones of the same name; `disabled` names the skills the
/// user switched off. Skipped files are logged once each.
pub fn discover(roots: &SkillRoots, disabled: &[String]) -> Discovery {
    let mut by_name: BTreeMap<String, Skill> = BTreeMap::new();
    let mut skipped = Vec::new();
    let mut file_notices = Vec::new();
    for (name, text) in builtin::ALL {
        match parse_skill(text, name) {
            Ok((description, body)) => {
                by_name.insert(
                    name.to_string(),
                    Skill {
                        name: name.to_string(),
                        description,
                        layer: Layer::BuiltIn,
                        dir: None,
                        body,
                        enabled: true,
                    },
                );
            }
            Err(problem) => skipped.push(Skipped {
                path: PathBuf::from(format!("built-in/{name}/SKILL.md")),
                problem,
            }),
        }
    }
    for layer in Layer::ALL {
        let Some(dir) = roots.dir(layer) else {
            continue;
        };
        for folder in skill_folders(&dir) {
            let base = skill_base(roots, layer, &folder);
            match read_skill(&base, &folder, layer, &mut file_notices) {
                Ok(Some(skill)) => {
                    by_name.insert(skill.name.clone(), skill);
                }
                Ok(None) => {}
                Err(skip) => {
                    tracing::warn!("skill skipped: {}: {}", skip.path.display(), skip.problem);
                    skipped.push(skip);
                }
            }
        }
    }
    let mut found = Discovery {
        skills: by_name.into_values().collect(),
        skipped,
        file_notices,
    };
    found.apply_disabled(disabled);
    found
}

/// The non-hidden sub-folders of `dir`, sorted (links to folders included: users link shared skills in).
fn skill_folders(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    folders
}

/// The folder a layer's SKILL.md must lie beneath: a project's skills stay inside the project (a cloned
/// repository's link out of it is refused); a user's skill folder may be a link to a shared one (users link
/// skills in), but its SKILL.md stays inside that folder.
fn skill_base(roots: &SkillRoots, layer: Layer, folder: &Path) -> PathBuf {
    match layer {
        Layer::ProjectAgents | Layer::ProjectClaude | Layer::ProjectPaicli => {
            roots.project_root.clone()
        }
        _ => folder.to_path_buf(),
    }
}

/// The skill in `folder`, its SKILL.md read beneath `base` by the safe reader; `Ok(None)` when the folder holds
/// no SKILL.md (it is not a skill) or the reader refused it (a notice in `notices`).
fn read_skill(
    base: &Path,
    folder: &Path,
    layer: Layer,
    notices: &mut Vec<FileNotice>,
) -> Result<Option<Skill>, Skipped> {
    let file = folder.join("SKILL.md");
    let skip = |problem: String| Skipped {
        path: file.clone(),
        problem,
    };
    let Some(text) = read_whole_noticed(base, &file, SKILL_CAP, notices) else {
        return Ok(None);
    };
    let folder_name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (description, body) = parse_skill(&text, &folder_name).map_err(skip)?;
    let dir = folder
        .canonicalize()
        .map_err(|e| skip(format!("cannot resolve its folder: {e}")))?;
    Ok(Some(Skill {
        name: folder_name,
        description,
        layer,
        dir: Some(dir),
        body,
        enabled: true,
    }))
}

/// The description and body of a SKILL.md whose folder is `folder_name`, or what is wrong with it.
pub fn parse_skill(text: &str, folder_name: &str) -> Result<(String, String), String> {
    let (front, body) = frontmatter::parse(text).map_err(|e| e.to_string())?;
    let name = front
        .name
        .ok_or_else(|| "the frontmatter has no `name`".to_string())?;
    check_name(&name)?;
    if name != folder_name {
        return Err(format!(
            "`name: {name}` does not match its folder `{folder_name}`"
        ));
    }
    let description = front
        .description
        .map(|d| d.trim().to_string())
        .unwrap_or_default();
    let chars = description.chars().count();
    if chars == 0 {
        return Err("the frontmatter has no `description`".to_string());
    }
    if chars > MAX_DESCRIPTION_CHARS {
        return Err(format!(
            "the description has {chars} characters; at most {MAX_DESCRIPTION_CHARS} are allowed"
        ));
    }
    Ok((description, body.trim().to_string()))
}

/// A name is 1–64 lowercase ASCII letters, digits and single hyphens, neither starting nor ending with one.
fn check_name(name: &str) -> Result<(), String> {
    let valid_chars = name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    let valid = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && valid_chars
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--");
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`name: {name}` is not 1-64 lowercase letters, digits and single hyphens"
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_projects_skill_linked_out_is_refused_and_a_users_linked_skill_folder_still_loads() {
        use crate::config::safe_read::{FileIssue, ReadRefused};
        use std::os::unix::fs::symlink;
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let shared = tempfile::tempdir().unwrap();
        let skill = |dir: &Path, name: &str| {
            std::fs::create_dir_all(dir.join(name)).unwrap();
            let text = format!("---\nname: {name}\ndescription: Does {name}.\n---\nSteps\n");
            std::fs::write(dir.join(name).join("SKILL.md"), text).unwrap();
        };
        skill(shared.path(), "shared");
        skill(shared.path(), "planted");
        std::fs::create_dir_all(home.path().join("skills")).unwrap();
        symlink(
            shared.path().join("shared"),
            home.path().join("skills/shared"),
        )
        .unwrap();
        let project_skills = project.path().join(".paicli/skills");
        std::fs::create_dir_all(project_skills.join("leak")).unwrap();
        symlink(
            shared.path().join("planted"),
            project_skills.join("planted"),
        )
        .unwrap();
        symlink("/dev/zero", project_skills.join("leak/SKILL.md")).unwrap();
        let roots = SkillRoots {
            user_home: None,
            paicli_home: home.path().to_path_buf(),
            project_root: project.path().to_path_buf(),
        };
        let found = discover(&roots, &[]);
        assert!(found.get("shared").is_some());
        assert!(found.get("planted").is_none() && found.get("leak").is_none());
        let mut refused: Vec<(String, bool)> = found
            .file_notices
            .iter()
            .map(|n| {
                let skill = n.path.parent().unwrap().file_name().unwrap();
                let link_out = matches!(n.issue, FileIssue::Refused(ReadRefused::LinkOut { .. }));
                (skill.to_string_lossy().into_owned(), link_out)
            })
            .collect();
        refused.sort();
        assert_eq!(
            refused,
            [("leak".to_string(), true), ("planted".to_string(), true)]
        );
    }

    #[test]
    fn names_follow_the_format() {
        for good in ["pdf", "code-review", "a1-b2", &"x".repeat(64)] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "PDF", "-x", "x-", "a--b", "a_b", "a b", &"x".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn description_is_required_and_bounded() {
        let long = "d".repeat(1025);
        let cases = [
            ("---\nname: x\n---\n", "no `description`"),
            (&format!("---\nname: x\ndescription: {long}\n---\n"), "1025"),
            ("---\nname: y\ndescription: d\n---\n", "does not match"),
            ("---\ndescription: d\n---\n", "no `name`"),
        ];
        for (text, problem) in cases {
            let err = parse_skill(text, "x").unwrap_err();
            assert!(err.contains(problem), "{err}");
        }
        let (d, body) = parse_skill(
            "---\nname: x\ndescription: ' Does X. '\n---\n\nSteps\n",
            "x",
        )
        .unwrap();
        assert_eq!((d.as_str(), body.as_str()), ("Does X.", "Steps"));
    }
}
