//! Test peers (servers, browsers, SDKs the tests talk to) that may be missing: the one place that decides whether
//! the tests run under CI, where `scripts/test` installs every peer, so a missing one fails instead of skipping.

use std::fmt::Display;

/// Whether the tests run under CI: `CI` is set to anything but empty, `0` or `false` (GitHub Actions and GitLab
/// set `true`, others `1` or their own name).
pub fn on_ci() -> bool {
    ci_value_means_ci(std::env::var("CI").ok().as_deref())
}

fn ci_value_means_ci(value: Option<&str>) -> bool {
    value.is_some_and(|v| {
        let v = v.trim();
        !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
    })
}

/// A peer the test needs is missing: a failure under CI, otherwise a note on stderr that the test is skipped.
/// `what` says what is missing and how to install it.
pub fn skip_missing_peer(what: impl Display) {
    assert!(!on_ci(), "test peer missing under CI: {what}");
    eprintln!("skipping: {what}");
}

#[cfg(test)]
mod tests {
    use super::ci_value_means_ci;

    #[test]
    fn ci_is_any_value_but_empty_zero_or_false() {
        for yes in ["true", "1", "TRUE", "woodpecker", "yes"] {
            assert!(ci_value_means_ci(Some(yes)), "{yes}");
        }
        for no in [
            None,
            Some(""),
            Some("0"),
            Some("false"),
            Some("False"),
            Some(" "),
        ] {
            assert!(!ci_value_means_ci(no), "{no:?}");
        }
    }
}
