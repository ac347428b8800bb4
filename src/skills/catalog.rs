//! The skills section of the system prompt: name and description of each enabled skill, built once per session
//! (and again only on a deliberate `/skill reload`, `on` or `off`) so the request prefix stays byte-identical.

use super::Discovery;

/// Most skills the catalog lists (as PaiCLI).
pub const MAX_SKILLS: usize = 20;
/// Most bytes of catalog lines (as PaiCLI).
pub const MAX_BYTES: usize = 4 * 1024;

/// How the catalog section starts; it is always the end of the system prompt.
pub const HEADING: &str = "\n# Skills\nSkills are procedures the user installed.";

/// The catalog text and what it left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalog {
    /// The prompt section; empty when no skill is enabled.
    pub text: String,
    /// Skills listed.
    pub listed: usize,
    /// Enabled skills left out by the caps.
    pub left_out: usize,
}

impl Catalog {
    /// The catalog of the enabled skills in `found`, in name order, within [`MAX_SKILLS`] and [`MAX_BYTES`].
    pub fn build(found: &Discovery) -> Catalog {
        let mut lines = String::new();
        let mut listed = 0;
        let mut left_out = 0;
        for skill in found.enabled() {
            let line = format!("- {}: {}\n", skill.name, one_line(&skill.description));
            if listed < MAX_SKILLS && lines.len() + line.len() <= MAX_BYTES {
                lines.push_str(&line);
                listed += 1;
            } else {
                left_out += 1;
            }
        }
        if listed == 0 {
            return Catalog {
                text: String::new(),
                listed,
                left_out,
            };
        }
        let mut text = format!(
            "{HEADING} When a task matches one, call load_skill with its name before you start and follow \
             what it returns.\n"
        );
        text.push_str(&lines);
        if left_out > 0 {
            text.push_str(&format!(
                "({left_out} more skills are installed but not listed here.)\n"
            ));
        }
        Catalog {
            text,
            listed,
            left_out,
        }
    }
}

/// A description on one line (YAML block scalars keep their newlines).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skills::{Layer, Skill};

    fn skill(name: &str, description: &str) -> Skill {
        Skill {
            name: name.to_string(),
            description: description.to_string(),
            layer: Layer::UserPaicli,
            dir: None,
            body: String::new(),
            enabled: true,
        }
    }

    #[test]
    fn lists_enabled_skills_and_counts_what_the_caps_leave_out() {
        let mut found = Discovery::default();
        for i in 0..25 {
            found
                .skills
                .push(skill(&format!("s{i:02}"), "does a\nthing"));
        }
        found.skills[0].enabled = false;
        let catalog = Catalog::build(&found);
        assert_eq!((catalog.listed, catalog.left_out), (20, 4));
        assert!(catalog.text.contains("- s01: does a thing\n"));
        assert!(!catalog.text.contains("s00"));
        assert!(catalog.text.contains("(4 more skills"));
    }

    #[test]
    fn the_byte_cap_holds() {
        let mut found = Discovery::default();
        for i in 0..10 {
            found
                .skills
                .push(skill(&format!("s{i}"), &"d".repeat(1000)));
        }
        let catalog = Catalog::build(&found);
        assert_eq!((catalog.listed, catalog.left_out), (4, 6));
    }

    #[test]
    fn no_enabled_skill_means_no_section() {
        assert_eq!(Catalog::build(&Discovery::default()).text, "");
    }
}
