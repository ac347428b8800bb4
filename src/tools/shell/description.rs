//! `execute_command`'s description, built from the limits the session's commands really get: the time limit, the
//! output kept inline (and whether the rest is saved or cut), the variables kept, and the OS sandbox only when
//! commands run in it. The model reads this; a promise it cannot rely on is worse than none.

use std::time::Duration;

use crate::config::SandboxMode;
use crate::sandbox::Sandbox;
use crate::tools::ToolLimits;

/// The description for commands run under `limits`, their long output saved to files when `spill_saves` (else
/// cut). The same inputs give the same bytes.
pub fn describe(limits: &ToolLimits, spill_saves: bool) -> String {
    let mut text = String::from(
        "Run `bash -c` in the project root; returns stdout and stderr combined. Variables whose names contain \
         KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL are removed",
    );
    if !limits.keep_env.is_empty() {
        text.push_str(&format!(" (except {})", limits.keep_env.join(", ")));
    }
    text.push_str(
        ". Destructive or system-wide commands and writes outside the project are refused. ",
    );
    text.push_str(&confinement(&limits.sandbox));
    text.push_str(&format!(
        "Stdin is closed. It and all it started are killed after {}; background processes stop when it ends. A \
         non-zero exit is a failure. ",
        spoken_duration(limits.command_timeout)
    ));
    let inline = limits.command_inline_chars;
    text.push_str(&if spill_saves {
        format!(
            "Output beyond {inline} characters is saved under .paicli/tool-outputs/ with a preview returned."
        )
    } else {
        format!("Output beyond {inline} characters is cut to its start and end.")
    });
    text
}

/// What the sandbox does to a command, as a sentence ending in a space; empty when commands run unconfined.
fn confinement(sandbox: &Sandbox) -> String {
    let settings = sandbox.settings();
    if !sandbox.is_active() {
        return if settings.mode == SandboxMode::Required {
            "The settings require an OS sandbox, which this machine lacks, so every command is refused. "
                .to_string()
        } else {
            String::new()
        };
    }
    let mut places = vec!["the project".to_string(), "the temp dir".to_string()];
    places.extend(
        settings
            .writable_roots
            .iter()
            .map(|p| p.display().to_string()),
    );
    places.push("tool caches".to_string());
    let last = places.pop().unwrap_or_default();
    let mut text = format!(
        "The command runs in an OS sandbox where writes outside {} and {last} fail",
        places.join(", ")
    );
    if settings.protect_git {
        text.push_str(" (the project's .git is read-only too)");
    }
    if !settings.network && sandbox.support().confines_network() {
        text.push_str(" and network connections are refused");
    }
    text.push_str(". ");
    text
}

/// `7 seconds`, `1 second`, or `1500 milliseconds` for limits that are not whole seconds.
fn spoken_duration(d: Duration) -> String {
    match (d.as_secs(), d.subsec_millis()) {
        (1, 0) => "1 second".to_string(),
        (secs, 0) => format!("{secs} seconds"),
        _ => format!("{} milliseconds", d.as_millis()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SandboxSettings;
    use crate::sandbox::Support;

    fn sandbox(mode: SandboxMode, network: bool, support: Support) -> Sandbox {
        let settings = SandboxSettings {
            mode,
            network,
            protect_git: true,
            ..SandboxSettings::default()
        };
        Sandbox::with_support(settings, Vec::new(), support)
    }

    fn limits(sandbox: Sandbox) -> ToolLimits {
        ToolLimits {
            command_timeout: Duration::from_secs(7),
            command_inline_chars: 3000,
            keep_env: vec!["NPM_TOKEN".to_string()],
            sandbox,
            ..ToolLimits::default()
        }
    }

    const LANDLOCK: Support = Support::Landlock { abi: 6 };
    const NONE: Support = Support::Unavailable {
        reason: "no kernel support",
    };

    #[test]
    fn the_limits_are_the_settings_and_a_sandbox_that_is_off_is_not_mentioned() {
        let text = describe(&limits(sandbox(SandboxMode::Off, true, LANDLOCK)), true);
        assert!(text.contains("killed after 7 seconds"), "{text}");
        assert!(
            text.contains("Output beyond 3000 characters is saved"),
            "{text}"
        );
        assert!(text.contains("(except NPM_TOKEN)"), "{text}");
        assert!(
            text.contains("background processes stop when it ends"),
            "{text}"
        );
        for untrue in ["60", "8000", "sandbox"] {
            assert!(!text.contains(untrue), "`{untrue}` in {text}");
        }
        // `auto` on a machine without support runs commands unconfined: no sandbox either.
        let auto = describe(&limits(sandbox(SandboxMode::Auto, true, NONE)), true);
        assert!(!auto.contains("sandbox"), "{auto}");
    }

    #[test]
    fn a_sandbox_in_force_is_described_with_what_it_refuses() {
        let open = describe(&limits(sandbox(SandboxMode::Auto, true, LANDLOCK)), true);
        assert!(
            open.contains(
                "runs in an OS sandbox where writes outside the project, the temp dir and tool caches fail \
                 (the project's .git is read-only too). "
            ),
            "{open}"
        );
        assert!(!open.contains("network"), "{open}");
        let closed = describe(&limits(sandbox(SandboxMode::Auto, false, LANDLOCK)), true);
        assert!(
            closed.contains("and network connections are refused."),
            "{closed}"
        );
        // A kernel that cannot refuse connections is not said to.
        let old = Support::Landlock { abi: 3 };
        let leaky = describe(&limits(sandbox(SandboxMode::Auto, false, old)), true);
        assert!(!leaky.contains("network"), "{leaky}");
        let required = describe(&limits(sandbox(SandboxMode::Required, true, NONE)), true);
        assert!(required.contains("every command is refused"), "{required}");
    }

    #[test]
    fn output_is_said_to_be_cut_when_nothing_is_saved_and_durations_read_aloud() {
        let text = describe(&limits(sandbox(SandboxMode::Off, true, LANDLOCK)), false);
        assert!(
            text.ends_with("Output beyond 3000 characters is cut to its start and end."),
            "{text}"
        );
        assert!(!text.contains("tool-outputs"), "{text}");
        assert_eq!(spoken_duration(Duration::from_secs(1)), "1 second");
        assert_eq!(
            spoken_duration(Duration::from_millis(1500)),
            "1500 milliseconds"
        );
        assert_eq!(
            describe(&limits(sandbox(SandboxMode::Off, true, LANDLOCK)), true),
            describe(&limits(sandbox(SandboxMode::Off, true, LANDLOCK)), true)
        );
    }
}
