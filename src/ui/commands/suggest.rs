//! The command an unknown `/name` was likely meant to be: only a close typo gets a guess.

use super::COMMANDS;

/// The closest command name to a mistyped one, when it is close enough to be a likely typo: one edit for names
/// of three to five letters, two for longer ones (`/modle` is `/model`; `/foo` is no command, not `/fork`).
pub fn suggest(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    let allowed = match name.chars().count() {
        // One or two letters are too little to guess from.
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    };
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&name, candidate);
            // On a tie the candidate of the typed length wins: `/modle` is `/model`, not `/mode`.
            (distance, candidate.len().abs_diff(name.len()), candidate)
        })
        .filter(|(d, _, _)| *d <= allowed)
        .min()
        .map(|(_, _, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_get_a_suggestion() {
        assert_eq!(suggest("modle"), Some("model"));
        assert_eq!(suggest("hepl"), Some("help"));
        assert_eq!(suggest("mdoe"), Some("mode"));
        assert_eq!(suggest("polcy"), Some("policy"));
        assert_eq!(suggest("xyzzy"), None);
        assert_eq!(suggest("compcat"), Some("compact"));
    }

    #[test]
    fn names_far_from_every_command_get_no_suggestion() {
        for far in ["foo", "fo", "x", "zz", "abc", "hello", "sessionsxyz"] {
            assert_eq!(suggest(far), None, "{far}");
        }
    }
}
