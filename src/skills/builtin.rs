//! The skills shipped inside the binary (`assets/skills/<name>/SKILL.md`); any layer on disk may replace them.

/// Name and SKILL.md text of each built-in skill.
pub const ALL: &[(&str, &str)] = &[
    (
        "code-review",
        include_str!("../../assets/skills/code-review/SKILL.md"),
    ),
    (
        "commit-message",
        include_str!("../../assets/skills/commit-message/SKILL.md"),
    ),
    (
        "web-access",
        include_str!("../../assets/skills/web-access/SKILL.md"),
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_skill_is_valid() {
        for (name, text) in ALL {
            let parsed = crate::skills::discover::parse_skill(text, name);
            assert!(parsed.is_ok(), "{name}: {parsed:?}");
        }
    }
}
