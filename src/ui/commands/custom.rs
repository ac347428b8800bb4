//! Custom slash commands (Claude Code's convention): Markdown files in `~/.paicli/commands/`,
//! `.claude/commands/` and `.paicli/commands/` (later folders replace a command of the same name) become
//! `/name [args]`. `$ARGUMENTS` becomes the whole argument text, `$1`, `$2`, ... its words; optional frontmatter
//! `description` is the help line. The expanded text is sent as the user's message. A file never shadows a
//! built-in command: it is ignored with one warning at start-up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;

use crate::config::safe_read::read_whole_beneath;
use crate::skills::frontmatter;
use crate::text::{Lang, Msg, trf};

/// Largest command file read (its text becomes a message).
const MAX_FILE_BYTES: u64 = 64 * 1024;

/// One command from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomCommand {
    /// The name after the slash (the file's stem).
    pub name: String,
    /// The frontmatter's `description`, when it has one.
    pub description: Option<String>,
    /// The Markdown after the frontmatter: the message template.
    pub template: String,
    pub path: PathBuf,
}

/// Why a command file was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// Its name is a built-in command's (or an alias).
    Shadows { path: PathBuf, name: String },
    /// It could not be read or its frontmatter is broken.
    Broken { path: PathBuf, problem: String },
}

/// The session's custom commands, and the files that were ignored.
#[derive(Clone, Debug, Default)]
pub struct CustomCommands {
    commands: BTreeMap<String, CustomCommand>,
    pub ignored: Vec<Ignored>,
}

impl CustomCommands {
    /// Reads the command folders of `paicli_home` (user) and `project_root`, lowest precedence first.
    pub fn load(paicli_home: &Path, project_root: &Path) -> CustomCommands {
        // Each folder with the base its files are read beneath (a project's link out of it is refused).
        let folders = [
            (paicli_home, paicli_home.join("commands")),
            (project_root, project_root.join(".claude/commands")),
            (project_root, project_root.join(".paicli/commands")),
        ];
        let mut found = CustomCommands::default();
        for (base, folder) in folders {
            for path in markdown_files(&folder) {
                found.add(base, path);
            }
        }
        found
    }

    fn add(&mut self, base: &Path, path: PathBuf) {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_ascii_lowercase())
            .unwrap_or_default();
        if super::parse(&format!("/{name}")).is_none_or(|(n, _)| n != name) {
            self.ignored.push(Ignored::Broken {
                path,
                problem: "its name is not letters, digits, `-` and `_`".to_string(),
            });
            return;
        }
        if super::find(&name).is_some() {
            self.ignored.push(Ignored::Shadows { path, name });
            return;
        }
        match read_command(base, &path) {
            Ok((description, template)) => {
                self.commands.insert(
                    name.clone(),
                    CustomCommand {
                        name,
                        description,
                        template,
                        path,
                    },
                );
            }
            Err(problem) => self.ignored.push(Ignored::Broken { path, problem }),
        }
    }

    /// The command called `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&CustomCommand> {
        self.commands.get(&name.to_ascii_lowercase())
    }

    /// Every command, by name.
    pub fn all(&self) -> impl Iterator<Item = &CustomCommand> {
        self.commands.values()
    }

    /// Name and help line of each command, for `/help` and completion.
    pub fn help_rows(&self, lang: Lang) -> Vec<(String, String)> {
        self.all().map(|c| (c.name.clone(), c.help(lang))).collect()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }
}

/// The `*.md` files directly in `folder`, sorted.
fn markdown_files(folder: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && p.is_file())
        .collect();
    files.sort();
    files
}

/// A command file's description and template, read beneath `base` by the one safe reader.
fn read_command(base: &Path, path: &Path) -> Result<(Option<String>, String), String> {
    let text =
        read_whole_beneath(base, path, MAX_FILE_BYTES).map_err(|refused| refused.to_string())?;
    let (front, body) = frontmatter::parse_optional(&text).map_err(|e| e.to_string())?;
    let description = front
        .description
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|d| !d.is_empty());
    Ok((description, body.trim().to_string()))
}

static PLACEHOLDER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\$(ARGUMENTS|[1-9][0-9]?)").ok());

impl CustomCommand {
    /// Its help line: the description, else which file it sends.
    pub fn help(&self, lang: Lang) -> String {
        match &self.description {
            Some(d) => d.clone(),
            None => {
                let file = self
                    .path
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default();
                trf(lang, Msg::CustomCommandDefaultHelp, &[("file", &file)])
            }
        }
    }

    /// The message for `/name args`: `$ARGUMENTS` is `args`, `$N` its N-th word (empty when missing). Arguments
    /// given to a template without placeholders are appended, so they are never lost.
    pub fn expand(&self, args: &str) -> String {
        let words: Vec<&str> = args.split_whitespace().collect();
        let Some(placeholder) = PLACEHOLDER.as_ref() else {
            return self.template.clone();
        };
        let mut used = false;
        let text = placeholder.replace_all(&self.template, |caps: &regex::Captures<'_>| {
            used = true;
            match &caps[1] {
                "ARGUMENTS" => args.to_string(),
                n => n
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| words.get(i - 1))
                    .map_or(String::new(), |w| (*w).to_string()),
            }
        });
        let mut text = text.into_owned();
        if !used && !args.is_empty() {
            text.push_str(&format!("\n\nARGUMENTS: {args}"));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn command(template: &str) -> CustomCommand {
        CustomCommand {
            name: "review".into(),
            description: None,
            template: template.into(),
            path: PathBuf::from("review.md"),
        }
    }

    #[test]
    fn placeholders_are_replaced() {
        let c = command("Review $ARGUMENTS, first $1 then $2; $3 is empty.");
        assert_eq!(
            c.expand("src/lib.rs src/main.rs"),
            "Review src/lib.rs src/main.rs, first src/lib.rs then src/main.rs;  is empty."
        );
        assert_eq!(
            command("Summarize.").expand("x y"),
            "Summarize.\n\nARGUMENTS: x y"
        );
        assert_eq!(command("Summarize.").expand(""), "Summarize.");
    }

    #[test]
    fn a_project_command_linked_out_of_the_project_or_to_a_device_is_ignored_with_why() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "SECRET").unwrap();
        let folder = project.path().join(".claude/commands");
        std::fs::create_dir_all(&folder).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.md"), folder.join("leak.md"))
            .unwrap();
        std::os::unix::fs::symlink("/dev/zero", folder.join("zero.md")).unwrap();
        let found = CustomCommands::load(home.path(), project.path());
        assert!(found.is_empty());
        let problems: Vec<String> = found
            .ignored
            .iter()
            .map(|i| match i {
                Ignored::Broken { problem, .. } => problem.clone(),
                Ignored::Shadows { name, .. } => name.clone(),
            })
            .collect();
        // The link to a device is not even listed (not a file); the link out is named.
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("lies outside"), "{problems:?}");
    }

    #[test]
    fn later_folders_win_and_built_ins_are_never_shadowed() {
        let home = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        let write = |dir: &Path, name: &str, text: &str| {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(name), text).unwrap();
        };
        write(&home.path().join("commands"), "lint.md", "user $ARGUMENTS");
        write(&home.path().join("commands"), "model.md", "shadow");
        write(
            &project.path().join(".paicli/commands"),
            "lint.md",
            "---\ndescription: Review a file\n---\nproject $ARGUMENTS\n",
        );
        write(
            &project.path().join(".claude/commands"),
            "bad.md",
            "---\nx: [\n---\n",
        );
        write(
            &project.path().join(".claude/commands"),
            "notes.txt",
            "not a command",
        );
        let found = CustomCommands::load(home.path(), project.path());
        let lint = found.get("LINT").unwrap();
        assert_eq!(lint.template, "project $ARGUMENTS");
        assert_eq!(lint.description.as_deref(), Some("Review a file"));
        assert_eq!(found.all().count(), 1);
        assert!(found.get("model").is_none());
        // The user's folder is read first, then the project's.
        assert!(
            matches!(&found.ignored[..], [Ignored::Shadows { name, .. }, Ignored::Broken { .. }] if name == "model"),
            "{:?}",
            found.ignored
        );
    }
}
