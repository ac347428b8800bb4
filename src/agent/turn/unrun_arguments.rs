//! Megabytes of arguments of a call that did nothing are not sent again with every later request (a provider
//! rejects a request that large): a refused or failed call whose arguments pass [`KEPT_ARGUMENTS_MAX`] keeps
//! its id and name, so the pairing with its result stays valid, but its arguments become a small JSON object
//! saying what was dropped, and its result tells the model so. The session file gets the same: a round holding
//! such arguments is written to the ledger when it closes, not announced before the calls run.

use crate::llm::ToolCall;
use crate::tools::ToolOutcome;

/// Arguments up to this many bytes are kept as the model wrote them, whatever the call's outcome.
pub const KEPT_ARGUMENTS_MAX: usize = 16 * 1024;

/// The key of the placeholder object that stands for dropped arguments.
pub const OMITTED_KEY: &str = "_paicli_omitted";

/// True when a call's arguments are too large to keep should it be refused.
pub fn any_too_large(calls: &[ToolCall]) -> bool {
    calls.iter().any(|c| c.arguments.len() > KEPT_ARGUMENTS_MAX)
}

/// Replaces the arguments of `call` when it was refused or failed (`outcome`) and they are too large to keep;
/// then appends a sentence saying so to the result `text`.
pub fn drop_unrun_arguments(call: &mut ToolCall, outcome: &ToolOutcome, text: &mut String) {
    let bytes = call.arguments.len();
    let unrun = matches!(
        outcome,
        ToolOutcome::Denied { .. } | ToolOutcome::Failed { .. }
    );
    if !unrun || bytes <= KEPT_ARGUMENTS_MAX {
        return;
    }
    let what = match outcome {
        ToolOutcome::Denied { .. } => "refused",
        _ => "failed",
    };
    let placeholder = serde_json::json!({
        OMITTED_KEY: format!("arguments of {bytes} bytes were not kept because the call was {what}")
    });
    call.arguments = placeholder.to_string();
    text.push_str(&format!(
        "\n\n[paicli] The arguments of this call ({bytes} bytes) were too large to keep in the conversation \
         after it was {what}, so they are not shown above. Do not resend them unchanged: if the call is still \
         needed, fix what made it {what} and split large content into smaller pieces."
    ));
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn call(arguments: String) -> ToolCall {
        ToolCall {
            id: "call_1".into(),
            name: "write_file".into(),
            arguments,
        }
    }

    #[test]
    fn large_arguments_of_a_refused_call_become_a_placeholder_object() {
        let big = format!(r#"{{"path":"x","content":"{}"}}"#, "a".repeat(100_000));
        let mut c = call(big);
        let mut text = "denied".to_string();
        drop_unrun_arguments(&mut c, &ToolOutcome::denied("PLAN_MODE", "no"), &mut text);
        assert_eq!((c.id.as_str(), c.name.as_str()), ("call_1", "write_file"));
        let value: serde_json::Value = serde_json::from_str(&c.arguments).unwrap();
        let note = value[OMITTED_KEY].as_str().unwrap();
        assert!(
            note.contains("100025 bytes") && note.contains("refused"),
            "{note}"
        );
        assert!(c.arguments.len() < 200);
        assert!(
            text.starts_with("denied") && text.contains("too large"),
            "{text}"
        );
    }

    #[test]
    fn small_arguments_and_calls_that_ran_are_kept() {
        let small = r#"{"path":"x","content":"a"}"#.to_string();
        let mut c = call(small.clone());
        let mut text = String::new();
        drop_unrun_arguments(&mut c, &ToolOutcome::denied("PLAN_MODE", "no"), &mut text);
        assert_eq!((c.arguments.as_str(), text.as_str()), (small.as_str(), ""));
        let big = format!(r#"{{"content":"{}"}}"#, "a".repeat(100_000));
        let mut c = call(big.clone());
        drop_unrun_arguments(&mut c, &ToolOutcome::ok("written"), &mut text);
        assert_eq!((c.arguments, text), (big, String::new()));
    }
}
