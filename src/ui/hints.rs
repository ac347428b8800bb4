//! What the user can do about a failed turn, worded for the front-end they are in.

use crate::llm::LlmError;
use crate::ui::i18n::Msg;

/// Where the hint will be read: the REPL offers slash commands, `-p` offers flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    Repl,
    OneShot,
}

/// The next step for `error`, when there is something specific to do (a message to show with [`tr`](crate::ui::i18n::tr)).
pub fn next_step(error: &LlmError, frontend: Frontend) -> Option<Msg> {
    let repl = frontend == Frontend::Repl;
    match error {
        LlmError::Auth { .. } => Some(Msg::HintAuth),
        LlmError::Connect(_) => Some(Msg::HintConnect),
        LlmError::RateLimited { .. } => Some(Msg::HintRateLimited),
        LlmError::ContextLengthExceeded { .. } if repl => Some(Msg::HintContextRepl),
        LlmError::ContextLengthExceeded { .. } => Some(Msg::HintContextOneShot),
        LlmError::Rejected { status: 404, .. } if repl => Some(Msg::HintModelRepl),
        LlmError::Rejected { status: 404, .. } => Some(Msg::HintModelOneShot),
        _ if repl => Some(Msg::HintRetry),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::i18n::{Lang, tr};

    #[test]
    fn hints_name_the_front_ends_own_controls() {
        let not_found = LlmError::Rejected {
            status: 404,
            message: "no such model".into(),
        };
        let text = |h: Option<Msg>| h.map(|m| tr(Lang::En, m)).unwrap_or_default();
        assert!(text(next_step(&not_found, Frontend::Repl)).contains("/model list"));
        assert!(text(next_step(&not_found, Frontend::OneShot)).contains("--model"));
        let zh = next_step(&not_found, Frontend::OneShot).map(|m| tr(Lang::Zh, m));
        assert_eq!(zh, Some("检查模型名称（--model）和接口地址"));
        let other = LlmError::EmptyResponse;
        assert_eq!(next_step(&other, Frontend::OneShot), None);
        assert!(next_step(&other, Frontend::Repl).is_some());
    }
}
