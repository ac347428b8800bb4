//! What the user can do about a failed turn, worded for the front-end they are in.

use crate::llm::LlmError;

/// Where the hint will be read: the REPL offers slash commands, `-p` offers flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    Repl,
    OneShot,
}

/// The next step for `error`, when there is something specific to do.
pub fn next_step(error: &LlmError, frontend: Frontend) -> Option<&'static str> {
    let repl = frontend == Frontend::Repl;
    match error {
        LlmError::Auth { .. } => {
            Some("check the API key variable for your provider (e.g. DEEPSEEK_API_KEY)")
        }
        LlmError::Connect(_) => {
            Some("check the network and the base URL (--base-url / PAICLI_BASE_URL)")
        }
        LlmError::RateLimited { .. } => {
            Some("the provider is rate limiting; wait a moment and try again")
        }
        LlmError::ContextLengthExceeded { .. } if repl => {
            Some("the conversation is too long for the model's window; /compact or /clear")
        }
        LlmError::ContextLengthExceeded { .. } => {
            Some("the task is too long for the model's window")
        }
        LlmError::Rejected { status: 404, .. } if repl => {
            Some("check the model name (/model list) and the base URL")
        }
        LlmError::Rejected { status: 404, .. } => {
            Some("check the model name (--model) and the base URL")
        }
        _ if repl => Some("retry the task, or /model to switch the model"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_the_front_ends_own_controls() {
        let not_found = LlmError::Rejected {
            status: 404,
            message: "no such model".into(),
        };
        assert!(next_step(&not_found, Frontend::Repl).is_some_and(|h| h.contains("/model list")));
        assert!(next_step(&not_found, Frontend::OneShot).is_some_and(|h| h.contains("--model")));
        let other = LlmError::EmptyResponse;
        assert_eq!(next_step(&other, Frontend::OneShot), None);
        assert!(next_step(&other, Frontend::Repl).is_some());
    }
}
